//! The library version, as header macros and at run time.

use std::ffi::c_char;

/// Major version of the header (matches Cargo.toml; checked by a test).
pub const MCP_VERSION_MAJOR: u32 = 0;
/// Minor version of the header.
pub const MCP_VERSION_MINOR: u32 = 1;
/// Patch version of the header.
pub const MCP_VERSION_PATCH: u32 = 0;

/// The version of the loaded library ("MAJOR.MINOR.PATCH"), a static NUL-terminated string. Compare it
/// with `MCP_VERSION_STRING` (built from the header's `MCP_VERSION_*` macros) to detect a header/library mismatch. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_version_matches_cargo_toml() {
        assert_eq!(
            MCP_VERSION_MAJOR.to_string(),
            env!("CARGO_PKG_VERSION_MAJOR")
        );
        assert_eq!(
            MCP_VERSION_MINOR.to_string(),
            env!("CARGO_PKG_VERSION_MINOR")
        );
        assert_eq!(
            MCP_VERSION_PATCH.to_string(),
            env!("CARGO_PKG_VERSION_PATCH")
        );
        let runtime = unsafe { std::ffi::CStr::from_ptr(mcp_version()) };
        let header = format!("{MCP_VERSION_MAJOR}.{MCP_VERSION_MINOR}.{MCP_VERSION_PATCH}");
        assert_eq!(runtime.to_str().unwrap(), header);
    }
}
