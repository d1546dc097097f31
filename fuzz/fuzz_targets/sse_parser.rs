//! The client's `text/event-stream` parser: any split of a stream into chunks yields the same events,
//! last event id and retry as feeding it whole (the first byte sets the chunk sizes).
#![no_main]

use libfuzzer_sys::fuzz_target;
use libmcp::client::http::sse::SseParser;

fuzz_target!(|data: &[u8]| {
    let (seed, stream) = data.split_first().unwrap_or((&1, &[]));
    let mut whole = SseParser::new();
    let expected = whole.feed(stream);
    let mut chunked = SseParser::new();
    let mut got = Vec::new();
    let mut rest = stream;
    let mut size = usize::from(*seed % 7) + 1;
    while !rest.is_empty() {
        let n = size.min(rest.len());
        got.extend(chunked.feed(&rest[..n]));
        rest = &rest[n..];
        size = size % 7 + 1;
    }
    assert_eq!(got, expected);
    assert_eq!(chunked.last_event_id, whole.last_event_id);
    assert_eq!(chunked.retry_ms, whole.retry_ms);
    for e in &expected {
        assert!(!e.event.contains(['\n', '\r']));
        assert!(
            e.id.as_deref()
                .is_none_or(|id| !id.contains(['\n', '\r', '\0']))
        );
    }
});
