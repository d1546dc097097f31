//! JSON-RPC batches over HTTP: a POST body that is an array, legal only on 2025-03-26 (a session
//! that negotiated it, or a header-less POST served as 2025-03-26 when so configured, or any
//! 2025-03-26 POST without sessions, `legacy_stateless`). All
//! responses come back as one JSON array (or one SSE stream ending with it); a batch of only
//! notifications and responses gets 202. Any other revision gets 400 with -32600.

use hyper::{HeaderMap, StatusCode};

use super::headers::SESSION_ID;
use super::input::Input;
use super::respond::{Resp, rpc_error, without_idless_error};
use super::shared::session_not_found;
use super::state::State;
use crate::error::RpcError;
use crate::jsonrpc::{ErrorResponse, Message};
use crate::server::Caller;
use crate::transport::Sink;
use crate::version::{Era, ProtocolVersion};

fn refuse(why: String) -> Resp {
    rpc_error(
        StatusCode::BAD_REQUEST,
        None,
        &RpcError::invalid_request(why),
    )
}

impl State {
    pub(crate) async fn batch_post(
        &self,
        items: Vec<Result<Message, ErrorResponse>>,
        headers: &HeaderMap,
        header_version: Option<ProtocolVersion>,
        caller: Caller,
    ) -> Resp {
        if let Some(v) = header_version
            .as_ref()
            .filter(|v| !v.is_known() || v.era() != Era::Legacy || !v.allows_batches())
        {
            return refuse(format!(
                "JSON-RPC batches are not supported by protocol revision {}; only 2025-03-26 allows them",
                v.as_str()
            ));
        }
        if self.keeps_sessions()
            && let Some(id) = headers.get(SESSION_ID)
        {
            let Ok(id) = id.to_str() else {
                return without_idless_error(session_not_found(), headers);
            };
            let s = match self.session_for(id, caller.auth.as_ref()).await {
                Ok(s) => s,
                Err(r) => return without_idless_error(r.answer(None), headers),
            };
            let version = s.session.legacy_version();
            if !version
                .as_ref()
                .is_some_and(ProtocolVersion::allows_batches)
            {
                let v = version.as_ref().map_or("unknown", ProtocolVersion::as_str);
                return refuse(format!(
                    "JSON-RPC batches are not supported by protocol revision {v}; only 2025-03-26 allows them"
                ));
            }
            let r = self
                .session_exchange(s.clone(), Input::Batch(items), caller)
                .await;
            self.persist(&s).await;
            return r;
        }
        if (self.config.assume_2025_03_26 && header_version.is_none())
            || self.config.legacy_stateless
        {
            let (conn, _rx) = Sink::channel();
            let session = self
                .server
                .session_assuming(conn, ProtocolVersion::V2025_03_26);
            return self
                .exchange(&session, Input::Batch(items), Era::Legacy, caller)
                .await;
        }
        refuse(
            "JSON-RPC batches need a 2025-03-26 session (initialize must be sent on its own)"
                .into(),
        )
    }
}
