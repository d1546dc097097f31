//! `NativeStdio`: serving stdio with stdin read by Node on the JS thread (`lib/server.js` feeds
//! each chunk of `process.stdin` in). The core's `StdioFeed` frames and dispatches the requests on
//! this thread; the JS handlers they reach are handed back to the JS layer, which calls them before
//! the chunk's callback returns, and their answers are written straight to stdout
//! (`requestFlush`), every few calls (`runFed`), so the peer reads the first answers while the
//! later calls are made. A request costs no wake-up of any thread on its way in or out.

use std::cell::RefCell;

use libmcp::transport::stdio::{StdioFeed, batched};
use napi::bindgen_prelude::{Buffer, within_runtime_if_available};
use napi_derive::napi;
use parking_lot::Mutex;
use serde_json::Value;

use crate::error::engine;
use crate::js_strings::{JsStrings, JsText};

/// The handler calls collected while this thread feeds stdin, already in the form the JS layer
/// reads them: `text` is a JSON array holding three items per call, the handler's number, the
/// request's and its params (`[key, id, params, key, id, params, ...`, the closing bracket added by
/// [`Fed::new`]), written straight from the params' value with no text in between; `ids` are the
/// request numbers, to drop them if output fails; `strings` are the params' large strings, each
/// written into `text` as a marker (`large_strings.rs`).
#[derive(Default)]
struct Calls {
    text: Vec<u8>,
    ids: Vec<u64>,
    strings: Vec<String>,
}

thread_local! {
    /// `Some` while `feed` or `end` runs on this (the JS) thread.
    static COLLECTING: RefCell<Option<Calls>> = const { RefCell::new(None) };
}

/// Takes the call of handler `key` for request `id` with `params`, to make it on this thread once
/// the chunk is dispatched: `false` when nothing collects calls and the caller must queue it.
pub(crate) fn call_here(key: u32, id: u64, params: &Value) -> bool {
    COLLECTING.with_borrow_mut(|c| {
        let Some(calls) = c else {
            return false;
        };
        let text = &mut calls.text;
        text.push(if calls.ids.is_empty() { b'[' } else { b',' });
        let mut number = itoa::Buffer::new();
        text.extend_from_slice(number.format(key).as_bytes());
        text.push(b',');
        // Request numbers are integers below 2^53 (`request::next_number`): JS reads them exactly.
        text.extend_from_slice(number.format(id).as_bytes());
        text.push(b',');
        crate::large_strings::write_json(text, params, &mut calls.strings);
        calls.ids.push(id);
        true
    })
}

/// Runs `f` collecting the handler calls it dispatches.
fn collecting<R>(f: impl FnOnce() -> R) -> (R, Calls) {
    let outer = COLLECTING.with_borrow_mut(|c| c.replace(Calls::default()));
    let r = f();
    let calls = COLLECTING.with_borrow_mut(|c| std::mem::replace(c, outer));
    (r, calls.unwrap_or_default())
}

/// What `feed` and `end` hand back: the handler calls to make now, and how many bytes wait to be
/// written. `calls` is one JSON array holding three items per call, the handler's number, the
/// request's and its params (`[key, id, params, key, id, params, ...]`), absent when there are none:
/// the JS layer turns all of a chunk's calls into values with one `JSON.parse`, not one conversion
/// per value. `strings` are the large strings the calls' params hold as markers, absent when
/// there are none (see `large_strings.rs`).
#[napi(object)]
pub struct Fed {
    #[napi(ts_type = "string")]
    pub calls: Option<JsText>,
    #[napi(ts_type = "Array<string>")]
    pub strings: Option<JsStrings>,
    pub waiting: f64,
}

impl Fed {
    fn new(calls: Calls, waiting: usize) -> Fed {
        let calls_strings = calls.strings;
        let calls = (!calls.ids.is_empty()).then(|| {
            let mut text = calls.text;
            text.push(b']');
            // Digits, punctuation and serde_json's output: UTF-8 throughout.
            JsText(String::from_utf8(text).expect("the calls are UTF-8"))
        });
        Fed {
            calls,
            strings: (!calls_strings.is_empty()).then_some(JsStrings(calls_strings)),
            waiting: waiting as f64,
        }
    }
}

/// One stdio connection fed by the JS layer.
#[napi]
pub struct NativeStdio {
    /// `None` once finished.
    feed: Mutex<Option<StdioFeed>>,
}

impl NativeStdio {
    pub(crate) fn open(server: &libmcp::server::Server) -> NativeStdio {
        // Node reads stdin itself; the engine's stdout writer widens its own pipe too.
        libmcp::transport::stdio::widen_process_pipes();
        let feed = within_runtime_if_available(|| StdioFeed::process_stdout(server));
        NativeStdio {
            feed: Mutex::new(Some(feed)),
        }
    }
}

#[napi]
impl NativeStdio {
    /// Handles a chunk read from stdin: returns the handler calls its requests need, to be made
    /// now, and how many bytes wait to be written (above `highWater`, stop reading until
    /// `writable()` resolves). Fails once writing to stdout failed or the connection ended.
    #[napi]
    pub fn feed(&self, chunk: Buffer) -> napi::Result<Fed> {
        let mut guard = self.feed.lock();
        let Some(feed) = guard.as_mut() else {
            return Err(engine(libmcp::Error::Closed));
        };
        // Answers the engine gives at once (errors, lists, pings) go out in one write per chunk.
        let (waiting, calls) =
            collecting(|| within_runtime_if_available(|| batched(|| feed.feed(&chunk))));
        match waiting {
            Ok(waiting) => Ok(Fed::new(calls, waiting)),
            Err(e) => {
                // Output failed: the requests are dropped (answered with an internal error that
                // can no longer be written).
                for id in calls.ids {
                    crate::request::abandon(id);
                }
                Err(engine(e))
            }
        }
    }

    /// Above this many unwritten bytes `feed` asks the reader to pause.
    #[napi(getter)]
    pub fn high_water(&self) -> f64 {
        libmcp::transport::stdio::HIGH_WATER as f64
    }

    /// Stdin ended (or serving stops): a final unterminated line is handled (its handler call is
    /// returned, as by `feed`), listen streams end, and requests waiting on the client fail.
    #[napi]
    pub fn end(&self) -> Fed {
        let mut guard = self.feed.lock();
        let Some(feed) = guard.as_mut() else {
            return Fed::new(Calls::default(), 0);
        };
        let ((), calls) = collecting(|| within_runtime_if_available(|| batched(|| feed.end())));
        Fed::new(calls, 0)
    }

    /// Resolves once fewer than `highWater` bytes wait to be written.
    #[napi]
    pub async fn writable(&self) -> napi::Result<()> {
        let ready = self.feed.lock().as_ref().map(StdioFeed::writable);
        if let Some(ready) = ready {
            ready.await;
        }
        Ok(())
    }

    /// Ends the input if `end` was not called, lets in-flight requests answer (within the
    /// server's shutdown grace), writes everything and closes; rejects with a transport error if
    /// writing to stdout failed.
    #[napi]
    pub async fn finish(&self) -> napi::Result<()> {
        let feed = self.feed.lock().take();
        match feed {
            Some(feed) => feed.finish().await.map_err(engine),
            None => Ok(()),
        }
    }
}
