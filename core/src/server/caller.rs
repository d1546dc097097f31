//! Who sent a request and how it arrived, as far as the transport knows: the principal its
//! authorization verified and, over HTTP, the request head (method, URI, headers and the
//! extensions the host application's middleware set). Handlers read it through
//! [`RequestContext`](super::RequestContext).

use std::sync::Arc;

use crate::auth::AuthInfo;

/// What the transport knows about the sender of a message. Cheap to clone.
#[derive(Clone, Default)]
pub(crate) struct Caller {
    /// The verified access token (HTTP with `HttpServerConfig::auth`).
    pub(crate) auth: Option<Arc<AuthInfo>>,
    /// The HTTP request head the message came in, without its body.
    #[cfg(feature = "http")]
    pub(crate) http: Option<Arc<hyper::http::request::Parts>>,
}

impl Caller {
    /// A caller known only by its verified token, if any.
    pub(crate) fn authenticated(auth: Option<Arc<AuthInfo>>) -> Caller {
        Caller {
            auth,
            #[cfg(feature = "http")]
            http: None,
        }
    }
}
