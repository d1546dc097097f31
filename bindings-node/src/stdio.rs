//! `NativeStdio`: serving stdio with stdin read by Node on the JS thread (`lib/server.js` feeds
//! each chunk of `process.stdin` in). The core's `StdioFeed` frames and dispatches the requests on
//! this thread; the JS handlers they reach are handed back to the JS layer, which calls them before
//! the chunk's callback returns, and their answers are written straight to stdout
//! (`requestFlush`). A request costs no wake-up of any thread on its way in or out.

use std::cell::RefCell;

use libmcp::transport::stdio::{StdioFeed, batched};
use napi::bindgen_prelude::{Buffer, within_runtime_if_available};
use napi_derive::napi;
use parking_lot::Mutex;

use crate::error::engine;

/// The handler calls collected while this thread feeds stdin: handler number, request number,
/// params (JSON text).
type Calls = Vec<(u32, f64, String)>;

thread_local! {
    /// `Some` while `feed` or `end` runs on this (the JS) thread.
    static COLLECTING: RefCell<Option<Calls>> = const { RefCell::new(None) };
}

/// Takes the call of handler `key` for request `id` to make it on this thread once the chunk is
/// dispatched: `None` when it was taken, the params back when the caller must queue it.
pub(crate) fn call_here(key: u32, id: f64, params: String) -> Option<String> {
    COLLECTING.with_borrow_mut(|c| match c {
        Some(calls) => {
            calls.push((key, id, params));
            None
        }
        None => Some(params),
    })
}

/// Runs `f` collecting the handler calls it dispatches.
fn collecting<R>(f: impl FnOnce() -> R) -> (R, Calls) {
    let outer = COLLECTING.with_borrow_mut(|c| c.replace(Vec::new()));
    let r = f();
    let calls = COLLECTING.with_borrow_mut(|c| std::mem::replace(c, outer));
    (r, calls.unwrap_or_default())
}

/// What `feed` and `end` hand back: the handler calls to make now (`keys[i]` is the handler's
/// number, `ids[i]` the request's, `params[i]` its params as JSON text), and how many bytes wait
/// to be written.
#[napi(object)]
pub struct Fed {
    pub keys: Vec<u32>,
    pub ids: Vec<f64>,
    pub params: Vec<String>,
    pub waiting: f64,
}

impl Fed {
    fn new(calls: Calls, waiting: usize) -> Fed {
        let mut fed = Fed {
            keys: Vec::with_capacity(calls.len()),
            ids: Vec::with_capacity(calls.len()),
            params: Vec::with_capacity(calls.len()),
            waiting: waiting as f64,
        };
        for (key, id, params) in calls {
            fed.keys.push(key);
            fed.ids.push(id);
            fed.params.push(params);
        }
        fed
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
                for (_, id, _) in calls {
                    crate::request::abandon(id as u64);
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
            return Fed::new(Vec::new(), 0);
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
