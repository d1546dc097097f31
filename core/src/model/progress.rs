//! Progress notifications (`notifications/progress`).

use serde::{Deserialize, Serialize};

use super::common::{Meta, ser_f64, ser_opt_f64};

/// A progress token: a string or an integer, chosen by the requester and unique among its active requests.
pub type ProgressToken = crate::RequestId;

/// Params of `notifications/progress`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProgressNotificationParams {
    /// The token from the request's `_meta.progressToken`.
    pub progress_token: ProgressToken,
    /// Progress so far; strictly increasing, may be fractional.
    #[serde(serialize_with = "ser_f64")]
    pub progress: f64,
    /// The total, if known.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "ser_opt_f64"
    )]
    pub total: Option<f64>,
    /// A human-readable status message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Notification metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl ProgressNotificationParams {
    /// Progress `progress` (of `total`, if known) for `token`.
    pub fn new(token: impl Into<ProgressToken>, progress: f64, total: Option<f64>) -> Self {
        ProgressNotificationParams {
            progress_token: token.into(),
            progress,
            total,
            message: None,
            meta: None,
        }
    }

    /// The same notification with a status message.
    pub fn with_message(mut self, message: impl Into<String>) -> Self {
        self.message = Some(message.into());
        self
    }
}
