//! Bytes on their way to stdout, newline-terminated messages kept as chunks: small messages are
//! copied together into one chunk (one `write` for many of them), a large one stays in the buffer
//! it was serialised into (no copy, and no single buffer that doubles its capacity to hold a burst
//! of large answers). A chunk is freed as soon as it is written, so the queue holds about what is
//! unwritten.

use std::collections::VecDeque;
use std::io::IoSlice;

use tokio::io::{AsyncWrite, AsyncWriteExt};

/// A message at least this long keeps its own buffer; shorter ones are gathered into chunks of
/// about this size.
pub(super) const OWN_CHUNK: usize = 16 * 1024;

/// How many chunks one vectored write hands the OS at most.
pub(super) const MAX_SLICES: usize = 64;

/// Newline-terminated messages not yet written, oldest first.
#[derive(Default)]
pub(super) struct OutQueue {
    chunks: VecDeque<Vec<u8>>,
    /// Bytes of the front chunk already written.
    pos: usize,
    /// Unwritten bytes, in all chunks.
    len: usize,
}

impl OutQueue {
    pub(super) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Unwritten bytes.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Appends one message (`bytes`, without its newline) and a newline.
    pub(super) fn push_message(&mut self, mut bytes: Vec<u8>) {
        self.len += bytes.len() + 1;
        if bytes.len() < OWN_CHUNK
            && let Some(last) = self.chunks.back_mut()
            && last.len() < OWN_CHUNK
        {
            last.extend_from_slice(&bytes);
            last.push(b'\n');
            return;
        }
        // A large message, or the first small one of a new chunk: its own buffer is the chunk.
        bytes.push(b'\n');
        self.chunks.push_back(bytes);
    }

    /// Appends bytes that are already newline-terminated (the rest of a message partly written).
    pub(super) fn push_raw(&mut self, bytes: Vec<u8>) {
        if !bytes.is_empty() {
            self.len += bytes.len();
            self.chunks.push_back(bytes);
        }
    }

    /// Moves every chunk of `other` behind this queue's chunks; no bytes are copied.
    pub(super) fn append(&mut self, other: &mut OutQueue) {
        if other.is_empty() {
            return;
        }
        if other.pos > 0 {
            other.chunks[0].drain(..other.pos);
            other.pos = 0;
        }
        self.len += std::mem::take(&mut other.len);
        self.chunks.append(&mut other.chunks);
    }

    /// Fills `dst` with the unwritten bytes, oldest first, one slice a chunk; returns how many
    /// slices it filled.
    pub(super) fn slices<'a>(&'a self, dst: &mut [IoSlice<'a>]) -> usize {
        let mut n = 0;
        for (i, chunk) in self.chunks.iter().take(dst.len()).enumerate() {
            let start = if i == 0 { self.pos } else { 0 };
            dst[i] = IoSlice::new(&chunk[start..]);
            n = i + 1;
        }
        n
    }

    /// Marks the first `n` unwritten bytes written, freeing the chunks they finish.
    pub(super) fn advance(&mut self, mut n: usize) {
        debug_assert!(n <= self.len, "advanced past the unwritten bytes");
        n = n.min(self.len);
        self.len -= n;
        while n > 0 {
            let left = self.chunks[0].len() - self.pos;
            if n < left {
                self.pos += n;
                return;
            }
            n -= left;
            self.chunks.pop_front();
            self.pos = 0;
        }
    }

    /// Bytes the queue's chunks hold, written ones included (what it costs in memory, about).
    #[cfg(test)]
    pub(super) fn held(&self) -> usize {
        self.chunks.iter().map(Vec::len).sum()
    }

    /// Every unwritten byte, in order (tests).
    #[cfg(test)]
    pub(super) fn to_vec(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len);
        for (i, chunk) in self.chunks.iter().enumerate() {
            out.extend_from_slice(&chunk[if i == 0 { self.pos } else { 0 }..]);
        }
        out
    }
}

/// One write of `queue`'s bytes: a vectored write of its chunks (a writer that cannot write
/// vectored takes the first chunk). The caller marks what was written with [`OutQueue::advance`].
pub(super) async fn write_queued(
    writer: &mut (impl AsyncWrite + Unpin),
    queue: &OutQueue,
) -> std::io::Result<usize> {
    let mut slices = [IoSlice::new(&[]); MAX_SLICES];
    let n = queue.slices(&mut slices);
    writer.write_vectored(&slices[..n]).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(byte: u8, len: usize) -> Vec<u8> {
        vec![byte; len]
    }

    #[test]
    fn small_messages_share_a_chunk_and_large_ones_keep_their_buffer() {
        let mut q = OutQueue::default();
        q.push_message(message(b'a', 10));
        q.push_message(message(b'b', 20));
        // Room for the newline, as a serialiser's buffer usually has.
        let mut large = Vec::with_capacity(OWN_CHUNK + 1);
        large.resize(OWN_CHUNK, b'c');
        let large_ptr = large.as_ptr();
        q.push_message(large);
        q.push_message(message(b'd', 5));
        assert_eq!(q.len(), 11 + 21 + OWN_CHUNK + 1 + 6);
        let mut slices = [IoSlice::new(&[]); MAX_SLICES];
        let n = q.slices(&mut slices);
        assert_eq!(
            n, 3,
            "two small messages together, the large one, the last small one"
        );
        assert_eq!(slices[0].len(), 32);
        assert_eq!(slices[1].len(), OWN_CHUNK + 1);
        assert_eq!(
            slices[1].as_ptr(),
            large_ptr,
            "the large message is not copied"
        );
        let mut expected = message(b'a', 10);
        expected.push(b'\n');
        expected.extend(message(b'b', 20));
        expected.push(b'\n');
        expected.extend(message(b'c', OWN_CHUNK));
        expected.push(b'\n');
        expected.extend(message(b'd', 5));
        expected.push(b'\n');
        assert_eq!(q.to_vec(), expected);
    }

    #[test]
    fn advancing_frees_written_chunks_and_keeps_the_order() {
        let mut q = OutQueue::default();
        for i in 0..10u8 {
            q.push_message(message(b'0' + i, OWN_CHUNK + 100));
        }
        let all = q.to_vec();
        let total = q.len();
        let mut written = 0;
        // Odd step sizes cross chunk boundaries at every offset.
        for step in [1, OWN_CHUNK, 7, OWN_CHUNK * 2 + 3, 5000] {
            q.advance(step);
            written += step;
            assert_eq!(q.len(), total - written);
            assert_eq!(q.to_vec(), all[written..]);
            assert!(
                q.held() <= q.len() + OWN_CHUNK + 101,
                "written chunks are freed"
            );
        }
        q.advance(q.len());
        assert!(q.is_empty());
        assert_eq!(q.held(), 0);
    }

    #[test]
    fn append_moves_chunks_and_the_partly_written_front_keeps_its_place() {
        let mut a = OutQueue::default();
        a.push_message(message(b'a', 100));
        let mut b = OutQueue::default();
        b.push_message(message(b'b', OWN_CHUNK));
        b.push_message(message(b'c', 3));
        b.advance(10);
        a.append(&mut b);
        assert!(b.is_empty());
        let mut expected = message(b'a', 100);
        expected.push(b'\n');
        expected.extend(message(b'b', OWN_CHUNK - 10));
        expected.push(b'\n');
        expected.extend(message(b'c', 3));
        expected.push(b'\n');
        assert_eq!(a.to_vec(), expected);
        assert_eq!(a.len(), expected.len());
        a.push_raw(b"rest\n".to_vec());
        a.push_raw(Vec::new());
        assert!(a.to_vec().ends_with(b"ccc\nrest\n"));
    }
}
