//! `NativeSubscription`: a core `Subscription` (a modern `subscriptions/listen` stream, or a legacy
//! session's notifications plus `resources/subscribe`) read one notification at a time.

use std::sync::Arc;

use libmcp::client::{Subscription, SubscriptionFilter};
use napi_derive::napi;
use serde_json::json;
use tokio::sync::watch;

use crate::client::NativeClient;
use crate::error::{engine, invalid, parse};

/// An open subscription; `close` ends it (the listen stream is closed, or the URIs unsubscribed).
#[napi]
pub struct NativeSubscription {
    inner: Arc<tokio::sync::Mutex<Option<Subscription>>>,
    acknowledged: String,
    closed: watch::Sender<bool>,
}

#[napi]
impl NativeClient {
    /// Subscribes to the notifications named by `filter` (JSON text: `toolsListChanged`,
    /// `promptsListChanged`, `resourcesListChanged`, `resourceSubscriptions`).
    #[napi]
    pub async fn subscribe(&self, filter: String) -> napi::Result<NativeSubscription> {
        let filter: SubscriptionFilter =
            serde_json::from_value(parse("subscription filter", &filter)?)
                .map_err(|e| invalid(format!("subscription filter: {e}")))?;
        let sub = self.client().subscribe(filter).await.map_err(engine)?;
        Ok(NativeSubscription {
            acknowledged: sub.acknowledged().to_string(),
            inner: Arc::new(tokio::sync::Mutex::new(Some(sub))),
            closed: watch::channel(false).0,
        })
    }
}

#[napi]
impl NativeSubscription {
    /// What the server agreed to deliver, as JSON text.
    #[napi(getter)]
    pub fn acknowledged(&self) -> String {
        self.acknowledged.clone()
    }

    /// The next notification as `{method, params}` JSON text, or `null` once the subscription ended.
    #[napi]
    pub async fn next(&self) -> Option<String> {
        let mut closed = self.closed.subscribe();
        let mut guard = self.inner.lock().await;
        let sub = guard.as_mut()?;
        tokio::select! {
            n = sub.next() => n.map(|n| json!({"method": n.method, "params": n.params}).to_string()),
            _ = closed.wait_for(|c| *c) => None,
        }
    }

    /// Ends the subscription; a pending `next` resolves to `null`.
    #[napi]
    pub async fn close(&self) {
        self.closed.send_replace(true);
        self.inner.lock().await.take();
    }
}
