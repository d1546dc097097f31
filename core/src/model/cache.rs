//! Cache hints of cacheable results (SEP-2549): `ttlMs` and `cacheScope`.

use serde::{Deserialize, Serialize};

/// Who may reuse a cached result, like HTTP `Cache-Control: public` / `private`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CacheScope {
    /// Holds no user-specific data: any client or intermediary may share it across users.
    Public,
    /// Reusable only within the same authorization context.
    Private,
}

impl CacheScope {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            CacheScope::Public => "public",
            CacheScope::Private => "private",
        }
    }
}
