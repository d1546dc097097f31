//! `subscriptions/listen` (2026-07-28): opt-in change notifications on a long-lived request.

use serde::{Deserialize, Serialize};

use super::common::Meta;
use super::mrtr::ResultType;

/// The notification types a client opts in to (and, in the acknowledgement, those the server honours).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SubscriptionFilter {
    /// `notifications/tools/list_changed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools_list_changed: Option<bool>,
    /// `notifications/prompts/list_changed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompts_list_changed: Option<bool>,
    /// `notifications/resources/list_changed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources_list_changed: Option<bool>,
    /// `notifications/resources/updated` for these URIs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_subscriptions: Option<Vec<String>>,
    /// Tasks extension: `notifications/tasks` for these task ids (a client subscribing to a
    /// 2025-11-25 session gets the session's `notifications/tasks/status` of these tasks).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_ids: Option<Vec<String>>,
}

impl SubscriptionFilter {
    /// True when nothing is subscribed.
    pub fn is_empty(&self) -> bool {
        self.tools_list_changed != Some(true)
            && self.prompts_list_changed != Some(true)
            && self.resources_list_changed != Some(true)
            && self
                .resource_subscriptions
                .as_ref()
                .is_none_or(Vec::is_empty)
            && self.task_ids.as_ref().is_none_or(Vec::is_empty)
    }
}

/// Params of `subscriptions/listen`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SubscriptionsListenParams {
    /// What to deliver on this stream.
    pub notifications: SubscriptionFilter,
    /// Request metadata (required).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// Params of `notifications/subscriptions/acknowledged`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SubscriptionsAcknowledgedParams {
    /// The subset of the requested types the server will deliver.
    pub notifications: SubscriptionFilter,
    /// Notification metadata (carries the subscription id).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// The graceful final result of a `subscriptions/listen` request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SubscriptionsListenResult {
    /// Always `complete`.
    pub result_type: ResultType,
    /// Result metadata; must carry `io.modelcontextprotocol/subscriptionId`.
    #[serde(rename = "_meta")]
    pub meta: Meta,
}

impl SubscriptionsListenResult {
    /// The closing result of the listen request with id `subscription_id`.
    pub fn closed(subscription_id: &crate::RequestId) -> Self {
        let mut meta = Meta::new();
        meta.insert(
            super::meta_keys::SUBSCRIPTION_ID.into(),
            subscription_id.to_value(),
        );
        SubscriptionsListenResult {
            result_type: ResultType::Complete,
            meta,
        }
    }
}
