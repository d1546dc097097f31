//! The addon's version, the one of the whole workspace (`Cargo.toml`), which the npm packages carry
//! too: `lib/index.js` exports it as `version`.

use napi_derive::napi;

/// The version this addon was built as ("MAJOR.MINOR.PATCH").
#[napi]
pub fn engine_version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}
