//! RFC 6570 URI templates (levels 1–4) for MCP resource templates: parsing, expansion, and the reverse
//! match a server uses to route `resources/read` to a template.
//!
//! # Matching rules
//!
//! Matching inverts expansion, which is ambiguous in general, so [`UriTemplate::matches`] follows fixed
//! rules and always gives the same answer for the same input:
//!
//! * Literal text must appear byte for byte (no case folding, no decoding).
//! * Each expression claims a span of the URI made of characters its operator allows:
//!   simple `{x}`: anything but `/ ? # &`; `{+x}`: anything but `? #`; `{#x}`: anything;
//!   `{.x}` and `{;x}`: anything but `/ ? #`; `{/x}`: anything but `? #`; `{?x}` and `{&x}`: anything
//!   but `#`. Simple and `+` expressions need at least one character; the others must start with
//!   their operator character (`.`, `/`, `;`, `?`, `&`, `#`) or be empty (all variables undefined).
//! * Spans are chosen left to right, longest first, backtracking when the rest does not match.
//! * Inside a span, values are split on the operator's separator and percent-decoded (invalid
//!   escapes or non-UTF-8 results mean no match).
//!   - Unnamed operators bind items to variables left to right, one item each; an exploded variable
//!     takes every item not needed by the variables after it, and with the comma-separated operators
//!     (simple, `+`, `#`) the last variable takes all items left. Items nobody takes mean no match.
//!     An item holding a literal `,` (lists are joined with unencoded commas, strings have theirs
//!     encoded) or several items for one variable give a [`TemplateValue::List`]; exploded items that
//!     all contain a literal `=` give a [`TemplateValue::Assoc`].
//!   - Named operators (`;`, `?`, `&`) accept `name=value` pairs in any order. Pairs named after a
//!     variable bind to it (repeated names give a list); pairs with other names go to the expression's
//!     exploded variable as an associative array, and without one the URI does not match.
//! * Non-exploded associative arrays come back as a flat list of keys and values; a prefix variable
//!   (`{x:3}`) binds to the truncated text; undefined variables are absent from the result.
//! * A variable used twice must bind the same value both times.
//! * The search is bounded: every candidate span is charged for its length, and after about two
//!   million bytes of spans tried the URI does not match, so pathological inputs fail fast.

use std::collections::{BTreeMap, HashSet};
use std::fmt;

pub use parts::TemplateValue;
use parts::{Modifier, Op, Part, VarSpec, is_hex};

mod expand;
mod matching;
mod parts;
#[cfg(test)]
mod tests;

/// Why a template failed to parse; `offset` is the byte offset in the template.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid URI template at byte {offset}: {reason}")]
pub struct TemplateError {
    /// Byte offset of the problem in the template text.
    pub offset: usize,
    /// What is wrong.
    pub reason: &'static str,
}

/// A parsed RFC 6570 URI template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UriTemplate {
    text: String,
    parts: Vec<Part>,
    has_repeated_vars: bool,
}

impl fmt::Display for UriTemplate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl std::str::FromStr for UriTemplate {
    type Err = TemplateError;
    fn from_str(s: &str) -> Result<Self, TemplateError> {
        UriTemplate::parse(s)
    }
}

fn err(offset: usize, reason: &'static str) -> TemplateError {
    TemplateError { offset, reason }
}

/// Checks the `%XX` escape at `i` (which holds `%`).
fn check_pct(bytes: &[u8], i: usize, offset: usize) -> Result<(), TemplateError> {
    match (bytes.get(i + 1), bytes.get(i + 2)) {
        (Some(&a), Some(&b)) if is_hex(a) && is_hex(b) => Ok(()),
        _ => Err(err(offset + i, "'%' not followed by two hex digits")),
    }
}

impl UriTemplate {
    /// Parses a template, rejecting unbalanced braces, empty or malformed expressions, reserved
    /// operators (`= , ! @ |`) and characters RFC 6570 does not allow in literals.
    pub fn parse(template: &str) -> Result<UriTemplate, TemplateError> {
        let bytes = template.as_bytes();
        let mut parts = Vec::new();
        let mut literal = String::new();
        let mut i = 0;
        while i < template.len() {
            let c = template[i..].chars().next().expect("in bounds");
            match c {
                '{' => {
                    let close = template[i..]
                        .find('}')
                        .ok_or_else(|| err(i, "unclosed '{'"))?;
                    let inner = &template[i + 1..i + close];
                    if let Some(pos) = inner.find('{') {
                        return Err(err(i + 1 + pos, "'{' inside an expression"));
                    }
                    if !literal.is_empty() {
                        parts.push(Part::Literal(std::mem::take(&mut literal)));
                    }
                    parts.push(parse_expr(inner, i + 1)?);
                    i += close + 1;
                    continue;
                }
                '}' => return Err(err(i, "'}' without a matching '{'")),
                '%' => check_pct(bytes, i, 0)?,
                c if c.is_control() || c.is_whitespace() => {
                    return Err(err(i, "whitespace or control character in literal"));
                }
                '"' | '\'' | '<' | '>' | '\\' | '^' | '`' | '|' => {
                    return Err(err(i, "character not allowed in a URI template literal"));
                }
                _ => {}
            }
            literal.push(c);
            i += c.len_utf8();
        }
        if !literal.is_empty() {
            parts.push(Part::Literal(literal));
        }
        let mut seen = HashSet::new();
        let has_repeated_vars = parts.iter().any(|p| match p {
            Part::Expr { vars, .. } => vars.iter().any(|v| !seen.insert(v.name.clone())),
            Part::Literal(_) => false,
        });
        Ok(UriTemplate {
            text: template.to_owned(),
            parts,
            has_repeated_vars,
        })
    }

    /// The template text as given to [`parse`](Self::parse).
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The variable names, in order of first appearance, without duplicates.
    pub fn variables(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for part in &self.parts {
            if let Part::Expr { vars, .. } = part {
                for v in vars {
                    if !out.contains(&v.name.as_str()) {
                        out.push(&v.name);
                    }
                }
            }
        }
        out
    }

    /// Expands the template; variables missing from `vars` (or empty lists/assocs) are undefined.
    pub fn expand(&self, vars: &BTreeMap<String, TemplateValue>) -> String {
        let mut out = String::with_capacity(self.text.len());
        for part in &self.parts {
            match part {
                Part::Literal(s) => out.push_str(s),
                Part::Expr { op, vars: specs } => expand::expr(&mut out, *op, specs, vars),
            }
        }
        out
    }

    /// Reverse-matches a concrete URI, returning the variable values (see the module docs for the
    /// rules), or `None` when the URI is not an expansion of this template.
    pub fn matches(&self, uri: &str) -> Option<BTreeMap<String, TemplateValue>> {
        matching::match_uri(&self.parts, self.has_repeated_vars, uri)
    }
}

fn parse_expr(inner: &str, offset: usize) -> Result<Part, TemplateError> {
    let mut chars = inner.chars();
    let (op, body, body_off) = match chars.next() {
        None => return Err(err(offset, "empty expression")),
        Some('=' | ',' | '!' | '@' | '|') => return Err(err(offset, "reserved operator")),
        Some(c) => match Op::from_char(c) {
            Some(op) => (op, &inner[1..], offset + 1),
            None => (Op::Simple, inner, offset),
        },
    };
    let mut vars = Vec::new();
    let mut pos = body_off;
    for spec in body.split(',') {
        vars.push(parse_varspec(spec, pos)?);
        pos += spec.len() + 1;
    }
    Ok(Part::Expr { op, vars })
}

fn parse_varspec(spec: &str, offset: usize) -> Result<VarSpec, TemplateError> {
    let (name, modifier) = if let Some(name) = spec.strip_suffix('*') {
        (name, Modifier::Explode)
    } else if let Some((name, len)) = spec.split_once(':') {
        let at = offset + name.len() + 1;
        if len.is_empty() || len.len() > 4 || !len.bytes().all(|b| b.is_ascii_digit()) {
            return Err(err(at, "prefix length must be 1 to 9999"));
        }
        if len.starts_with('0') {
            return Err(err(at, "prefix length must be 1 to 9999"));
        }
        (name, Modifier::Prefix(len.parse().expect("checked digits")))
    } else {
        (spec, Modifier::None)
    };
    if name.is_empty() {
        return Err(err(offset, "empty variable name"));
    }
    let bytes = name.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                check_pct(bytes, i, offset)?;
                i += 3;
                continue;
            }
            b'.' if i == 0 || i + 1 == bytes.len() || bytes[i - 1] == b'.' => {
                return Err(err(offset + i, "misplaced '.' in variable name"));
            }
            b'.' | b'_' => {}
            b if b.is_ascii_alphanumeric() => {}
            _ => return Err(err(offset + i, "invalid character in variable name")),
        }
        i += 1;
    }
    Ok(VarSpec {
        name: name.to_owned(),
        modifier,
    })
}
