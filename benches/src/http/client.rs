//! A minimal blocking HTTP/1.1 client over one keep-alive `TcpStream`: POST and DELETE with a body,
//! responses framed by `Content-Length`, chunked encoding or connection close. It is written for the
//! benchmark (buffers reused, no allocation per request beyond what parsing needs) and is the same
//! for every server it drives.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// What kind of body a response carried, by its `Content-Type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyKind {
    /// No body (e.g. 202 Accepted).
    Empty,
    /// `application/json`.
    Json,
    /// `text/event-stream`.
    Sse,
    /// Anything else.
    Other,
}

/// One response; the body is in the connection's buffer until the next request.
#[derive(Debug)]
pub struct Response<'a> {
    /// HTTP status code.
    pub status: u16,
    /// The body's media type.
    pub kind: BodyKind,
    /// `Mcp-Session-Id`, if the response set one.
    pub session_id: Option<String>,
    /// The whole body, de-chunked.
    pub body: &'a [u8],
}

/// One keep-alive HTTP/1.1 connection.
pub struct Connection {
    writer: TcpStream,
    reader: BufReader<TcpStream>,
    host: String,
    request: Vec<u8>,
    body: Vec<u8>,
    line: String,
    closed: bool,
}

impl Connection {
    /// Connects with `TCP_NODELAY` (requests are written in one piece) and an I/O timeout, so a
    /// server that stops answering ends the run with an error instead of hanging it.
    pub fn connect(addr: SocketAddr, timeout: Duration) -> io::Result<Connection> {
        let stream = TcpStream::connect_timeout(&addr, timeout)?;
        stream.set_nodelay(true)?;
        stream.set_read_timeout(Some(timeout))?;
        stream.set_write_timeout(Some(timeout))?;
        let reader = BufReader::with_capacity(128 * 1024, stream.try_clone()?);
        Ok(Connection {
            writer: stream,
            reader,
            host: addr.to_string(),
            request: Vec::with_capacity(4096),
            body: Vec::with_capacity(4096),
            line: String::new(),
            closed: false,
        })
    }

    /// Sends `method /mcp` with `headers` and `body`, and reads the whole response.
    pub fn send(
        &mut self,
        method: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> io::Result<Response<'_>> {
        if self.closed {
            return Err(io::Error::new(
                io::ErrorKind::NotConnected,
                "the server closed this connection",
            ));
        }
        self.request.clear();
        write!(
            self.request,
            "{method} /mcp HTTP/1.1\r\nHost: {}\r\nContent-Length: {}\r\n",
            self.host,
            body.len()
        )?;
        for (name, value) in headers {
            write!(self.request, "{name}: {value}\r\n")?;
        }
        self.request.extend_from_slice(b"\r\n");
        self.request.extend_from_slice(body);
        self.writer.write_all(&self.request)?;
        self.read_response()
    }

    fn read_response(&mut self) -> io::Result<Response<'_>> {
        let status = loop {
            self.read_line()?;
            let status = parse_status(&self.line)?;
            if status != 100 {
                break status;
            }
            // An interim 100 Continue: skip its (empty) header block.
            while !self.read_line()?.is_empty() {}
        };
        let mut length = None;
        let mut chunked = false;
        let mut kind = BodyKind::Empty;
        let mut session_id = None;
        loop {
            let line = self.read_line()?;
            if line.is_empty() {
                break;
            }
            let Some((name, value)) = line.split_once(':') else {
                return Err(bad(format!("malformed header line {line:?}")));
            };
            let value = value.trim();
            if name.eq_ignore_ascii_case("content-length") {
                length = Some(
                    value
                        .parse::<usize>()
                        .map_err(|_| bad(format!("bad Content-Length {value:?}")))?,
                );
            } else if name.eq_ignore_ascii_case("transfer-encoding") {
                chunked = value.to_ascii_lowercase().contains("chunked");
            } else if name.eq_ignore_ascii_case("content-type") {
                let essence = value.split(';').next().unwrap_or("").trim();
                kind = if essence.eq_ignore_ascii_case("application/json") {
                    BodyKind::Json
                } else if essence.eq_ignore_ascii_case("text/event-stream") {
                    BodyKind::Sse
                } else {
                    BodyKind::Other
                };
            } else if name.eq_ignore_ascii_case("mcp-session-id") {
                session_id = Some(value.to_string());
            } else if name.eq_ignore_ascii_case("connection") && value.eq_ignore_ascii_case("close")
            {
                self.closed = true;
            }
        }
        self.body.clear();
        if chunked {
            self.read_chunked()?;
        } else if let Some(n) = length {
            self.body.resize(n, 0);
            self.reader.read_exact(&mut self.body)?;
        } else if !(status == 204 || status == 304 || (100..200).contains(&status)) {
            // No framing: the body runs to the end of the connection.
            self.reader.read_to_end(&mut self.body)?;
            self.closed = true;
        }
        if self.body.is_empty() && kind != BodyKind::Other {
            kind = BodyKind::Empty;
        }
        Ok(Response {
            status,
            kind,
            session_id,
            body: &self.body,
        })
    }

    fn read_chunked(&mut self) -> io::Result<()> {
        loop {
            let line = self.read_line()?;
            let size = line.split(';').next().unwrap_or("").trim();
            let size = usize::from_str_radix(size, 16)
                .map_err(|_| bad(format!("bad chunk size line {line:?}")))?;
            if size == 0 {
                // Trailers, then the empty line that ends the message.
                while !self.read_line()?.is_empty() {}
                return Ok(());
            }
            let start = self.body.len();
            self.body.resize(start + size, 0);
            self.reader.read_exact(&mut self.body[start..])?;
            if !self.read_line()?.is_empty() {
                return Err(bad("chunk data not followed by CRLF".into()));
            }
        }
    }

    /// Reads one CRLF-terminated line into `self.line` (without the line ending).
    fn read_line(&mut self) -> io::Result<&str> {
        self.line.clear();
        if self.reader.read_line(&mut self.line)? == 0 {
            self.closed = true;
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the server closed the connection mid-response",
            ));
        }
        let trimmed = self.line.trim_end_matches(['\r', '\n']).len();
        self.line.truncate(trimmed);
        Ok(&self.line)
    }
}

fn parse_status(line: &str) -> io::Result<u16> {
    let mut parts = line.splitn(3, ' ');
    match (parts.next(), parts.next()) {
        (Some(v), Some(code)) if v.starts_with("HTTP/1.") => code
            .parse()
            .map_err(|_| bad(format!("bad status line {line:?}"))),
        _ => Err(bad(format!("bad status line {line:?}"))),
    }
}

fn bad(msg: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, msg)
}

/// The `data` of each event of an SSE body, in order (multi-line data joined with `\n`; comments,
/// `id`, `event` and `retry` fields skipped; events without data dropped).
pub fn sse_data(body: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(body);
    let mut events = Vec::new();
    let mut data: Option<String> = None;
    for line in text.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() {
            events.extend(data.take());
            continue;
        }
        if let Some(rest) = line.strip_prefix("data") {
            if !(rest.is_empty() || rest.starts_with(':')) {
                continue; // a field named e.g. "database", not "data"
            }
            let value = rest.strip_prefix(':').unwrap_or(rest);
            let value = value.strip_prefix(' ').unwrap_or(value);
            match &mut data {
                Some(d) => {
                    d.push('\n');
                    d.push_str(value);
                }
                None => data = Some(value.to_string()),
            }
        }
    }
    events.extend(data);
    events
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;

    #[test]
    fn sse_data_joins_lines_and_skips_other_fields() {
        let body = b": keep-alive\n\nid: 1\nretry: 3000\ndata: {\"a\":\ndata:1}\n\nevent: message\r\ndata: x\r\n\r\ndata: tail";
        assert_eq!(sse_data(body), ["{\"a\":\n1}", "x", "tail"]);
        assert!(sse_data(b"retry: 10\n\n").is_empty());
    }

    #[test]
    fn reads_chunked_then_length_framed_responses_on_one_connection() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let server = std::thread::spawn(move || {
            let (mut s, _) = listener.accept().unwrap();
            let mut seen = Vec::new();
            let mut buf = [0u8; 4096];
            let replies: [&[u8]; 2] = [
                b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\
                  Mcp-Session-Id: abc\r\n\r\n6\r\ndata: \r\n3;x=y\r\n{}\n\r\n1\r\n\n\r\n0\r\n\r\n",
                b"HTTP/1.1 202 Accepted\r\ncontent-length: 0\r\n\r\n",
            ];
            // Each request has the 2-byte body `{}`; answer each once it is complete.
            for (i, reply) in replies.iter().enumerate() {
                while seen.windows(2).filter(|w| w == b"{}").count() <= i {
                    let n = s.read(&mut buf).unwrap();
                    assert!(n > 0);
                    seen.extend_from_slice(&buf[..n]);
                }
                s.write_all(reply).unwrap();
            }
            String::from_utf8(seen).unwrap()
        });
        let mut c = Connection::connect(addr, Duration::from_secs(5)).unwrap();
        let r = c.send("POST", &[("Accept", "*/*")], b"{}").unwrap();
        assert_eq!(r.status, 200);
        assert_eq!(r.kind, BodyKind::Sse);
        assert_eq!(r.session_id.as_deref(), Some("abc"));
        assert_eq!(sse_data(r.body), ["{}"]);
        let r = c.send("POST", &[], b"{}").unwrap();
        assert_eq!((r.status, r.kind, r.body.len()), (202, BodyKind::Empty, 0));
        let seen = server.join().unwrap();
        assert!(seen.starts_with(&format!(
            "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 2\r\nAccept: */*\r\n\r\n{{}}"
        )));
    }
}
