//! A request's cancellation signal, which also records who claimed the request's one answer.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tokio::sync::Notify;

/// A request's cancellation signal, set by `notifications/cancelled`, a closed stream, shutdown, or
/// the end of `handler_timeout`. It also records whether the request's one answer has been claimed.
#[derive(Clone, Default, Debug)]
pub struct CancelFlag(pub(crate) Arc<(AtomicBool, Notify, AtomicBool)>);

impl CancelFlag {
    /// Marks the request cancelled and wakes every waiter.
    pub fn cancel(&self) {
        self.0.0.store(true, Ordering::SeqCst);
        self.0.1.notify_waiters();
    }

    /// Whether the request was cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.0.0.load(Ordering::SeqCst)
    }

    /// Claims the request's one answer: true for the first caller only (the handler's answer, or
    /// the engine's once `handler_timeout` has passed), who then sends it. Wakes a waiting deadline.
    pub(crate) fn claim_answer(&self) -> bool {
        let first = !self.0.2.swap(true, Ordering::SeqCst);
        self.0.1.notify_waiters();
        first
    }

    /// Resolves once the request's answer is claimed or the request is cancelled.
    pub(crate) async fn answered_or_cancelled(&self) {
        loop {
            let notified = self.0.1.notified();
            if self.is_cancelled() || self.0.2.load(Ordering::SeqCst) {
                return;
            }
            notified.await;
        }
    }

    /// Resolves once the request is cancelled.
    pub async fn cancelled(&self) {
        loop {
            let notified = self.0.1.notified();
            if self.is_cancelled() {
                return;
            }
            notified.await;
        }
    }
}
