//! Display and audience hints on content and resources ([`Annotations`]) and the [`Role`] they name
//! (public paths: `model::content::{Annotations, Role}`).

use serde::{Deserialize, Serialize};

use super::common::ser_opt_f64;

/// The sender or recipient of a message, and the audience of annotated data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The human user (or the client acting for them).
    User,
    /// The model.
    Assistant,
}

/// Hints for the client about how to use or display an object.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Annotations {
    /// Who the data is meant for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audience: Option<Vec<Role>>,
    /// Importance from 0 (least) to 1 (most).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "ser_opt_f64"
    )]
    pub priority: Option<f64>,
    /// When the underlying data last changed (ISO 8601).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_modified: Option<String>,
}
