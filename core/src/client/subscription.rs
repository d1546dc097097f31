//! Change notifications behind one API for both eras: a `subscriptions/listen` stream on modern
//! servers; on legacy servers, the session's list_changed notifications plus `resources/subscribe`.
//! Task status too: a filter naming tasks declares the tasks extension on the listen request and
//! receives their `notifications/tasks` (modern), or picks their `notifications/tasks/status` out of
//! the session's notifications (2025-11-25); [`task_of`] reads either as a [`Task`].

use serde_json::{Value, json};
use tokio::sync::{mpsc, oneshot};

use super::handle::Client;
use crate::error::{Error, Result};
use crate::jsonrpc::{self, Notification, RequestId};
use crate::model::Task;
use crate::transport::{OutKind, Outgoing};
use crate::version::Era;

pub use crate::model::SubscriptionFilter;

/// Whether a legacy session notification falls under the filter.
fn wants(filter: &SubscriptionFilter, n: &Notification) -> bool {
    let on = |f: Option<bool>| f == Some(true);
    // Whether the params' string `key` is one of `listed`.
    let named = |key: &str, listed: &Option<Vec<String>>| {
        let value = n
            .params
            .as_ref()
            .and_then(|p| p.get(key))
            .and_then(Value::as_str);
        let listed = listed.as_deref().unwrap_or_default();
        value.is_some_and(|v| listed.iter().any(|l| l == v))
    };
    match n.method.as_str() {
        "notifications/tools/list_changed" => on(filter.tools_list_changed),
        "notifications/prompts/list_changed" => on(filter.prompts_list_changed),
        "notifications/resources/list_changed" => on(filter.resources_list_changed),
        "notifications/resources/updated" => named("uri", &filter.resource_subscriptions),
        // 2025-11-25 tasks: the session's status notifications of the named tasks.
        "notifications/tasks/status" => named("taskId", &filter.task_ids),
        _ => false,
    }
}

/// The task a task status notification carries: `notifications/tasks` (modern, the DetailedTask) or
/// `notifications/tasks/status` (2025-11-25, the Task). `None` for any other notification; an
/// error when the params are not a task.
pub fn task_of(n: &Notification) -> Option<Result<Task>> {
    if n.method != "notifications/tasks" && n.method != "notifications/tasks/status" {
        return None;
    }
    let params = n.params.clone().unwrap_or(Value::Null);
    Some(
        serde_json::from_value(params)
            .map_err(|e| Error::Protocol(format!("{} does not carry a task: {e}", n.method))),
    )
}

/// An open subscription. Dropping it ends the listen stream (modern) or unsubscribes (legacy).
pub struct Subscription {
    client: Client,
    listen_id: Option<RequestId>,
    filter: SubscriptionFilter,
    acknowledged: Value,
    rx: mpsc::UnboundedReceiver<Notification>,
    done: Option<oneshot::Receiver<Result<Value>>>,
}

impl Subscription {
    /// The subset the server agreed to deliver (the acknowledgement's `notifications`).
    pub fn acknowledged(&self) -> &Value {
        &self.acknowledged
    }

    /// The next notification (method and params), or `None` once the subscription has ended.
    pub async fn next(&mut self) -> Option<Notification> {
        loop {
            let n = match &mut self.done {
                Some(done) => tokio::select! {
                    n = self.rx.recv() => n?,
                    _ = done => {
                        // The server ended the stream with its final result (or the connection closed).
                        self.done = None;
                        self.listen_id = None;
                        return None;
                    }
                },
                None => self.rx.recv().await?,
            };
            if self.done.is_some() || wants(&self.filter, &n) {
                return Some(n);
            }
        }
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        let conn = &self.client.conn;
        if let Some(id) = &self.listen_id {
            conn.subs.lock().remove(id);
            conn.forget(id);
            conn.notify(
                "notifications/cancelled",
                Some(&json!({ "requestId": id.to_value() })),
            );
        } else if let Some(uris) = self
            .filter
            .resource_subscriptions
            .take()
            .filter(|u| !u.is_empty())
        {
            let client = self.client.clone();
            if let Ok(rt) = tokio::runtime::Handle::try_current() {
                rt.spawn(async move {
                    for uri in uris {
                        let _ = client
                            .request(
                                "resources/unsubscribe",
                                json!({ "uri": uri }),
                                &Default::default(),
                            )
                            .await;
                    }
                });
            }
        }
    }
}

pub(crate) async fn open(client: &Client, filter: SubscriptionFilter) -> Result<Subscription> {
    open_within(client, filter, client.conn.config.request_timeout).await
}

/// [`open`], waiting at most `timeout` for a modern server's acknowledgement ([`Error::Timeout`]
/// after it; the listen request is then cancelled).
pub(crate) async fn open_within(
    client: &Client,
    filter: SubscriptionFilter,
    timeout: std::time::Duration,
) -> Result<Subscription> {
    let (tx, mut rx) = mpsc::unbounded_channel();
    let conn = &client.conn;
    if client.era() == Era::Legacy {
        for uri in filter.resource_subscriptions.iter().flatten() {
            client
                .request(
                    "resources/subscribe",
                    json!({ "uri": uri }),
                    &Default::default(),
                )
                .await?;
        }
        conn.legacy_subs.lock().push(tx);
        let acknowledged = serde_json::to_value(&filter).unwrap_or_default();
        return Ok(Subscription {
            client: client.clone(),
            listen_id: None,
            filter,
            acknowledged,
            rx,
            done: None,
        });
    }
    // A filter naming tasks declares the tasks extension, under which the server sends their
    // `notifications/tasks` on this stream.
    let tasks = filter.task_ids.is_some();
    let version = client.server.read().version.clone();
    let params = json!({
        "notifications": filter,
        "_meta": client.modern_meta(&version, tasks),
    });
    // The listen request stays open for the life of the stream; it is sent without a timeout.
    let id = conn.next_id();
    conn.subs.lock().insert(id.clone(), tx);
    let mut done = conn.expect(id.clone());
    let bytes = jsonrpc::encode_request(&id, "subscriptions/listen", Some(&params));
    if !conn.send(Outgoing {
        kind: OutKind::Request,
        bytes,
    }) {
        conn.subs.lock().remove(&id);
        return Err(Error::Closed);
    }
    let first = tokio::select! {
        n = tokio::time::timeout(timeout, rx.recv()) => n,
        answer = &mut done => {
            conn.subs.lock().remove(&id);
            return Err(match answer {
                Ok(Err(e)) => e,
                Ok(Ok(_)) => Error::Protocol("the listen stream ended before it was acknowledged".into()),
                Err(_) => Error::Closed,
            });
        }
    };
    // Gives the stream up: forgotten here, and cancelled so the server frees it.
    let abandon = || {
        conn.subs.lock().remove(&id);
        conn.forget(&id);
        conn.notify(
            "notifications/cancelled",
            Some(&json!({ "requestId": id.to_value() })),
        );
    };
    let acknowledged = match first {
        Ok(Some(n)) if n.method == "notifications/subscriptions/acknowledged" => n
            .params
            .as_ref()
            .and_then(|p| p.get("notifications"))
            .cloned()
            .unwrap_or(json!({})),
        Ok(Some(n)) => {
            abandon();
            return Err(Error::Protocol(format!(
                "the first message of a listen stream was {}, not the acknowledgement",
                n.method
            )));
        }
        Ok(None) => {
            return Err(Error::transport(
                "the listen stream ended before it was acknowledged",
            ));
        }
        Err(_) => {
            abandon();
            return Err(Error::Timeout(timeout));
        }
    };
    Ok(Subscription {
        client: client.clone(),
        listen_id: Some(id),
        filter,
        acknowledged,
        rx,
        done: Some(done),
    })
}
