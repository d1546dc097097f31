//! Reverse matching of a URI against a parsed template; the rules are documented on the parent module.

use std::collections::{BTreeMap, HashSet};

use super::{Modifier, Op, Part, TemplateValue, VarSpec};

/// Work allowed before giving up, in units of about one byte decoded: bounds the time an adversarial
/// template or URI can cost. Without repeated variables failures are memoized, but each candidate span
/// is still decoded, so the budget counts the bytes of every span tried, not just the spans.
pub(super) const WORK_BUDGET: usize = 2_000_000;

/// What every candidate span costs at least, whatever its length.
const STEP_COST: usize = 20;

type Bindings = Vec<(String, TemplateValue)>;

pub(super) fn match_uri(
    parts: &[Part],
    has_repeated_vars: bool,
    uri: &str,
) -> Option<BTreeMap<String, TemplateValue>> {
    let mut m = Matcher {
        parts,
        uri,
        memo: !has_repeated_vars,
        failed: HashSet::new(),
        work: 0,
        bindings: Vec::new(),
    };
    let found = m.go(0, 0);
    #[cfg(test)]
    LAST_WORK.with(|w| w.set(m.work));
    found.then(|| m.bindings.into_iter().collect())
}

#[cfg(test)]
thread_local! {
    /// The work charged by this thread's last match, for the tests that check the budget holds.
    pub(super) static LAST_WORK: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// Bytes of span text this thread gave to [`decompose`], to check that every one is charged.
    pub(super) static BYTES_SEEN: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

struct Matcher<'a> {
    parts: &'a [Part],
    uri: &'a str,
    /// Whether `(part, position)` failures may be remembered: only when the outcome of the rest does
    /// not depend on earlier bindings, i.e. no variable repeats.
    memo: bool,
    failed: HashSet<(usize, usize)>,
    /// Work charged so far (see [`WORK_BUDGET`]).
    work: usize,
    bindings: Bindings,
}

impl Matcher<'_> {
    fn go(&mut self, idx: usize, pos: usize) -> bool {
        if idx == self.parts.len() {
            return pos == self.uri.len();
        }
        if self.memo && self.failed.contains(&(idx, pos)) {
            return false;
        }
        let ok = match &self.parts[idx] {
            Part::Literal(lit) => {
                self.uri[pos..].starts_with(lit.as_str()) && self.go(idx + 1, pos + lit.len())
            }
            Part::Expr { op, vars } => self.expr(idx, pos, *op, vars),
        };
        if !ok && self.memo {
            self.failed.insert((idx, pos));
        }
        ok
    }

    fn expr(&mut self, idx: usize, pos: usize, op: Op, vars: &[VarSpec]) -> bool {
        let rest = &self.uri[pos..];
        let span = rest.find(|c| excluded(op, c)).unwrap_or(rest.len());
        let min_len = if op.first().is_empty() { 1 } else { 0 };
        // What must follow the span, checked before a candidate is decoded: the end of the URI when
        // this expression is the last part, or the next part's literal text.
        let last = idx + 1 == self.parts.len();
        let next_literal = match self.parts.get(idx + 1) {
            Some(Part::Literal(lit)) => Some(lit.as_str()),
            _ => None,
        };
        let mut end = pos + span;
        if last && end != self.uri.len() {
            return false;
        }
        loop {
            if end - pos < min_len {
                return false;
            }
            let text = &self.uri[pos..end];
            let viable = next_literal.is_none_or(|lit| self.uri[end..].starts_with(lit))
                && (text.is_empty() || text.starts_with(op.first()))
                && !(self.memo && self.failed.contains(&(idx + 1, end)));
            self.work += if viable { cost(op, vars, text) } else { 1 };
            if self.work > WORK_BUDGET {
                return false;
            }
            if viable {
                if let Some(binds) = decompose(op, vars, text) {
                    let mark = self.bindings.len();
                    if self.bind(binds) && self.go(idx + 1, end) {
                        return true;
                    }
                    self.bindings.truncate(mark);
                }
            }
            if end == pos || last {
                return false;
            }
            end = self.uri[..end]
                .char_indices()
                .next_back()
                .map_or(pos, |(i, _)| i);
        }
    }

    /// Adds bindings, refusing a repeated variable whose value differs from its earlier binding.
    fn bind(&mut self, binds: Bindings) -> bool {
        for (name, value) in binds {
            match self.bindings.iter().find(|(n, _)| *n == name) {
                Some((_, old)) if *old != value => return false,
                Some(_) => {}
                None => self.bindings.push((name, value)),
            }
        }
        true
    }
}

/// Characters an expression's span never contains.
fn excluded(op: Op, c: char) -> bool {
    match op {
        Op::Simple => matches!(c, '/' | '?' | '#' | '&'),
        Op::Reserved | Op::Path => matches!(c, '?' | '#'),
        Op::Fragment => false,
        Op::Label | Op::Param => matches!(c, '/' | '?' | '#'),
        Op::Query | Op::Continuation => c == '#',
    }
}

/// An upper bound on what [`decompose`] costs for `text`: it reads the text a few times, and named
/// operators also compare every `name=value` pair with every variable.
fn cost(op: Op, vars: &[VarSpec], text: &str) -> usize {
    let per_byte = if op.named() { 1 + vars.len() } else { 1 };
    STEP_COST + text.len() * per_byte
}

/// Splits an expression's matched text into variable values.
fn decompose(op: Op, vars: &[VarSpec], text: &str) -> Option<Bindings> {
    #[cfg(test)]
    BYTES_SEEN.with(|b| b.set(b.get() + text.len()));
    if text.is_empty() {
        return Some(Vec::new());
    }
    let items: Vec<&str> = text[op.first().len()..].split(op.sep()).collect();
    if op.named() {
        named(vars, &items)
    } else {
        unnamed(op, vars, &items)
    }
}

fn unnamed(op: Op, vars: &[VarSpec], items: &[&str]) -> Option<Bindings> {
    let mut out = Vec::new();
    let mut i = 0;
    for (k, spec) in vars.iter().enumerate() {
        if i == items.len() {
            break;
        }
        let left = items.len() - i;
        let after = vars.len() - k - 1;
        let explode = spec.modifier == Modifier::Explode;
        let take = if explode {
            left.saturating_sub(after).max(1)
        } else if after == 0 && op.sep() == ',' {
            left
        } else {
            1
        };
        let chunk = &items[i..i + take];
        i += take;
        let value = if explode {
            exploded(chunk)?
        } else if chunk.len() > 1 {
            TemplateValue::List(chunk.iter().map(|s| decode(s)).collect::<Option<_>>()?)
        } else {
            single(chunk[0])?
        };
        out.push((spec.name.clone(), value));
    }
    (i == items.len()).then_some(out)
}

/// Exploded items of an unnamed operator: `k=v` items form an associative array, others a list.
fn exploded(chunk: &[&str]) -> Option<TemplateValue> {
    if chunk.iter().all(|s| s.contains('=')) {
        let pairs = chunk.iter().map(|s| {
            let (k, v) = s.split_once('=').expect("checked");
            Some((decode(k)?, decode(v)?))
        });
        Some(TemplateValue::Assoc(pairs.collect::<Option<_>>()?))
    } else {
        Some(TemplateValue::List(
            chunk.iter().map(|s| decode(s)).collect::<Option<_>>()?,
        ))
    }
}

/// One non-exploded value: a literal comma means a joined list.
fn single(raw: &str) -> Option<TemplateValue> {
    if raw.contains(',') {
        Some(TemplateValue::List(
            raw.split(',').map(decode).collect::<Option<_>>()?,
        ))
    } else {
        Some(TemplateValue::String(decode(raw)?))
    }
}

fn named(vars: &[VarSpec], items: &[&str]) -> Option<Bindings> {
    let mut pairs = Vec::with_capacity(items.len());
    for item in items {
        let (k, v) = match item.split_once('=') {
            Some((k, v)) => (k, v),
            None => (*item, ""),
        };
        pairs.push((decode(k)?, v));
    }
    let mut used = vec![false; pairs.len()];
    let mut out = Vec::new();
    for spec in vars {
        let mut raw = Vec::new();
        for (j, (k, v)) in pairs.iter().enumerate() {
            if !used[j] && *k == spec.name {
                used[j] = true;
                raw.push(*v);
            }
        }
        let value = match raw.as_slice() {
            [] => continue,
            [one] if spec.modifier != Modifier::Explode => single(one)?,
            many => TemplateValue::List(many.iter().map(|s| decode(s)).collect::<Option<_>>()?),
        };
        out.push((spec.name.clone(), value));
    }
    if used.iter().all(|u| *u) {
        return Some(out);
    }
    // Pairs named after no variable belong to an exploded variable left unbound, as an assoc.
    let target = vars
        .iter()
        .find(|s| s.modifier == Modifier::Explode && !out.iter().any(|(n, _)| *n == s.name))?;
    let mut assoc = Vec::new();
    for (j, (k, v)) in pairs.iter().enumerate() {
        if !used[j] {
            assoc.push((k.clone(), decode(v)?));
        }
    }
    out.push((target.name.clone(), TemplateValue::Assoc(assoc)));
    Some(out)
}

/// Percent-decodes to UTF-8; `None` on a broken escape or invalid UTF-8.
fn decode(s: &str) -> Option<String> {
    if !s.contains('%') {
        return Some(s.to_owned());
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                return None;
            }
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}
