//! `file://` URIs for roots (RFC 8089 over RFC 3986): built from a local path with every byte outside
//! a path segment's allowed characters percent-encoded, and parsed back into the path.
//!
//! ```
//! use std::path::Path;
//! let uri = libmcp::file_uri::from_path(Path::new("/tmp/dir with space#1%")).unwrap();
//! assert_eq!(uri, "file:///tmp/dir%20with%20space%231%25");
//! assert_eq!(libmcp::file_uri::to_path(&uri).unwrap(), Path::new("/tmp/dir with space#1%"));
//! ```

use std::ffi::OsString;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

/// Why a path or URI was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FileUriError {
    /// A `file://` URI names an absolute path; this one was relative.
    #[error("{0:?} is not an absolute path")]
    NotAbsolute(PathBuf),
    /// The text is not a `file:` URI of a local path.
    #[error("{uri:?} is not a file URI of a local path: {why}")]
    NotFileUri {
        /// The text given.
        uri: String,
        /// What is wrong with it.
        why: &'static str,
    },
}

/// Whether RFC 3986 lets `b` appear unencoded in a path (`pchar` or `/`).
fn path_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/".contains(&b)
}

/// The `file://` URI of the absolute path `path` (empty authority, bytes outside `pchar` encoded).
pub fn from_path(path: &Path) -> Result<String, FileUriError> {
    if !path.is_absolute() {
        return Err(FileUriError::NotAbsolute(path.to_path_buf()));
    }
    let mut uri = String::from("file://");
    for &b in path.as_os_str().as_bytes() {
        if path_char(b) {
            uri.push(b as char);
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    Ok(uri)
}

/// The local path a `file:` URI names: `file:///p`, `file://localhost/p` or `file:/p`, percent-decoded;
/// a query or fragment is not part of the path.
pub fn to_path(uri: &str) -> Result<PathBuf, FileUriError> {
    let bad = |why| FileUriError::NotFileUri {
        uri: uri.to_owned(),
        why,
    };
    let scheme_len = "file:".len();
    if uri.len() < scheme_len || !uri[..scheme_len].eq_ignore_ascii_case("file:") {
        return Err(bad("the scheme is not file"));
    }
    let rest = &uri[scheme_len..];
    let rest = rest.split(['?', '#']).next().unwrap_or("");
    let path = match rest.strip_prefix("//") {
        Some(after) => {
            let slash = after.find('/').unwrap_or(after.len());
            let host = &after[..slash];
            if !(host.is_empty() || host.eq_ignore_ascii_case("localhost")) {
                return Err(bad("it names another host"));
            }
            &after[slash..]
        }
        None => rest,
    };
    if !path.starts_with('/') {
        return Err(bad("the path is not absolute"));
    }
    let mut bytes = Vec::with_capacity(path.len());
    let mut it = path.bytes();
    while let Some(b) = it.next() {
        if b != b'%' {
            bytes.push(b);
            continue;
        }
        let hex = [it.next(), it.next()];
        let digit = |c: Option<u8>| c.and_then(|c| (c as char).to_digit(16));
        match (digit(hex[0]), digit(hex[1])) {
            (Some(hi), Some(lo)) => bytes.push((hi * 16 + lo) as u8),
            _ => return Err(bad("a % is not followed by two hex digits")),
        }
    }
    if bytes.contains(&0) {
        return Err(bad("the path holds a NUL byte"));
    }
    Ok(PathBuf::from(OsString::from_vec(bytes)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_what_a_path_segment_cannot_hold() {
        let cases = [
            ("/", "file:///"),
            ("/tmp/a-b_c.d~e", "file:///tmp/a-b_c.d~e"),
            (
                "/x/dir with space#1%",
                "file:///x/dir%20with%20space%231%25",
            ),
            ("/q?a=b", "file:///q%3Fa=b"),
            ("/caf\u{e9}/[1]", "file:///caf%C3%A9/%5B1%5D"),
            ("/a\\b\"c", "file:///a%5Cb%22c"),
        ];
        for (path, uri) in cases {
            assert_eq!(from_path(Path::new(path)).unwrap(), uri, "{path}");
            assert_eq!(to_path(uri).unwrap(), Path::new(path), "{uri}");
        }
        let raw = OsString::from_vec(vec![b'/', 0xff, b'a']);
        assert_eq!(from_path(Path::new(&raw)).unwrap(), "file:///%FFa");
        assert_eq!(to_path("file:///%FFa").unwrap(), Path::new(&raw));
        assert!(matches!(
            from_path(Path::new("rel/dir")),
            Err(FileUriError::NotAbsolute(_))
        ));
    }

    #[test]
    fn parses_the_forms_rfc_8089_allows() {
        for uri in [
            "file:///srv/x%20y",
            "file://localhost/srv/x%20y",
            "FILE:/srv/x%20y",
            "file:///srv/x%20y#frag",
            "file:///srv/x%20y?q",
        ] {
            assert_eq!(to_path(uri).unwrap(), Path::new("/srv/x y"), "{uri}");
        }
        for uri in [
            "http://h/x",
            "file://other/x",
            "file:relative",
            "file:///bad%2",
            "file:///bad%zz",
            "file:///nul%00",
        ] {
            assert!(to_path(uri).is_err(), "{uri}");
        }
    }
}
