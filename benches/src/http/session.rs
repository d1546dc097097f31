//! MCP over the raw HTTP client: one session per keep-alive connection, in either era.
//!
//! Legacy (2025-11-25): `initialize` opens a session whose `Mcp-Session-Id` and
//! `MCP-Protocol-Version` ride on every later POST. Modern (2026-07-28): no handshake; every POST is
//! stateless and carries the version in `params._meta` and in the `MCP-Protocol-Version`, `Mcp-Method`
//! and `Mcp-Name` headers.

use std::io::Write;
use std::net::SocketAddr;
use std::time::Duration;

use serde::Deserialize;
use serde_json::value::RawValue;

use super::client::{BodyKind, Connection, Response, sse_data};
use crate::driver::{
    Error, LEGACY_VERSION, MODERN_VERSION, Mode, check_has_echo_tool, modern_meta,
};

const ACCEPT: (&str, &str) = ("Accept", "application/json, text/event-stream");
const CONTENT_TYPE: (&str, &str) = ("Content-Type", "application/json");

/// What one `tools/call echo` came back with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A result whose text was compared with what was sent: `true` when equal.
    Checked(bool),
    /// A result that was not compared.
    Unchecked,
    /// A JSON-RPC error, a tool error or a non-200 status.
    Error,
}

/// One MCP session on its own keep-alive connection.
pub struct McpSession {
    conn: Connection,
    mode: Mode,
    session_id: Option<String>,
    body: Vec<u8>,
}

#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(default, borrow)]
    id: Option<&'a RawValue>,
    #[serde(default, borrow)]
    result: Option<&'a RawValue>,
    #[serde(default, borrow)]
    error: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct CallResult {
    content: Vec<Content>,
    #[serde(default, rename = "isError")]
    is_error: bool,
}

#[derive(Deserialize)]
struct Content {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    text: Option<String>,
}

impl McpSession {
    /// Connects and, in the legacy era, performs `initialize` + `notifications/initialized`.
    pub fn open(addr: SocketAddr, mode: Mode, timeout: Duration) -> Result<McpSession, Error> {
        let conn = Connection::connect(addr, timeout)?;
        let mut s = McpSession {
            conn,
            mode,
            session_id: None,
            body: Vec::with_capacity(1024),
        };
        if mode == Mode::Legacy {
            s.initialize()?;
        }
        Ok(s)
    }

    /// Opens another legacy session on this connection; the previous one stays alive (idle).
    pub fn reinitialize(&mut self) -> Result<(), Error> {
        self.session_id = None;
        self.initialize()
    }

    fn initialize(&mut self) -> Result<(), Error> {
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{LEGACY_VERSION}","capabilities":{{}},"clientInfo":{{"name":"mcp-bench","version":"{}"}}}}}}"#,
            env!("CARGO_PKG_VERSION")
        );
        let r = self
            .conn
            .send("POST", &[CONTENT_TYPE, ACCEPT], body.as_bytes())?;
        let session_id = r
            .session_id
            .clone()
            .ok_or_else(|| format!("initialize: no Mcp-Session-Id (HTTP {})", r.status))?;
        let reply = response_json(&r, "0")?;
        let version = reply
            .pointer("/result/protocolVersion")
            .and_then(serde_json::Value::as_str)
            .ok_or_else(|| format!("initialize failed: {reply}"))?;
        if version != LEGACY_VERSION {
            return Err(format!("initialize negotiated {version}, not {LEGACY_VERSION}").into());
        }
        self.session_id = Some(session_id);
        let r = self.post(
            "notifications/initialized",
            None,
            br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        )?;
        if r.status != 202 {
            return Err(format!("notifications/initialized: HTTP {}", r.status).into());
        }
        Ok(())
    }

    /// Lists the tools and checks `echo` is among them.
    pub fn check_tools(&mut self) -> Result<(), Error> {
        let params = match self.mode {
            Mode::Legacy => "{}".to_string(),
            Mode::Modern => format!(r#"{{"_meta":{}}}"#, modern_meta()),
        };
        let body = format!(r#"{{"jsonrpc":"2.0","id":0,"method":"tools/list","params":{params}}}"#);
        let r = self.post("tools/list", None, body.as_bytes())?;
        if r.status != 200 {
            return Err(format!(
                "tools/list: HTTP {}: {}",
                r.status,
                String::from_utf8_lossy(r.body)
            )
            .into());
        }
        check_has_echo_tool(&response_json(&r, "0")?)
    }

    /// Calls `echo` with `text` as request `id`; compares the echoed text when `verify`. Returns the
    /// outcome and the kind of body the answer came in.
    pub fn call_echo(
        &mut self,
        id: u64,
        text: &str,
        verify: bool,
    ) -> Result<(Outcome, BodyKind), Error> {
        let mut body = std::mem::take(&mut self.body);
        body.clear();
        let meta = match self.mode {
            Mode::Legacy => String::new(),
            Mode::Modern => format!(r#","_meta":{}"#, modern_meta()),
        };
        write!(
            body,
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"echo","arguments":{{"text":"{text}"}}{meta}}}}}"#
        )?;
        let result = self
            .post("tools/call", Some("echo"), &body)
            .map_err(Error::from)
            .and_then(|r| Ok((judge(&r, id, text, verify)?, r.kind)));
        self.body = body;
        result
    }

    fn post(
        &mut self,
        method: &str,
        name: Option<&str>,
        body: &[u8],
    ) -> std::io::Result<Response<'_>> {
        let mut headers = [("", ""); 6];
        headers[0] = CONTENT_TYPE;
        headers[1] = ACCEPT;
        let mut n = 2;
        match self.mode {
            Mode::Legacy => {
                headers[n] = ("MCP-Protocol-Version", LEGACY_VERSION);
                n += 1;
                if let Some(id) = &self.session_id {
                    headers[n] = ("Mcp-Session-Id", id);
                    n += 1;
                }
            }
            Mode::Modern => {
                headers[n] = ("MCP-Protocol-Version", MODERN_VERSION);
                headers[n + 1] = ("Mcp-Method", method);
                n += 2;
                if let Some(name) = name {
                    headers[n] = ("Mcp-Name", name);
                    n += 1;
                }
            }
        }
        self.conn.send("POST", &headers[..n], body)
    }
}

/// The JSON-RPC response with id `id` (raw JSON text) in a JSON or SSE body.
fn response_text<'a>(r: &'a Response<'_>, id: &str) -> Result<std::borrow::Cow<'a, str>, Error> {
    match r.kind {
        BodyKind::Json => Ok(String::from_utf8_lossy(r.body)),
        BodyKind::Sse => sse_data(r.body)
            .into_iter()
            .find(|event| {
                serde_json::from_str::<Envelope>(event)
                    .ok()
                    .and_then(|e| e.id)
                    .is_some_and(|i| i.get() == id)
            })
            .map(std::borrow::Cow::Owned)
            .ok_or_else(|| {
                format!("SSE body without the response to {id}: {}", lossy(r.body)).into()
            }),
        kind => Err(format!("HTTP {} with a {kind:?} body: {}", r.status, lossy(r.body)).into()),
    }
}

fn response_json(r: &Response<'_>, id: &str) -> Result<serde_json::Value, Error> {
    Ok(serde_json::from_str(&response_text(r, id)?)?)
}

fn judge(r: &Response<'_>, id: u64, text: &str, verify: bool) -> Result<Outcome, Error> {
    if r.status != 200 {
        return Ok(Outcome::Error);
    }
    let raw = response_text(r, &id.to_string())?;
    let env: Envelope = serde_json::from_str(&raw)?;
    let (Some(result), None) = (env.result, env.error) else {
        return Ok(Outcome::Error);
    };
    if !verify {
        return Ok(Outcome::Unchecked);
    }
    let call: CallResult = serde_json::from_str(result.get())?;
    if call.is_error {
        return Ok(Outcome::Error);
    }
    let same = call
        .content
        .first()
        .is_some_and(|c| c.kind == "text" && c.text.as_deref() == Some(text));
    Ok(Outcome::Checked(same))
}

fn lossy(body: &[u8]) -> String {
    let s = String::from_utf8_lossy(&body[..body.len().min(300)]);
    s.into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn response(status: u16, kind: BodyKind, body: &[u8]) -> Response<'_> {
        Response {
            status,
            kind,
            session_id: None,
            body,
        }
    }

    const OK_7: &str =
        r#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"hi"}]}}"#;

    #[test]
    fn judges_json_and_sse_answers() {
        let r = response(200, BodyKind::Json, OK_7.as_bytes());
        assert_eq!(judge(&r, 7, "hi", true).unwrap(), Outcome::Checked(true));
        assert_eq!(judge(&r, 7, "ho", true).unwrap(), Outcome::Checked(false));
        assert_eq!(judge(&r, 7, "ho", false).unwrap(), Outcome::Unchecked);
        let sse = format!(
            "data: {{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{{}}}}\n\n\
             data: {{\"jsonrpc\":\"2.0\",\"id\":6,\"result\":{{}}}}\n\ndata: {OK_7}\n\n"
        );
        let r = response(200, BodyKind::Sse, sse.as_bytes());
        assert_eq!(judge(&r, 7, "hi", true).unwrap(), Outcome::Checked(true));
        assert!(judge(&r, 8, "hi", true).is_err(), "no response to 8");
    }

    #[test]
    fn errors_are_counted_not_fatal() {
        let err = br#"{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"no"}}"#;
        let r = response(200, BodyKind::Json, err);
        assert_eq!(judge(&r, 7, "hi", true).unwrap(), Outcome::Error);
        let r = response(400, BodyKind::Json, err);
        assert_eq!(judge(&r, 7, "hi", true).unwrap(), Outcome::Error);
        let tool_err =
            br#"{"jsonrpc":"2.0","id":7,"result":{"isError":true,"content":[{"type":"text","text":"hi"}]}}"#;
        let r = response(200, BodyKind::Json, tool_err);
        assert_eq!(judge(&r, 7, "hi", true).unwrap(), Outcome::Error);
        let r = response(200, BodyKind::Other, b"<html>");
        assert!(judge(&r, 7, "hi", true).is_err());
    }
}
