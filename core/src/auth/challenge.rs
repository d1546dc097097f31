//! `WWW-Authenticate` parsing (RFC 9110 §11.6.1) for the Bearer challenge of RFC 6750 §3, with the
//! parameters MCP clients act on: `resource_metadata` (RFC 9728 §5.1), `scope` and `error`.

/// One Bearer challenge.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BearerChallenge {
    /// `resource_metadata`: where the protected-resource metadata lives.
    pub resource_metadata: Option<String>,
    /// `scope`: the scopes the resource needs (space-separated).
    pub scope: Option<String>,
    /// `error`: `invalid_token`, `insufficient_scope`, ...
    pub error: Option<String>,
    /// `error_description`.
    pub error_description: Option<String>,
}

impl BearerChallenge {
    /// Whether this challenge asks for more scope (a 403 step-up).
    pub fn is_insufficient_scope(&self) -> bool {
        self.error.as_deref() == Some("insufficient_scope")
    }
}

/// The Bearer challenge among the challenges of one `WWW-Authenticate` value, if there is one.
/// Other schemes (`Basic realm=...`, `DPoP ...`) are skipped; an unterminated quoted string ends the
/// value.
pub fn parse_bearer(header: &str) -> Option<BearerChallenge> {
    parse_scheme(header, "bearer")
}

/// The DPoP challenge (RFC 9449 §7.1: the same parameters as Bearer) among the challenges of one
/// `WWW-Authenticate` value, if there is one.
pub fn parse_dpop(header: &str) -> Option<BearerChallenge> {
    parse_scheme(header, "dpop")
}

/// The first challenge of `scheme` (compared case-insensitively) in a `WWW-Authenticate` value.
fn parse_scheme(header: &str, scheme: &str) -> Option<BearerChallenge> {
    let mut found: Option<BearerChallenge> = None;
    let mut in_bearer = false;
    let mut p = Scanner {
        s: header.as_bytes(),
        i: 0,
    };
    loop {
        p.skip_separators();
        let Some(token) = p.token() else {
            break;
        };
        p.skip_ws();
        if p.peek() == Some(b'=') && !p.is_token68_padding() {
            p.i += 1;
            p.skip_ws();
            let value = if p.peek() == Some(b'"') {
                match p.quoted() {
                    Some(v) => v,
                    None => break,
                }
            } else {
                p.token().unwrap_or_default()
            };
            if in_bearer && let Some(ch) = found.as_mut() {
                let slot = match token.to_ascii_lowercase().as_str() {
                    "resource_metadata" => &mut ch.resource_metadata,
                    "scope" => &mut ch.scope,
                    "error" => &mut ch.error,
                    "error_description" => &mut ch.error_description,
                    _ => continue,
                };
                // The first occurrence wins; a repeated parameter is malformed (RFC 9110 §11.2).
                if slot.is_none() {
                    *slot = Some(value);
                }
            }
        } else {
            // A new challenge: `scheme` followed by params or a token68.
            in_bearer = token.eq_ignore_ascii_case(scheme) && found.is_none();
            if in_bearer {
                found = Some(BearerChallenge::default());
            }
            p.skip_ws();
            p.skip_token68();
        }
    }
    found
}

struct Scanner<'a> {
    s: &'a [u8],
    i: usize,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }
    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.i += 1;
        }
    }
    fn skip_separators(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b',')) {
            self.i += 1;
        }
    }
    fn token(&mut self) -> Option<String> {
        let start = self.i;
        while let Some(c) = self.peek() {
            if c.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&c) {
                self.i += 1;
            } else {
                break;
            }
        }
        (self.i > start).then(|| String::from_utf8_lossy(&self.s[start..self.i]).into_owned())
    }
    /// After a scheme, `abc==` is a token68 whose `=` is padding, not a parameter.
    fn is_token68_padding(&self) -> bool {
        let mut j = self.i;
        while self.s.get(j) == Some(&b'=') {
            j += 1;
        }
        let mut k = j;
        while matches!(self.s.get(k), Some(b' ' | b'\t')) {
            k += 1;
        }
        j > self.i + 1 || matches!(self.s.get(k), None | Some(b','))
    }
    /// Skips a token68 (and its padding) if one follows a scheme, leaving params alone.
    fn skip_token68(&mut self) {
        let save = self.i;
        let Some(_) = self.token68_chars() else {
            return;
        };
        let after_chars = self.i;
        self.skip_ws();
        if self.peek() == Some(b'=') && !self.is_token68_padding() {
            // It was a parameter name: rewind.
            self.i = save;
            return;
        }
        self.i = after_chars;
        while self.peek() == Some(b'=') {
            self.i += 1;
        }
    }
    fn token68_chars(&mut self) -> Option<()> {
        let start = self.i;
        while let Some(c) = self.peek() {
            if c.is_ascii_alphanumeric() || b"-._~+/".contains(&c) {
                self.i += 1;
            } else {
                break;
            }
        }
        (self.i > start).then_some(())
    }
    fn quoted(&mut self) -> Option<String> {
        self.i += 1; // opening quote
        let mut out = Vec::new();
        loop {
            match self.peek()? {
                b'"' => {
                    self.i += 1;
                    return Some(String::from_utf8_lossy(&out).into_owned());
                }
                b'\\' => {
                    self.i += 1;
                    out.push(self.peek()?);
                    self.i += 1;
                }
                c => {
                    out.push(c);
                    self.i += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_sdk_challenge() {
        let ch = parse_bearer(
            r#"Bearer error="invalid_token", error_description="Missing Authorization header", scope="mcp:basic mcp:write", resource_metadata="http://localhost:1/.well-known/oauth-protected-resource/mcp""#,
        )
        .unwrap();
        assert_eq!(ch.error.as_deref(), Some("invalid_token"));
        assert_eq!(ch.scope.as_deref(), Some("mcp:basic mcp:write"));
        assert_eq!(
            ch.resource_metadata.as_deref(),
            Some("http://localhost:1/.well-known/oauth-protected-resource/mcp")
        );
        assert!(!ch.is_insufficient_scope());
    }

    #[test]
    fn tokens_escapes_and_other_schemes() {
        let ch = parse_bearer(
            r#"Basic realm="a, b", Bearer error=insufficient_scope,scope="x \"y\"" , DPoP algs="ES256""#,
        )
        .unwrap();
        assert!(ch.is_insufficient_scope());
        assert_eq!(ch.scope.as_deref(), Some(r#"x "y""#));
        assert_eq!(ch.resource_metadata, None);
        // A token68 after another scheme does not hide the Bearer challenge.
        let ch = parse_bearer(r#"Negotiate abc==, Bearer scope="s""#).unwrap();
        assert_eq!(ch.scope.as_deref(), Some("s"));
        assert_eq!(parse_bearer("Bearer").unwrap(), BearerChallenge::default());
    }

    #[test]
    fn no_bearer_or_broken_values() {
        assert_eq!(parse_bearer(r#"Basic realm="x""#), None);
        assert_eq!(parse_bearer(""), None);
        let ch = parse_bearer(r#"Bearer scope="a", error="unterminated"#).unwrap();
        assert_eq!(ch.scope.as_deref(), Some("a"));
        assert_eq!(ch.error, None);
        // The first of a repeated parameter wins.
        let ch = parse_bearer(r#"Bearer scope="a", scope="b""#).unwrap();
        assert_eq!(ch.scope.as_deref(), Some("a"));
    }
}
