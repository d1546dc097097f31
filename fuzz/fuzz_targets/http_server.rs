//! The Streamable HTTP dispatcher in process (both eras on one endpoint, plus the 2024-11-05
//! HTTP+SSE paths when the first byte is odd): NUL-separated requests with fuzzed methods, paths,
//! headers and bodies over one in-memory HTTP/1.1 connection, a later request able to reuse the
//! session id an earlier response gave. Every response is well formed: a JSON body parses, no status is a 5xx other than 503.
#![no_main]

use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::Request;
use hyper_util::rt::TokioIo;
use libfuzzer_sys::fuzz_target;
use libmcp::fuzzing::HttpDispatcher;
use libmcp::transport::http::HttpServerConfig;

/// One request of the input: `METHOD PATH` on the first line, `name: value` header lines, a blank
/// line, then the body. `$SESSION` in a header value or the path stands for the `Mcp-Session-Id`
/// the server gave last.
struct Exchange<'a> {
    method: &'a str,
    path: String,
    headers: Vec<(&'a [u8], &'a [u8])>,
    body: &'a [u8],
}

fn parse(record: &[u8]) -> Option<Exchange<'_>> {
    let split = record.windows(2).position(|w| w == b"\n\n");
    let (head, body) = match split {
        Some(i) => (&record[..i], &record[i + 2..]),
        None => (record, &[][..]),
    };
    let mut lines = head.split(|&b| b == b'\n');
    let first = std::str::from_utf8(lines.next()?).ok()?;
    let (method, path) = first.split_once(' ').unwrap_or((first, "/mcp"));
    let headers = lines
        .filter_map(|l| {
            let colon = l.iter().position(|&b| b == b':')?;
            Some((&l[..colon], l[colon + 1..].trim_ascii()))
        })
        .collect();
    Some(Exchange {
        method,
        path: path.to_owned(),
        headers,
        body,
    })
}

fuzz_target!(|data: &[u8]| {
    let (flags, rest) = data.split_first().unwrap_or((&0, &[]));
    let exchanges: Vec<Exchange<'_>> = rest.split(|&b| b == 0).take(16).filter_map(parse).collect();
    let config = HttpServerConfig {
        http_sse: flags & 1 == 1,
        max_body_bytes: 64 * 1024,
        max_sessions: 4,
        sse_keepalive: Duration::from_secs(3600),
        ..HttpServerConfig::default()
    };
    let rt = libmcp_fuzz::runtime();
    rt.block_on(async move {
        let dispatcher = std::sync::Arc::new(HttpDispatcher::new(libmcp_fuzz::server(), config));
        let (ours, theirs) = tokio::io::duplex(1 << 16);
        let d = dispatcher.clone();
        let conn_task = tokio::spawn(async move { d.serve(theirs).await });
        let (mut send, conn) =
            hyper::client::conn::http1::handshake::<_, Full<Bytes>>(TokioIo::new(ours))
                .await
                .expect("the client handshake needs no I/O");
        let client_task = tokio::spawn(conn);
        let mut session: Option<String> = None;
        for ex in exchanges {
            let sid = session.clone().unwrap_or_default();
            let mut req = Request::builder()
                .method(ex.method)
                .uri(ex.path.replace("$SESSION", &sid))
                .header("host", "localhost");
            for (name, value) in ex.headers {
                let value = String::from_utf8_lossy(value).replace("$SESSION", &sid);
                req = req.header(name, value);
            }
            // Requests the http crate refuses to build never reach the server.
            let Ok(req) = req.body(Full::new(Bytes::copy_from_slice(ex.body))) else {
                continue;
            };
            if send.ready().await.is_err() {
                break;
            }
            let Ok(resp) = send.send_request(req).await else {
                break;
            };
            let status = resp.status().as_u16();
            assert!(
                status < 500 || status == 503,
                "the server answered {status}"
            );
            if let Some(id) = resp.headers().get("mcp-session-id") {
                session = id.to_str().ok().map(str::to_owned);
            }
            let json = resp
                .headers()
                .get("content-type")
                .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
            // An SSE stream may stay open (a standalone GET): read what arrives within a while.
            let body =
                tokio::time::timeout(Duration::from_secs(30), resp.into_body().collect()).await;
            match body {
                Ok(Ok(b)) if json => {
                    let bytes = b.to_bytes();
                    serde_json::from_slice::<serde_json::Value>(&bytes).unwrap_or_else(|e| {
                        panic!(
                            "a JSON response that does not parse: {:?}: {e}",
                            String::from_utf8_lossy(&bytes)
                        )
                    });
                }
                Ok(_) => {}
                // The stream is still open; the connection is busy with it, so stop here.
                Err(_) => break,
            }
        }
        drop(send);
        dispatcher.close();
        client_task.abort();
        let _ = tokio::time::timeout(Duration::from_secs(60), conn_task).await;
    });
});
