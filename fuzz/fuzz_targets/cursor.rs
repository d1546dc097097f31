//! Cursor decoding of the list methods: any cursor text either starts a page inside the list or is
//! -32602, and following the returned cursors walks the whole list exactly once.
#![no_main]

use libfuzzer_sys::fuzz_target;
use libmcp::server::registry::paginate;

fuzz_target!(|data: &[u8]| {
    let (sizes, cursor) = data.split_at(data.len().min(2));
    let total = usize::from(sizes.first().copied().unwrap_or(5) % 64);
    let page_size = usize::from(sizes.get(1).copied().unwrap_or(2) % 9) + 1;
    let items: Vec<usize> = (0..total).collect();
    match paginate(items.iter(), Some(&libmcp_fuzz::text(cursor)), page_size) {
        Ok((page, _)) => assert!(page.len() <= page_size),
        Err(e) => assert_eq!(e.code, -32602),
    }
    let mut seen = Vec::new();
    let mut next: Option<String> = None;
    loop {
        let (page, cursor) =
            paginate(items.iter(), next.as_deref(), page_size).expect("a cursor the server gave");
        seen.extend(page.into_iter().copied());
        match cursor {
            Some(c) => next = Some(c),
            None => break,
        }
    }
    assert_eq!(seen, items);
});
