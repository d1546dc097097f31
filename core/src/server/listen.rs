//! Change notifications. Modern clients open `subscriptions/listen` streams (acknowledged first, every
//! message tagged with the listen id); legacy sessions get list_changed notifications on their connection
//! and `resources/updated` for the URIs they subscribed to.

use std::sync::{Arc, Weak};

use serde_json::{Map, Value, json};

use super::answer::{add_server_info, send_answer, send_engine_error};
use super::change::Change;
use super::state::{Listener, Listeners, RequestContext, ServerInner, SessionShared};
use super::tasks::{self, TaskRecord};
use crate::error::RpcError;
use crate::jsonrpc::{self, RequestId};
use crate::meta;
use crate::outgoing::{OutKind, Outgoing};

impl Listener {
    fn wants(&self, change: &Change) -> bool {
        match change {
            Change::Tools => self.tools,
            Change::Prompts => self.prompts,
            Change::Resources => self.resources,
            Change::ResourceUpdated(uri) => self.uris.iter().any(|u| u == uri),
        }
    }

    fn session_is(&self, s: &SessionShared) -> bool {
        std::ptr::eq(Arc::as_ptr(&self.ctx.0.session), s)
    }
}

impl Listeners {
    /// Drops the listen stream with this id on this session (the client cancelled it).
    pub(crate) fn remove(&self, id: &RequestId, session: &SessionShared) {
        self.list
            .lock()
            .retain(|l| !(l.ctx.id() == id && l.session_is(session)));
    }

    /// Drops every listen stream of a closed session.
    pub(crate) fn remove_session(&self, session: &SessionShared) {
        self.list.lock().retain(|l| !l.session_is(session));
    }

    /// Sends a change to every stream that asked for it.
    pub(crate) fn broadcast(&self, change: &Change) {
        let targets: Vec<Arc<Listener>> = self
            .list
            .lock()
            .iter()
            .filter(|l| l.wants(change))
            .cloned()
            .collect();
        for l in targets {
            let mut params = Map::new();
            params.insert(
                "_meta".into(),
                json!({ meta::SUBSCRIPTION_ID: l.ctx.id().to_value() }),
            );
            if let Change::ResourceUpdated(uri) = change {
                params.insert("uri".into(), json!(uri));
            }
            let bytes = jsonrpc::encode_notification(change.method(), Some(&Value::Object(params)));
            l.ctx.0.sink.send(Outgoing {
                kind: OutKind::Notification,
                bytes,
            });
        }
    }

    /// Sends a task's DetailedTask (`notifications/tasks`) to the streams whose filter names it and
    /// whose principal owns it.
    pub(crate) fn broadcast_task(&self, record: &TaskRecord, detailed: Map<String, Value>) {
        let targets: Vec<Arc<Listener>> = self
            .list
            .lock()
            .iter()
            .filter(|l| l.task_ids.contains(&record.id))
            .filter(|l| record.owner.is_none() || record.owner == tasks::owner_of(&l.ctx))
            .cloned()
            .collect();
        for l in targets {
            let mut params = detailed.clone();
            params.insert(
                "_meta".into(),
                json!({ meta::SUBSCRIPTION_ID: l.ctx.id().to_value() }),
            );
            let bytes =
                jsonrpc::encode_notification("notifications/tasks", Some(&Value::Object(params)));
            l.ctx.0.sink.send(Outgoing {
                kind: OutKind::Notification,
                bytes,
            });
        }
    }

    /// Ends every stream gracefully with a final result (server shutdown).
    pub(crate) fn close_all(&self) {
        self.close_where(|_| true);
    }

    /// Ends the streams of one connection gracefully (its transport is closing).
    pub(crate) fn close_session(&self, session: &SessionShared) {
        self.close_where(|l| l.session_is(session));
    }

    fn close_where(&self, pick: impl Fn(&Listener) -> bool) {
        let closing: Vec<Arc<Listener>> = {
            let mut list = self.list.lock();
            let (closing, keep) = std::mem::take(&mut *list)
                .into_iter()
                .partition(|l| pick(l));
            *list = keep;
            closing
        };
        for l in closing {
            let mut obj = Map::new();
            obj.insert("resultType".into(), json!("complete"));
            add_server_info(&mut obj, &l.ctx.0.session.server.info);
            if let Some(Value::Object(m)) = obj.get_mut("_meta") {
                m.insert(meta::SUBSCRIPTION_ID.into(), l.ctx.id().to_value());
            }
            let bytes = jsonrpc::encode_result(l.ctx.id(), &Value::Object(obj));
            let msg = Outgoing {
                kind: OutKind::Result,
                bytes,
            };
            send_answer(&l.ctx, msg);
        }
    }
}

impl ServerInner {
    /// Adds a legacy session to those told of changes.
    pub(crate) fn remember_session(&self, s: &Arc<SessionShared>) {
        let mut list = self.legacy_sessions.lock();
        list.retain(|w| w.strong_count() > 0);
        if !list
            .iter()
            .any(|w| std::ptr::eq(w.as_ptr(), Arc::as_ptr(s)))
        {
            list.push(Arc::downgrade(s));
        }
    }

    /// Stops telling a closed legacy session of changes.
    pub(crate) fn forget_session(&self, s: &SessionShared) {
        self.legacy_sessions
            .lock()
            .retain(|w| w.strong_count() > 0 && !std::ptr::eq(w.as_ptr(), s));
    }

    /// Tells listen streams (modern) and initialized legacy sessions of a change.
    pub(crate) fn announce(&self, change: Change) {
        self.listeners.broadcast(&change);
        let sessions: Vec<Arc<SessionShared>> = self
            .legacy_sessions
            .lock()
            .iter()
            .filter_map(Weak::upgrade)
            .collect();
        for s in sessions {
            let wanted = match s.legacy.read().as_ref() {
                Some(l) if l.initialized => match &change {
                    Change::ResourceUpdated(uri) => l.subscriptions.contains(uri),
                    _ => true,
                },
                _ => false,
            };
            if wanted {
                let params = match &change {
                    Change::ResourceUpdated(uri) => Some(json!({ "uri": uri })),
                    _ => None,
                };
                let bytes = crate::jsonrpc::encode_notification(change.method(), params.as_ref());
                s.sink.send(crate::outgoing::Outgoing {
                    kind: crate::outgoing::OutKind::Notification,
                    bytes,
                });
            }
        }
    }
}

/// Opens a listen stream: validates the filter, acknowledges the honoured subset, and registers it.
pub(crate) fn listen(shared: &SessionShared, ctx: RequestContext) {
    let fail = |e: RpcError| send_engine_error(&ctx.0.sink, shared, &ctx.0.id, &ctx.0.cancel, &e);
    let Some(filter) = ctx.params().get("notifications").and_then(Value::as_object) else {
        return fail(RpcError::invalid_params(
            "notifications must be an object (the subscription filter)",
        ));
    };
    let flag = |k: &str| -> Result<bool, RpcError> {
        match filter.get(k) {
            None | Some(Value::Null) => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(RpcError::invalid_params(format!(
                "notifications.{k} must be a boolean"
            ))),
        }
    };
    let offers = shared.server.offers();
    let parsed = (|| -> Result<Listener, RpcError> {
        let uris = match filter.get("resourceSubscriptions") {
            None | Some(Value::Null) => vec![],
            Some(Value::Array(a)) => a
                .iter()
                .map(|u| u.as_str().map(str::to_string))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| {
                    RpcError::invalid_params(
                        "notifications.resourceSubscriptions must be an array of URIs",
                    )
                })?,
            Some(_) => {
                return Err(RpcError::invalid_params(
                    "notifications.resourceSubscriptions must be an array",
                ));
            }
        };
        let task_ids = match filter.get("taskIds") {
            None | Some(Value::Null) => vec![],
            // Task notifications are for clients that declared the extension (tasks extension,
            // "Required Capabilities").
            Some(_) if !(shared.server.offers_tasks() && tasks::client_takes_tasks(&ctx)) => {
                return Err(RpcError::missing_capability(
                    json!({"extensions": { tasks::EXTENSION: {} }}),
                ));
            }
            Some(Value::Array(a)) => a
                .iter()
                .map(|u| u.as_str().map(str::to_string))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| {
                    RpcError::invalid_params("notifications.taskIds must be an array of task ids")
                })?,
            Some(_) => {
                return Err(RpcError::invalid_params(
                    "notifications.taskIds must be an array",
                ));
            }
        };
        Ok(Listener {
            ctx: ctx.clone(),
            tools: flag("toolsListChanged")? && offers.tools,
            prompts: flag("promptsListChanged")? && offers.prompts,
            resources: flag("resourcesListChanged")? && offers.resources,
            uris: if offers.resources { uris } else { vec![] },
            task_ids,
        })
    })();
    let listener = match parsed {
        Ok(l) => l,
        Err(e) => return fail(e),
    };
    let mut honoured = Map::new();
    for (key, on) in [
        ("toolsListChanged", listener.tools),
        ("promptsListChanged", listener.prompts),
        ("resourcesListChanged", listener.resources),
    ] {
        if on {
            honoured.insert(key.into(), json!(true));
        }
    }
    if !listener.uris.is_empty() {
        honoured.insert("resourceSubscriptions".into(), json!(listener.uris));
    }
    if !listener.task_ids.is_empty() {
        honoured.insert("taskIds".into(), json!(listener.task_ids));
    }
    let ack = json!({
        "_meta": { meta::SUBSCRIPTION_ID: ctx.id().to_value() },
        "notifications": honoured,
    });
    // Registered under the lock before the acknowledgement is queued, so no change can slip between.
    let mut list = shared.server.listeners.list.lock();
    ctx.0.sink.send(Outgoing {
        kind: OutKind::Notification,
        bytes: jsonrpc::encode_notification("notifications/subscriptions/acknowledged", Some(&ack)),
    });
    list.push(Arc::new(listener));
}
