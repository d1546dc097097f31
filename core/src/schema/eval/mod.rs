//! Running a [`Program`] on an instance: every failure with the instance location, the schema
//! location (the evaluation path, through `$ref`) and a message; or, with no list to fill, a
//! verdict that stops at the first failure.
//!
//! `unevaluatedProperties` / `unevaluatedItems` need what the in-place applicators around them
//! evaluated; that is tracked ([`Seen`]) only when the program has one of them.

use std::fmt::Write as _;

use serde_json::Value;

use super::pointer::escape;
use super::program::{Check, Node, Program};
use super::report::ValidationErrorEntry;

mod array;
mod object;
mod scalar;

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
        message: impl FnOnce() -> String,
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
                message: message(),
            });
        }
    }

    /// `ok`, reporting `message` at `keyword` when it is false.
    fn verdict(
        &mut self,
        ok: bool,
        ip: Option<&Chain<'_>>,
        sp: Option<&Chain<'_>>,
        keyword: &str,
        message: impl FnOnce() -> String,
    ) -> bool {
        if !ok {
            self.fail(ip, sp, keyword, message);
        }
        ok
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
                self.fail(ip, sp, "", || format!("False schema does not allow {inst}"));
                return false;
            }
            Node::Checks { resource, checks } => (*resource, checks),
        };
        if self.depth >= MAX_EVAL_DEPTH {
            self.fail(ip, sp, "", || {
                format!(
                    "schema evaluation nested deeper than {MAX_EVAL_DEPTH} levels (a $ref cycle?)"
                )
            });
            return false;
        }
        self.depth += 1;
        let entered = prog.dynamic && self.scope.last() != Some(&resource);
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
                        || format!("{inst} is not valid under any of the schemas listed in the 'anyOf' keyword"),);
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
                            || format!("{inst} is not valid under any of the schemas listed in the 'oneOf' keyword"),);
                        false
                    }
                    _ => {
                        self.fail(
                            ip,
                            sp,
                            "oneOf",
                            || format!("{inst} is valid under more than one of the schemas listed in the 'oneOf' keyword"),);
                        false
                    }
                }
            }
            Check::Not(n, schema) => {
                let ok = !self.quiet(*n, inst, &mut Seen::default());
                self.verdict(ok, ip, sp, "not", || {
                    format!("{schema} is not allowed for {inst}")
                })
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
