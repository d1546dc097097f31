//! The few URL operations OAuth discovery needs, on plain strings: splitting an absolute URL, building
//! the RFC 8615 well-known URLs (RFC 9728 §3.1, RFC 8414 §3.1, OpenID Discovery), form and query
//! encoding. Kept string-based on purpose: identifiers such as `issuer` and `resource` are compared
//! exactly as published, so nothing here normalizes a URL that is later compared.

/// An absolute URL split into its parts (`scheme://authority/path?query#fragment`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UrlParts<'a> {
    /// The scheme, without `://`.
    pub scheme: &'a str,
    /// Host and optional port (and userinfo, if any).
    pub authority: &'a str,
    /// The path, empty or starting with `/`.
    pub path: &'a str,
    /// The query without `?`, if present.
    pub query: Option<&'a str>,
    /// The fragment without `#`, if present.
    pub fragment: Option<&'a str>,
}

impl UrlParts<'_> {
    /// `scheme://authority`.
    pub fn origin(&self) -> String {
        format!("{}://{}", self.scheme, self.authority)
    }
}

/// Splits an absolute `scheme://authority...` URL; `None` when it has no scheme or authority.
pub fn split(url: &str) -> Option<UrlParts<'_>> {
    let (scheme, rest) = url.split_once("://")?;
    if scheme.is_empty()
        || !scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    {
        return None;
    }
    let (rest, fragment) = match rest.split_once('#') {
        Some((r, f)) => (r, Some(f)),
        None => (rest, None),
    };
    let (rest, query) = match rest.split_once('?') {
        Some((r, q)) => (r, Some(q)),
        None => (rest, None),
    };
    let (authority, path) = match rest.find('/') {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    if authority.is_empty() {
        return None;
    }
    Some(UrlParts {
        scheme,
        authority,
        path,
        query,
        fragment,
    })
}

/// The RFC 9728 protected-resource metadata URLs for a server URL, in the order to try them:
/// path-based (`/.well-known/oauth-protected-resource/<path>`) when the URL has a path, then root.
pub fn protected_resource_metadata_urls(server_url: &str) -> Vec<String> {
    let Some(p) = split(server_url) else {
        return vec![];
    };
    let origin = p.origin();
    let path = p.path.trim_end_matches('/');
    let mut out = Vec::new();
    if !path.is_empty() {
        out.push(format!(
            "{origin}/.well-known/oauth-protected-resource{path}"
        ));
    }
    out.push(format!("{origin}/.well-known/oauth-protected-resource"));
    out
}

/// The authorization-server metadata URLs for an issuer, in the order the MCP spec gives: with a
/// path, OAuth (RFC 8414 path insertion), OpenID with path insertion, then OpenID with the path
/// appended; without one, OAuth then OpenID.
pub fn authorization_server_metadata_urls(issuer: &str) -> Vec<String> {
    let Some(p) = split(issuer) else {
        return vec![];
    };
    let origin = p.origin();
    let path = p.path.trim_end_matches('/');
    if path.is_empty() {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server"),
            format!("{origin}/.well-known/openid-configuration"),
        ]
    } else {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server{path}"),
            format!("{origin}/.well-known/openid-configuration{path}"),
            format!("{origin}{path}/.well-known/openid-configuration"),
        ]
    }
}

/// Percent-encodes everything outside the RFC 3986 unreserved set (valid in a query and in an
/// `application/x-www-form-urlencoded` body).
pub fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Decodes one form or query component (`+` is a space); `None` on a bad escape or invalid UTF-8.
pub fn decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = s.get(i + 1..i + 3)?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).ok()
}

/// `k1=v1&k2=v2`, each part encoded.
pub fn form(pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
        .collect::<Vec<_>>()
        .join("&")
}

/// Appends parameters to a URL's query (keeping an existing query and dropping a fragment).
pub fn with_query(url: &str, pairs: &[(&str, &str)]) -> String {
    let base = url.split_once('#').map_or(url, |(b, _)| b);
    let sep = if base.contains('?') { '&' } else { '?' };
    format!("{base}{sep}{}", form(pairs))
}

/// The decoded parameters of a URL's query (or of a bare query string without `?`). Malformed
/// escapes are an error naming the parameter.
pub fn query_params(url_or_query: &str) -> Result<Vec<(String, String)>, String> {
    let no_fragment = url_or_query
        .split_once('#')
        .map_or(url_or_query, |(b, _)| b);
    let query = match no_fragment.split_once('?') {
        Some((_, q)) => q,
        None if no_fragment.contains("://") => "",
        None => no_fragment,
    };
    let mut out = Vec::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let key = decode(k).ok_or_else(|| format!("malformed query parameter name {k:?}"))?;
        let value =
            decode(v).ok_or_else(|| format!("malformed value for query parameter {key}"))?;
        out.push((key, value));
    }
    Ok(out)
}

/// Whether `host` (an authority's host part) is a loopback name or address.
pub fn is_loopback_authority(authority: &str) -> bool {
    let host = match authority.rsplit_once('@') {
        Some((_, h)) => h,
        None => authority,
    };
    let host = if let Some(rest) = host.strip_prefix('[') {
        rest.split(']').next().unwrap_or("")
    } else {
        host.rsplit_once(':').map_or(host, |(h, _)| h)
    };
    host.eq_ignore_ascii_case("localhost") || host.starts_with("127.") || host == "::1"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_urls() {
        let p = split("http://h:1/a/b?x=1#f").unwrap();
        assert_eq!(
            (p.scheme, p.authority, p.path, p.query, p.fragment),
            ("http", "h:1", "/a/b", Some("x=1"), Some("f"))
        );
        let p = split("https://h").unwrap();
        assert_eq!((p.authority, p.path, p.query), ("h", "", None));
        assert!(split("h/a").is_none());
        assert!(split("http:///a").is_none());
    }

    #[test]
    fn prm_urls_path_then_root() {
        assert_eq!(
            protected_resource_metadata_urls("http://h:1/mcp"),
            [
                "http://h:1/.well-known/oauth-protected-resource/mcp",
                "http://h:1/.well-known/oauth-protected-resource"
            ]
        );
        assert_eq!(
            protected_resource_metadata_urls("http://h:1/"),
            ["http://h:1/.well-known/oauth-protected-resource"]
        );
    }

    #[test]
    fn as_metadata_urls_in_spec_order() {
        assert_eq!(
            authorization_server_metadata_urls("http://a:2"),
            [
                "http://a:2/.well-known/oauth-authorization-server",
                "http://a:2/.well-known/openid-configuration"
            ]
        );
        assert_eq!(
            authorization_server_metadata_urls("http://a:2/tenant1"),
            [
                "http://a:2/.well-known/oauth-authorization-server/tenant1",
                "http://a:2/.well-known/openid-configuration/tenant1",
                "http://a:2/tenant1/.well-known/openid-configuration"
            ]
        );
    }

    #[test]
    fn encodes_and_decodes() {
        assert_eq!(encode("a b/c:d~"), "a%20b%2Fc%3Ad~");
        assert_eq!(decode("a+b%2Fc").as_deref(), Some("a b/c"));
        assert_eq!(decode("%4"), None);
        assert_eq!(decode("%ZZ"), None);
        assert_eq!(
            with_query("http://a/authorize?x=1#f", &[("scope", "a b")]),
            "http://a/authorize?x=1&scope=a%20b"
        );
        assert_eq!(
            query_params("http://cb/?code=c1&state=s%2B&iss=http%3A%2F%2Fa&empty").unwrap(),
            [
                ("code".into(), "c1".into()),
                ("state".into(), "s+".into()),
                ("iss".into(), "http://a".into()),
                ("empty".into(), String::new())
            ]
        );
        assert!(query_params("http://cb/?code=%G1").is_err());
    }

    #[test]
    fn loopback_hosts() {
        assert!(is_loopback_authority("localhost:3000"));
        assert!(is_loopback_authority("127.0.0.1"));
        assert!(is_loopback_authority("[::1]:80"));
        assert!(!is_loopback_authority("example.com"));
    }
}
