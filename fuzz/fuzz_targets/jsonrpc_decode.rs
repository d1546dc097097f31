//! The JSON-RPC decoder (`parse_frame`, `parse_message`) and the stdio line framer. A decoded
//! message re-encodes to JSON that decodes to the same message; the quick read of plain requests
//! judges every frame exactly as the general path (`parse_frame_in_general`); frames never hold a
//! newline nor exceed the limit.
#![no_main]

use libfuzzer_sys::fuzz_target;
use libmcp::jsonrpc::{self, Frame};

fuzz_target!(|data: &[u8]| {
    assert_eq!(
        format!("{:?}", jsonrpc::parse_frame(data)),
        format!("{:?}", jsonrpc::parse_frame_in_general(data)),
        "the quick read and the general path disagree"
    );
    if let Ok(msg) = jsonrpc::parse_message(data) {
        let again = jsonrpc::parse_message(&msg.encode()).expect("an encoded message decodes");
        assert_eq!(again.encode(), msg.encode());
    }
    if let Ok(Frame::Batch(items)) = jsonrpc::parse_frame(data) {
        for item in items.into_iter().flatten() {
            jsonrpc::parse_message(&item.encode()).expect("a batch item re-encodes");
        }
    }
    let (max, chunk) = match data {
        [a, b, ..] => (usize::from(*a) * 4, usize::from(*b % 64) + 1),
        _ => (16, 1),
    };
    let frames = libmcp_fuzz::block_on(libmcp::fuzzing::read_frames(data, max, chunk));
    for frame in frames.into_iter().flatten() {
        assert!(
            frame.len() <= max,
            "a frame of {} bytes passed a limit of {max}",
            frame.len()
        );
        assert!(!frame.contains(&b'\n'));
        assert!(
            !frame.iter().all(u8::is_ascii_whitespace),
            "a blank line was framed"
        );
        if let Err(e) = jsonrpc::parse_frame(&frame) {
            assert!(e.error.code < 0);
        }
    }
});
