//! The threads that run Python handlers: each keeps the GIL across the calls queued for it.
//!
//! Handing every call to its own blocking thread (tokio's `spawn_blocking`) makes the threads take
//! the GIL in turn, one hand-off per call; with many calls in flight the hand-offs cost more than the
//! Python they run. Here a worker that finds calls waiting takes the GIL once and runs them back to
//! back, giving it up only when the queue is empty (the interpreter still lets other threads in while
//! a handler runs Python, as for any thread).
//!
//! Handlers may block (on I/O, a lock, a sleep). A watcher thread adds a worker when calls are
//! waiting and no call has finished for [`STALL`]: the workers are stuck, not merely busy. Busy
//! workers that still finish calls get no company, since a second thread on a GIL-bound load only
//! adds hand-offs; nor do workers waiting for the GIL (another thread holds it: one more worker
//! would wait as well). Workers idle for [`IDLE_EXIT`] leave. A child after `fork` gets a fresh pool (the
//! parent's threads do not exist there), as the runtime does (`runtime.rs`).

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::{Condvar, Mutex};
use pyo3::prelude::*;

/// One call to run with the GIL held.
pub type Job = Box<dyn FnOnce(Python<'_>) + Send>;

/// How long waiting calls may see no call finish before another worker is started.
const STALL: Duration = Duration::from_millis(4);
/// How long a worker waits for a call before it leaves.
const IDLE_EXIT: Duration = Duration::from_secs(20);
/// The most workers at once (as tokio's blocking pool).
const MAX_WORKERS: usize = 512;

#[derive(Default)]
struct State {
    queue: VecDeque<Job>,
    workers: usize,
    idle: usize,
    /// Workers waiting for the GIL before their first queued call: while one is, another would
    /// wait too (the GIL is busy, not the workers).
    acquiring: usize,
    /// When a call last finished, or the queue last went from empty to not empty.
    progress: Option<Instant>,
    /// The watcher sleeps without a deadline (nothing queued, nobody busy) and must be woken.
    watcher_asleep: bool,
    watcher: bool,
    stopped: bool,
}

struct Pool {
    state: Mutex<State>,
    work: Condvar,
    watch: Condvar,
    finished: Condvar,
}

static POOL: Mutex<Option<(u32, Arc<Pool>)>> = Mutex::new(None);

fn pool() -> Arc<Pool> {
    let pid = std::process::id();
    let mut slot = POOL.lock();
    match &*slot {
        Some((p, pool)) if *p == pid => pool.clone(),
        _ => {
            let pool = Arc::new(Pool {
                state: Mutex::new(State::default()),
                work: Condvar::new(),
                watch: Condvar::new(),
                finished: Condvar::new(),
            });
            if let Some(inherited) = slot.replace((pid, pool.clone())) {
                // Its mutexes may have been held by a thread of the parent's.
                std::mem::forget(inherited);
            }
            pool
        }
    }
}

/// Queues `job` to run on a worker with the GIL held. After [`stop`] it is dropped unrun (what it
/// owns is dropped, e.g. a responder, which answers for itself).
pub fn run(job: Job) {
    let pool = pool();
    let mut st = pool.state.lock();
    if st.stopped {
        return;
    }
    if st.queue.is_empty() {
        st.progress = Some(Instant::now());
    }
    st.queue.push_back(job);
    if st.idle > 0 {
        pool.work.notify_one();
    } else if st.workers == 0 {
        spawn_worker(&pool, &mut st);
    }
    if !st.watcher {
        st.watcher = true;
        let p = pool.clone();
        if std::thread::Builder::new()
            .name("libmcp-py-watch".into())
            .spawn(move || watch(&p))
            .is_err()
        {
            st.watcher = false;
        }
    } else if st.watcher_asleep {
        st.watcher_asleep = false;
        pool.watch.notify_one();
    }
}

fn spawn_worker(pool: &Arc<Pool>, st: &mut State) {
    let p = pool.clone();
    match std::thread::Builder::new()
        .name("libmcp-py".into())
        .spawn(move || work(&p))
    {
        Ok(_) => st.workers += 1,
        Err(e) => tracing::warn!("cannot start a thread for Python handlers: {e}"),
    }
}

fn work(pool: &Pool) {
    loop {
        {
            let mut st = pool.state.lock();
            while st.queue.is_empty() && !st.stopped {
                st.idle += 1;
                let timed_out = pool.work.wait_for(&mut st, IDLE_EXIT).timed_out();
                st.idle -= 1;
                if timed_out && st.queue.is_empty() {
                    st.workers -= 1;
                    return;
                }
            }
            if st.stopped {
                st.workers -= 1;
                pool.finished.notify_all();
                return;
            }
            st.acquiring += 1;
        }
        Python::attach(|py| {
            let mut ran = false;
            let mut first = true;
            loop {
                let job = {
                    let mut st = pool.state.lock();
                    if ran {
                        st.progress = Some(Instant::now());
                    }
                    if first {
                        first = false;
                        st.acquiring -= 1;
                    }
                    if st.stopped {
                        return;
                    }
                    match st.queue.pop_front() {
                        Some(job) => job,
                        None => return,
                    }
                };
                job(py);
                ran = true;
            }
        });
    }
}

/// Adds a worker whenever calls wait and none has finished for [`STALL`]; sleeps while there is
/// nothing to watch.
fn watch(pool: &Arc<Pool>) {
    let mut st = pool.state.lock();
    while !st.stopped {
        let busy = st.workers - st.idle;
        if st.queue.is_empty() && busy == 0 {
            st.watcher_asleep = true;
            pool.watch.wait(&mut st);
            continue;
        }
        pool.watch.wait_for(&mut st, STALL);
        let stalled = st
            .progress
            .is_some_and(|t| t.elapsed() >= STALL && !st.queue.is_empty());
        if stalled && st.idle == 0 && st.acquiring == 0 && st.workers < MAX_WORKERS {
            spawn_worker(pool, &mut st);
            // Give the new worker a full period before judging again.
            st.progress = Some(Instant::now());
        }
    }
}

/// Stops the pool (at interpreter exit): queued calls are dropped, and calls running get up to
/// `grace` to finish. The caller must not hold the GIL (running calls may need it).
pub fn stop(grace: Duration) {
    let Some((pid, pool)) = POOL.lock().clone() else {
        return;
    };
    if pid != std::process::id() {
        return;
    }
    let dropped = {
        let mut st = pool.state.lock();
        st.stopped = true;
        pool.work.notify_all();
        pool.watch.notify_all();
        std::mem::take(&mut st.queue)
    };
    drop(dropped);
    let deadline = Instant::now() + grace;
    let mut st = pool.state.lock();
    while st.workers > 0 {
        if pool.finished.wait_until(&mut st, deadline).timed_out() {
            break;
        }
    }
}
