//! What the soak's lanes record: per sampling window, the operations done, their latencies and the
//! errors, and over the whole run the operations per lane and the first error messages.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Duration;

/// How many error messages the report keeps (the count is always complete).
const KEPT_ERRORS: usize = 20;

/// Shared by every lane; the sampler takes the current window at each tick.
#[derive(Default)]
pub struct Stats {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    window: Window,
    per_lane: BTreeMap<&'static str, u64>,
    errors: u64,
    messages: Vec<String>,
}

/// The operations of one sampling window.
#[derive(Default)]
pub struct Window {
    /// Latencies of the successful operations, microseconds.
    pub latencies_us: Vec<u64>,
    /// Failed operations.
    pub errors: u64,
}

impl Window {
    /// The `q` quantile (0..=1) of the latencies, microseconds; 0 when empty.
    pub fn quantile_us(&mut self, q: f64) -> u64 {
        if self.latencies_us.is_empty() {
            return 0;
        }
        self.latencies_us.sort_unstable();
        let i = ((self.latencies_us.len() - 1) as f64 * q).round() as usize;
        self.latencies_us[i]
    }
}

impl Stats {
    /// Records a successful operation of `lane` that took `took`.
    pub fn ok(&self, lane: &'static str, took: Duration) {
        let mut g = self.inner.lock().unwrap();
        g.window.latencies_us.push(took.as_micros() as u64);
        *g.per_lane.entry(lane).or_default() += 1;
    }

    /// Records a failed operation of `lane`.
    pub fn error(&self, lane: &'static str, what: String) {
        let mut g = self.inner.lock().unwrap();
        g.window.errors += 1;
        g.errors += 1;
        *g.per_lane.entry(lane).or_default() += 1;
        if g.messages.len() < KEPT_ERRORS {
            g.messages.push(format!("{lane}: {what}"));
        }
    }

    /// The window so far, replaced by an empty one.
    pub fn take_window(&self) -> Window {
        std::mem::take(&mut self.inner.lock().unwrap().window)
    }

    /// Operations per lane, all errors, and the first error messages.
    pub fn totals(&self) -> (BTreeMap<&'static str, u64>, u64, Vec<String>) {
        let g = self.inner.lock().unwrap();
        (g.per_lane.clone(), g.errors, g.messages.clone())
    }
}
