//! Why an icon was refused: the one error type of the icon checks.

/// Why an icon was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum IconError {
    /// The URL could not be parsed, or holds characters parsers disagree about.
    #[error("malformed icon URL: {0}")]
    MalformedUrl(String),
    /// The scheme is neither `https` nor `data`.
    #[error("icon URL scheme `{0}` is not allowed (only https: and data:)")]
    UnsupportedScheme(String),
    /// The URL carries user info (`user:password@`); icons are fetched without credentials.
    #[error("icon URL must not carry credentials")]
    CredentialsInUrl,
    /// An `https:` icon is not on the server's origin.
    #[error("icon origin {icon} differs from the server origin {server}")]
    CrossOrigin {
        /// The icon's origin.
        icon: String,
        /// The server's origin.
        server: String,
    },
    /// The server origin given to the check is not an `http(s)://host[:port]` URL.
    #[error("invalid server origin: {0}")]
    InvalidServerOrigin(String),
    /// A `data:` URI that does not follow RFC 2397 or whose payload does not decode.
    #[error("invalid data: URI: {0}")]
    InvalidDataUri(String),
    /// The icon is larger than the policy allows.
    #[error("icon exceeds the size limit of {limit} bytes")]
    TooLarge {
        /// The limit in bytes.
        limit: usize,
    },
    /// The redirect chain is longer than the policy allows.
    #[error("icon fetch exceeded {limit} redirects")]
    TooManyRedirects {
        /// The maximum number of redirects.
        limit: u32,
    },
    /// A redirect status came without a `Location`.
    #[error("HTTP {status} redirect without a Location header")]
    MissingLocation {
        /// The redirect status.
        status: u16,
    },
    /// A redirect leads to another scheme or origin.
    #[error("redirect from {from} to {to} changes scheme or origin")]
    CrossOriginRedirect {
        /// The URL that answered with the redirect.
        from: String,
        /// Where it pointed.
        to: String,
    },
    /// The final response was not a success.
    #[error("icon fetch returned HTTP {0}")]
    HttpStatus(u16),
    /// The HTTP client failed (connection, TLS, timeout...).
    #[error("icon fetch failed: {0}")]
    Fetch(String),
    /// The bytes are not a recognised image format.
    #[error("icon content is not a recognised image (PNG, JPEG, WebP or SVG)")]
    UnknownFormat,
    /// A recognised image format outside the allow-list (GIF, BMP, ICO, ...).
    #[error("icon format {0} is not allowed")]
    DisallowedFormat(&'static str),
    /// The content is SVG but the policy does not allow SVG.
    #[error("SVG icons are not allowed by the policy")]
    SvgNotAllowed,
    /// The SVG holds something the sanitizer refuses.
    #[error("unsafe SVG icon: {0}")]
    UnsafeSvg(String),
}
