//! Newline-delimited framing with a size limit: an oversized line is skipped to its end and reported,
//! so one huge message costs no more memory than the limit and does not end the connection.
//!
//! Frames are lent out of one reused buffer (no allocation per message), and [`LineReader::next`] is
//! cancel-safe: dropped mid-line, it resumes where it stopped on the next call, so it can sit in a
//! `select!` beside the writer.

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// One frame read from a newline-delimited stream.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Line<'a> {
    /// A complete line, without its `\n` (and without a trailing `\r`).
    Frame(&'a [u8]),
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
    /// The buffer holds the frame lent out by the previous call.
    lent: bool,
    /// The line being read has outgrown the limit; its bytes are being skipped.
    overflow: bool,
}

/// Buffers that grew past this for one large message are given back after it.
const KEEP_CAPACITY: usize = 1 << 20;

impl<R: AsyncBufRead + Unpin> LineReader<R> {
    /// A reader with a maximum frame size.
    pub(crate) fn new(inner: R, max: usize) -> Self {
        LineReader {
            inner,
            max,
            buf: Vec::new(),
            lent: false,
            overflow: false,
        }
    }

    /// The next non-empty frame.
    pub(crate) async fn next(&mut self) -> std::io::Result<Line<'_>> {
        loop {
            if self.lent {
                self.lent = false;
                self.buf.clear();
                if self.buf.capacity() > KEEP_CAPACITY {
                    self.buf.shrink_to(KEEP_CAPACITY);
                }
            }
            match self.fill().await? {
                Filled::Line => match frame(&self.buf) {
                    Some(len) => {
                        self.lent = true;
                        return Ok(Line::Frame(&self.buf[..len]));
                    }
                    None => self.buf.clear(),
                },
                Filled::TooLong => return Ok(Line::TooLong),
                Filled::Eof => return Ok(Line::Eof),
            }
        }
    }

    /// Reads up to the end of a line. Only state in `self` carries over an await, so cancelling this
    /// loses nothing.
    async fn fill(&mut self) -> std::io::Result<Filled> {
        loop {
            let available = self.inner.fill_buf().await?;
            if available.is_empty() {
                // EOF: a final unterminated line still counts as a frame.
                let was_overflow = std::mem::take(&mut self.overflow);
                return Ok(if was_overflow {
                    Filled::TooLong
                } else if self.buf.is_empty() {
                    Filled::Eof
                } else {
                    Filled::Line
                });
            }
            let found = memchr::memchr(b'\n', available);
            let chunk = &available[..found.unwrap_or(available.len())];
            if !self.overflow {
                if self.buf.len() + chunk.len() > self.max {
                    self.overflow = true;
                    self.buf = Vec::new();
                } else {
                    self.buf.extend_from_slice(chunk);
                }
            }
            let consumed = found.map_or(chunk.len(), |i| i + 1);
            self.inner.consume(consumed);
            if found.is_some() {
                return Ok(if std::mem::take(&mut self.overflow) {
                    Filled::TooLong
                } else {
                    Filled::Line
                });
            }
        }
    }
}

enum Filled {
    Line,
    TooLong,
    Eof,
}

/// The length of the frame a complete line (without its `\n`) holds: without a trailing `\r`;
/// `None` for a blank line, which is skipped.
fn frame(line: &[u8]) -> Option<usize> {
    if line.iter().all(u8::is_ascii_whitespace) {
        None
    } else {
        Some(line.len() - usize::from(line.last() == Some(&b'\r')))
    }
}

/// The frames of a stream that arrives in chunks the host reads itself: the same frames, limits
/// and blank-line rule as [`LineReader`]. A partial line waits in the splitter for its end.
pub(crate) struct LineSplitter {
    max: usize,
    buf: Vec<u8>,
    /// The line being received has outgrown the limit; its bytes are being skipped.
    overflow: bool,
}

impl LineSplitter {
    pub(crate) fn new(max: usize) -> Self {
        LineSplitter {
            max,
            buf: Vec::new(),
            overflow: false,
        }
    }

    /// Calls `each` with every frame (or [`Line::TooLong`]) that `input` completes, in order.
    pub(crate) fn push(&mut self, mut input: &[u8], mut each: impl FnMut(Line<'_>)) {
        while let Some(i) = memchr::memchr(b'\n', input) {
            let line = &input[..i];
            input = &input[i + 1..];
            if std::mem::take(&mut self.overflow) || self.buf.len() + line.len() > self.max {
                self.forget();
                each(Line::TooLong);
            } else if self.buf.is_empty() {
                if let Some(len) = frame(line) {
                    each(Line::Frame(&line[..len]));
                }
            } else {
                self.buf.extend_from_slice(line);
                if let Some(len) = frame(&self.buf) {
                    each(Line::Frame(&self.buf[..len]));
                }
                self.forget();
            }
        }
        if !self.overflow {
            if self.buf.len() + input.len() > self.max {
                self.overflow = true;
                self.forget();
            } else {
                self.buf.extend_from_slice(input);
            }
        }
    }

    /// The stream ended: a final unterminated line still counts as a frame.
    pub(crate) fn finish(&mut self, mut each: impl FnMut(Line<'_>)) {
        if std::mem::take(&mut self.overflow) {
            each(Line::TooLong);
        } else if let Some(len) = frame(&self.buf) {
            each(Line::Frame(&self.buf[..len]));
        }
        self.forget();
    }

    /// Drops the partial line, giving back the capacity one large message needed.
    fn forget(&mut self) {
        self.buf.clear();
        if self.buf.capacity() > KEEP_CAPACITY {
            self.buf.shrink_to(KEEP_CAPACITY);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn frames_limits_and_eof() {
        let input: &[u8] = b"abc\r\n\n  \n0123456789ABCDEF\nxyz\nlast";
        let mut r = LineReader::new(tokio::io::BufReader::with_capacity(4, input), 8);
        assert_eq!(r.next().await.unwrap(), Line::Frame(b"abc"));
        assert_eq!(r.next().await.unwrap(), Line::TooLong);
        assert_eq!(r.next().await.unwrap(), Line::Frame(b"xyz"));
        assert_eq!(r.next().await.unwrap(), Line::Frame(b"last"));
        assert_eq!(r.next().await.unwrap(), Line::Eof);
    }

    /// Every way of cutting the input into chunks gives the splitter the frames the reader gives.
    #[tokio::test]
    async fn the_splitter_frames_like_the_reader() {
        let input: &[u8] = b"abc\r\n\n  \n0123456789ABCDEF\n\r\nxyz\n01234567\n012345678\nlast";
        let mut expected = Vec::new();
        let mut r = LineReader::new(tokio::io::BufReader::with_capacity(3, input), 8);
        loop {
            match r.next().await.unwrap() {
                Line::Eof => break,
                Line::Frame(f) => expected.push(Some(f.to_vec())),
                Line::TooLong => expected.push(None),
            }
        }
        assert_eq!(expected.len(), 6, "{expected:?}");
        for chunk in 1..=input.len() {
            let mut got = Vec::new();
            let mut s = LineSplitter::new(8);
            let mut record = |l: Line<'_>| match l {
                Line::Frame(f) => got.push(Some(f.to_vec())),
                Line::TooLong => got.push(None),
                Line::Eof => unreachable!("the splitter never reports EOF"),
            };
            for part in input.chunks(chunk) {
                s.push(part, &mut record);
            }
            s.finish(&mut record);
            assert_eq!(got, expected, "chunks of {chunk}");
        }
    }

    #[tokio::test]
    async fn cancelled_reads_resume_mid_line() {
        let (mut w, r) = tokio::io::duplex(64);
        let mut lines = LineReader::new(tokio::io::BufReader::new(r), 1024);
        use tokio::io::AsyncWriteExt;
        w.write_all(b"{\"par").await.unwrap();
        // The read is cancelled while half a line is buffered...
        let cancelled =
            tokio::time::timeout(std::time::Duration::from_millis(20), lines.next()).await;
        assert!(cancelled.is_err());
        w.write_all(b"tial\":1}\n").await.unwrap();
        // ...and the next call still returns the whole line.
        assert_eq!(lines.next().await.unwrap(), Line::Frame(b"{\"partial\":1}"));
    }
}
