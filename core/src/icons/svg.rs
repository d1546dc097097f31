//! A conservative SVG sanitizer: a small XML tokenizer that strips what is safe to strip and rejects
//! the whole icon for everything else. It never rewrites markup it does not understand.

use super::IconError;

/// Elements that run code, embed other documents or pull in HTML; compared case-insensitively.
const DENIED_ELEMENTS: &[&str] = &[
    "script",
    "foreignobject",
    "iframe",
    "embed",
    "object",
    "handler",
    "listener",
    "audio",
    "video",
];

fn unsafe_svg(reason: impl Into<String>) -> IconError {
    IconError::UnsafeSvg(reason.into())
}

/// Sanitizes an SVG document for display.
///
/// Stripped: event-handler attributes (`on*`) and a `<!DOCTYPE>` without an internal subset.
/// Rejected (the whole icon): `<script>`, `<foreignObject>` and other embedding elements; a DOCTYPE
/// with an internal subset, `<!ENTITY>` or any other `<!` declaration; processing instructions other
/// than the XML declaration; any attribute value mentioning `javascript:`, `vbscript:` or
/// `data:text/html`; `href`/`xlink:href` other than `#fragment` or a PNG/JPEG/WebP `data:` image;
/// CSS `url(...)` with such targets, `@import` or `expression(`; animations that target `href`;
/// unquoted attributes, unterminated markup and invalid UTF-8. Nested SVG images in `data:` links are
/// refused, as their content is not inspected.
pub fn sanitize_svg(bytes: &[u8]) -> Result<Vec<u8>, IconError> {
    let text = std::str::from_utf8(bytes).map_err(|_| unsafe_svg("not UTF-8"))?;
    let mut out = String::with_capacity(text.len());
    let mut in_style = false;
    let mut i = 0;
    while i < text.len() {
        let rest = &text[i..];
        let len = if !rest.starts_with('<') {
            let len = rest.find('<').unwrap_or(rest.len());
            if in_style {
                check_css(&rest[..len])?;
            }
            out.push_str(&rest[..len]);
            len
        } else if rest.starts_with("<!--") {
            copy_until(&mut out, rest, "-->")?
        } else if let Some(body) = rest.strip_prefix("<![CDATA[") {
            let len = copy_until(&mut out, rest, "]]>")?;
            if in_style {
                check_css(&body[..len - 12])?;
            }
            len
        } else if starts_with_ci(rest, "<!doctype") {
            let end = rest
                .find('>')
                .ok_or_else(|| unsafe_svg("unterminated DOCTYPE"))?;
            if rest[..end].contains('[') {
                return Err(unsafe_svg("DOCTYPE with an internal subset"));
            }
            end + 1
        } else if rest.starts_with("<!") {
            return Err(unsafe_svg("markup declaration (such as <!ENTITY>)"));
        } else if rest.starts_with("<?") {
            let end = rest
                .find("?>")
                .ok_or_else(|| unsafe_svg("unterminated <?"))?;
            let pi = &rest[..end];
            if !(pi == "<?xml" || pi.starts_with("<?xml ")) {
                return Err(unsafe_svg("processing instruction"));
            }
            copy_until(&mut out, rest, "?>")?
        } else if rest.starts_with("</") {
            let len = copy_until(&mut out, rest, ">")?;
            if local_name(rest[2..len - 1].trim()).eq_ignore_ascii_case("style") {
                in_style = false;
            }
            len
        } else {
            let tag = start_tag(rest)?;
            if tag.name.eq_ignore_ascii_case("style") && !tag.self_closing {
                in_style = true;
            }
            let mut from = 0;
            for (start, end) in tag.stripped {
                out.push_str(&rest[from..start]);
                from = end;
            }
            out.push_str(&rest[from..tag.len]);
            tag.len
        };
        i += len;
    }
    Ok(out.into_bytes())
}

/// Copies `rest` through the end of `terminator`, returning the length copied.
fn copy_until(out: &mut String, rest: &str, terminator: &str) -> Result<usize, IconError> {
    let end = rest
        .find(terminator)
        .ok_or_else(|| unsafe_svg(format!("unterminated markup (missing {terminator})")))?
        + terminator.len();
    out.push_str(&rest[..end]);
    Ok(end)
}

fn starts_with_ci(s: &str, prefix: &str) -> bool {
    s.get(..prefix.len())
        .is_some_and(|p| p.eq_ignore_ascii_case(prefix))
}

/// The name without its namespace prefix.
fn local_name(name: &str) -> &str {
    name.rsplit(':').next().unwrap_or(name)
}

struct StartTag<'a> {
    len: usize,
    name: &'a str,
    self_closing: bool,
    /// Byte ranges (including leading whitespace) of attributes to drop.
    stripped: Vec<(usize, usize)>,
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// Parses and checks `<name attr="v" ...>` at the start of `s`.
fn start_tag(s: &str) -> Result<StartTag<'_>, IconError> {
    let b = s.as_bytes();
    let name_end = b[1..]
        .iter()
        .position(|&c| is_space(c) || c == b'/' || c == b'>')
        .map_or(b.len(), |p| p + 1);
    let name = local_name(&s[1..name_end]);
    if name.is_empty() {
        return Err(unsafe_svg("malformed tag"));
    }
    if DENIED_ELEMENTS.iter().any(|d| name.eq_ignore_ascii_case(d)) {
        return Err(unsafe_svg(format!("<{name}> element")));
    }
    let mut tag = StartTag {
        len: 0,
        name,
        self_closing: false,
        stripped: Vec::new(),
    };
    let mut i = name_end;
    loop {
        let attr_start = i;
        while i < b.len() && is_space(b[i]) {
            i += 1;
        }
        match b.get(i) {
            None => return Err(unsafe_svg("unterminated tag")),
            Some(b'>') => {
                tag.len = i + 1;
                return Ok(tag);
            }
            Some(b'/') if b.get(i + 1) == Some(&b'>') => {
                tag.self_closing = true;
                tag.len = i + 2;
                return Ok(tag);
            }
            Some(_) if i == attr_start => return Err(unsafe_svg("malformed tag")),
            Some(_) => {}
        }
        let name_start = i;
        while i < b.len() && !is_space(b[i]) && !matches!(b[i], b'=' | b'/' | b'>') {
            i += 1;
        }
        let attr = &s[name_start..i];
        while i < b.len() && is_space(b[i]) {
            i += 1;
        }
        if attr.is_empty() || b.get(i) != Some(&b'=') {
            return Err(unsafe_svg("attribute without a value"));
        }
        i += 1;
        while i < b.len() && is_space(b[i]) {
            i += 1;
        }
        let quote = match b.get(i) {
            Some(&q @ (b'"' | b'\'')) => q,
            _ => return Err(unsafe_svg("unquoted attribute value")),
        };
        let value_start = i + 1;
        let value_len = b[value_start..]
            .iter()
            .position(|&c| c == quote)
            .ok_or_else(|| unsafe_svg("unterminated attribute value"))?;
        let raw = &s[value_start..value_start + value_len];
        i = value_start + value_len + 1;
        if raw.contains('<') {
            return Err(unsafe_svg("'<' in an attribute value"));
        }
        let local = local_name(attr).to_ascii_lowercase();
        if local.starts_with("on") {
            tag.stripped.push((attr_start, i));
            continue;
        }
        check_attribute(&local, &decode_entities(raw)?)?;
    }
}

fn check_attribute(local: &str, value: &str) -> Result<(), IconError> {
    let squashed = squash(value);
    for bad in ["javascript:", "vbscript:", "data:text/html"] {
        if squashed.contains(bad) {
            return Err(unsafe_svg(format!("`{bad}` in an attribute")));
        }
    }
    if local == "href" && !safe_reference(&squashed) {
        return Err(unsafe_svg(format!("external reference `{value}`")));
    }
    if local == "attributename" && squashed.ends_with("href") {
        return Err(unsafe_svg("animation of href"));
    }
    check_css(value)
}

/// Lowercased with whitespace and control characters removed, as browsers skip them in schemes.
fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace() && !c.is_control())
        .flat_map(char::to_lowercase)
        .collect()
}

/// A same-document fragment, nothing, or an inline raster image.
fn safe_reference(squashed: &str) -> bool {
    squashed.is_empty()
        || squashed.starts_with('#')
        || [
            "data:image/png",
            "data:image/jpeg",
            "data:image/jpg",
            "data:image/webp",
        ]
        .iter()
        .any(|p| squashed.starts_with(p))
}

fn check_css(css: &str) -> Result<(), IconError> {
    let squashed = squash(css);
    for bad in [
        "@import",
        "expression(",
        "javascript:",
        "-moz-binding",
        "behavior:",
    ] {
        if squashed.contains(bad) {
            return Err(unsafe_svg(format!("`{bad}` in CSS")));
        }
    }
    let mut rest = squashed.as_str();
    while let Some(at) = rest.find("url(") {
        rest = &rest[at + 4..];
        let target = rest.trim_start_matches(['"', '\'']);
        if !safe_reference(target) || target.starts_with(')') {
            return Err(unsafe_svg("external url() in CSS"));
        }
    }
    Ok(())
}

/// Decodes the predefined XML entities and character references; any other entity is refused.
fn decode_entities(s: &str) -> Result<String, IconError> {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let semi = rest[amp..]
            .find(';')
            .ok_or_else(|| unsafe_svg("unterminated entity reference"))?;
        let name = &rest[amp + 1..amp + semi];
        let c = match name {
            "lt" => '<',
            "gt" => '>',
            "amp" => '&',
            "quot" => '"',
            "apos" => '\'',
            _ => {
                let code = if let Some(hex) = name.strip_prefix("#x").or(name.strip_prefix("#X")) {
                    u32::from_str_radix(hex, 16).ok()
                } else if let Some(dec) = name.strip_prefix('#') {
                    dec.parse().ok()
                } else {
                    None
                };
                code.and_then(char::from_u32)
                    .ok_or_else(|| unsafe_svg(format!("entity `&{name};`")))?
            }
        };
        out.push(c);
        rest = &rest[amp + semi + 1..];
    }
    out.push_str(rest);
    Ok(out)
}
