//! Calling a handler: the one place a registered [`Handler`] runs, for the first invocation
//! (`invoke`) and for the re-invocations after input rounds (`mrtr`, `tasks`), which receive the
//! handler from above inside the request's `Completion` rather than calling back up to find it.

use super::state::{Handler, RequestContext, Responder};

/// Calls a handler, turning a panic into an internal error for that one request.
pub(crate) fn invoke(handler: &Handler, ctx: RequestContext, responder: Responder) {
    let outcome =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| handler(ctx, responder)));
    if outcome.is_err() {
        // The responder was dropped during unwinding, which already answered with an internal error.
        tracing::error!("a handler panicked; the request was answered with an internal error");
    }
}
