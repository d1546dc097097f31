//! Newline-delimited framing with a size limit: an oversized line is skipped to its end and reported,
//! so one huge message costs no more memory than the limit and does not end the connection.

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// One frame read from a newline-delimited stream.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Line {
    /// A complete line, without its `\n` (and without a trailing `\r`).
    Frame(Vec<u8>),
    /// A line longer than the limit was skipped.
    TooLong,
    /// The stream ended.
    Eof,
}

/// Reads newline-delimited frames of at most `max` bytes.
pub(crate) struct LineReader<R> {
    inner: R,
    max: usize,
    buf: Vec<u8>,
}

impl<R: AsyncBufRead + Unpin> LineReader<R> {
    /// A reader with a maximum frame size.
    pub(crate) fn new(inner: R, max: usize) -> Self {
        LineReader {
            inner,
            max,
            buf: Vec::new(),
        }
    }

    /// The next non-empty frame.
    pub(crate) async fn next(&mut self) -> std::io::Result<Line> {
        loop {
            match self.next_raw().await? {
                Line::Frame(f) if f.iter().all(|b| b.is_ascii_whitespace()) => continue,
                other => return Ok(other),
            }
        }
    }

    async fn next_raw(&mut self) -> std::io::Result<Line> {
        self.buf.clear();
        let mut overflow = false;
        loop {
            let available = self.inner.fill_buf().await?;
            if available.is_empty() {
                // EOF: a final unterminated line still counts as a frame.
                return Ok(if overflow {
                    Line::TooLong
                } else if self.buf.is_empty() {
                    Line::Eof
                } else {
                    Line::Frame(std::mem::take(&mut self.buf))
                });
            }
            let (chunk, found) = match memchr(available) {
                Some(i) => (&available[..i], Some(i)),
                None => (available, None),
            };
            if !overflow {
                if self.buf.len() + chunk.len() > self.max {
                    overflow = true;
                    self.buf = Vec::new();
                } else {
                    self.buf.extend_from_slice(chunk);
                }
            }
            let consumed = found.map_or(chunk.len(), |i| i + 1);
            self.inner.consume(consumed);
            if found.is_some() {
                if overflow {
                    return Ok(Line::TooLong);
                }
                if self.buf.last() == Some(&b'\r') {
                    self.buf.pop();
                }
                return Ok(Line::Frame(std::mem::take(&mut self.buf)));
            }
        }
    }
}

fn memchr(hay: &[u8]) -> Option<usize> {
    hay.iter().position(|&b| b == b'\n')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn frames_limits_and_eof() {
        let input: &[u8] = b"abc\r\n\n  \n0123456789ABCDEF\nxyz\nlast";
        let mut r = LineReader::new(tokio::io::BufReader::with_capacity(4, input), 8);
        assert_eq!(r.next().await.unwrap(), Line::Frame(b"abc".to_vec()));
        assert_eq!(r.next().await.unwrap(), Line::TooLong);
        assert_eq!(r.next().await.unwrap(), Line::Frame(b"xyz".to_vec()));
        assert_eq!(r.next().await.unwrap(), Line::Frame(b"last".to_vec()));
        assert_eq!(r.next().await.unwrap(), Line::Eof);
    }
}
