//! Template expansion (RFC 6570 section 3.2 and appendix A).

use std::collections::BTreeMap;

use super::{Modifier, Op, TemplateValue, VarSpec, is_hex};

/// Percent-encodes `s`: unreserved characters pass; with `allow_reserved`, reserved characters and
/// existing `%XX` escapes pass too.
fn encode(out: &mut String, s: &str, allow_reserved: bool) {
    const RESERVED: &[u8] = b":/?#[]@!$&'()*+,;=";
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let pass = b.is_ascii_alphanumeric()
            || matches!(b, b'-' | b'.' | b'_' | b'~')
            || (allow_reserved && RESERVED.contains(&b));
        if pass {
            out.push(b as char);
        } else if allow_reserved
            && b == b'%'
            && i + 2 < bytes.len()
            && is_hex(bytes[i + 1])
            && is_hex(bytes[i + 2])
        {
            out.push_str(&s[i..i + 3]);
            i += 3;
            continue;
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
        i += 1;
    }
}

pub(super) fn expr(
    out: &mut String,
    op: Op,
    specs: &[VarSpec],
    vars: &BTreeMap<String, TemplateValue>,
) {
    let ar = op.allow_reserved();
    let sep = op.sep();
    let mut first = true;
    for spec in specs {
        let value = match vars.get(&spec.name) {
            None => continue,
            Some(TemplateValue::List(l)) if l.is_empty() => continue,
            Some(TemplateValue::Assoc(a)) if a.is_empty() => continue,
            Some(v) => v,
        };
        out.push_str(if first { op.first() } else { "" });
        if !first {
            out.push(sep);
        }
        first = false;
        let explode = spec.modifier == Modifier::Explode;
        // `name` is already encoded (variable names are; associative keys are encoded by the caller).
        let named_pair = |out: &mut String, name: &str, value: &str| {
            out.push_str(name);
            if value.is_empty() {
                out.push_str(op.if_empty());
            } else {
                out.push('=');
                encode(out, value, ar);
            }
        };
        match value {
            TemplateValue::String(s) => {
                let s = match spec.modifier {
                    Modifier::Prefix(n) => s.char_indices().nth(n).map_or(&s[..], |(i, _)| &s[..i]),
                    _ => s,
                };
                if op.named() {
                    named_pair(out, &spec.name, s);
                } else {
                    encode(out, s, ar);
                }
            }
            TemplateValue::List(items) if explode => {
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(sep);
                    }
                    if op.named() {
                        named_pair(out, &spec.name, item);
                    } else {
                        encode(out, item, ar);
                    }
                }
            }
            TemplateValue::Assoc(pairs) if explode => {
                for (i, (k, v)) in pairs.iter().enumerate() {
                    if i > 0 {
                        out.push(sep);
                    }
                    if op.named() {
                        let mut key = String::new();
                        encode(&mut key, k, ar);
                        named_pair(out, &key, v);
                    } else {
                        encode(out, k, ar);
                        out.push('=');
                        encode(out, v, ar);
                    }
                }
            }
            TemplateValue::List(_) | TemplateValue::Assoc(_) => {
                if op.named() {
                    out.push_str(&spec.name);
                    out.push('=');
                }
                let flat: Vec<&str> = match value {
                    TemplateValue::List(items) => items.iter().map(String::as_str).collect(),
                    TemplateValue::Assoc(pairs) => pairs
                        .iter()
                        .flat_map(|(k, v)| [k.as_str(), v.as_str()])
                        .collect(),
                    TemplateValue::String(_) => unreachable!("handled above"),
                };
                for (i, item) in flat.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    encode(out, item, ar);
                }
            }
        }
    }
}
