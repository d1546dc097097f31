//! The pattern tree as a flat program for the backtracking machine in [`exec`](super::exec).
//!
//! Counted quantifiers are unrolled (`(?:ab){2,4}` is `abab` then two optional `ab`s), so the program
//! has no counters to save and restore; [`MAX_PROGRAM`] bounds what unrolling may produce. A greedy
//! quantifier over a single atom becomes one [`Inst::Star`] after its mandatory copies.

use super::ast::{Assertion, Atom, Node};
use super::class::Class;
use super::error::RegexError;
use super::parse::Parsed;

/// Most instructions one pattern may compile to (a few hundred KiB at most).
pub(super) const MAX_PROGRAM: usize = 20_000;

/// One step of the program. Jump targets are instruction indexes; slots index the capture and
/// loop-position registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Inst {
    /// Consume one code point that matches the atom: after the position, or before it when the
    /// flag is set (inside a lookbehind, which ECMA-262 matches right to left).
    Consume(Atom, bool),
    /// A greedy loop over one atom: consume as many matching code points as allowed (at most `max`),
    /// then give them back one at a time on backtracking. The same as the `Split` loop it replaces,
    /// without a stack frame per code point.
    Star {
        atom: Atom,
        back: bool,
        max: u32,
    },
    /// Try the first target; on failure, the second.
    Split(usize, usize),
    Jmp(usize),
    /// Record the position in a slot.
    Save(usize),
    /// Unset the capture slots in this range: each iteration of a quantified group starts with its
    /// groups undefined (ECMA-262 22.2.2.3.1, RepeatMatcher).
    Clear(usize, usize),
    /// The empty check of a loop whose body can match empty: fail when the position equals the one
    /// recorded in the slot at the start of the iteration, once `min` iterations are done
    /// (RepeatMatcher again; the mandatory ones are unrolled, so every checked one is past `min`).
    EmptyCheck(usize),
    Assert(Assertion),
    /// Match again what the 0-based group captured; forward, or backward when the flag is set.
    BackRef(usize, bool),
    /// Start a lookaround whose body follows and ends in [`Inst::LookEnd`]; continue at `end`.
    Look {
        negate: bool,
        end: usize,
    },
    LookEnd,
    Match,
}

/// A compiled pattern.
#[derive(Clone, Debug)]
pub(super) struct Program {
    pub(super) insts: Vec<Inst>,
    pub(super) classes: Vec<Class>,
    /// Capture slots (two per group) followed by one slot per loop that needs an empty check.
    pub(super) slots: usize,
    /// How a search may skip start positions.
    pub(super) start: StartHint,
    /// A code point every match consumes (not the first one, which [`StartHint::First`] finds):
    /// a haystack without it cannot match, whatever backtracking would have cost.
    pub(super) required: Option<char>,
}

/// What the first thing a match does allows a search to skip.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum StartHint {
    /// Nothing known: try every position.
    Any,
    /// `^...`: only position 0 can match.
    Anchored,
    /// `.*...` outside any group: a match from a position implies one from the start of its line,
    /// so only the start of the input and the positions after a line terminator are tried.
    LineStarts,
    /// The match begins by consuming this atom: skip positions where it does not match.
    First(Atom),
}

/// Compiles a parsed pattern.
pub(super) fn compile(parsed: Parsed) -> Result<Program, RegexError> {
    let mut c = Compiler {
        insts: Vec::new(),
        slots: parsed.groups * 2,
        offset: 0,
    };
    c.node(&parsed.root, false)?;
    c.push(Inst::Match)?;
    Ok(Program {
        insts: c.insts,
        classes: parsed.classes,
        slots: c.slots,
        start: start_hint(&parsed.root),
        required: required_char(&parsed.root, &mut true),
    })
}

/// The first literal code point after the first one in the pattern's mandatory sequence: items of
/// the top-level concatenation, looking into groups and the first iteration of repeats with
/// `min > 0`, but not into alternations or lookarounds. `leading` is true while nothing has been
/// consumed yet, so that the first code point, already searched for by the start hint, is skipped.
fn required_char(node: &Node, leading: &mut bool) -> Option<char> {
    match node {
        Node::Atom(Atom::Char(c)) if !*leading => Some(*c),
        Node::Atom(_) => {
            *leading = false;
            None
        }
        Node::Capture(inner, _) => required_char(inner, leading),
        Node::Repeat { node, min, .. } if *min > 0 => required_char(node, leading),
        Node::Concat(v) => v.iter().find_map(|n| required_char(n, leading)),
        Node::Empty | Node::Assert(_) | Node::Look { .. } => None,
        // What these consume is unknown: whatever follows is past the first code point.
        _ => {
            *leading = false;
            None
        }
    }
}

fn start_hint(root: &Node) -> StartHint {
    fn first(n: &Node) -> &Node {
        match n {
            Node::Concat(v) => v.first().unwrap_or(n),
            other => other,
        }
    }
    let mut node = first(root);
    if let Node::Repeat {
        node: inner,
        min: 0,
        max: None,
        ..
    } = node
        && matches!(**inner, Node::Atom(Atom::Any))
    {
        return StartHint::LineStarts;
    }
    // Through groups and mandatory repeats to the first thing matched.
    loop {
        node = match node {
            Node::Assert(Assertion::Start) => return StartHint::Anchored,
            Node::Atom(a) => return StartHint::First(*a),
            Node::Capture(inner, _) => first(inner),
            Node::Repeat {
                node: inner, min, ..
            } if *min > 0 => first(inner),
            _ => return StartHint::Any,
        };
    }
}

struct Compiler {
    insts: Vec<Inst>,
    slots: usize,
    /// Where the quantifier being unrolled starts, for the size error.
    offset: usize,
}

impl Compiler {
    fn push(&mut self, inst: Inst) -> Result<usize, RegexError> {
        if self.insts.len() >= MAX_PROGRAM {
            return Err(RegexError {
                offset: self.offset,
                message: format!(
                    "the pattern is too large to compile (more than {MAX_PROGRAM} instructions once its counted repetitions are unrolled)"
                ),
            });
        }
        self.insts.push(inst);
        Ok(self.insts.len() - 1)
    }

    fn patch(&mut self, at: usize, target: usize) {
        match &mut self.insts[at] {
            Inst::Split(_, b) | Inst::Jmp(b) | Inst::Look { end: b, .. } => *b = target,
            _ => {}
        }
    }

    /// Emits `node`; `back` compiles it to match right to left (inside a lookbehind).
    fn node(&mut self, node: &Node, back: bool) -> Result<(), RegexError> {
        match node {
            Node::Empty => {}
            Node::Atom(a) => {
                self.push(Inst::Consume(*a, back))?;
            }
            Node::Assert(a) => {
                self.push(Inst::Assert(*a))?;
            }
            Node::Capture(inner, k) => {
                let (open, close) = (2 * (k - 1), 2 * (k - 1) + 1);
                let (first, last) = if back { (close, open) } else { (open, close) };
                self.push(Inst::Save(first))?;
                self.node(inner, back)?;
                self.push(Inst::Save(last))?;
            }
            Node::Concat(v) if back => {
                for n in v.iter().rev() {
                    self.node(n, back)?;
                }
            }
            Node::Concat(v) => {
                for n in v {
                    self.node(n, back)?;
                }
            }
            Node::Alt(v) => self.alternation(v, back)?,
            Node::Repeat {
                node,
                min,
                max,
                greedy,
                offset,
            } => {
                let outer = std::mem::replace(&mut self.offset, *offset);
                self.repeat(node, *min, *max, *greedy, back)?;
                self.offset = outer;
            }
            Node::BackRef(k) => {
                self.push(Inst::BackRef(k - 1, back))?;
            }
            Node::Look {
                node,
                ahead,
                negate,
            } => {
                let at = self.push(Inst::Look {
                    negate: *negate,
                    end: 0,
                })?;
                self.node(node, !ahead)?;
                self.push(Inst::LookEnd)?;
                let end = self.insts.len();
                self.patch(at, end);
            }
        }
        Ok(())
    }

    fn alternation(&mut self, alts: &[Node], back: bool) -> Result<(), RegexError> {
        let mut jumps = Vec::new();
        for (i, alt) in alts.iter().enumerate() {
            if i + 1 < alts.len() {
                let split = self.push(Inst::Split(0, 0))?;
                self.insts[split] = Inst::Split(split + 1, 0);
                self.node(alt, back)?;
                jumps.push(self.push(Inst::Jmp(0))?);
                let next = self.insts.len();
                self.patch(split, next);
            } else {
                self.node(alt, back)?;
            }
        }
        let end = self.insts.len();
        for j in jumps {
            self.patch(j, end);
        }
        Ok(())
    }

    fn repeat(
        &mut self,
        node: &Node,
        min: u32,
        max: Option<u32>,
        greedy: bool,
        back: bool,
    ) -> Result<(), RegexError> {
        let clear = node.captures().map(|(lo, hi)| (2 * (lo - 1), 2 * hi));
        let iteration = |c: &mut Compiler| -> Result<(), RegexError> {
            if let Some((lo, hi)) = clear {
                c.push(Inst::Clear(lo, hi))?;
            }
            c.node(node, back)
        };
        let before = self.insts.len();
        iteration(self)?;
        if self.insts.len() == before {
            // A body that compiles to nothing (`(?:)`) matches empty however often it repeats.
            return Ok(());
        }
        if min == 0 {
            // That trial iteration was not mandatory: take it back and emit optional ones below.
            self.insts.truncate(before);
        }
        for _ in 1..min {
            iteration(self)?;
        }
        if max == Some(min) {
            return Ok(());
        }
        if let (Node::Atom(atom), true) = (node, greedy) {
            let max = max.map_or(u32::MAX, |m| m - min);
            self.push(Inst::Star {
                atom: *atom,
                back,
                max,
            })?;
            return Ok(());
        }
        // Optional iterations: each one is a split, then the body with its empty check.
        let check = node.nullable().then(|| {
            self.slots += 1;
            self.slots - 1
        });
        let optional = |c: &mut Compiler| -> Result<usize, RegexError> {
            let split = c.push(Inst::Split(0, 0))?;
            if let Some(slot) = check {
                c.push(Inst::Save(slot))?;
            }
            iteration(c)?;
            if let Some(slot) = check {
                c.push(Inst::EmptyCheck(slot))?;
            }
            Ok(split)
        };
        let mut exits = Vec::new();
        match max {
            None => {
                let split = optional(self)?;
                self.push(Inst::Jmp(split))?;
                exits.push(split);
            }
            Some(max) => {
                for _ in min..max {
                    exits.push(optional(self)?);
                }
            }
        }
        let end = self.insts.len();
        for split in exits {
            self.insts[split] = if greedy {
                Inst::Split(split + 1, end)
            } else {
                Inst::Split(end, split + 1)
            };
        }
        Ok(())
    }
}
