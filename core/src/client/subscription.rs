//! Change notifications behind one API for both eras: a `subscriptions/listen` stream on modern
//! servers; on legacy servers, the session's list_changed notifications plus `resources/subscribe`.

use serde_json::{Value, json};
use tokio::sync::{mpsc, oneshot};

use super::Client;
use crate::error::{Error, Result};
use crate::jsonrpc::{self, Notification, RequestId};
use crate::meta;
use crate::transport::{OutKind, Outgoing};
use crate::version::Era;

/// What to be notified about.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SubscriptionFilter {
    /// `notifications/tools/list_changed`.
    pub tools_list_changed: bool,
    /// `notifications/prompts/list_changed`.
    pub prompts_list_changed: bool,
    /// `notifications/resources/list_changed`.
    pub resources_list_changed: bool,
    /// `notifications/resources/updated` for these URIs.
    pub resource_subscriptions: Vec<String>,
}

impl SubscriptionFilter {
    fn to_json(&self) -> Value {
        let mut v = json!({});
        if self.tools_list_changed {
            v["toolsListChanged"] = json!(true);
        }
        if self.prompts_list_changed {
            v["promptsListChanged"] = json!(true);
        }
        if self.resources_list_changed {
            v["resourcesListChanged"] = json!(true);
        }
        if !self.resource_subscriptions.is_empty() {
            v["resourceSubscriptions"] = json!(self.resource_subscriptions);
        }
        v
    }

    fn wants(&self, n: &Notification) -> bool {
        match n.method.as_str() {
            "notifications/tools/list_changed" => self.tools_list_changed,
            "notifications/prompts/list_changed" => self.prompts_list_changed,
            "notifications/resources/list_changed" => self.resources_list_changed,
            "notifications/resources/updated" => {
                let uri = n
                    .params
                    .as_ref()
                    .and_then(|p| p.get("uri"))
                    .and_then(Value::as_str);
                uri.is_some_and(|u| self.resource_subscriptions.iter().any(|s| s == u))
            }
            _ => false,
        }
    }
}

/// An open subscription. Dropping it ends the listen stream (modern) or unsubscribes (legacy).
pub struct Subscription {
    client: Client,
    listen_id: Option<RequestId>,
    filter: SubscriptionFilter,
    acknowledged: Value,
    rx: mpsc::UnboundedReceiver<Notification>,
    done: Option<oneshot::Receiver<std::result::Result<Value, crate::RpcError>>>,
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
            if self.done.is_some() || self.filter.wants(&n) {
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
        } else if !self.filter.resource_subscriptions.is_empty() {
            let client = self.client.clone();
            let uris = std::mem::take(&mut self.filter.resource_subscriptions);
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
    let (tx, mut rx) = mpsc::unbounded_channel();
    let conn = &client.conn;
    if client.era() == Era::Legacy {
        for uri in &filter.resource_subscriptions {
            client
                .request(
                    "resources/subscribe",
                    json!({ "uri": uri }),
                    &Default::default(),
                )
                .await?;
        }
        conn.legacy_subs.lock().push(tx);
        let acknowledged = filter.to_json();
        return Ok(Subscription {
            client: client.clone(),
            listen_id: None,
            filter,
            acknowledged,
            rx,
            done: None,
        });
    }
    // The listen request stays open for the life of the stream; it is sent without a timeout.
    let id = conn.next_id();
    conn.subs.lock().insert(id.clone(), tx);
    let mut done = conn.expect(id.clone());
    let version = client.server.read().version.clone();
    let mut params = json!({ "notifications": filter.to_json(), "_meta": {} });
    let m = &mut params["_meta"];
    m[meta::PROTOCOL_VERSION] = json!(version.as_str());
    m[meta::CLIENT_CAPABILITIES] = conn.handlers.capabilities();
    m[meta::CLIENT_INFO] = (*client.info).clone();
    let bytes = jsonrpc::encode_request(&id, "subscriptions/listen", Some(&params));
    if !conn.out.send(Outgoing {
        kind: OutKind::Request,
        bytes,
    }) {
        conn.subs.lock().remove(&id);
        return Err(Error::Transport("the connection is closed".into()));
    }
    let timeout = conn.config.request_timeout;
    let first = tokio::select! {
        n = tokio::time::timeout(timeout, rx.recv()) => n,
        answer = &mut done => {
            conn.subs.lock().remove(&id);
            return Err(match answer {
                Ok(Err(e)) => Error::Rpc(e),
                Ok(Ok(_)) => Error::Protocol("the listen stream ended before it was acknowledged".into()),
                Err(_) => Error::Transport("the connection closed".into()),
            });
        }
    };
    let acknowledged = match first {
        Ok(Some(n)) if n.method == "notifications/subscriptions/acknowledged" => n
            .params
            .as_ref()
            .and_then(|p| p.get("notifications"))
            .cloned()
            .unwrap_or(json!({})),
        Ok(Some(n)) => {
            conn.subs.lock().remove(&id);
            conn.forget(&id);
            return Err(Error::Protocol(format!(
                "the first message of a listen stream was {}, not the acknowledgement",
                n.method
            )));
        }
        Ok(None) => {
            return Err(Error::Transport(
                "the listen stream ended before it was acknowledged".into(),
            ));
        }
        Err(_) => {
            conn.subs.lock().remove(&id);
            conn.forget(&id);
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
