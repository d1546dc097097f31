//! The small part of URL handling icons need: scheme split, strict `https:` parsing, origins and
//! relative reference resolution (RFC 3986 section 5.2), written narrowly so anything unusual is refused.

use super::IconError;

/// A parsed absolute `https:` URL (or `http:` for a server origin), host lowercased.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct WebUrl {
    pub scheme: &'static str,
    pub host: String,
    pub port: u16,
    /// Path and query, starting with `/`; the fragment is dropped (it is never sent).
    pub path: String,
}

impl WebUrl {
    /// `scheme://host[:port]`, the port omitted when it is the scheme's default.
    pub fn origin(&self) -> String {
        if self.port == default_port(self.scheme) {
            format!("{}://{}", self.scheme, self.host)
        } else {
            format!("{}://{}:{}", self.scheme, self.host, self.port)
        }
    }

    /// The normalized URL text.
    pub fn to_url_string(&self) -> String {
        format!("{}{}", self.origin(), self.path)
    }

    pub fn same_origin(&self, other: &WebUrl) -> bool {
        self.scheme == other.scheme && self.host == other.host && self.port == other.port
    }
}

fn default_port(scheme: &str) -> u16 {
    if scheme == "http" { 80 } else { 443 }
}

fn malformed(reason: &str) -> IconError {
    IconError::MalformedUrl(reason.to_owned())
}

/// Splits `scheme:rest` when the text starts with a syntactically valid scheme; lowercases it.
pub(super) fn split_scheme(s: &str) -> Option<(String, &str)> {
    let colon = s.find(':')?;
    let scheme = &s[..colon];
    let mut chars = scheme.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic());
    let rest_ok = chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    (first_ok && rest_ok).then(|| (scheme.to_ascii_lowercase(), &s[colon + 1..]))
}

/// Refuses characters a well-formed URL never holds raw and that parsers disagree about.
pub(super) fn check_chars(s: &str) -> Result<(), IconError> {
    match s
        .chars()
        .find(|c| !c.is_ascii() || c.is_ascii_control() || matches!(c, ' ' | '\\'))
    {
        Some(c) => Err(IconError::MalformedUrl(format!(
            "character {c:?} must be percent-encoded"
        ))),
        None => Ok(()),
    }
}

/// Parses `//authority/path?query#fragment` (what follows `scheme:`) for `http` or `https`.
pub(super) fn parse_web(scheme: &'static str, rest: &str) -> Result<WebUrl, IconError> {
    check_chars(rest)?;
    let rest = rest
        .strip_prefix("//")
        .ok_or_else(|| malformed("expected `//` after the scheme"))?;
    let rest = rest.split('#').next().unwrap_or("");
    let auth_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, path) = rest.split_at(auth_end);
    if authority.contains('@') {
        return Err(IconError::CredentialsInUrl);
    }
    let (host, port) = if let Some(v6) = authority.strip_prefix('[') {
        let close = v6
            .find(']')
            .ok_or_else(|| malformed("unclosed IPv6 literal"))?;
        let inside = &v6[..close];
        if inside.is_empty()
            || !inside
                .chars()
                .all(|c| c.is_ascii_hexdigit() || c == ':' || c == '.')
        {
            return Err(malformed("invalid IPv6 literal"));
        }
        (&authority[..close + 2], &v6[close + 1..])
    } else {
        let colon = authority.find(':').unwrap_or(authority.len());
        let host = &authority[..colon];
        if !host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-')
        {
            return Err(malformed("invalid host name"));
        }
        (host, &authority[colon..])
    };
    if host.is_empty() {
        return Err(malformed("empty host"));
    }
    let port = match port.strip_prefix(':') {
        None if port.is_empty() => default_port(scheme),
        None => return Err(malformed("unexpected text after the host")),
        Some("") => default_port(scheme),
        Some(digits) if digits.len() <= 5 && digits.bytes().all(|b| b.is_ascii_digit()) => digits
            .parse::<u16>()
            .map_err(|_| malformed("port out of range"))?,
        Some(_) => return Err(malformed("invalid port")),
    };
    let path = if path.starts_with('/') {
        path.to_owned()
    } else {
        format!("/{path}")
    };
    Ok(WebUrl {
        scheme,
        host: host.to_ascii_lowercase(),
        port,
        path,
    })
}

/// Resolves a reference (a redirect `Location`) against `base` into an absolute URL text.
pub(super) fn resolve(base: &WebUrl, reference: &str) -> Result<String, IconError> {
    check_chars(reference)?;
    if split_scheme(reference).is_some() {
        return Ok(reference.to_owned());
    }
    if reference.starts_with("//") {
        return Ok(format!("{}:{reference}", base.scheme));
    }
    let reference = reference.split('#').next().unwrap_or("");
    let (base_path, _) = base.path.split_once('?').unwrap_or((&base.path, ""));
    let path_and_query = if reference.is_empty() {
        base.path.clone()
    } else if reference.starts_with('?') {
        format!("{base_path}{reference}")
    } else {
        let (path, query) = match reference.find('?') {
            Some(q) => reference.split_at(q),
            None => (reference, ""),
        };
        let merged = if path.starts_with('/') {
            path.to_owned()
        } else {
            let dir = &base_path[..base_path.rfind('/').map_or(0, |i| i + 1)];
            format!("{dir}{path}")
        };
        format!("{}{query}", remove_dot_segments(&merged))
    };
    Ok(format!("{}{path_and_query}", base.origin()))
}

/// RFC 3986 section 5.2.4 for an absolute path.
fn remove_dot_segments(path: &str) -> String {
    let segments: Vec<&str> = path.split('/').skip(1).collect();
    let mut out: Vec<&str> = Vec::new();
    for (i, seg) in segments.iter().enumerate() {
        let last = i + 1 == segments.len();
        match *seg {
            "." => {}
            ".." => {
                out.pop();
            }
            s => {
                out.push(s);
                continue;
            }
        }
        if last {
            out.push("");
        }
    }
    format!("/{}", out.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> WebUrl {
        parse_web("https", "//Example.COM:443/a/b/c?q=1#f").unwrap()
    }

    #[test]
    fn parses_and_normalizes() {
        let u = base();
        assert_eq!(u.host, "example.com");
        assert_eq!(u.port, 443);
        assert_eq!(u.to_url_string(), "https://example.com/a/b/c?q=1");
        let u = parse_web("https", "//[::1]:8443").unwrap();
        assert_eq!(u.to_url_string(), "https://[::1]:8443/");
        for bad in [
            "example.com",
            "//",
            "//a b",
            "//h:99999",
            "//h:x",
            "//h\\x",
            "//é.com",
            "//[zz]",
        ] {
            assert!(parse_web("https", bad).is_err(), "{bad}");
        }
        assert_eq!(
            parse_web("https", "//u:p@h"),
            Err(IconError::CredentialsInUrl)
        );
    }

    #[test]
    fn resolves_references() {
        let b = base();
        let r = |s: &str| resolve(&b, s).unwrap();
        assert_eq!(r("d"), "https://example.com/a/b/d");
        assert_eq!(r("../d?x"), "https://example.com/a/d?x");
        assert_eq!(r("/x/./y/../z"), "https://example.com/x/z");
        assert_eq!(r("?z"), "https://example.com/a/b/c?z");
        assert_eq!(r(""), "https://example.com/a/b/c?q=1");
        assert_eq!(r("#frag"), "https://example.com/a/b/c?q=1");
        assert_eq!(r("//other.net/p"), "https:".to_owned() + "//other.net/p");
        assert_eq!(r("http://x/"), "http://x/");
        assert_eq!(r("../../../.."), "https://example.com/");
    }
}
