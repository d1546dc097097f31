//! Handlers from plain functions: a synchronous closure or an async function becomes a
//! [`Handler`] that answers through its [`Responder`](super::Responder).

use std::future::Future;
use std::sync::Arc;

use super::context::Reply;
use super::state::{Handler, RequestContext, Responder};

/// Wraps a synchronous closure as a [`Handler`].
pub fn sync_handler<F, R>(f: F) -> Handler
where
    F: Fn(&RequestContext) -> R + Send + Sync + 'static,
    R: Into<Reply>,
{
    Arc::new(move |ctx: RequestContext, responder: Responder| {
        let reply = f(&ctx);
        responder.reply(reply);
    })
}

/// Wraps a handler so that it runs inside a task whenever the request may run as one.
pub(crate) fn starts_task(handler: Handler) -> Handler {
    Arc::new(move |ctx: RequestContext, responder: Responder| handler(ctx, responder.start_task()))
}

/// Wraps an async function as a [`Handler`]: each call runs as a task on the current tokio runtime and
/// is dropped if the request is cancelled.
pub fn async_handler<F, Fut, R>(f: F) -> Handler
where
    F: Fn(RequestContext) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = R> + Send + 'static,
    R: Into<Reply> + Send + 'static,
{
    Arc::new(move |ctx: RequestContext, responder: Responder| {
        let Ok(rt) = tokio::runtime::Handle::try_current() else {
            responder.error(crate::RpcError::internal(
                "async handlers need a tokio runtime",
            ));
            return;
        };
        let cancel = ctx.cancel_flag().clone();
        let fut = f(ctx);
        rt.spawn(async move {
            tokio::select! {
                reply = fut => responder.reply(reply),
                _ = cancel.cancelled() => drop(responder),
            }
        });
    })
}
