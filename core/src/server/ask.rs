//! [`RequestContext::request_client`]: a handler on a legacy session asking the client something
//! (elicitation, sampling, roots) and waiting for the answer within its own run, as the official
//! SDKs' handlers do, instead of answering [`InputRequired`](super::InputRequired) and being
//! called again with the answers. The request is checked, named for its task and fitted to the
//! session's revision as an input round's requests are (`mrtr`).

use serde_json::{Value, json};

use super::mrtr::{check_request, input_sink, legacy_request};
use super::state::RequestContext;
use crate::error::RpcError;
use crate::version::Era;

impl RequestContext {
    /// Sends `method` (`elicitation/create`, `sampling/createMessage` or `roots/list`) with
    /// `params` to the client of this legacy session, as a request of its own on this request's
    /// stream (a task's: on the session's), and resolves to the client's result. Fails with the
    /// -32602 error of a capability the client did not declare, -32603 for a request the
    /// session's revision cannot express, the client's own error when it answers one, -32603
    /// when it does not answer within `client_request_timeout` or the request is cancelled. On
    /// 2026-07-28 there is no connection to send it on: the handler answers
    /// [`InputRequired`](super::InputRequired) instead, and this fails with -32603 saying so.
    pub async fn request_client(
        &self,
        method: &str,
        params: Option<Value>,
    ) -> Result<Value, RpcError> {
        if self.era() == Era::Modern {
            return Err(RpcError::internal(format!(
                "{method} cannot be sent to a 2026-07-28 client as a request of its own: answer \
                 input_required (InputRequired) instead"
            )));
        }
        let mut req = json!({ "method": method });
        if let Some(p) = params {
            req["params"] = p;
        }
        check_request(self, method, &req)?;
        let (method, params) = legacy_request(self, method, &req)?;
        let sink = input_sink(self);
        let session = self.0.session.clone();
        let cancelled = self.cancel_flag().clone();
        tokio::select! {
            answer = session.request_client(&sink, &method, params.as_ref()) => answer,
            _ = cancelled.cancelled() => Err(RpcError::internal(format!(
                "the request was cancelled before the client answered {method}"
            ))),
        }
    }
}
