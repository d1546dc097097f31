//! The client side of the deprecated 2024-11-05 HTTP+SSE transport, reached through the fallback the
//! backwards-compatibility rules prescribe: when `POST initialize` to the URL is answered 400, 404 or
//! 405, the client GETs the same URL expecting an event stream whose first event, `endpoint`, names the
//! URL to POST messages to. From then on every message is a POST to that endpoint (answered 202), and
//! everything the server sends, responses included, arrives as `message` events on the stream. The
//! session ends when the stream does.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::{Method, Request, StatusCode, Uri};

use super::shared::{Shared, http_status_message};
use super::sse::{SseEvent, SseParser};
use crate::jsonrpc::RequestId;
use crate::net::describe;

/// How long the GET may take to produce its `endpoint` event.
const ENDPOINT_TIMEOUT: Duration = Duration::from_secs(10);

/// Whether a refused `POST initialize` means "try the HTTP+SSE transport".
pub(super) fn is_fallback_status(status: StatusCode) -> bool {
    matches!(status.as_u16(), 400 | 404 | 405)
}

/// Switches the connection to the HTTP+SSE transport after `POST initialize` got `status`: opens the
/// stream, learns the endpoint, starts the reader, then sends the `initialize` message (`body`) again,
/// to the endpoint. On failure, request `id` fails with both answers in the message.
pub(super) async fn fall_back(
    shared: &Arc<Shared>,
    body: Vec<u8>,
    id: Option<RequestId>,
    status: StatusCode,
) -> bool {
    let opened = tokio::time::timeout(ENDPOINT_TIMEOUT, open(shared)).await;
    let (endpoint, stream, parser) = match opened {
        Ok(Ok(found)) => found,
        Ok(Err(why)) => {
            let why = format!(
                "POST initialize was answered HTTP {status}, and the 2024-11-05 HTTP+SSE fallback failed: {why}"
            );
            fail(shared, id.as_ref(), why);
            return false;
        }
        Err(_) => {
            let why = format!(
                "POST initialize was answered HTTP {status}, and the 2024-11-05 HTTP+SSE fallback got no \
                 endpoint event within {ENDPOINT_TIMEOUT:?}"
            );
            fail(shared, id.as_ref(), why);
            return false;
        }
    };
    *shared.sse_endpoint.lock() = Some(endpoint.clone());
    let reader_shared = shared.clone();
    let reader = tokio::spawn(read_stream(reader_shared, stream, parser));
    if let Some(old) = shared.get_stream.lock().replace(reader.abort_handle()) {
        old.abort();
    }
    post(shared, &endpoint, body, id).await
}

/// Sends one message on an HTTP+SSE session: a POST to the endpoint, whose answer arrives on the
/// stream. A refused POST fails request `id` (or is logged, for a notification or a response).
pub(super) async fn post(
    shared: &Arc<Shared>,
    endpoint: &Uri,
    body: Vec<u8>,
    id: Option<RequestId>,
) -> bool {
    let mut b = Request::builder()
        .method(Method::POST)
        .uri(endpoint.clone())
        .header("content-type", "application/json");
    for (k, v) in &shared.extra_headers {
        b = b.header(k, v);
    }
    let req = match b.body(Full::new(Bytes::from(body))) {
        Ok(r) => r,
        Err(e) => {
            fail(
                shared,
                id.as_ref(),
                format!("cannot build the HTTP request: {e}"),
            );
            return false;
        }
    };
    let resp = match shared.http.request(req).await {
        Ok(r) => r,
        Err(e) => {
            fail(
                shared,
                id.as_ref(),
                format!("HTTP request failed: {}", describe(&e)),
            );
            return false;
        }
    };
    let status = resp.status();
    let text = resp
        .into_body()
        .collect()
        .await
        .map(|b| b.to_bytes())
        .unwrap_or_default();
    if status.is_success() {
        return true;
    }
    let why = format!(
        "the HTTP+SSE message endpoint refused the message: {}",
        http_status_message(status, &text)
    );
    fail(shared, id.as_ref(), why);
    false
}

fn fail(shared: &Shared, id: Option<&RequestId>, why: String) {
    match id {
        Some(id) => shared.fail(id, crate::Error::transport(why)),
        None => tracing::warn!("http client: {why}"),
    }
}

/// GETs the URL and reads up to the `endpoint` event: the resolved endpoint, the rest of the stream and
/// the parser holding any bytes after that event.
async fn open(shared: &Arc<Shared>) -> Result<(Uri, Incoming, SseParser), String> {
    let mut b = Request::builder()
        .method(Method::GET)
        .uri(shared.endpoint.clone())
        .header("accept", "text/event-stream");
    for (k, v) in &shared.extra_headers {
        b = b.header(k, v);
    }
    let req = b
        .body(Full::new(Bytes::new()))
        .map_err(|e| format!("cannot build the GET request: {e}"))?;
    let resp = shared
        .http
        .request(req)
        .await
        .map_err(|e| format!("GET failed: {}", describe(&e)))?;
    let status = resp.status();
    let ctype = resp
        .headers()
        .get(hyper::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_ascii_lowercase();
    if !status.is_success() || !ctype.starts_with("text/event-stream") {
        let body = resp
            .into_body()
            .collect()
            .await
            .map(|b| b.to_bytes())
            .unwrap_or_default();
        return Err(format!(
            "GET was answered {} (content-type {ctype:?}), not an event stream",
            http_status_message(status, &body)
        ));
    }
    let mut body = resp.into_body();
    let mut parser = SseParser::new();
    let mut early: Vec<SseEvent> = Vec::new();
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| format!("reading the event stream failed: {e}"))?;
        let Some(chunk) = frame.data_ref() else {
            continue;
        };
        early.extend(parser.feed(chunk));
        if let Some(first) = early.first() {
            if first.event != "endpoint" {
                return Err(format!(
                    "the stream's first event is {:?}, not \"endpoint\"",
                    event_name(first)
                ));
            }
            let endpoint = resolve(&shared.endpoint, first.data.trim())?;
            // Messages that came in the same chunk as the endpoint event are delivered now.
            for ev in early.drain(1..) {
                deliver(shared, ev);
            }
            return Ok((endpoint, body, parser));
        }
    }
    Err("the event stream ended before its endpoint event".into())
}

fn event_name(ev: &SseEvent) -> &str {
    if ev.event.is_empty() {
        "message"
    } else {
        &ev.event
    }
}

/// Resolves the `endpoint` event's URI reference against the stream's URL. The endpoint must be on the
/// same origin: a server cannot redirect the client's messages elsewhere.
fn resolve(base: &Uri, reference: &str) -> Result<Uri, String> {
    if reference.is_empty() {
        return Err("the endpoint event names no URL".into());
    }
    let scheme = base.scheme_str().unwrap_or("http");
    let authority = base.authority().map(|a| a.as_str()).unwrap_or("");
    let absolute = if reference.contains("://") {
        reference.to_owned()
    } else if reference.starts_with("//") {
        format!("{scheme}:{reference}")
    } else if reference.starts_with('/') {
        format!("{scheme}://{authority}{reference}")
    } else {
        // Relative to the stream URL's directory; a bare query replaces only the query.
        let path = base.path();
        if reference.starts_with('?') {
            format!("{scheme}://{authority}{path}{reference}")
        } else {
            let dir = &path[..path.rfind('/').map_or(0, |i| i + 1)];
            let dir = if dir.is_empty() { "/" } else { dir };
            format!("{scheme}://{authority}{dir}{reference}")
        }
    };
    let uri: Uri = absolute
        .parse()
        .map_err(|e| format!("the endpoint event names a bad URL {reference:?}: {e}"))?;
    let same_origin = uri.scheme_str() == Some(scheme)
        && uri.authority().map(|a| a.as_str()) == base.authority().map(|a| a.as_str());
    if !same_origin {
        return Err(format!(
            "the endpoint event names {reference:?}, which is not on the origin {scheme}://{authority}"
        ));
    }
    Ok(uri)
}

fn deliver(shared: &Shared, ev: SseEvent) {
    if (ev.event.is_empty() || ev.event == "message") && !ev.data.trim().is_empty() {
        shared.deliver(ev.data.as_bytes());
    }
}

/// Reads the session's stream until it ends; then the session is over and the connection closes (its
/// pending requests fail).
async fn read_stream(shared: Arc<Shared>, mut body: Incoming, mut parser: SseParser) {
    let mut why = "the server closed the HTTP+SSE stream".to_owned();
    while let Some(frame) = body.frame().await {
        let frame = match frame {
            Ok(f) => f,
            Err(e) => {
                why = format!("reading the HTTP+SSE stream failed: {e}");
                break;
            }
        };
        if let Some(chunk) = frame.data_ref() {
            for ev in parser.feed(chunk) {
                deliver(&shared, ev);
            }
        }
    }
    if !shared.closed.swap(true, Ordering::SeqCst) {
        tracing::warn!("http client: {why}; the session is over");
    }
    if let Some(conn) = shared.conn() {
        conn.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> Uri {
        "http://127.0.0.1:8000/app/sse".parse().unwrap()
    }

    #[test]
    fn endpoint_references_resolve_against_the_stream_url() {
        let r = |s: &str| resolve(&base(), s).map(|u| u.to_string());
        assert_eq!(
            r("/messages/?session_id=ab").unwrap(),
            "http://127.0.0.1:8000/messages/?session_id=ab"
        );
        assert_eq!(
            r("messages?sessionId=1").unwrap(),
            "http://127.0.0.1:8000/app/messages?sessionId=1"
        );
        assert_eq!(r("?s=1").unwrap(), "http://127.0.0.1:8000/app/sse?s=1");
        assert_eq!(
            r("http://127.0.0.1:8000/m").unwrap(),
            "http://127.0.0.1:8000/m"
        );
    }

    #[test]
    fn endpoints_on_another_origin_or_empty_are_refused() {
        let e = resolve(&base(), "http://evil.example/m").unwrap_err();
        assert!(e.contains("not on the origin http://127.0.0.1:8000"), "{e}");
        assert!(resolve(&base(), "//127.0.0.1:9/m").is_err());
        assert!(resolve(&base(), "https://127.0.0.1:8000/m").is_err());
        assert_eq!(
            resolve(&base(), "").unwrap_err(),
            "the endpoint event names no URL"
        );
    }
}
