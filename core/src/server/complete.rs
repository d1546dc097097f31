//! The completion stage: where a handler's [`Reply`] goes. A request running as a task answers
//! into the task (`tasks`), a request for input starts an input round (`mrtr`), and a result or an
//! error goes on the wire (`answer`). Both sinks sit below this file: they re-enter the handler
//! through the `Handler` its `Completion` carries, never by calling back up here.

use super::context::Reply;
use super::mrtr;
use super::state::Completion;
use super::tasks;
use crate::error::RpcError;

/// Sends the answer of `c`. A result that breaks the rules for its method is answered with an
/// internal error instead, logged, and returned, so the handler's host can see why.
pub(crate) fn finish(mut c: Completion, reply: Reply) -> Result<(), RpcError> {
    if let Some(live) = c.task.take() {
        return tasks::finish(c, live, reply);
    }
    if c.ctx.is_cancelled() {
        // The client gave up on this request: nothing more is sent for it.
        return Ok(());
    }
    match reply {
        Reply::Result(v) => c.answer(Ok(v)),
        Reply::Error(e) => c.answer(Err(e)),
        Reply::InputRequired(ir) => {
            mrtr::input_required(c, ir);
            Ok(())
        }
    }
}
