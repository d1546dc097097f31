//! Reading the JS options objects (JSON) that more than one file maps onto the core's
//! configuration: `serveHttp`'s own options (`http.rs`) and its `auth` options (`auth.rs`).

use serde_json::Value;

use crate::error::invalid;

/// The option `v` as a list of strings, or an invalid-argument error naming it (`what`).
pub(crate) fn strings(v: &Value, what: &str) -> napi::Result<Vec<String>> {
    v.as_array()
        .and_then(|a| a.iter().map(|s| s.as_str().map(String::from)).collect())
        .ok_or_else(|| invalid(format!("{what} must be an array of strings")))
}
