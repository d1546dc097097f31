//! The handler's side of a request's answer: [`Responder`] hands the handler's [`Reply`] to the
//! completion stage (`complete`), or first turns the request into a task (`tasks`).

use super::complete;
use super::context::{InputRequired, Reply};
use super::state::Responder;
use super::tasks;
use crate::error::RpcError;
use serde_json::Value;

impl Responder {
    /// Runs the request as a task, if it may (see
    /// [`RequestContext::can_run_as_task`](super::RequestContext::can_run_as_task)): the task is
    /// stored and the request answered with its `CreateTaskResult`; the returned responder then
    /// completes the task (its result or error shows on `tasks/get`; [`Reply::InputRequired`] puts
    /// the task in `input_required` until `tasks/update` answers). Otherwise the responder comes
    /// back unchanged and answers the request itself.
    pub fn start_task(mut self) -> Responder {
        let completion = self.completion.take().map(tasks::start);
        Responder { completion }
    }

    /// Sends the handler's answer.
    pub fn reply(self, reply: impl Into<Reply>) {
        // A rejected result has been answered with an internal error and logged.
        let _ = self.try_reply(reply);
    }

    /// Sends the handler's answer and reports whether the engine accepted it: a result that breaks
    /// the rules for its method (a tool's `content` that is not an array, `structuredContent` that
    /// violates the tool's `outputSchema`) is answered with this internal error (-32603) instead,
    /// and the error is returned so the host can report it where the handler lives.
    pub fn try_reply(mut self, reply: impl Into<Reply>) -> std::result::Result<(), RpcError> {
        match self.completion.take() {
            Some(c) => complete::finish(c, reply.into()),
            None => Ok(()),
        }
    }

    /// Sends a complete result.
    pub fn result(self, result: Value) {
        self.reply(Reply::Result(result))
    }

    /// Sends a protocol error.
    pub fn error(self, error: RpcError) {
        self.reply(Reply::Error(error))
    }

    /// Sends a tool failure (`isError: true`).
    pub fn tool_error(self, text: impl Into<String>) {
        self.reply(Reply::tool_error(text))
    }

    /// Asks the client for input (MRTR).
    pub fn input_required(self, input: InputRequired) {
        self.reply(Reply::InputRequired(input))
    }
}

impl Drop for Responder {
    fn drop(&mut self) {
        if let Some(c) = self.completion.take() {
            let _ = complete::finish(
                c,
                Reply::Error(RpcError::internal(
                    "the handler dropped its responder without answering",
                )),
            );
        }
    }
}
