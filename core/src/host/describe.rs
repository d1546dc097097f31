//! What a connected client shows its host about the server: the era by name and the server
//! description as one JSON object, the same keys on every surface.

use serde_json::Value;

use crate::Era;
use crate::client::ServerDescription;

/// The era as hosts name it: `"legacy"` or `"modern"`.
pub fn era_name(era: Era) -> &'static str {
    match era {
        Era::Legacy => "legacy",
        Era::Modern => "modern",
    }
}

/// The description as JSON, by the core's `Serialize` of [`ServerDescription`]: `{"era",
/// "protocolVersion", "supportedVersions", "capabilities", "serverInfo", "instructions"}`, every key
/// present, `serverInfo` and `instructions` `null` when the server sent none (a C or JSON reader sees
/// the same keys whatever the server sent; Python reads `None`, Node `null`).
pub fn server_description(d: &ServerDescription) -> Value {
    // Infallible: every field is a string, a list of strings or a JSON value already.
    serde_json::to_value(d).unwrap_or(Value::Null)
}
