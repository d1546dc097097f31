//! Format recognition by magic bytes, against the icon allow-list.

use super::{IconError, IconKind, IconPolicy};

/// Recognises an image by its magic bytes alone and checks it against the allow-list.
pub fn sniff(bytes: &[u8], policy: &IconPolicy) -> Result<IconKind, IconError> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        return Ok(IconKind::Png);
    }
    if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        return Ok(IconKind::Jpeg);
    }
    if bytes.len() >= 12 && bytes.starts_with(b"RIFF") && &bytes[8..12] == b"WEBP" {
        return Ok(IconKind::Webp);
    }
    if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        return Err(IconError::DisallowedFormat("GIF"));
    }
    if bytes.starts_with(b"BM") {
        return Err(IconError::DisallowedFormat("BMP"));
    }
    if bytes.starts_with(&[0, 0, 1, 0]) {
        return Err(IconError::DisallowedFormat("ICO"));
    }
    if bytes.len() >= 12 && &bytes[4..8] == b"ftyp" {
        return Err(IconError::DisallowedFormat("ISO media (AVIF/HEIF)"));
    }
    if looks_like_svg(bytes) {
        return if policy.allow_svg {
            Ok(IconKind::Svg)
        } else {
            Err(IconError::SvgNotAllowed)
        };
    }
    Err(IconError::UnknownFormat)
}

/// True when the first element, after the XML declaration, comments and DOCTYPE, is `<svg`.
fn looks_like_svg(bytes: &[u8]) -> bool {
    let mut s = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    loop {
        s = s.trim_ascii_start();
        let skip_to = |s: &[u8], end: &[u8]| {
            s.windows(end.len())
                .position(|w| w == end)
                .map(|p| p + end.len())
        };
        let next = if s.starts_with(b"<?") {
            skip_to(s, b"?>")
        } else if s.starts_with(b"<!--") {
            skip_to(s, b"-->")
        } else if s.starts_with(b"<!") {
            skip_to(s, b">")
        } else {
            return s.starts_with(b"<svg")
                && matches!(s.get(4), Some(b' ' | b'\t' | b'\r' | b'\n' | b'>' | b'/'));
        };
        match next {
            Some(n) => s = &s[n..],
            None => return false,
        }
    }
}
