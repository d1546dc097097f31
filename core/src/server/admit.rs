//! The admit stage: what every request passes before it is routed, once, for both transports.
//! Its `_meta` must be well formed; `initialize` opens the legacy handshake (`handshake`); the era
//! it is served under is decided (the one place that rule lives: `era_of`, with the modern branch
//! [`modern_era`] shared with the HTTP transport's header checks); and a duplicate id or a request
//! beyond `max_in_flight` is refused before any work starts.
//!
//! Era rule (2026-07-28 basic/versioning, "Backward compatibility"): `initialize` switches the
//! connection to legacy; a request whose `_meta` names a protocol version is served statelessly;
//! any other request is served under the legacy session if there is one, and otherwise gets a
//! JSON-RPC error that says what is missing.

use std::sync::Arc;

use serde_json::{Value, json};

use super::caller::Caller;
use super::cancel::CancelFlag;
use super::handshake;
use super::route::{self, Served};
use super::state::{ServerInner, SessionShared};
use crate::error::RpcError;
use crate::jsonrpc::{self, Request};
use crate::meta::{self, RequestMeta};
use crate::outgoing::{OutKind, Outgoing, Sink};
use crate::version::{self, ProtocolVersion};

/// Admits one request of the connection `shared` and hands it to `route`; anything refused is
/// answered on `sink`.
pub(crate) fn request(shared: &Arc<SessionShared>, req: Request, sink: Sink, caller: Caller) {
    if let Err(e) = meta::check_shape(req.params.as_ref()) {
        return shared.send_error(&sink, Some(&req.id), &e);
    }
    if req.method == "initialize" && !shared.stateless {
        match handshake::initialize(shared, &req) {
            Ok(v) => {
                sink.send(Outgoing {
                    kind: OutKind::Result,
                    bytes: jsonrpc::encode_result(&req.id, &v),
                });
            }
            Err(e) => shared.send_error(&sink, Some(&req.id), &e),
        }
        return;
    }
    let served = match era_of(shared, &req) {
        Ok(s) => s,
        Err(e) => return shared.send_error(&sink, Some(&req.id), &e),
    };
    // Duplicate ids among in-flight requests, and requests beyond `max_in_flight`, are
    // refused before any work starts.
    let cancel = CancelFlag::default();
    {
        let mut inflight = shared.inflight.lock();
        if inflight.contains_key(&req.id) {
            drop(inflight);
            let e = RpcError::invalid_request(format!(
                "duplicate request id {} is already in flight",
                req.id
            ));
            return shared.send_error(&sink, Some(&req.id), &e);
        }
        let limit = shared.server.config.max_in_flight;
        if inflight.len() >= limit {
            drop(inflight);
            let e = RpcError::internal(format!(
                "too many requests in flight on this session (limit {limit}); \
                 send it again once one of them is answered"
            ))
            .with_data(json!({ "maxInFlight": limit }));
            return shared.send_error(&sink, Some(&req.id), &e);
        }
        inflight.insert(req.id.clone(), cancel.clone());
    }
    route::dispatch(shared, req, served, cancel, sink, caller);
}

/// The modern branch of the era rule: a request whose `_meta` names a protocol version, at a
/// server that serves a modern one, is served statelessly under it, once the version is supported
/// and `_meta` reads. `None` when the request does not ask for the modern era (or the server has
/// no modern version: it then answers like the legacy server it is, with no -32022, which clients
/// read as a definitive modern answer).
pub(crate) fn modern_era(
    server: &ServerInner,
    params: Option<&Value>,
) -> Option<Result<Served, RpcError>> {
    let requested = meta::modern_version(params).filter(|_| server.serves_modern())?;
    // Modern: version, then shape; capability checks come with the method.
    let served = version::check_modern(requested, &server.versions)
        .map_err(|supported| RpcError::unsupported_version(&supported, requested))
        .and_then(|version| {
            let m = RequestMeta::parse(params)?;
            Ok(Served {
                version: version.clone(),
                client_capabilities: m.client_capabilities,
                client_info: m.client_info,
                log_level: m.log_level,
            })
        });
    Some(served)
}

/// Decides the era of a non-initialize request and gathers the client facts it is served with.
fn era_of(shared: &SessionShared, req: &Request) -> Result<Served, RpcError> {
    let server = &shared.server;
    if let Some(served) = modern_era(server, req.params.as_ref()) {
        return served;
    }
    if let Some(l) = shared.legacy.read().as_ref() {
        return Ok(Served {
            version: l.version.clone(),
            client_capabilities: l.client_capabilities.clone(),
            client_info: l.client_info.clone(),
            log_level: None,
        });
    }
    if req.method == "ping" && server.serves_legacy() {
        // Legacy clients may ping before the handshake completes.
        return Ok(Served {
            version: ProtocolVersion::LATEST_LEGACY,
            client_capabilities: json!({}),
            client_info: None,
            log_level: None,
        });
    }
    if let Some(v) = &shared.assume_legacy {
        return Ok(Served {
            version: v.clone(),
            client_capabilities: json!({}),
            client_info: None,
            log_level: None,
        });
    }
    if meta::of(req.params.as_ref()).is_some() {
        return Err(RpcError::invalid_params(format!(
            "params._meta is missing {}",
            meta::PROTOCOL_VERSION
        )));
    }
    let hint = if server.serves_legacy() {
        " (or send initialize first to use a legacy revision)"
    } else {
        ""
    };
    Err(RpcError::invalid_params(format!(
        "params._meta must be an object carrying {} and {}{hint}",
        meta::PROTOCOL_VERSION,
        meta::CLIENT_CAPABILITIES
    )))
}
