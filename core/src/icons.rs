//! Client-side icon safety (2026-07-28 basic/index, "Icons", security considerations): which icon sources to accept, how to follow
//! redirects, how to recognise the bytes, and how to defuse SVG.
//!
//! The checks are sans-IO ([`IconPolicy::check_src`], [`check_redirect`], [`sniff`], [`sanitize_svg`]);
//! [`load_icon`] drives them over any HTTP client that implements [`IconFetcher`]. Rules applied:
//! only `https:` and `data:` sources; `https:` icons must share the server's origin when it is known;
//! no credentials in URLs; redirects are followed by hand and may not change scheme or origin; sizes
//! are capped; content is recognised by magic bytes (PNG, JPEG, WebP, and SVG only when allowed and
//! then sanitized); the declared `mimeType` is never trusted.

use std::future::Future;

use base64::Engine as _;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};

mod error;
mod sniff;
mod svg;
#[cfg(test)]
mod tests;
mod url;

pub use error::IconError;
pub use sniff::sniff;
pub use svg::sanitize_svg;

/// Limits applied to icons.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IconPolicy {
    /// Largest accepted icon, in bytes (default 256 KiB).
    pub max_bytes: usize,
    /// Most redirects followed (default 3).
    pub max_redirects: u32,
    /// Whether SVG is accepted (default false); accepted SVG is always sanitized.
    pub allow_svg: bool,
}

impl Default for IconPolicy {
    fn default() -> Self {
        IconPolicy {
            max_bytes: 256 * 1024,
            max_redirects: 3,
            allow_svg: false,
        }
    }
}

/// An accepted icon source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IconSource {
    /// A `data:` URI, decoded; `mime` is the declared (lowercased, unverified) media type.
    Data {
        /// The declared media type, `text/plain` when absent.
        mime: String,
        /// The decoded payload.
        bytes: Vec<u8>,
    },
    /// An `https:` URL, normalised (lowercase host, default port and fragment removed).
    Https {
        /// The URL to fetch.
        url: String,
    },
}

/// An image format on the allow-list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IconKind {
    /// PNG.
    Png,
    /// JPEG.
    Jpeg,
    /// WebP.
    Webp,
    /// SVG (only with [`IconPolicy::allow_svg`]).
    Svg,
}

impl IconKind {
    /// The media type of this format.
    pub fn mime(self) -> &'static str {
        match self {
            IconKind::Png => "image/png",
            IconKind::Jpeg => "image/jpeg",
            IconKind::Webp => "image/webp",
            IconKind::Svg => "image/svg+xml",
        }
    }
}

/// An icon that passed every check, ready to render.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadedIcon {
    /// The sniffed format.
    pub kind: IconKind,
    /// The media type of `kind` (the server's declared type is ignored).
    pub mime: &'static str,
    /// The image bytes (sanitized for SVG).
    pub bytes: Vec<u8>,
}

/// One HTTP response as the icon driver needs it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IconHttpReply {
    /// The status code.
    pub status: u16,
    /// The `Location` header, if any.
    pub location: Option<String>,
    /// The body (possibly cut off after `max_bytes + 1` bytes).
    pub body: Vec<u8>,
}

/// The HTTP client used by [`load_icon`].
///
/// Contract: a plain `GET` that sends no cookies, no `Authorization` and no other credentials, and
/// does not follow redirects (the driver does, with checks). It should stop reading the body after
/// `max_bytes + 1` bytes; the driver enforces the limit either way.
pub trait IconFetcher {
    /// Fetches `url` once.
    fn get(
        &self,
        url: &str,
        max_bytes: usize,
    ) -> impl Future<Output = Result<IconHttpReply, IconError>> + Send;
}

impl IconPolicy {
    /// Checks an icon `src` and, for `data:`, decodes it; `server_origin` is the server's URL (only
    /// its origin counts) when the server was reached over HTTP, `None` for stdio servers.
    pub fn check_src(
        &self,
        src: &str,
        server_origin: Option<&str>,
    ) -> Result<IconSource, IconError> {
        let (scheme, rest) = url::split_scheme(src.trim())
            .ok_or_else(|| IconError::MalformedUrl("not an absolute URL".into()))?;
        match scheme.as_str() {
            "data" => self.decode_data(rest),
            "https" => {
                let icon = url::parse_web("https", rest)?;
                if let Some(server) = server_origin {
                    let server = parse_server_origin(server)?;
                    if !icon.same_origin(&server) {
                        return Err(IconError::CrossOrigin {
                            icon: icon.origin(),
                            server: server.origin(),
                        });
                    }
                }
                Ok(IconSource::Https {
                    url: icon.to_url_string(),
                })
            }
            _ => Err(IconError::UnsupportedScheme(scheme)),
        }
    }

    /// Decodes what follows `data:` (RFC 2397), enforcing the size limit.
    fn decode_data(&self, rest: &str) -> Result<IconSource, IconError> {
        let bad = |m: &str| IconError::InvalidDataUri(m.to_owned());
        let (meta, payload) = rest.split_once(',').ok_or_else(|| bad("missing ','"))?;
        // Even fully percent-encoded, the payload is at most three characters per byte.
        if payload.len() > self.max_bytes.saturating_mul(3).saturating_add(16) {
            return Err(IconError::TooLarge {
                limit: self.max_bytes,
            });
        }
        let mut params = meta.split(';');
        let mime = params.next().unwrap_or("").trim().to_ascii_lowercase();
        let is_base64 = meta
            .rsplit(';')
            .next()
            .is_some_and(|p| p.trim().eq_ignore_ascii_case("base64"))
            && meta.contains(';');
        let token = |s: &str| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "!#$&^_.+-".contains(c))
        };
        let mime = match mime.split_once('/') {
            None if mime.is_empty() => "text/plain".to_owned(),
            Some((t, s)) if token(t) && token(s) => mime,
            _ => return Err(bad("invalid media type")),
        };
        let decoded = percent_decode(payload).ok_or_else(|| bad("invalid percent-escape"))?;
        let bytes = if is_base64 {
            let compact: Vec<u8> = decoded
                .into_iter()
                .filter(|b| !b.is_ascii_whitespace())
                .collect();
            let engine = GeneralPurpose::new(
                &base64::alphabet::STANDARD,
                GeneralPurposeConfig::new()
                    .with_decode_padding_mode(DecodePaddingMode::Indifferent),
            );
            engine.decode(compact).map_err(|_| bad("invalid base64"))?
        } else {
            decoded
        };
        if bytes.len() > self.max_bytes {
            return Err(IconError::TooLarge {
                limit: self.max_bytes,
            });
        }
        Ok(IconSource::Data { mime, bytes })
    }
}

fn parse_server_origin(s: &str) -> Result<url::WebUrl, IconError> {
    let invalid = || IconError::InvalidServerOrigin(s.to_owned());
    let (scheme, rest) = url::split_scheme(s.trim()).ok_or_else(invalid)?;
    let scheme = match scheme.as_str() {
        "https" => "https",
        "http" => "http",
        _ => return Err(invalid()),
    };
    url::parse_web(scheme, rest).map_err(|_| invalid())
}

fn percent_decode(s: &str) -> Option<Vec<u8>> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            if !hex.bytes().all(|c| c.is_ascii_hexdigit()) {
                return None;
            }
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Some(out)
}

/// Resolves a redirect `location` against the `https:` URL `current` and returns the next URL,
/// refusing any change of scheme or origin (and credentials in the target).
pub fn check_redirect(current: &str, location: &str) -> Result<String, IconError> {
    let base = match url::split_scheme(current) {
        Some((scheme, rest)) if scheme == "https" => url::parse_web("https", rest)?,
        Some((scheme, _)) => return Err(IconError::UnsupportedScheme(scheme)),
        None => return Err(IconError::MalformedUrl("not an absolute URL".into())),
    };
    let target = url::resolve(&base, location.trim())?;
    let cross = || IconError::CrossOriginRedirect {
        from: base.to_url_string(),
        to: target.clone(),
    };
    match url::split_scheme(&target) {
        Some((scheme, rest)) if scheme == "https" => {
            let next = url::parse_web("https", rest)?;
            if next.same_origin(&base) {
                Ok(next.to_url_string())
            } else {
                Err(cross())
            }
        }
        _ => Err(cross()),
    }
}

/// Checks `src`, fetches it over `fetcher` when it is `https:` (following at most
/// `policy.max_redirects` same-origin redirects), and returns the sniffed, size-checked and, for SVG,
/// sanitized icon.
pub async fn load_icon<F: IconFetcher>(
    src: &str,
    server_origin: Option<&str>,
    policy: &IconPolicy,
    fetcher: &F,
) -> Result<LoadedIcon, IconError> {
    let bytes = match policy.check_src(src, server_origin)? {
        IconSource::Data { bytes, .. } => bytes,
        IconSource::Https { mut url } => {
            let mut redirects = 0;
            loop {
                let reply = fetcher.get(&url, policy.max_bytes).await?;
                match reply.status {
                    200..=299 => break reply.body,
                    301 | 302 | 303 | 307 | 308 => {
                        redirects += 1;
                        if redirects > policy.max_redirects {
                            return Err(IconError::TooManyRedirects {
                                limit: policy.max_redirects,
                            });
                        }
                        let location = reply.location.ok_or(IconError::MissingLocation {
                            status: reply.status,
                        })?;
                        url = check_redirect(&url, &location)?;
                    }
                    status => return Err(IconError::HttpStatus(status)),
                }
            }
        }
    };
    if bytes.len() > policy.max_bytes {
        return Err(IconError::TooLarge {
            limit: policy.max_bytes,
        });
    }
    let kind = sniff(&bytes, policy)?;
    let bytes = if kind == IconKind::Svg {
        sanitize_svg(&bytes)?
    } else {
        bytes
    };
    Ok(LoadedIcon {
        kind,
        mime: kind.mime(),
        bytes,
    })
}
