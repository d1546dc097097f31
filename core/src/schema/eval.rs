//! Running a [`Program`] on an instance: every failure with the instance location, the schema
//! location (the evaluation path, through `$ref`) and a message; or, with no list to fill, a
//! verdict that stops at the first failure.
//!
//! `unevaluatedProperties` / `unevaluatedItems` need what the in-place applicators around them
//! evaluated; that is tracked ([`Seen`]) only when the program has one of them.

use std::cmp::Ordering;
use std::fmt::Write as _;

use serde_json::Value;

use super::equal::{compare, equal, is_integer, is_multiple};
use super::pointer::escape;
use super::program::{Check, Node, Program, TYPE_NAMES};
use super::report::ValidationErrorEntry;

/// Nested evaluations allowed (a `$ref` cycle that consumes no instance would loop forever).
const MAX_EVAL_DEPTH: usize = 512;

/// One step of an instance or schema location.
#[derive(Clone, Copy)]
enum Seg<'c> {
    Key(&'c str),
    Index(usize),
}

/// A location as a chain of steps up to the root, built on the stack as evaluation descends.
#[derive(Clone, Copy)]
struct Chain<'c> {
    parent: Option<&'c Chain<'c>>,
    seg: Seg<'c>,
}

fn push<'c>(parent: Option<&'c Chain<'c>>, seg: Seg<'c>) -> Chain<'c> {
    Chain { parent, seg }
}

/// The JSON Pointer of a location.
fn pointer(chain: Option<&Chain<'_>>) -> String {
    let mut segs = Vec::new();
    let mut at = chain;
    while let Some(c) = at {
        segs.push(c.seg);
        at = c.parent;
    }
    let mut out = String::new();
    for seg in segs.iter().rev() {
        out.push('/');
        match seg {
            Seg::Key(k) => out.push_str(&escape(k)),
            Seg::Index(i) => {
                let _ = write!(out, "{i}");
            }
        }
    }
    out
}

/// What in-place applicators evaluated of the current instance, for `unevaluated*`.
#[derive(Default)]
struct Seen<'v> {
    props: Vec<&'v str>,
    items_upto: usize,
    items_all: bool,
    items: Vec<usize>,
}

impl<'v> Seen<'v> {
    fn merge(&mut self, other: Seen<'v>) {
        self.props.extend(other.props);
        self.items_upto = self.items_upto.max(other.items_upto);
        self.items_all |= other.items_all;
        self.items.extend(other.items);
    }
}

/// One run of a program.
pub(super) struct Eval<'p> {
    prog: &'p Program,
    /// Where failures go; `None` stops at the first one.
    errors: Option<Vec<ValidationErrorEntry>>,
    /// The schema resources entered, outermost first (the dynamic scope).
    scope: Vec<usize>,
    depth: usize,
}

impl<'p> Eval<'p> {
    /// Whether `instance` is valid under the program's root.
    pub(super) fn is_valid(prog: &'p Program, instance: &Value) -> bool {
        let mut me = Eval {
            prog,
            errors: None,
            scope: Vec::new(),
            depth: 0,
        };
        me.node(0, instance, None, None, &mut Seen::default())
    }

    /// Every failure of `instance` under the program's root.
    pub(super) fn errors(prog: &'p Program, instance: &Value) -> Vec<ValidationErrorEntry> {
        let mut me = Eval {
            prog,
            errors: Some(Vec::new()),
            scope: Vec::new(),
            depth: 0,
        };
        me.node(0, instance, None, None, &mut Seen::default());
        me.errors.unwrap_or_default()
    }

    fn fail(
        &mut self,
        ip: Option<&Chain<'_>>,
        sp: Option<&Chain<'_>>,
        keyword: &str,
        message: String,
    ) {
        if let Some(errors) = &mut self.errors {
            let mut schema_path = pointer(sp);
            if !keyword.is_empty() {
                schema_path.push('/');
                schema_path.push_str(keyword);
            }
            errors.push(ValidationErrorEntry {
                instance_path: pointer(ip),
                schema_path,
                message,
            });
        }
    }

    /// Evaluates `node` without reporting failures (for `anyOf`, `oneOf`, `not`, `if`,
    /// `contains`, whose own message says what failed).
    fn quiet<'v>(&mut self, node: usize, inst: &'v Value, seen: &mut Seen<'v>) -> bool {
        let errors = self.errors.take();
        let ok = self.node(node, inst, None, None, seen);
        self.errors = errors;
        ok
    }

    fn node<'v>(
        &mut self,
        n: usize,
        inst: &'v Value,
        ip: Option<&Chain<'_>>,
        sp: Option<&Chain<'_>>,
        seen: &mut Seen<'v>,
    ) -> bool {
        let prog = self.prog;
        let (resource, checks) = match &prog.nodes[n] {
            Node::Bool(true) => return true,
            Node::Bool(false) => {
                self.fail(ip, sp, "", format!("False schema does not allow {inst}"));
                return false;
            }
            Node::Checks { resource, checks } => (*resource, checks),
        };
        if self.depth >= MAX_EVAL_DEPTH {
            self.fail(
                ip,
                sp,
                "",
                format!(
                    "schema evaluation nested deeper than {MAX_EVAL_DEPTH} levels (a $ref cycle?)"
                ),
            );
            return false;
        }
        self.depth += 1;
        let entered = self.scope.last() != Some(&resource);
        if entered {
            self.scope.push(resource);
        }
        // A node's `unevaluated*` sees what its own keywords and in-place applicators evaluated,
        // never a sibling's (2020-12, 11.2 and 11.3): each node starts afresh and hands what it
        // evaluated to its parent only when it passes.
        let mut own = Seen::default();
        let mut ok = true;
        for check in checks {
            if !self.check(check, inst, ip, sp, &mut own) {
                ok = false;
                if self.errors.is_none() {
                    break;
                }
            }
        }
        if ok && self.prog.track_unevaluated {
            seen.merge(own);
        }
        if entered {
            self.scope.pop();
        }
        self.depth -= 1;
        ok
    }

    /// Evaluates `node` on a child of the instance: its annotations stay with it.
    fn child(
        &mut self,
        node: usize,
        inst: &Value,
        ip: Option<&Chain<'_>>,
        sp: Option<&Chain<'_>>,
    ) -> bool {
        self.node(node, inst, ip, sp, &mut Seen::default())
    }

    fn check<'v>(
        &mut self,
        check: &'p Check,
        inst: &'v Value,
        ip: Option<&Chain<'_>>,
        sp: Option<&Chain<'_>>,
        seen: &mut Seen<'v>,
    ) -> bool {
        // Only dispatch here: this frame is on every level of the recursion, so the arms' locals
        // live in the functions below (a debug build's frame holds every arm's locals).
        match check {
            Check::Ref(_) | Check::DynamicRef { .. } | Check::RecursiveRef(_) => {
                self.reference(check, inst, ip, sp, seen)
            }
            Check::Type(..) | Check::Enum(_) | Check::Const(_) => self.value(check, inst, ip, sp),
            Check::Minimum(_)
            | Check::Maximum(_)
            | Check::ExclusiveMinimum(_)
            | Check::ExclusiveMaximum(_)
            | Check::MultipleOf(_) => self.numeric(check, inst, ip, sp),
            Check::MinLength(_) | Check::MaxLength(_) | Check::Pattern(..) | Check::Format(_) => {
                self.string(check, inst, ip, sp)
            }
            Check::MinItems(_)
            | Check::MaxItems(_)
            | Check::UniqueItems
            | Check::Items { .. }
            | Check::Contains { .. }
            | Check::UnevaluatedItems(_) => self.array(check, inst, ip, sp, seen),
            Check::MinProperties(_)
            | Check::MaxProperties(_)
            | Check::Required(_)
            | Check::Properties { .. }
            | Check::PropertyNames(_)
            | Check::DependentRequired(..)
            | Check::DependentSchemas(..)
            | Check::UnevaluatedProperties(_) => self.object(check, inst, ip, sp, seen),
            Check::AllOf(_)
            | Check::AnyOf(_)
            | Check::OneOf(_)
            | Check::Not(..)
            | Check::If { .. } => self.applicator(check, inst, ip, sp, seen),
        }
    }

    #[inline(never)]
    fn reference<'v>(
        &mut self,
        check: &'p Check,
        inst: &'v Value,
        ip: Option<&Chain<'_>>,
        sp: Option<&Chain<'_>>,
        seen: &mut Seen<'v>,
    ) -> bool {
        match check {
            Check::Ref(target) => {
                let at = push(sp, Seg::Key("$ref"));
                self.node(*target, inst, ip, Some(&at), seen)
            }
            Check::DynamicRef { target, anchor } => {
                let prog = self.prog;
                let resolved = anchor
                    .as_ref()
                    .and_then(|a| {
                        self.scope
                            .iter()
                            .find_map(|r| prog.resources[*r].dynamic_anchors.get(a).copied())
                    })
                    .unwrap_or(*target);
                let at = push(sp, Seg::Key("$dynamicRef"));
                self.node(resolved, inst, ip, Some(&at), seen)
            }
            Check::RecursiveRef(target) => {
                let prog = self.prog;
                let anchored = match &prog.nodes[*target] {
                    Node::Checks { resource, .. } => {
                        prog.resources[*resource].recursive_root == Some(*target)
                    }
                    Node::Bool(_) => false,
                };
                let resolved = if anchored {
                    self.scope
                        .iter()
                        .find_map(|r| prog.resources[*r].recursive_root)
                        .unwrap_or(*target)
                } else {
                    *target
                };
                let at = push(sp, Seg::Key("$recursiveRef"));
                self.node(resolved, inst, ip, Some(&at), seen)
            }
            _ => true,
        }
    }

    #[inline(never)]
    fn value(
        &mut self,
        check: &'p Check,
        inst: &Value,
        ip: Option<&Chain<'_>>,
        sp: Option<&Chain<'_>>,
    ) -> bool {
        match check {
            Check::Type(mask, names) => {
                if type_bits(inst) & mask != 0 {
                    return true;
                }
                let message = if names.len() == 1 {
                    format!("{inst} is not of type \"{}\"", names[0])
                } else {
                    let list: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
                    format!("{inst} is not of types {}", list.join(", "))
                };
                self.fail(ip, sp, "type", message);
                false
            }
            Check::Enum(options) => {
                if options.iter().any(|o| equal(o, inst)) {
                    return true;
                }
                self.fail(ip, sp, "enum", enum_message(inst, options));
                false
            }
            Check::Const(c) => {
                if equal(c, inst) {
                    return true;
                }
                self.fail(ip, sp, "const", format!("{c} was expected"));
                false
            }
            _ => true,
        }
    }

    #[inline(never)]
    fn applicator<'v>(
        &mut self,
        check: &'p Check,
        inst: &'v Value,
        ip: Option<&Chain<'_>>,
        sp: Option<&Chain<'_>>,
        seen: &mut Seen<'v>,
    ) -> bool {
        match check {
            Check::AllOf(list) => {
                let at = push(sp, Seg::Key("allOf"));
                let mut ok = true;
                for (i, n) in list.iter().enumerate() {
                    let here = push(Some(&at), Seg::Index(i));
                    if !self.node(*n, inst, ip, Some(&here), seen) {
                        ok = false;
                        if self.errors.is_none() {
                            break;
                        }
                    }
                }
                ok
            }
            Check::AnyOf(list) => {
                let track = self.prog.track_unevaluated;
                let mut any = false;
                for n in list {
                    let mut branch = Seen::default();
                    if self.quiet(*n, inst, &mut branch) {
                        any = true;
                        seen.merge(branch);
                        if !track {
                            break;
                        }
                    }
                }
                if !any {
                    self.fail(
                        ip,
                        sp,
                        "anyOf",
                        format!("{inst} is not valid under any of the schemas listed in the 'anyOf' keyword"),
                    );
                }
                any
            }
            Check::OneOf(list) => {
                let mut valid = 0;
                let mut kept = Seen::default();
                for n in list {
                    let mut branch = Seen::default();
                    if self.quiet(*n, inst, &mut branch) {
                        valid += 1;
                        kept = branch;
                        if valid > 1 {
                            break;
                        }
                    }
                }
                match valid {
                    1 => {
                        seen.merge(kept);
                        true
                    }
                    0 => {
                        self.fail(
                            ip,
                            sp,
                            "oneOf",
                            format!("{inst} is not valid under any of the schemas listed in the 'oneOf' keyword"),
                        );
                        false
                    }
                    _ => {
                        self.fail(
                            ip,
                            sp,
                            "oneOf",
                            format!("{inst} is valid under more than one of the schemas listed in the 'oneOf' keyword"),
                        );
                        false
                    }
                }
            }
            Check::Not(n, schema) => {
                if !self.quiet(*n, inst, &mut Seen::default()) {
                    return true;
                }
                self.fail(ip, sp, "not", format!("{schema} is not allowed for {inst}"));
                false
            }
            Check::If {
                cond,
                then,
                otherwise,
            } => {
                let mut branch = Seen::default();
                let (next, keyword) = if self.quiet(*cond, inst, &mut branch) {
                    seen.merge(branch);
                    (then, "then")
                } else {
                    (otherwise, "else")
                };
                match next {
                    Some(n) => {
                        let at = push(sp, Seg::Key(keyword));
                        self.node(*n, inst, ip, Some(&at), seen)
                    }
                    None => true,
                }
            }
            _ => true,
        }
    }

    #[inline(never)]
    fn numeric(
        &mut self,
        check: &Check,
        inst: &Value,
        ip: Option<&Chain<'_>>,
        sp: Option<&Chain<'_>>,
    ) -> bool {
        let Value::Number(x) = inst else {
            return true;
        };
        let (ok, keyword, message) = match check {
            Check::Minimum(m) => (
                compare(x, m) != Some(Ordering::Less),
                "minimum",
                format!("{inst} is less than the minimum of {m}"),
            ),
            Check::Maximum(m) => (
                compare(x, m) != Some(Ordering::Greater),
                "maximum",
                format!("{inst} is greater than the maximum of {m}"),
            ),
            Check::ExclusiveMinimum(m) => (
                compare(x, m) == Some(Ordering::Greater),
                "exclusiveMinimum",
                format!("{inst} is less than or equal to the minimum of {m}"),
            ),
            Check::ExclusiveMaximum(m) => (
                compare(x, m) == Some(Ordering::Less),
                "exclusiveMaximum",
                format!("{inst} is greater than or equal to the maximum of {m}"),
            ),
            Check::MultipleOf(m) => (
                is_multiple(x, m),
                "multipleOf",
                format!("{inst} is not a multiple of {m}"),
            ),
            _ => return true,
        };
        if !ok {
            self.fail(ip, sp, keyword, message);
        }
        ok
    }

    #[inline(never)]
    fn string(
        &mut self,
        check: &Check,
        inst: &Value,
        ip: Option<&Chain<'_>>,
        sp: Option<&Chain<'_>>,
    ) -> bool {
        let Value::String(s) = inst else {
            return true;
        };
        let (keyword, message) = match check {
            Check::MinLength(n) => {
                if s.chars().count() as u64 >= *n {
                    return true;
                }
                (
                    "minLength",
                    format!("{inst} is shorter than {n} character{}", plural(*n)),
                )
            }
            Check::MaxLength(n) => {
                if s.chars().count() as u64 <= *n {
                    return true;
                }
                (
                    "maxLength",
                    format!("{inst} is longer than {n} character{}", plural(*n)),
                )
            }
            Check::Pattern(re, pattern) => match re.is_match(s) {
                Ok(true) => return true,
                Ok(false) => ("pattern", format!("{inst} does not match \"{pattern}\"")),
                Err(limit) => (
                    "pattern",
                    format!("{inst} could not be matched against \"{pattern}\": {limit}"),
                ),
            },
            Check::Format(format) => {
                if format.accepts(s) {
                    return true;
                }
                ("format", format!("{inst} is not a \"{}\"", format.name()))
            }
            _ => return true,
        };
        self.fail(ip, sp, keyword, message);
        false
    }

    #[inline(never)]
    fn array<'v>(
        &mut self,
        check: &'p Check,
        inst: &'v Value,
        ip: Option<&Chain<'_>>,
        sp: Option<&Chain<'_>>,
        seen: &mut Seen<'v>,
    ) -> bool {
        let Value::Array(items) = inst else {
            return true;
        };
        match check {
            Check::MinItems(n) => {
                if items.len() as u64 >= *n {
                    return true;
                }
                self.fail(
                    ip,
                    sp,
                    "minItems",
                    format!("{inst} has less than {n} item{}", plural(*n)),
                );
                false
            }
            Check::MaxItems(n) => {
                if items.len() as u64 <= *n {
                    return true;
                }
                self.fail(
                    ip,
                    sp,
                    "maxItems",
                    format!("{inst} has more than {n} item{}", plural(*n)),
                );
                false
            }
            Check::UniqueItems => {
                let duplicate = (0..items.len())
                    .any(|i| items[i + 1..].iter().any(|other| equal(&items[i], other)));
                if !duplicate {
                    return true;
                }
                self.fail(
                    ip,
                    sp,
                    "uniqueItems",
                    format!("{inst} has non-unique elements"),
                );
                false
            }
            Check::Items {
                prefix,
                rest,
                prefix_keyword,
                rest_keyword,
            } => {
                let mut ok = true;
                let at = push(sp, Seg::Key(prefix_keyword));
                for (i, (n, item)) in prefix.iter().zip(items).enumerate() {
                    let here_i = push(ip, Seg::Index(i));
                    let here_s = push(Some(&at), Seg::Index(i));
                    if !self.child(*n, item, Some(&here_i), Some(&here_s)) {
                        ok = false;
                        if self.errors.is_none() {
                            return false;
                        }
                    }
                }
                seen.items_upto = seen.items_upto.max(prefix.len().min(items.len()));
                if let Some(rest) = rest {
                    if items.len() > prefix.len() {
                        if matches!(self.prog.nodes[*rest], Node::Bool(false)) {
                            let extra: Vec<String> =
                                items[prefix.len()..].iter().map(Value::to_string).collect();
                            self.fail(
                                ip,
                                sp,
                                rest_keyword,
                                format!(
                                    "Additional items are not allowed ({}{})",
                                    extra.join(", "),
                                    unexpected(extra.len())
                                ),
                            );
                            return false;
                        }
                        let at = push(sp, Seg::Key(rest_keyword));
                        for (i, item) in items.iter().enumerate().skip(prefix.len()) {
                            let here_i = push(ip, Seg::Index(i));
                            if !self.child(*rest, item, Some(&here_i), Some(&at)) {
                                ok = false;
                                if self.errors.is_none() {
                                    return false;
                                }
                            }
                        }
                    }
                    seen.items_all = true;
                }
                ok
            }
            Check::Contains {
                node,
                min,
                max,
                annotates,
            } => {
                let mut matched = 0u64;
                for (i, item) in items.iter().enumerate() {
                    if self.quiet(*node, item, &mut Seen::default()) {
                        matched += 1;
                        if *annotates {
                            seen.items.push(i);
                        }
                    }
                }
                if matched < *min {
                    let message = if matched == 0 {
                        format!("None of {inst} are valid under the given schema")
                    } else {
                        format!(
                            "{inst} has {matched} item{} valid under the 'contains' schema, fewer than minContains {min}",
                            plural(matched)
                        )
                    };
                    let keyword = if *min == 1 { "contains" } else { "minContains" };
                    self.fail(ip, sp, keyword, message);
                    return false;
                }
                if let Some(max) = max {
                    if matched > *max {
                        self.fail(
                            ip,
                            sp,
                            "maxContains",
                            format!(
                                "{inst} has {matched} items valid under the 'contains' schema, more than maxContains {max}"
                            ),
                        );
                        return false;
                    }
                }
                true
            }
            Check::UnevaluatedItems(n) => {
                if seen.items_all {
                    return true;
                }
                let left: Vec<usize> = (seen.items_upto..items.len())
                    .filter(|i| !seen.items.contains(i))
                    .collect();
                seen.items_all = true;
                self.unevaluated(
                    *n,
                    &left
                        .iter()
                        .map(|&i| (Seg::Index(i), &items[i]))
                        .collect::<Vec<_>>(),
                    inst,
                    ip,
                    sp,
                    "unevaluatedItems",
                    "Unevaluated items",
                )
            }
            _ => true,
        }
    }

    #[inline(never)]
    fn object<'v>(
        &mut self,
        check: &'p Check,
        inst: &'v Value,
        ip: Option<&Chain<'_>>,
        sp: Option<&Chain<'_>>,
        seen: &mut Seen<'v>,
    ) -> bool {
        let Value::Object(map) = inst else {
            return true;
        };
        match check {
            Check::MinProperties(n) => {
                if map.len() as u64 >= *n {
                    return true;
                }
                self.fail(
                    ip,
                    sp,
                    "minProperties",
                    format!("{inst} has less than {n} propert{}", ies(*n)),
                );
                false
            }
            Check::MaxProperties(n) => {
                if map.len() as u64 <= *n {
                    return true;
                }
                self.fail(
                    ip,
                    sp,
                    "maxProperties",
                    format!("{inst} has more than {n} propert{}", ies(*n)),
                );
                false
            }
            Check::Required(names) => self.required(map, names, ip, sp, "required"),
            Check::DependentRequired(list, keyword) => {
                let mut ok = true;
                for (name, needs) in list {
                    if map.contains_key(name) {
                        let at = push(sp, Seg::Key(keyword));
                        if !self.required(map, needs, ip, Some(&at), name) {
                            ok = false;
                            if self.errors.is_none() {
                                return false;
                            }
                        }
                    }
                }
                ok
            }
            Check::DependentSchemas(list, keyword) => {
                let mut ok = true;
                let at = push(sp, Seg::Key(keyword));
                for (name, n) in list {
                    if map.contains_key(name) {
                        let here = push(Some(&at), Seg::Key(name));
                        if !self.node(*n, inst, ip, Some(&here), seen) {
                            ok = false;
                            if self.errors.is_none() {
                                return false;
                            }
                        }
                    }
                }
                ok
            }
            Check::Properties {
                named,
                patterns,
                additional,
            } => {
                let track = self.prog.track_unevaluated;
                let mut ok = true;
                let mut refused: Vec<&str> = Vec::new();
                let forbid_additional =
                    additional.is_some_and(|n| matches!(self.prog.nodes[n], Node::Bool(false)));
                for (key, value) in map {
                    let here_i = push(ip, Seg::Key(key));
                    let mut matched = false;
                    if let Some((_, n)) = named.iter().find(|(name, _)| name == key) {
                        matched = true;
                        let at = push(sp, Seg::Key("properties"));
                        let here_s = push(Some(&at), Seg::Key(key));
                        ok &= self.child(*n, value, Some(&here_i), Some(&here_s));
                    }
                    for (re, pattern, n) in patterns {
                        match re.is_match(key) {
                            Ok(true) => {
                                matched = true;
                                let at = push(sp, Seg::Key("patternProperties"));
                                let here_s = push(Some(&at), Seg::Key(pattern));
                                ok &= self.child(*n, value, Some(&here_i), Some(&here_s));
                            }
                            Ok(false) => {}
                            Err(limit) => {
                                ok = false;
                                self.fail(
                                    ip,
                                    sp,
                                    "patternProperties",
                                    format!("{key:?} could not be matched against \"{pattern}\": {limit}"),
                                );
                            }
                        }
                    }
                    if !matched {
                        if let Some(n) = additional {
                            if forbid_additional {
                                refused.push(key);
                                ok = false;
                            } else {
                                let at = push(sp, Seg::Key("additionalProperties"));
                                ok &= self.child(*n, value, Some(&here_i), Some(&at));
                            }
                            matched = true;
                        }
                    }
                    if matched && track {
                        seen.props.push(key);
                    }
                    if !ok && self.errors.is_none() {
                        return false;
                    }
                }
                if !refused.is_empty() {
                    let list: Vec<String> = refused.iter().map(|k| format!("'{k}'")).collect();
                    self.fail(
                        ip,
                        sp,
                        "additionalProperties",
                        format!(
                            "Additional properties are not allowed ({}{})",
                            list.join(", "),
                            unexpected(list.len())
                        ),
                    );
                }
                ok
            }
            Check::PropertyNames(n) => {
                let at = push(sp, Seg::Key("propertyNames"));
                let mut ok = true;
                for key in map.keys() {
                    let name = Value::String(key.clone());
                    if !self.child(*n, &name, ip, Some(&at)) {
                        ok = false;
                        if self.errors.is_none() {
                            return false;
                        }
                    }
                }
                ok
            }
            Check::UnevaluatedProperties(n) => {
                let left: Vec<(Seg<'v>, &'v Value)> = map
                    .iter()
                    .filter(|(k, _)| !seen.props.contains(&k.as_str()))
                    .map(|(k, v)| (Seg::Key(k.as_str()), v))
                    .collect();
                seen.props.extend(map.keys().map(String::as_str));
                self.unevaluated(
                    *n,
                    &left,
                    inst,
                    ip,
                    sp,
                    "unevaluatedProperties",
                    "Unevaluated properties",
                )
            }
            _ => true,
        }
    }

    fn required(
        &mut self,
        map: &serde_json::Map<String, Value>,
        names: &[String],
        ip: Option<&Chain<'_>>,
        sp: Option<&Chain<'_>>,
        keyword: &str,
    ) -> bool {
        let mut ok = true;
        for name in names {
            if !map.contains_key(name) {
                ok = false;
                let quoted = Value::String(name.clone());
                self.fail(
                    ip,
                    sp,
                    &escape(keyword),
                    format!("{quoted} is a required property"),
                );
                if self.errors.is_none() {
                    return false;
                }
            }
        }
        ok
    }

    /// `unevaluatedItems` / `unevaluatedProperties` over what no other keyword evaluated.
    #[allow(clippy::too_many_arguments)]
    fn unevaluated(
        &mut self,
        n: usize,
        left: &[(Seg<'_>, &Value)],
        inst: &Value,
        ip: Option<&Chain<'_>>,
        sp: Option<&Chain<'_>>,
        keyword: &str,
        what: &str,
    ) -> bool {
        if left.is_empty() {
            return true;
        }
        let _ = inst;
        if matches!(self.prog.nodes[n], Node::Bool(false)) {
            let list: Vec<String> = left
                .iter()
                .map(|(seg, v)| match seg {
                    Seg::Key(k) => format!("'{k}'"),
                    Seg::Index(_) => format!("'{v}'"),
                })
                .collect();
            self.fail(
                ip,
                sp,
                keyword,
                format!(
                    "{what} are not allowed ({}{})",
                    list.join(", "),
                    unexpected(list.len())
                ),
            );
            return false;
        }
        let at = push(sp, Seg::Key(keyword));
        let mut ok = true;
        for (seg, value) in left {
            let here = push(ip, *seg);
            if !self.child(n, value, Some(&here), Some(&at)) {
                ok = false;
                if self.errors.is_none() {
                    return false;
                }
            }
        }
        ok
    }
}

/// The `type` bits an instance has (an integral number is both "number" and "integer").
fn type_bits(v: &Value) -> u8 {
    let bit = |name: &str| 1u8 << TYPE_NAMES.iter().position(|t| *t == name).unwrap_or(0);
    match v {
        Value::Null => bit("null"),
        Value::Bool(_) => bit("boolean"),
        Value::Object(_) => bit("object"),
        Value::Array(_) => bit("array"),
        Value::String(_) => bit("string"),
        Value::Number(n) if is_integer(n) => bit("number") | bit("integer"),
        Value::Number(_) => bit("number"),
    }
}

/// `x is not one of a, b or c` (at most three options shown).
fn enum_message(inst: &Value, options: &[Value]) -> String {
    let mut out = format!("{inst} is not one of ");
    if options.len() <= 3 {
        for (i, o) in options.iter().enumerate() {
            let sep = match i {
                0 => "",
                i if i == options.len() - 1 => " or ",
                _ => ", ",
            };
            let _ = write!(out, "{sep}{o}");
        }
    } else {
        let _ = write!(
            out,
            "{}, {} or {} other candidates",
            options[0],
            options[1],
            options.len() - 2
        );
    }
    out
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn ies(n: u64) -> &'static str {
    if n == 1 { "y" } else { "ies" }
}

fn unexpected(n: usize) -> &'static str {
    if n == 1 {
        " was unexpected"
    } else {
        " were unexpected"
    }
}
