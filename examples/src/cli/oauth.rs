//! OAuth for the `mcp` CLI: when an HTTP server asks for authorization, the authorization URL is
//! printed, and the redirect is taken either from a loopback listener (`http://127.0.0.1:<port>/callback`,
//! what a browser on this machine reaches) or from a URL pasted on stdin when stdin is a terminal.

use std::io::{BufRead, IsTerminal, Write};
use std::sync::Arc;

use libmcp::auth::client::{AuthError, HandlerFuture, OAuthClient, OAuthConfig};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// The largest request head the callback listener reads.
const MAX_HEAD: usize = 16 * 1024;

/// An OAuth client whose redirect URI is a fresh loopback listener.
pub async fn loopback_oauth() -> std::io::Result<OAuthClient> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let port = listener.local_addr()?.port();
    let redirect_uri = format!("http://127.0.0.1:{port}/callback");
    let listener = Arc::new(listener);
    let origin = format!("http://127.0.0.1:{port}");
    let handler = move |url: String| -> HandlerFuture {
        let listener = listener.clone();
        let origin = origin.clone();
        Box::pin(async move { interact(&listener, &origin, url).await })
    };
    let config = OAuthConfig::new("mcp-cli", redirect_uri, handler);
    Ok(OAuthClient::new(config))
}

async fn interact(listener: &TcpListener, origin: &str, url: String) -> Result<String, AuthError> {
    let pasting = std::io::stdin().is_terminal();
    {
        let mut err = std::io::stderr().lock();
        let _ = writeln!(
            err,
            "mcp: the server needs authorization. Open this URL in a browser:\n\n  {url}\n"
        );
        if pasting {
            let _ = writeln!(
                err,
                "mcp: waiting for the redirect to {origin}/callback (or paste the URL you were redirected to, then Enter)"
            );
        } else {
            let _ = writeln!(err, "mcp: waiting for the redirect to {origin}/callback");
        }
    }
    let from_listener = async {
        loop {
            if let Some(target) = accept_callback(listener).await {
                return format!("{origin}{target}");
            }
        }
    };
    if !pasting {
        return Ok(from_listener.await);
    }
    // The pasted line is read on a blocking thread (if the browser wins, that read stays pending).
    let pasted = tokio::task::spawn_blocking(|| {
        let mut line = String::new();
        std::io::stdin().lock().read_line(&mut line).map(|_| line)
    });
    tokio::select! {
        url = from_listener => Ok(url),
        line = pasted => match line {
            Ok(Ok(l)) if !l.trim().is_empty() => Ok(l.trim().to_owned()),
            _ => Err(AuthError::Denied("no redirect URL was pasted".into())),
        },
    }
}

/// Serves one connection of the loopback listener; the request target when it is the callback.
async fn accept_callback(listener: &TcpListener) -> Option<String> {
    let (mut stream, _) = listener.accept().await.ok()?;
    let mut head = Vec::new();
    let mut buf = [0u8; 2048];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < MAX_HEAD {
        let n = stream.read(&mut buf).await.ok()?;
        if n == 0 {
            break;
        }
        head.extend_from_slice(&buf[..n]);
    }
    let target = callback_target(&String::from_utf8_lossy(&head));
    let (status, text) = match &target {
        Some(_) => (
            "200 OK",
            "Authorization received; you can close this window.",
        ),
        None => ("404 Not Found", "Not the authorization callback."),
    };
    let response = format!(
        "HTTP/1.1 {status}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{text}",
        text.len()
    );
    let _ = stream.write_all(response.as_bytes()).await;
    let _ = stream.shutdown().await;
    target
}

/// The request target of a `GET /callback?...` request head, `None` for anything else.
pub fn callback_target(head: &str) -> Option<String> {
    let line = head.lines().next()?;
    let mut parts = line.split(' ');
    let (method, target) = (parts.next()?, parts.next()?);
    let path = target.split('?').next().unwrap_or("");
    (method == "GET" && path == "/callback").then(|| target.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_callback_is_taken() {
        assert_eq!(
            callback_target("GET /callback?code=c&state=s HTTP/1.1\r\nHost: x\r\n\r\n").as_deref(),
            Some("/callback?code=c&state=s")
        );
        assert_eq!(callback_target("GET /favicon.ico HTTP/1.1\r\n\r\n"), None);
        assert_eq!(callback_target("POST /callback HTTP/1.1\r\n\r\n"), None);
        assert_eq!(callback_target(""), None);
    }

    #[tokio::test]
    async fn the_listener_answers_and_returns_the_target() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let browser = tokio::spawn(async move {
            let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
            s.write_all(b"GET /callback?code=c1&state=s1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                .await
                .unwrap();
            let mut out = String::new();
            s.read_to_string(&mut out).await.unwrap();
            out
        });
        let target = accept_callback(&listener).await;
        assert_eq!(target.as_deref(), Some("/callback?code=c1&state=s1"));
        assert!(browser.await.unwrap().starts_with("HTTP/1.1 200 OK\r\n"));
    }
}
