//! [`ServerConfig::handler_timeout`](super::ServerConfig::handler_timeout): a request whose handler
//! has not answered in time is answered by the engine (-32603 with `data.handlerTimeoutMs`) and
//! cancelled. Whoever claims the request's answer first sends it ([`CancelFlag::claim_answer`]), so
//! the handler's later answer is dropped and no request gets two.
//!
//! [`CancelFlag::claim_answer`]: super::CancelFlag::claim_answer

use std::time::Duration;

use serde_json::json;

use super::answer::send_answer;
use super::state::RequestContext;
use crate::error::RpcError;
use crate::jsonrpc;
use crate::outgoing::{OutKind, Outgoing};

/// Starts the deadline of `ctx`'s handler: after `limit`, unless the request was answered or
/// cancelled by then, the engine answers it with the timeout error and cancels it.
pub(crate) fn arm(ctx: &RequestContext, limit: Duration) {
    let Ok(rt) = tokio::runtime::Handle::try_current() else {
        tracing::warn!(
            method = ctx.method(),
            "no tokio runtime to time the handler on; handler_timeout does not apply"
        );
        return;
    };
    let ctx = ctx.clone();
    rt.spawn(async move {
        let flag = &ctx.0.cancel;
        if tokio::time::timeout(limit, flag.answered_or_cancelled())
            .await
            .is_ok()
            || !flag.claim_answer()
        {
            return;
        }
        let ms = u64::try_from(limit.as_millis()).unwrap_or(u64::MAX);
        let e = RpcError::internal(format!(
            "the handler did not answer within {ms} ms (the server's handler_timeout)"
        ))
        .with_data(json!({ "handlerTimeoutMs": ms }));
        tracing::warn!(method = ctx.method(), "{}", e.message);
        let msg = Outgoing {
            kind: OutKind::Error(e.code),
            bytes: jsonrpc::encode_error(Some(&ctx.0.id), &e),
        };
        send_answer(&ctx, msg);
        flag.cancel();
    });
}
