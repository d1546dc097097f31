//! The skills extension (SEP-2640, `io.modelcontextprotocol/skills`) through the C ABI: an
//! `mcp_skill` (a `SKILL.md` and its other files, checked by the core's `Skill`) added to a server
//! builder or to a built server (and removed from it), and on the client `skills/list`, `skills/get` and verified reads of a skill's files
//! (`Client::list_all_skills`, `get_skill`, `read_skill_file`).

use std::ffi::c_char;

use libmcp::skills::{Skill, SkillEntry};
use serde_json::Value;

use crate::client::{mcp_client, run};
use crate::error::mcp_error;
use crate::runtime::block_on;
use crate::server::{mcp_server, mcp_server_builder};
use crate::status::mcp_status;
use crate::string::mcp_string;

/// A skill being put together: its `SKILL.md` and the other files of its directory. Single-threaded:
/// use it from one thread at a time. `mcp_server_builder_add_skill` consumes its contents; free the
/// handle afterwards either way with `mcp_skill_free`.
pub struct mcp_skill {
    inner: Option<Skill>,
}

/// Writes an `MCP_STATUS_INVALID_ARGUMENT` error with `message` to `error_out` (may be NULL).
fn invalid(message: String, error_out: *mut *mut mcp_error) -> mcp_status {
    mcp_error::new(mcp_status::MCP_STATUS_INVALID_ARGUMENT, message).store(error_out)
}

/// Creates a skill from the text of its `SKILL.md` (`skill_md_len` bytes of UTF-8, copied), whose
/// YAML frontmatter (between `---` lines at the top) must give a `name` (1-64 of a-z, 0-9 and `-`,
/// no leading, trailing or double `-`) and a non-empty `description`; the skill is served as
/// `skill://<name>/SKILL.md`. A text that breaks these rules is `MCP_STATUS_INVALID_ARGUMENT`, with
/// the reason (e.g. "the SKILL.md frontmatter has no description") in `*error_out` (may be NULL);
/// nothing is written to `*skill_out` then. Free with `mcp_skill_free`. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_skill_new(
    skill_md: *const c_char,
    skill_md_len: usize,
    skill_out: *mut *mut mcp_skill,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let text = try_str!(skill_md, skill_md_len);
        try_out!(skill_out);
        match Skill::new(text) {
            Ok(skill) => {
                let s = Box::new(mcp_skill { inner: Some(skill) });
                unsafe { *skill_out = Box::into_raw(s) };
                mcp_status::MCP_STATUS_OK
            }
            Err(reason) => invalid(reason, error_out),
        }
    })
}

/// Adds a file to the skill: `path` inside the skill's directory (UTF-8, relative, `/`-separated,
/// no empty, `.` or `..` segments, no `?`, `#` or `\`; served as `skill://<name>/<path>`), its MIME
/// type (UTF-8) and `content_len` bytes of content (any bytes; NULL with length 0 for an empty file).
/// All copied. A bad path, or one that collides with a file already added (the same path, or one
/// inside the other), is `MCP_STATUS_INVALID_ARGUMENT` with the reason in `*error_out` (may be
/// NULL), and the skill stays as it was; `MCP_STATUS_ALREADY_USED` once the skill was added to a
/// builder.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_skill_add_file(
    skill: *mut mcp_skill,
    path: *const c_char,
    path_len: usize,
    mime_type: *const c_char,
    mime_type_len: usize,
    content: *const u8,
    content_len: usize,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let s = try_mut!(skill);
        let path = try_str!(path, path_len);
        let mime_type = try_str!(mime_type, mime_type_len);
        let bytes: Vec<u8> = if content.is_null() {
            if content_len != 0 {
                return mcp_status::MCP_STATUS_NULL_PARAMETER;
            }
            Vec::new()
        } else {
            unsafe { std::slice::from_raw_parts(content, content_len) }.to_vec()
        };
        let Some(current) = s.inner.as_ref() else {
            return mcp_status::MCP_STATUS_ALREADY_USED;
        };
        // `Skill::file` consumes the skill; a clone keeps it intact when the file is refused.
        match current.clone().file(path, mime_type, bytes) {
            Ok(next) => {
                s.inner = Some(next);
                mcp_status::MCP_STATUS_OK
            }
            Err(reason) => invalid(reason, error_out),
        }
    })
}

/// Frees a skill (added to a builder or not). NULL is ignored. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_skill_free(skill: *mut mcp_skill) {
    ffi_boundary!((), {
        if !skill.is_null() {
            drop(unsafe { Box::from_raw(skill) });
        }
    })
}

/// Serves `skill` from the server being built: its files become `skill://<name>/<path>` resources,
/// the server declares the `io.modelcontextprotocol/skills` extension (with `directoryRead`) and
/// answers `skills/list`, `skills/get` and `resources/directory/read`. Consumes the skill's
/// contents (free the handle afterwards; adding it again is `MCP_STATUS_ALREADY_USED`). Two skills
/// of the same name, or a skill file whose URI another resource already has, make
/// `mcp_server_builder_build` fail with the reason.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_builder_add_skill(
    builder: *mut mcp_server_builder,
    skill: *mut mcp_skill,
) -> mcp_status {
    ffi_boundary!({
        let b = try_mut!(builder);
        let s = try_mut!(skill);
        if b.inner.is_none() {
            return mcp_status::MCP_STATUS_ALREADY_USED;
        }
        let Some(skill) = s.inner.take() else {
            return mcp_status::MCP_STATUS_ALREADY_USED;
        };
        crate::builder_slot::update(&mut b.inner, |inner| inner.skill(skill))
    })
}

/// Serves `skill` from a built server, even while it serves, replacing a skill of the same name, and
/// tells listening clients the resource list changed. On success the skill's contents are consumed
/// as by `mcp_server_builder_add_skill` (free the handle afterwards; adding it again is
/// `MCP_STATUS_ALREADY_USED`). A skill file whose URI another resource already has is
/// `MCP_STATUS_INVALID_ARGUMENT` with the reason in `*error_out` (may be NULL; written only on
/// failure); the server is then unchanged and the skill keeps its contents. Any thread, also from a
/// handler.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_add_skill(
    server: *const mcp_server,
    skill: *mut mcp_skill,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let srv = try_ref!(server);
        let s = try_mut!(skill);
        let Some(inner) = s.inner.as_ref() else {
            return mcp_status::MCP_STATUS_ALREADY_USED;
        };
        match srv.server.add_skill(inner.clone()) {
            Ok(()) => {
                s.inner = None;
                mcp_status::MCP_STATUS_OK
            }
            Err(e) => mcp_error::from_engine(&e).store(error_out),
        }
    })
}

/// Stops serving the skill `name` (its files' resources go with it) and tells listening clients the
/// resource list changed; writes whether there was one to `*removed_out` (may be NULL). Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_remove_skill(
    server: *const mcp_server,
    name: *const c_char,
    name_len: usize,
    removed_out: *mut bool,
) -> mcp_status {
    ffi_boundary!({
        crate::server_registry::remove(server, name, name_len, removed_out, |s, k| {
            s.remove_skill(k)
        })
    })
}

/// Lists every skill (`skills/list`, following pagination; reads no skill file) and writes the JSON
/// array of skill entries (`{"uri", "frontmatter", "resources"}`, as the server sent them) to
/// `*json_out`. A server without the skills extension answers with an error (usually
/// `MCP_STATUS_RPC_ERROR`, -32601). See `mcp_client_list_tools` for the contract.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_list_skills(
    client: *const mcp_client,
    json_out: *mut *mut mcp_string,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        run(client, json_out, error_out, |cl| async move {
            let skills = cl.list_all_skills().await?;
            Ok(serde_json::to_value(skills).unwrap_or(Value::Null))
        })
    })
}

/// `skills/get`: writes the entry of the skill whose `SKILL.md` is at `uri` (UTF-8, e.g.
/// `skill://pdf-processing/SKILL.md`) to `*json_out` as a JSON object. An unknown skill is the
/// server's error (`MCP_STATUS_RPC_ERROR`); an entry that is not one is `MCP_STATUS_PROTOCOL`. See
/// `mcp_client_list_tools` for the contract.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_get_skill(
    client: *const mcp_client,
    uri: *const c_char,
    uri_len: usize,
    json_out: *mut *mut mcp_string,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let uri = try_str!(uri, uri_len).to_owned();
        run(client, json_out, error_out, |cl| async move {
            let entry = cl.get_skill(&uri).await?;
            Ok(serde_json::to_value(entry).unwrap_or(Value::Null))
        })
    })
}

/// Reads the file at `uri` (UTF-8) of the skill that `entry` describes (a skill entry as JSON, one
/// item of `mcp_client_list_skills` or the result of `mcp_client_get_skill`) and writes its bytes
/// to `*bytes_out` (free with `mcp_bytes_free`) only once they match the entry: the size and
/// `sha256` digest it lists, and for `SKILL.md` the frontmatter. A mismatch is
/// `MCP_STATUS_PROTOCOL` with a message starting "skill verification failed" in `*error_out`, and
/// the content is dropped. An `entry` that is not a skill entry is `MCP_STATUS_INVALID_JSON`.
/// Blocks, like `mcp_client_list_tools`; not from a callback.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_read_skill_file(
    client: *const mcp_client,
    entry: *const c_char,
    entry_len: usize,
    uri: *const c_char,
    uri_len: usize,
    bytes_out: *mut *mut mcp_bytes,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let c = try_ref!(client);
        let entry: SkillEntry = match serde_json::from_value(try_json!(entry, entry_len)) {
            Ok(e) => e,
            Err(_) => return mcp_status::MCP_STATUS_INVALID_JSON,
        };
        let uri = try_str!(uri, uri_len).to_owned();
        try_out!(bytes_out);
        let cl = c.client.clone();
        let read = async move { cl.read_skill_file(&entry, &uri).await };
        match block_on(&c.rt, "mcp_client_read_skill_file", read) {
            Ok(Ok(bytes)) => {
                unsafe { *bytes_out = Box::into_raw(Box::new(mcp_bytes { bytes })) };
                mcp_status::MCP_STATUS_OK
            }
            Ok(Err(e)) => mcp_error::from_engine(&e).store(error_out),
            Err(e) => e.store(error_out),
        }
    })
}

/// Owned bytes returned by the library (a skill file's content, which need not be text). Read them
/// with `mcp_bytes_data` / `mcp_bytes_len`; release them with `mcp_bytes_free`, exactly once.
pub struct mcp_bytes {
    bytes: Vec<u8>,
}

/// The first byte of `bytes` (not NUL-terminated; never NULL, also when empty). Valid until
/// `mcp_bytes_free(bytes)`. Returns a pointer to an empty array when `bytes` is NULL. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_bytes_data(bytes: *const mcp_bytes) -> *const u8 {
    ffi_boundary!(c"".as_ptr().cast(), {
        match unsafe { bytes.as_ref() } {
            Some(b) if !b.bytes.is_empty() => b.bytes.as_ptr(),
            _ => c"".as_ptr().cast(),
        }
    })
}

/// The number of bytes; 0 when `bytes` is NULL. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_bytes_len(bytes: *const mcp_bytes) -> usize {
    ffi_boundary!(0, {
        match unsafe { bytes.as_ref() } {
            Some(b) => b.bytes.len(),
            None => 0,
        }
    })
}

/// Frees bytes returned by the library. NULL is ignored. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_bytes_free(bytes: *mut mcp_bytes) {
    ffi_boundary!((), {
        if !bytes.is_null() {
            drop(unsafe { Box::from_raw(bytes) });
        }
    })
}
