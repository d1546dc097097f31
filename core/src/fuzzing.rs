//! Entry points for the fuzz targets in `fuzz/` (feature `fuzzing`): crate-internal parsers and the
//! HTTP dispatcher, reached without widening the public API. Not a stable interface.

use tokio::io::BufReader;

use crate::transport::lines::{Line, LineReader};

pub use crate::transport::http::fuzzing::{
    HttpDispatcher, check_host_origin, check_modern_headers, check_post_media, parse_event_id,
};

/// Frames `input` with the stdio line reader (limit `max` bytes, read `chunk` bytes at a time): each
/// frame's bytes, or `None` for a line skipped as too long.
pub async fn read_frames(input: &[u8], max: usize, chunk: usize) -> Vec<Option<Vec<u8>>> {
    let mut reader = LineReader::new(BufReader::with_capacity(chunk.max(1), input), max);
    let mut out = Vec::new();
    loop {
        match reader.next().await {
            Ok(Line::Frame(f)) => out.push(Some(f.to_vec())),
            Ok(Line::TooLong) => out.push(None),
            Ok(Line::Eof) | Err(_) => return out,
        }
    }
}
