//! Cancellation (`notifications/cancelled`).

use serde::{Deserialize, Serialize};

use super::common::Meta;
use crate::RequestId;

/// Params of `notifications/cancelled`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CancelledNotificationParams {
    /// The request to cancel (required in 2026-07-28; optional in 2025-11-25, where tasks used another path).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<RequestId>,
    /// Why, for logs or display.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Notification metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl CancelledNotificationParams {
    /// Cancels `request_id`, optionally saying why.
    pub fn new(request_id: impl Into<RequestId>, reason: Option<String>) -> Self {
        CancelledNotificationParams {
            request_id: Some(request_id.into()),
            reason,
            meta: None,
        }
    }
}
