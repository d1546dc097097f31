//! The media types of a Streamable HTTP POST (MCP 2025-03-26 and later, "Sending Messages to the
//! Server"): the body is one JSON-RPC message or batch, so `Content-Type` must be
//! `application/json` (else 415), and the client must accept both answers the server may choose,
//! `application/json` and `text/event-stream` (else 406). Wildcards (`*/*`, `application/*`,
//! `text/*`) count; media-type parameters (`charset`, `q`) are ignored, except that `q=0` refuses.

use hyper::HeaderMap;
use hyper::header::{ACCEPT, CONTENT_TYPE};

/// Why a POST's media types are refused.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum MediaRefusal {
    /// 415: the body is not declared as JSON.
    ContentType(String),
    /// 406: the client does not accept one of the two answers.
    Accept(String),
}

/// Checks `Content-Type` and `Accept` of a POST to the MCP endpoint.
pub(crate) fn check_post(headers: &HeaderMap) -> Result<(), MediaRefusal> {
    let content_type = headers.get(CONTENT_TYPE).map(|v| v.to_str().unwrap_or(""));
    match content_type {
        Some(ct) if essence(ct) == "application/json" => {}
        Some(ct) => {
            return Err(MediaRefusal::ContentType(format!(
                "Content-Type must be application/json, not {ct:?}"
            )));
        }
        None => {
            return Err(MediaRefusal::ContentType(
                "Content-Type must be application/json (it is missing)".into(),
            ));
        }
    }
    if !headers.contains_key(ACCEPT) {
        return Err(MediaRefusal::Accept(
            "Accept must list application/json and text/event-stream (it is missing)".into(),
        ));
    }
    let accepted: Vec<String> = headers
        .get_all(ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter(|range| !refused(range))
        .map(essence)
        .collect();
    let missing: Vec<&str> = ["application/json", "text/event-stream"]
        .into_iter()
        .filter(|wanted| !accepted.iter().any(|range| covers(range, wanted)))
        .collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(MediaRefusal::Accept(format!(
            "Accept must list application/json and text/event-stream; it does not admit {}",
            missing.join(" or ")
        )))
    }
}

/// The media type without parameters, lower-cased: `Application/JSON; charset=utf-8` ->
/// `application/json`.
fn essence(value: &str) -> String {
    value
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

/// Whether a media range carries `q=0` (RFC 9110 §12.4.2: not acceptable).
fn refused(range: &str) -> bool {
    range.split(';').skip(1).any(|p| {
        let p = p.trim().to_ascii_lowercase();
        p.strip_prefix("q=")
            .is_some_and(|q| q.trim().parse::<f32>().is_ok_and(|q| q == 0.0))
    })
}

/// Whether a media range (`type/subtype`, `type/*` or `*/*`) admits `wanted`.
fn covers(range: &str, wanted: &str) -> bool {
    if range == "*/*" || range == wanted {
        return true;
    }
    match (range.strip_suffix("/*"), wanted.split_once('/')) {
        (Some(kind), Some((wanted_kind, _))) => kind == wanted_kind,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(content_type: Option<&str>, accept: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        if let Some(ct) = content_type {
            h.insert(CONTENT_TYPE, ct.parse().unwrap());
        }
        for a in accept {
            h.append(ACCEPT, a.parse().unwrap());
        }
        h
    }

    #[test]
    fn the_media_types_a_post_may_carry() {
        let both = ["application/json, text/event-stream"];
        let ok: &[(Option<&str>, &[&str])] = &[
            (Some("application/json"), &both),
            (Some("Application/JSON; charset=utf-8"), &both),
            (
                Some("application/json"),
                &["text/event-stream", "application/json"],
            ),
            (Some("application/json"), &["*/*"]),
            (Some("application/json"), &["application/*, text/*;q=0.5"]),
            (
                Some("application/json"),
                &["application/json;q=0.9, text/event-stream;q=0.1"],
            ),
        ];
        for (ct, accept) in ok {
            assert_eq!(
                check_post(&headers(*ct, accept)),
                Ok(()),
                "{ct:?} {accept:?}"
            );
        }
        let refused: &[(Option<&str>, &[&str], &str)] = &[
            (None, &both, "ContentType"),
            (Some("text/plain"), &both, "ContentType"),
            (Some("application/jsonx"), &both, "ContentType"),
            (Some("application/json"), &[], "Accept"),
            (Some("application/json"), &["application/json"], "Accept"),
            (Some("application/json"), &["text/event-stream"], "Accept"),
            (
                Some("application/json"),
                &["application/json, text/event-stream;q=0"],
                "Accept",
            ),
            (Some("application/json"), &["text/*"], "Accept"),
        ];
        for (ct, accept, kind) in refused {
            let got = check_post(&headers(*ct, accept)).unwrap_err();
            assert!(
                format!("{got:?}").starts_with(kind),
                "{ct:?} {accept:?}: {got:?}"
            );
        }
        assert_eq!(
            check_post(&headers(Some("application/json"), &["application/json"])),
            Err(MediaRefusal::Accept(
                "Accept must list application/json and text/event-stream; it does not admit \
                 text/event-stream"
                    .into()
            ))
        );
        assert_eq!(
            check_post(&headers(Some("application/json"), &[])),
            Err(MediaRefusal::Accept(
                "Accept must list application/json and text/event-stream (it is missing)".into()
            ))
        );
    }
}
