//! DNS-rebinding protection: `Host` and `Origin` checked against an allow-list.

use hyper::HeaderMap;
use hyper::header::{HOST, ORIGIN};

use super::config::HttpServerConfig;

/// Why a request was refused before it reached the engine.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// The `Host` header is missing or names a host not on the allow-list.
    Host,
    /// The `Origin` header names an origin not on the allow-list.
    Origin,
}

/// Checks `Host` and `Origin`; `Ok` when protection is off or both pass.
pub(crate) fn check(config: &HttpServerConfig, headers: &HeaderMap) -> Result<(), Refusal> {
    if !config.dns_rebinding_protection {
        return Ok(());
    }
    let host = headers.get(HOST).and_then(|h| h.to_str().ok());
    match host {
        Some(h) if host_allowed(config, strip_port(h)) => {}
        _ => return Err(Refusal::Host),
    }
    if let Some(origin) = headers.get(ORIGIN) {
        let origin = origin.to_str().map_err(|_| Refusal::Origin)?;
        if !origin_allowed(config, origin) {
            return Err(Refusal::Origin);
        }
    }
    Ok(())
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
                Err(Refusal::Host),
                "{bad}"
            );
        }
        assert_eq!(check(&c, &headers(None, None)), Err(Refusal::Host));
    }

    #[test]
    fn origins_are_checked_by_host() {
        let c = HttpServerConfig::default();
        let h = |o| check(&c, &headers(Some("localhost:1"), Some(o)));
        assert_eq!(h("http://localhost:5173"), Ok(()));
        assert_eq!(h("https://[::1]"), Ok(()));
        assert_eq!(h("http://evil.example"), Err(Refusal::Origin));
        assert_eq!(h("null"), Err(Refusal::Origin));
        assert_eq!(h("http://localhost.evil.example"), Err(Refusal::Origin));
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
}
