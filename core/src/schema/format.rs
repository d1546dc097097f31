//! The `format` values asserted under drafts 4 to 7 (2019-09 and 2020-12 read `format` as an
//! annotation only). A format not listed here is not checked, as those dialects allow; so are the
//! internationalised ones (`idn-email`, `idn-hostname`), which need IDNA tables this library does
//! not carry.

use std::net::Ipv6Addr;

use super::regex::Regex;

/// A format this engine checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Format {
    DateTime,
    Date,
    Time,
    Email,
    Hostname,
    Ipv4,
    Ipv6,
    Uri,
    UriReference,
    Iri,
    IriReference,
    Uuid,
    JsonPointer,
    RelativeJsonPointer,
    Regex,
    UriTemplate,
}

impl Format {
    /// The format named `name`, when it is one checked here.
    pub(super) fn from_name(name: &str) -> Option<Format> {
        Some(match name {
            "date-time" => Format::DateTime,
            "date" => Format::Date,
            "time" => Format::Time,
            "email" => Format::Email,
            "hostname" => Format::Hostname,
            "ipv4" => Format::Ipv4,
            "ipv6" => Format::Ipv6,
            "uri" => Format::Uri,
            "uri-reference" => Format::UriReference,
            "iri" => Format::Iri,
            "iri-reference" => Format::IriReference,
            "uuid" => Format::Uuid,
            "json-pointer" => Format::JsonPointer,
            "relative-json-pointer" => Format::RelativeJsonPointer,
            "regex" => Format::Regex,
            "uri-template" => Format::UriTemplate,
            _ => return None,
        })
    }

    /// The format's name as a schema writes it.
    pub(super) fn name(self) -> &'static str {
        match self {
            Format::DateTime => "date-time",
            Format::Date => "date",
            Format::Time => "time",
            Format::Email => "email",
            Format::Hostname => "hostname",
            Format::Ipv4 => "ipv4",
            Format::Ipv6 => "ipv6",
            Format::Uri => "uri",
            Format::UriReference => "uri-reference",
            Format::Iri => "iri",
            Format::IriReference => "iri-reference",
            Format::Uuid => "uuid",
            Format::JsonPointer => "json-pointer",
            Format::RelativeJsonPointer => "relative-json-pointer",
            Format::Regex => "regex",
            Format::UriTemplate => "uri-template",
        }
    }

    /// Whether the string `s` is in this format.
    pub(super) fn accepts(self, s: &str) -> bool {
        match self {
            Format::DateTime => date_time(s),
            Format::Date => date(s),
            Format::Time => time(s).is_some(),
            Format::Email => email(s),
            Format::Hostname => hostname(s),
            Format::Ipv4 => ipv4(s),
            Format::Ipv6 => s.parse::<Ipv6Addr>().is_ok(),
            Format::Uri => uri(s, true, false),
            Format::UriReference => uri(s, false, false),
            Format::Iri => uri(s, true, true),
            Format::IriReference => uri(s, false, true),
            Format::Uuid => uuid(s),
            Format::JsonPointer => json_pointer(s),
            Format::RelativeJsonPointer => relative_json_pointer(s),
            Format::Regex => Regex::new(s).is_ok(),
            Format::UriTemplate => uri_template(s),
        }
    }
}

/// `n` ASCII digits at the start of `s`, as a number, and the rest.
fn digits(s: &str, n: usize) -> Option<(u32, &str)> {
    let head = s.get(..n)?;
    if !head.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((head.parse().ok()?, &s[n..]))
}

/// RFC 3339 `full-date`.
fn date(s: &str) -> bool {
    parse_date(s).is_some_and(str::is_empty)
}

fn parse_date(s: &str) -> Option<&str> {
    let (year, rest) = digits(s, 4)?;
    let (month, rest) = digits(rest.strip_prefix('-')?, 2)?;
    let (day, rest) = digits(rest.strip_prefix('-')?, 2)?;
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    (1..=days).contains(&day).then_some(rest)
}

/// RFC 3339 `full-time`; a leap second only where the time in UTC is 23:59:60.
fn time(s: &str) -> Option<()> {
    let (hour, rest) = digits(s, 2)?;
    let (minute, rest) = digits(rest.strip_prefix(':')?, 2)?;
    let (second, mut rest) = digits(rest.strip_prefix(':')?, 2)?;
    if hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    if let Some(frac) = rest.strip_prefix('.') {
        let n = frac.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return None;
        }
        rest = &frac[n..];
    }
    let offset_minutes: i64 = if rest.eq_ignore_ascii_case("z") {
        0
    } else {
        let sign = match rest.as_bytes().first()? {
            b'+' => 1,
            b'-' => -1,
            _ => return None,
        };
        let (oh, r) = digits(&rest[1..], 2)?;
        let (om, r) = digits(r.strip_prefix(':')?, 2)?;
        if !r.is_empty() || oh > 23 || om > 59 {
            return None;
        }
        sign * i64::from(oh * 60 + om)
    };
    if second == 60 {
        let utc = (i64::from(hour * 60 + minute) - offset_minutes).rem_euclid(24 * 60);
        if utc != 23 * 60 + 59 {
            return None;
        }
    }
    Some(())
}

/// RFC 3339 `date-time`.
fn date_time(s: &str) -> bool {
    let Some(rest) = parse_date(s) else {
        return false;
    };
    match rest.as_bytes().first() {
        Some(b'T' | b't') => time(&rest[1..]).is_some(),
        _ => false,
    }
}

/// RFC 5321 mailbox: a dot-atom or quoted local part, `@`, a hostname or an address literal.
fn email(s: &str) -> bool {
    let Some(at) = s.rfind('@') else {
        return false;
    };
    let (local, domain) = (&s[..at], &s[at + 1..]);
    let local_ok = if local.len() >= 2 && local.starts_with('"') && local.ends_with('"') {
        local[1..local.len() - 1]
            .bytes()
            .all(|b| b.is_ascii() && b != b'"' && b != b'\\' && !b.is_ascii_control())
    } else {
        !local.is_empty()
            && local.split('.').all(|atom| {
                !atom.is_empty()
                    && atom
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-/=?^_`{|}~".contains(&b))
            })
    };
    if !local_ok {
        return false;
    }
    if let Some(literal) = domain.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
        return match literal.strip_prefix("IPv6:") {
            Some(v6) => v6.parse::<Ipv6Addr>().is_ok(),
            None => ipv4(literal),
        };
    }
    hostname(domain)
}

/// RFC 1123 host name: dot-separated labels of letters, digits and hyphens.
fn hostname(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 253
        && s.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
                // `--` in the third and fourth place is reserved for A-labels (RFC 5891, 4.2.3.1).
                && (label.get(2..4) != Some("--") || label[..2].eq_ignore_ascii_case("xn"))
        })
}

/// Dotted quad, decimal, no leading zeros.
fn ipv4(s: &str) -> bool {
    let parts: Vec<&str> = s.split('.').collect();
    parts.len() == 4
        && parts.iter().all(|p| {
            !p.is_empty()
                && p.len() <= 3
                && p.bytes().all(|b| b.is_ascii_digit())
                && (p.len() == 1 || !p.starts_with('0'))
                && p.parse::<u16>().is_ok_and(|n| n <= 255)
        })
}

/// RFC 3986 URI (`absolute`) or URI reference; RFC 3987 lets an IRI (`international`) hold
/// non-ASCII characters too.
fn uri(s: &str, absolute: bool, international: bool) -> bool {
    let allowed = |c: char| {
        c.is_ascii_alphanumeric()
            || "-._~:/?#[]@!$&'()*+,;=%".contains(c)
            || (international && !c.is_ascii() && !c.is_control() && !c.is_whitespace())
    };
    if !s.chars().all(allowed) {
        return false;
    }
    let bytes = s.as_bytes();
    for (i, b) in bytes.iter().enumerate() {
        if *b == b'%'
            && !(bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit))
        {
            return false;
        }
    }
    let (before_fragment, fragment) = s.split_once('#').unwrap_or((s, ""));
    if fragment.contains('#') || fragment.contains(['[', ']']) {
        return false;
    }
    let scheme_end = before_fragment.find(':').filter(|&i| {
        let scheme = &before_fragment[..i];
        !scheme.contains(['/', '?'])
    });
    let rest = match scheme_end {
        Some(i) => {
            let scheme = &before_fragment[..i];
            let mut chars = scheme.chars();
            if !chars.next().is_some_and(|c| c.is_ascii_alphabetic())
                || !chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
            {
                return false;
            }
            &before_fragment[i + 1..]
        }
        None if absolute => return false,
        None => before_fragment,
    };
    let Some(after) = rest.strip_prefix("//") else {
        return !rest.contains(['[', ']']);
    };
    let end = after.find(['/', '?']).unwrap_or(after.len());
    let (authority, path) = (&after[..end], &after[end..]);
    if path.contains(['[', ']']) {
        return false;
    }
    let host_port = match authority.rsplit_once('@') {
        Some((userinfo, hp)) => {
            if userinfo.contains(['[', ']', '@']) {
                return false;
            }
            hp
        }
        None => authority,
    };
    let port = if let Some(v6) = host_port.strip_prefix('[') {
        let Some((inside, rest)) = v6.split_once(']') else {
            return false;
        };
        if inside.parse::<Ipv6Addr>().is_err() && !inside.starts_with(['v', 'V']) {
            return false;
        }
        match rest {
            "" => "",
            r => match r.strip_prefix(':') {
                Some(p) => p,
                None => return false,
            },
        }
    } else {
        if host_port.contains(['[', ']']) {
            return false;
        }
        host_port.split_once(':').map_or("", |(_, p)| p)
    };
    port.bytes().all(|b| b.is_ascii_digit())
}

/// `8-4-4-4-12` hexadecimal digits.
fn uuid(s: &str) -> bool {
    let groups: Vec<&str> = s.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(g, n)| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// RFC 6901: empty, or `/`-prefixed tokens where `~` is only `~0` or `~1`.
fn json_pointer(s: &str) -> bool {
    (s.is_empty() || s.starts_with('/')) && tildes_escaped(s)
}

fn tildes_escaped(s: &str) -> bool {
    let b = s.as_bytes();
    b.iter()
        .enumerate()
        .all(|(i, &c)| c != b'~' || matches!(b.get(i + 1), Some(b'0' | b'1')))
}

/// A non-negative integer without leading zeros, then `#` or a JSON Pointer.
fn relative_json_pointer(s: &str) -> bool {
    let n = s.bytes().take_while(u8::is_ascii_digit).count();
    if n == 0 || (n > 1 && s.starts_with('0')) {
        return false;
    }
    let rest = &s[n..];
    rest == "#" || json_pointer(rest)
}

/// RFC 6570, 2: literals and `{` operator? varspec, ... `}` expressions.
fn uri_template(s: &str) -> bool {
    let mut rest = s;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('{') {
            let Some(end) = after.find('}') else {
                return false;
            };
            if !expression(&after[..end]) {
                return false;
            }
            rest = &after[end + 1..];
            continue;
        }
        let c = rest.chars().next().unwrap_or_default();
        if c == '%' {
            if !pct_encoded(rest) {
                return false;
            }
            rest = &rest[3..];
            continue;
        }
        if c.is_control() || " \"<>\\^`{|}".contains(c) {
            return false;
        }
        rest = &rest[c.len_utf8()..];
    }
    true
}

fn pct_encoded(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 3 && b[0] == b'%' && b[1].is_ascii_hexdigit() && b[2].is_ascii_hexdigit()
}

/// The inside of one `{...}`: an optional operator, then varspecs separated by commas.
fn expression(e: &str) -> bool {
    let e = e.strip_prefix(|c| "+#./;?&=,!@|".contains(c)).unwrap_or(e);
    !e.is_empty() && e.split(',').all(varspec)
}

/// `varname` then `*` or `:` and a max-length of 1 to 9999 without leading zero.
fn varspec(v: &str) -> bool {
    let (name, modifier) = match v.find([':', '*']) {
        Some(i) => (&v[..i], &v[i..]),
        None => (v, ""),
    };
    let valid_modifier = match modifier.strip_prefix(':') {
        Some(len) => {
            (1..=4).contains(&len.len())
                && len.bytes().all(|b| b.is_ascii_digit())
                && !len.starts_with('0')
        }
        None => modifier.is_empty() || modifier == "*",
    };
    valid_modifier && varname(name)
}

/// `varchar *( ["."] varchar )`, where a varchar is a letter, digit, `_` or `%XX`.
fn varname(name: &str) -> bool {
    if name.is_empty() || name.starts_with('.') || name.ends_with('.') || name.contains("..") {
        return false;
    }
    let mut rest = name;
    while let Some(c) = rest.chars().next() {
        if c == '%' {
            if !pct_encoded(rest) {
                return false;
            }
            rest = &rest[3..];
        } else if c.is_ascii_alphanumeric() || c == '_' || c == '.' {
            rest = &rest[1..];
        } else {
            return false;
        }
    }
    true
}
