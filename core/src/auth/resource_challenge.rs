//! A refused request, as RFC 6750 §3 describes it: the HTTP status, the `WWW-Authenticate: Bearer`
//! challenge (with RFC 9728's `resource_metadata` and the MCP `scope` hint) and a JSON body.

use serde_json::{Value, json};

/// Why a request was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ChallengeKind {
    /// No bearer token (or another scheme): 401, a challenge without `error`.
    MissingToken,
    /// A malformed `Authorization` header: 400 `invalid_request`.
    InvalidRequest,
    /// A token that was given and refused (unknown, expired, wrong audience): 401 `invalid_token`.
    InvalidToken,
    /// A valid token without the scopes this request needs: 403 `insufficient_scope`.
    InsufficientScope,
    /// The verifier could not decide: 503, no challenge.
    Unavailable,
}

/// A refusal, ready to be written as an HTTP response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Challenge {
    /// Why.
    pub kind: ChallengeKind,
    /// A human-readable explanation (`error_description`).
    pub description: String,
    /// The scopes the client should obtain (the `scope` parameter); empty omits it.
    pub scope: Vec<String>,
}

impl Challenge {
    pub(crate) fn new(
        kind: ChallengeKind,
        description: impl Into<String>,
        scope: Vec<String>,
    ) -> Self {
        Challenge {
            kind,
            description: description.into(),
            scope,
        }
    }

    /// The HTTP status code.
    pub fn status(&self) -> u16 {
        match self.kind {
            ChallengeKind::MissingToken | ChallengeKind::InvalidToken => 401,
            ChallengeKind::InvalidRequest => 400,
            ChallengeKind::InsufficientScope => 403,
            ChallengeKind::Unavailable => 503,
        }
    }

    /// The RFC 6750 error code, if the challenge carries one.
    pub fn error_code(&self) -> Option<&'static str> {
        match self.kind {
            ChallengeKind::MissingToken => None,
            ChallengeKind::InvalidRequest => Some("invalid_request"),
            ChallengeKind::InvalidToken => Some("invalid_token"),
            ChallengeKind::InsufficientScope => Some("insufficient_scope"),
            ChallengeKind::Unavailable => Some("temporarily_unavailable"),
        }
    }

    /// The `WWW-Authenticate` value, e.g. `Bearer error="invalid_token", error_description="...",
    /// resource_metadata="...", scope="a b"`; `None` for [`ChallengeKind::Unavailable`], which is
    /// not an authentication failure.
    pub fn www_authenticate(&self, resource_metadata: &str) -> Option<String> {
        if self.kind == ChallengeKind::Unavailable {
            return None;
        }
        let mut params = Vec::new();
        if let Some(code) = self.error_code() {
            params.push(format!("error=\"{code}\""));
            params.push(format!(
                "error_description=\"{}\"",
                quotable(&self.description)
            ));
        }
        params.push(format!(
            "resource_metadata=\"{}\"",
            quotable(resource_metadata)
        ));
        if !self.scope.is_empty() {
            params.push(format!("scope=\"{}\"", quotable(&self.scope.join(" "))));
        }
        Some(format!("Bearer {}", params.join(", ")))
    }

    /// The JSON body: `{"error": ..., "error_description": ...}` (OAuth style).
    pub fn body(&self) -> Value {
        let error = match self.kind {
            ChallengeKind::MissingToken => "invalid_token",
            _ => self.error_code().unwrap_or("invalid_token"),
        };
        let mut body = json!({ "error": error, "error_description": self.description });
        if !self.scope.is_empty() {
            body["scope"] = json!(self.scope.join(" "));
        }
        body
    }
}

/// Keeps only the characters RFC 6750 §3 allows inside these quoted strings (printable ASCII
/// without `"` and `\`); anything else becomes `?`, so a verifier's message can never break the
/// header.
fn quotable(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            ' ' | '!' | '#'..='[' | ']'..='~' => c,
            _ => '?',
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const PRM: &str = "https://r.example/.well-known/oauth-protected-resource/mcp";

    #[test]
    fn challenges_on_the_wire() {
        let missing = Challenge::new(ChallengeKind::MissingToken, "no token", vec!["mcp".into()]);
        assert_eq!(missing.status(), 401);
        assert_eq!(
            missing.www_authenticate(PRM).unwrap(),
            format!("Bearer resource_metadata=\"{PRM}\", scope=\"mcp\"")
        );
        let scope = Challenge::new(
            ChallengeKind::InsufficientScope,
            "needs \"write\"\n",
            vec!["read".into(), "write".into()],
        );
        assert_eq!(scope.status(), 403);
        assert_eq!(
            scope.www_authenticate(PRM).unwrap(),
            format!(
                "Bearer error=\"insufficient_scope\", error_description=\"needs ?write??\", resource_metadata=\"{PRM}\", scope=\"read write\""
            )
        );
        let down = Challenge::new(ChallengeKind::Unavailable, "down", vec![]);
        assert_eq!((down.status(), down.www_authenticate(PRM)), (503, None));
    }
}
