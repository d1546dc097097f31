//! An incremental parser for `text/event-stream` bodies (the WHATWG event-stream format): fields
//! `event`, `data` (several lines join with `\n`), `id` and `retry`; lines starting with `:` are
//! comments (keep-alives) and are ignored; lines end with LF, CRLF or CR.

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SseEvent {
    /// The `event` field; empty means `message`.
    pub event: String,
    /// The `data` lines joined with `\n`.
    pub data: String,
    /// The `id` field of this event, if it had one.
    pub id: Option<String>,
}

/// Feeds bytes in, takes events out. Remembers the last event id and the last `retry` value, which
/// the stream's reconnection needs.
#[derive(Debug, Default)]
pub struct SseParser {
    buf: Vec<u8>,
    /// A CR ended the previous chunk: a LF at the start of the next one belongs to it.
    pending_cr: bool,
    event: String,
    data: String,
    has_data: bool,
    id: Option<String>,
    /// The last event id seen on the stream (what `Last-Event-ID` carries on reconnection).
    pub last_event_id: Option<String>,
    /// The last `retry:` value in milliseconds.
    pub retry_ms: Option<u64>,
}

impl SseParser {
    /// A parser at the start of a stream.
    pub fn new() -> SseParser {
        SseParser::default()
    }

    /// Parses a chunk and returns the events it completed.
    pub fn feed(&mut self, chunk: &[u8]) -> Vec<SseEvent> {
        let mut out = Vec::new();
        let mut rest = chunk;
        if self.pending_cr {
            self.pending_cr = false;
            if let Some(b'\n') = rest.first() {
                rest = &rest[1..];
            }
        }
        while let Some(pos) = rest.iter().position(|&b| b == b'\n' || b == b'\r') {
            self.buf.extend_from_slice(&rest[..pos]);
            let line = std::mem::take(&mut self.buf);
            if rest[pos] == b'\r' {
                match rest.get(pos + 1) {
                    Some(b'\n') => rest = &rest[pos + 2..],
                    Some(_) => rest = &rest[pos + 1..],
                    None => {
                        self.pending_cr = true;
                        rest = &[];
                    }
                }
            } else {
                rest = &rest[pos + 1..];
            }
            if let Some(ev) = self.line(&line) {
                out.push(ev);
            }
        }
        self.buf.extend_from_slice(rest);
        out
    }

    fn line(&mut self, line: &[u8]) -> Option<SseEvent> {
        let line = String::from_utf8_lossy(line);
        let line = line.strip_prefix('\u{feff}').unwrap_or(&line);
        if line.is_empty() {
            return self.dispatch();
        }
        if line.starts_with(':') {
            return None;
        }
        let (field, value) = match line.split_once(':') {
            Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
            None => (line, ""),
        };
        match field {
            "event" => self.event = value.to_owned(),
            "data" => {
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(value);
                self.has_data = true;
            }
            // An id containing NUL is ignored, as the format requires.
            "id" if !value.contains('\0') => {
                self.id = Some(value.to_owned());
                self.last_event_id = Some(value.to_owned());
            }
            "retry" if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                // Digits too many for a u64 are ignored like any other unusable value: the last
                // good reconnection time stays.
                if let Ok(ms) = value.parse() {
                    self.retry_ms = Some(ms);
                }
            }
            _ => {}
        }
        None
    }

    fn dispatch(&mut self) -> Option<SseEvent> {
        let event = std::mem::take(&mut self.event);
        let id = self.id.take();
        if !std::mem::take(&mut self.has_data) {
            return None;
        }
        Some(SseEvent {
            event,
            data: std::mem::take(&mut self.data),
            id,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multi_line_data_comments_retry_and_split_chunks() {
        let mut p = SseParser::new();
        let mut evs =
            p.feed(b": keep-alive\r\nid: 7\r\nretry: 500\r\ndata: {\"a\":\r\ndata:  1}\r");
        assert!(evs.is_empty());
        evs.extend(p.feed(b"\n\r\nevent: other\ndata\n\n"));
        assert_eq!(
            evs,
            vec![
                SseEvent {
                    event: String::new(),
                    data: "{\"a\":\n 1}".into(),
                    id: Some("7".into())
                },
                SseEvent {
                    event: "other".into(),
                    data: String::new(),
                    id: None
                }
            ]
        );
        assert_eq!(p.retry_ms, Some(500));
        assert_eq!(p.last_event_id.as_deref(), Some("7"));
    }

    #[test]
    fn an_event_without_data_is_not_dispatched_but_keeps_its_id() {
        let mut p = SseParser::new();
        assert!(p.feed(b"id: e1\nretry: x\n\n").is_empty());
        assert_eq!(p.last_event_id.as_deref(), Some("e1"));
        assert_eq!(p.retry_ms, None);
    }

    #[test]
    fn a_retry_too_large_for_a_u64_keeps_the_previous_value() {
        let mut p = SseParser::new();
        assert!(
            p.feed(
                b"retry: 750

retry: 99999999999999999999999

"
            )
            .is_empty()
        );
        assert_eq!(p.retry_ms, Some(750));
    }
}
