//! The server process `mcp_client_builder_connect_stdio` starts: where its stderr lines go
//! (`mcp_child_stderr`), its extra environment and its working directory.

use crate::child_stderr::mcp_child_stderr;
use crate::client_builder::mcp_client_builder;
use crate::status::mcp_status;

/// Chooses where the child's stderr lines go (`mode`: an `mcp_child_stderr` value; others are
/// `MCP_STATUS_INVALID_ARGUMENT`). Applies to `mcp_client_builder_connect_stdio`; nothing is
/// written to this process's stderr unless `MCP_CHILD_STDERR_FORWARD` is chosen.
/// `MCP_STATUS_ALREADY_USED` after connecting. Use the builder from one thread at a time.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_builder_set_child_stderr(
    builder: *mut mcp_client_builder,
    mode: u32,
) -> mcp_status {
    ffi_boundary!({
        let b = try_mut!(builder);
        if b.inner.is_none() {
            return mcp_status::MCP_STATUS_ALREADY_USED;
        }
        b.child_stderr = match mode {
            0 => mcp_child_stderr::MCP_CHILD_STDERR_LOG,
            1 => mcp_child_stderr::MCP_CHILD_STDERR_FORWARD,
            2 => mcp_child_stderr::MCP_CHILD_STDERR_DISCARD,
            _ => return mcp_status::MCP_STATUS_INVALID_ARGUMENT,
        };
        mcp_status::MCP_STATUS_OK
    })
}

/// Adds `name=value` (UTF-8, copied) to the environment the child server starts with, on top of
/// this process's (a later call with the same name wins). An empty name, or one holding `=` or NUL,
/// is `MCP_STATUS_INVALID_ARGUMENT`. `MCP_STATUS_ALREADY_USED` after connecting. Use the builder from
/// one thread at a time.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_builder_add_child_env(
    builder: *mut mcp_client_builder,
    name: *const std::ffi::c_char,
    name_len: usize,
    value: *const std::ffi::c_char,
    value_len: usize,
) -> mcp_status {
    ffi_boundary!({
        let b = try_mut!(builder);
        let name = try_str!(name, name_len);
        let value = try_str!(value, value_len);
        if b.inner.is_none() {
            return mcp_status::MCP_STATUS_ALREADY_USED;
        }
        if name.is_empty() || name.contains(['=', '\0']) || value.contains('\0') {
            return mcp_status::MCP_STATUS_INVALID_ARGUMENT;
        }
        b.child_env.push((name.to_owned(), value.to_owned()));
        mcp_status::MCP_STATUS_OK
    })
}

/// Sets the working directory the child server starts in (UTF-8, copied; `(NULL, 0)` restores this
/// process's). A relative program path given to `mcp_client_builder_connect_stdio` may then be
/// looked up from either directory: pass an absolute one. A directory that does not exist makes the
/// connect fail with `MCP_STATUS_TRANSPORT`. `MCP_STATUS_ALREADY_USED` after connecting.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_builder_set_child_cwd(
    builder: *mut mcp_client_builder,
    dir: *const std::ffi::c_char,
    dir_len: usize,
) -> mcp_status {
    ffi_boundary!({
        let b = try_mut!(builder);
        let dir = try_str!(dir, dir_len);
        if b.inner.is_none() {
            return mcp_status::MCP_STATUS_ALREADY_USED;
        }
        b.child_cwd = (!dir.is_empty()).then(|| std::path::PathBuf::from(dir));
        mcp_status::MCP_STATUS_OK
    })
}
