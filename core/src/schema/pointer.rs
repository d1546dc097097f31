//! JSON Pointers (RFC 6901) as schema and instance locations.

/// A JSON Pointer token for `key` (RFC 6901: `~` as `~0`, `/` as `~1`).
pub(super) fn escape(key: &str) -> std::borrow::Cow<'_, str> {
    if key.contains(['~', '/']) {
        key.replace('~', "~0").replace('/', "~1").into()
    } else {
        key.into()
    }
}

/// A pointer as error messages show it: `(root)` for the empty one.
pub(super) fn display_pointer(pointer: &str) -> &str {
    if pointer.is_empty() {
        "(root)"
    } else {
        pointer
    }
}
