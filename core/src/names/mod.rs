//! Name and key rules: tool names (11.2), `_meta` keys (2.2), extension ids (9), and the
//! `x-mcp-header` annotation with its header value encoding (7).
//!
//! Every check returns a [`NameError`] saying which rule was broken, so a server can refuse to
//! register a bad tool and a client can log why it dropped one.

mod header;
#[cfg(test)]
mod tests;

pub use header::{
    HeaderKind, HeaderParam, decode_header_value, encode_header_value, x_mcp_header_params,
};

/// Longest tool name allowed, in characters.
pub const MAX_TOOL_NAME_LEN: usize = 128;

/// Which name rule was broken, and how.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NameError {
    /// A tool name breaks the 11.2 rules.
    #[error("invalid tool name {name:?}: {reason}")]
    ToolName {
        /// The offending name (shortened when very long).
        name: String,
        /// The rule broken.
        reason: String,
    },
    /// A `_meta` key breaks the 2.2 key syntax.
    #[error("invalid _meta key {key:?}: {reason}")]
    MetaKey {
        /// The offending key (shortened when very long).
        key: String,
        /// The rule broken.
        reason: String,
    },
    /// An extension id breaks the 9 rules (meta key syntax with a mandatory prefix).
    #[error("invalid extension id {id:?}: {reason}")]
    ExtensionId {
        /// The offending id (shortened when very long).
        id: String,
        /// The rule broken.
        reason: String,
    },
    /// An `x-mcp-header` annotation in a tool `inputSchema` breaks the 7 rules.
    #[error("invalid x-mcp-header at {location}: {reason}")]
    XMcpHeader {
        /// JSON Pointer to the annotated schema inside the `inputSchema`.
        location: String,
        /// The rule broken.
        reason: String,
    },
    /// A header value cannot be decoded, or an argument cannot be sent as a header.
    #[error("invalid header value: {0}")]
    HeaderValue(String),
}

/// Keeps error messages small when a caller hands us a huge string.
fn shown(s: &str) -> String {
    const MAX: usize = 80;
    match s.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}…", &s[..cut]),
        None => s.to_owned(),
    }
}

/// Checks a tool name: 1–128 characters from `A-Z a-z 0-9 _ - .` (case-sensitive).
pub fn validate_tool_name(name: &str) -> Result<(), NameError> {
    let fail = |reason: String| {
        Err(NameError::ToolName {
            name: shown(name),
            reason,
        })
    };
    if name.is_empty() {
        return fail("must not be empty".to_owned());
    }
    let len = name.chars().count();
    if len > MAX_TOOL_NAME_LEN {
        return fail(format!(
            "{len} characters, the limit is {MAX_TOOL_NAME_LEN}"
        ));
    }
    if let Some(c) = name
        .chars()
        .find(|&c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
    {
        return fail(format!(
            "character {c:?} is not allowed (only A-Z, a-z, 0-9, '_', '-' and '.')"
        ));
    }
    Ok(())
}

/// Checks a `_meta` key: an optional prefix (dot-separated labels, then `/`) and a name.
///
/// Labels start with a letter, end with a letter or digit, and contain letters, digits and `-`. The
/// name is empty or starts and ends with a letter or digit, with `-`, `_`, `.` allowed inside. The
/// empty key is refused. Unprefixed keys such as `progressToken` or `traceparent` are valid.
pub fn validate_meta_key(key: &str) -> Result<(), NameError> {
    check_key(key, false).map_err(|reason| NameError::MetaKey {
        key: shown(key),
        reason,
    })
}

/// Checks an extension id: `_meta` key syntax with a mandatory prefix (`com.example/feature`).
pub fn validate_extension_id(id: &str) -> Result<(), NameError> {
    check_key(id, true).map_err(|reason| NameError::ExtensionId {
        id: shown(id),
        reason,
    })
}

/// Whether a key's prefix is reserved for MCP: its second label is `modelcontextprotocol` or `mcp`.
///
/// `io.modelcontextprotocol/x`, `dev.mcp/x` and `com.mcp.tools/x` are reserved; `com.example.mcp/x`
/// and unprefixed keys are not. Labels compare ASCII case-insensitively, as DNS names do.
pub fn is_reserved_meta_key(key: &str) -> bool {
    let Some((prefix, _)) = key.split_once('/') else {
        return false;
    };
    prefix.split('.').nth(1).is_some_and(|label| {
        label.eq_ignore_ascii_case("modelcontextprotocol") || label.eq_ignore_ascii_case("mcp")
    })
}

fn check_key(key: &str, prefix_required: bool) -> Result<(), String> {
    if key.is_empty() {
        return Err("must not be empty".to_owned());
    }
    let name = match key.split_once('/') {
        Some((prefix, name)) => {
            if prefix.is_empty() {
                return Err("the prefix before '/' is empty".to_owned());
            }
            for (i, label) in prefix.split('.').enumerate() {
                check_label(label)
                    .map_err(|why| format!("prefix label {} ({label:?}) {why}", i + 1))?;
            }
            name
        }
        None if prefix_required => {
            return Err("a prefix is required, such as \"com.example/\"".to_owned());
        }
        None => key,
    };
    check_name(name)
}

fn check_label(label: &str) -> Result<(), &'static str> {
    let bytes = label.as_bytes();
    let (Some(&first), Some(&last)) = (bytes.first(), bytes.last()) else {
        return Err("is empty");
    };
    if !first.is_ascii_alphabetic() {
        return Err("must start with a letter");
    }
    if !last.is_ascii_alphanumeric() {
        return Err("must end with a letter or digit");
    }
    if !bytes
        .iter()
        .all(|&c| c.is_ascii_alphanumeric() || c == b'-')
    {
        return Err("may contain only letters, digits and '-'");
    }
    Ok(())
}

fn check_name(name: &str) -> Result<(), String> {
    let bytes = name.as_bytes();
    let (Some(&first), Some(&last)) = (bytes.first(), bytes.last()) else {
        return Ok(());
    };
    if name.contains('/') {
        return Err("only one '/' is allowed, between prefix and name".to_owned());
    }
    if !first.is_ascii_alphanumeric() || !last.is_ascii_alphanumeric() {
        return Err(format!(
            "the name {name:?} must start and end with a letter or digit"
        ));
    }
    if let Some(c) = name
        .chars()
        .find(|&c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')))
    {
        return Err(format!(
            "character {c:?} is not allowed in the name (letters, digits, '-', '_', '.')"
        ));
    }
    Ok(())
}
