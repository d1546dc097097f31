//! DNS-rebinding protection: `Host` and `Origin` checked against an allow-list.

use hyper::HeaderMap;
use hyper::header::{HOST, ORIGIN};

use super::config::HttpServerConfig;

/// Why a request was refused before it reached the engine.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// The `Host` header is missing (`None`) or names a host not on the allow-list.
    Host(Option<String>),
    /// The `Origin` header names an origin not on the allow-list.
    Origin(String),
}

impl Refusal {
    /// What the client (and the operator reading its error) is told: the header, its value, and
    /// the setting that would let it through.
    pub(crate) fn message(&self) -> String {
        match self {
            Refusal::Host(None) => "Host header not allowed: the request has none \
                 (DNS-rebinding protection needs one on the allowed_hosts list)"
                .into(),
            Refusal::Host(Some(h)) => format!(
                "Host header not allowed: {h:?} is not on allowed_hosts; add the host name to \
                 allowed_hosts, or turn dns_rebinding_protection off when a proxy in front \
                 checks Host"
            ),
            Refusal::Origin(o) => format!(
                "Origin header not allowed: {o:?} is neither on allowed_origins nor on an allowed \
                 host; add it to allowed_origins"
            ),
        }
    }
}

/// Checks `Host` (against a non-empty `allowed_hosts`) and `Origin` (when either list has
/// names); `Ok` when protection is off, nothing is listed, or both pass.
pub(crate) fn check(config: &HttpServerConfig, headers: &HeaderMap) -> Result<(), Refusal> {
    if !config.dns_rebinding_protection
        || (config.allowed_hosts.is_empty() && config.allowed_origins.is_empty())
    {
        return Ok(());
    }
    match headers.get(HOST) {
        _ if config.allowed_hosts.is_empty() => {}
        None => return Err(Refusal::Host(None)),
        Some(h) => match h.to_str() {
            Ok(h) if host_allowed(config, strip_port(h)) => {}
            _ => return Err(Refusal::Host(Some(lossy(h.as_bytes())))),
        },
    }
    if let Some(origin) = headers.get(ORIGIN) {
        let refused = || Refusal::Origin(lossy(origin.as_bytes()));
        let text = origin.to_str().map_err(|_| refused())?;
        if !origin_allowed(config, text) {
            return Err(refused());
        }
    }
    Ok(())
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn host_allowed(config: &HttpServerConfig, host: &str) -> bool {
    config
        .allowed_hosts
        .iter()
        .any(|a| a.eq_ignore_ascii_case(host))
}

fn origin_allowed(config: &HttpServerConfig, origin: &str) -> bool {
    if config.allowed_origins.iter().any(|o| o == origin) {
        return true;
    }
    let Some((scheme, rest)) = origin.split_once("://") else {
        return false;
    };
    if !matches!(scheme, "http" | "https") || rest.contains('/') {
        return false;
    }
    host_allowed(config, strip_port(rest))
}

/// `host:port`, `[v6]:port`, `host` or `[v6]` → the host part (IPv6 keeps its brackets).
fn strip_port(authority: &str) -> &str {
    if authority.starts_with('[') {
        return match authority.find(']') {
            Some(end) => &authority[..=end],
            None => authority,
        };
    }
    match authority.rsplit_once(':') {
        Some((host, port)) if port.bytes().all(|b| b.is_ascii_digit()) => host,
        _ => authority,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(host: Option<&str>, origin: Option<&str>) -> HeaderMap {
        let mut h = HeaderMap::new();
        if let Some(v) = host {
            h.insert(HOST, v.parse().unwrap());
        }
        if let Some(v) = origin {
            h.insert(ORIGIN, v.parse().unwrap());
        }
        h
    }

    #[test]
    fn loopback_names_pass_with_any_port_and_others_fail() {
        let c = HttpServerConfig::default();
        for ok in [
            "localhost",
            "localhost:8080",
            "127.0.0.1:1",
            "[::1]:3000",
            "[::1]",
            "LocalHost",
        ] {
            assert_eq!(check(&c, &headers(Some(ok), None)), Ok(()), "{ok}");
        }
        for bad in [
            "evil.example",
            "evil.example:80",
            "127.0.0.2",
            "localhost.evil.example",
        ] {
            assert_eq!(
                check(&c, &headers(Some(bad), None)),
                Err(Refusal::Host(Some(bad.into()))),
                "{bad}"
            );
        }
        assert_eq!(check(&c, &headers(None, None)), Err(Refusal::Host(None)));
    }

    #[test]
    fn origins_are_checked_by_host() {
        let c = HttpServerConfig::default();
        let h = |o| check(&c, &headers(Some("localhost:1"), Some(o)));
        assert_eq!(h("http://localhost:5173"), Ok(()));
        assert_eq!(h("https://[::1]"), Ok(()));
        assert_eq!(
            h("http://evil.example"),
            Err(Refusal::Origin("http://evil.example".into()))
        );
        assert_eq!(h("null"), Err(Refusal::Origin("null".into())));
        assert_eq!(
            h("http://localhost.evil.example"),
            Err(Refusal::Origin("http://localhost.evil.example".into()))
        );
    }

    #[test]
    fn protection_can_be_off_and_origins_listed() {
        let mut c = HttpServerConfig {
            dns_rebinding_protection: false,
            ..HttpServerConfig::default()
        };
        assert_eq!(check(&c, &headers(Some("evil.example"), None)), Ok(()));
        c.dns_rebinding_protection = true;
        c.allowed_origins.push("https://app.example".into());
        let h = headers(Some("localhost"), Some("https://app.example"));
        assert_eq!(check(&c, &h), Ok(()));
    }

    #[test]
    fn a_mount_checks_only_what_is_listed() {
        let mut c = HttpServerConfig::for_mount();
        let h = |c: &HttpServerConfig, host, origin| check(c, &headers(Some(host), origin));
        assert_eq!(h(&c, "app.example", Some("https://x.example")), Ok(()));
        assert_eq!(check(&c, &headers(None, None)), Ok(()));
        c.allowed_origins.push("https://ui.example".into());
        assert_eq!(h(&c, "app.example", Some("https://ui.example")), Ok(()));
        assert_eq!(
            h(&c, "app.example", Some("https://x.example")),
            Err(Refusal::Origin("https://x.example".into()))
        );
        c.allowed_hosts.push("app.example".into());
        assert_eq!(h(&c, "app.example:8443", None), Ok(()));
        assert_eq!(
            h(&c, "evil.example", None),
            Err(Refusal::Host(Some("evil.example".into())))
        );
        c.dns_rebinding_protection = false;
        assert_eq!(h(&c, "evil.example", Some("https://x.example")), Ok(()));
    }

    #[test]
    fn refusals_name_the_header_its_value_and_the_setting() {
        let c = HttpServerConfig::default();
        let r = check(&c, &headers(Some("app.example:443"), None)).unwrap_err();
        assert_eq!(
            r.message(),
            "Host header not allowed: \"app.example:443\" is not on allowed_hosts; add the host \
             name to allowed_hosts, or turn dns_rebinding_protection off when a proxy in front \
             checks Host"
        );
        let r = check(&c, &headers(Some("localhost"), Some("https://x.example"))).unwrap_err();
        assert_eq!(
            r.message(),
            "Origin header not allowed: \"https://x.example\" is neither on allowed_origins nor \
             on an allowed host; add it to allowed_origins"
        );
    }
}
