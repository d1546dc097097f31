//! The backtracking machine: runs a [`Program`] over a string with an explicit stack, counting steps.
//!
//! Positions are byte offsets into the haystack, always on `char` boundaries. Nothing here recurses.

use std::cell::RefCell;

use super::ast::{Assertion, Atom};
use super::class::{is_line_terminator, is_word};
use super::compile::{Inst, Program, StartHint};
use super::error::RegexLimit;

/// An unset capture or loop slot.
const UNSET: usize = usize::MAX;

/// Most frames the backtracking stack may hold (12 MiB): beyond it a match gives up.
pub(super) const MAX_FRAMES: usize = 1 << 19;

/// Scratch buffers above this many stack frames are freed after a search instead of kept.
const KEEP_FRAMES: usize = 1 << 14;

// Frames stay three words: the stack can grow to a frame per step.
const _: () = assert!(std::mem::size_of::<Frame>() == 24);

/// What backtracking returns to.
#[derive(Clone, Copy, Debug)]
enum Frame {
    /// Resume at `pc` with the position `pos`.
    Alt { pc: usize, pos: usize },
    /// Give back one code point of the [`Inst::Star`] at `pc`, which started at `floor`.
    GiveBack {
        pc: u32,
        back: bool,
        floor: usize,
        pos: usize,
    },
    /// Put back a slot's earlier value.
    Restore { slot: usize, old: usize },
    /// An open lookaround: where it started and where its continuation is.
    Look {
        end: usize,
        pos: usize,
        negate: bool,
    },
}

/// The buffers a search works in, reused across calls on a thread.
#[derive(Default)]
struct Scratch {
    stack: Vec<Frame>,
    slots: Vec<usize>,
    /// Stack indexes of the open lookaround frames, innermost last.
    looks: Vec<usize>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Whether `prog` matches `hay` at some position, within `limit` steps in all.
pub(super) fn search(prog: &Program, hay: &str, limit: usize) -> Result<bool, RegexLimit> {
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut scratch) => {
            let found = search_in(prog, hay, limit, &mut scratch);
            if scratch.stack.capacity() > KEEP_FRAMES {
                *scratch = Scratch::default();
            }
            found
        }
        // Only reachable if a search ran inside a search; give that one its own buffers.
        Err(_) => search_in(prog, hay, limit, &mut Scratch::default()),
    })
}

fn search_in(
    prog: &Program,
    hay: &str,
    limit: usize,
    scratch: &mut Scratch,
) -> Result<bool, RegexLimit> {
    let mut m = Machine {
        prog,
        hay,
        steps: 0,
        limit,
        s: scratch,
    };
    if prog.required.is_some_and(|c| !hay.contains(c)) {
        return Ok(false);
    }
    if prog.start == StartHint::Anchored {
        return m.run(0);
    }
    let mut pos = 0;
    loop {
        let rest = &hay[pos..];
        match prog.start {
            StartHint::First(Atom::Char(c)) => match rest.find(c) {
                Some(skip) => pos += skip,
                None => return Ok(false),
            },
            StartHint::First(atom) => match rest.char_indices().find(|&(_, c)| m.atom(atom, c)) {
                Some((skip, _)) => pos += skip,
                None => return Ok(false),
            },
            _ => {}
        }
        if m.run(pos)? {
            return Ok(true);
        }
        let next = if prog.start == StartHint::LineStarts {
            hay[pos..]
                .char_indices()
                .find(|&(_, c)| is_line_terminator(c))
        } else {
            hay[pos..].char_indices().next()
        };
        let Some((at, c)) = next else {
            return Ok(false);
        };
        pos += at + c.len_utf8();
        // Every start counts, so a search over a long input cannot escape the budget.
        m.tick()?;
    }
}

struct Machine<'a> {
    prog: &'a Program,
    hay: &'a str,
    steps: usize,
    limit: usize,
    s: &'a mut Scratch,
}

impl Machine<'_> {
    fn tick(&mut self) -> Result<(), RegexLimit> {
        self.charge(1)
    }

    /// Counts `n` steps of work against the budget.
    fn charge(&mut self, n: usize) -> Result<(), RegexLimit> {
        self.steps = self.steps.saturating_add(n);
        if self.steps > self.limit {
            return Err(RegexLimit {
                count: self.limit,
                unit: "backtracking steps",
            });
        }
        Ok(())
    }

    fn atom(&self, atom: Atom, c: char) -> bool {
        match atom {
            Atom::Char(want) => c == want,
            Atom::Set(i) => self.prog.classes[i].matches(c),
            Atom::Any => !is_line_terminator(c),
        }
    }

    /// The code point after `pos` (before it when `back`) and the position past it.
    fn step(&self, pos: usize, back: bool) -> Option<(char, usize)> {
        if back {
            let c = self.hay[..pos].chars().next_back()?;
            Some((c, pos - c.len_utf8()))
        } else {
            let c = self.hay[pos..].chars().next()?;
            Some((c, pos + c.len_utf8()))
        }
    }

    /// Leaves a frame to give back the code points a Star took between `floor` and `pos`, if any.
    fn give_back_later(
        &mut self,
        pc: u32,
        back: bool,
        floor: usize,
        pos: usize,
    ) -> Result<(), RegexLimit> {
        if pos != floor {
            let frame = Frame::GiveBack {
                pc,
                back,
                floor,
                pos,
            };
            return self.push(frame);
        }
        Ok(())
    }

    fn push(&mut self, frame: Frame) -> Result<(), RegexLimit> {
        if self.s.stack.len() >= MAX_FRAMES {
            return Err(RegexLimit {
                count: MAX_FRAMES,
                unit: "backtracking stack entries",
            });
        }
        self.s.stack.push(frame);
        Ok(())
    }

    fn set_slot(&mut self, slot: usize, value: usize) -> Result<(), RegexLimit> {
        let old = self.s.slots[slot];
        self.push(Frame::Restore { slot, old })?;
        self.s.slots[slot] = value;
        Ok(())
    }

    fn assert(&self, a: Assertion, pos: usize) -> bool {
        let word_before = self.hay[..pos].chars().next_back().is_some_and(is_word);
        let word_after = || self.hay[pos..].chars().next().is_some_and(is_word);
        match a {
            Assertion::Start => pos == 0,
            Assertion::End => pos == self.hay.len(),
            Assertion::WordBoundary => word_before != word_after(),
            Assertion::NotWordBoundary => word_before == word_after(),
        }
    }

    /// The position after matching group `g`'s text again from `pos` (or before it, backward).
    /// An unset group matches empty (ECMA-262 22.2.2.7.2, BackreferenceMatcher).
    /// Comparing long texts is charged a step per 32 bytes.
    fn backref(&mut self, g: usize, back: bool, pos: usize) -> Result<Option<usize>, RegexLimit> {
        let (start, end) = (self.s.slots[2 * g], self.s.slots[2 * g + 1]);
        if start == UNSET || end == UNSET {
            return Ok(Some(pos));
        }
        self.charge((end - start) / 32)?;
        let (hay, len) = (self.hay.as_bytes(), end - start);
        let text = &hay[start..end];
        Ok(if back {
            pos.checked_sub(len).filter(|&from| &hay[from..pos] == text)
        } else {
            Some(pos + len).filter(|&to| hay.get(pos..to) == Some(text))
        })
    }

    /// Runs the program from `start`: whether it reaches [`Inst::Match`].
    fn run(&mut self, start: usize) -> Result<bool, RegexLimit> {
        self.s.stack.clear();
        self.s.looks.clear();
        self.s.slots.clear();
        self.s.slots.resize(self.prog.slots, UNSET);
        // Resetting the slots is work too: a pattern with thousands of groups pays for it per start.
        self.charge(self.prog.slots / 16)?;
        let (mut pc, mut pos) = (0, start);
        loop {
            self.tick()?;
            let ok = match self.prog.insts[pc] {
                Inst::Consume(atom, back) => match self.step(pos, back) {
                    Some((c, next)) if self.atom(atom, c) => {
                        pos = next;
                        true
                    }
                    _ => false,
                },
                Inst::Star { atom, back, max } => {
                    let floor = pos;
                    let mut taken = 0;
                    while taken < max {
                        match self.step(pos, back) {
                            Some((c, next)) if self.atom(atom, c) => pos = next,
                            _ => break,
                        }
                        taken += 1;
                        self.tick()?;
                    }
                    // Program indexes fit in u32: compiling caps programs at MAX_PROGRAM.
                    self.give_back_later(pc as u32, back, floor, pos)?;
                    true
                }
                Inst::Split(first, second) => {
                    self.push(Frame::Alt { pc: second, pos })?;
                    pc = first;
                    continue;
                }
                Inst::Jmp(target) => {
                    pc = target;
                    continue;
                }
                Inst::Save(slot) => {
                    self.set_slot(slot, pos)?;
                    true
                }
                Inst::Clear(lo, hi) => {
                    self.charge((hi - lo) / 2)?;
                    for slot in lo..hi {
                        if self.s.slots[slot] != UNSET {
                            self.set_slot(slot, UNSET)?;
                        }
                    }
                    true
                }
                Inst::EmptyCheck(slot) => self.s.slots[slot] != pos,
                Inst::Assert(a) => self.assert(a, pos),
                Inst::BackRef(g, back) => match self.backref(g, back, pos)? {
                    Some(p) => {
                        pos = p;
                        true
                    }
                    None => false,
                },
                Inst::Look { negate, end } => {
                    self.s.looks.push(self.s.stack.len());
                    self.push(Frame::Look { end, pos, negate })?;
                    true
                }
                Inst::LookEnd => match self.look_end() {
                    Some((end, p)) => {
                        pc = end;
                        pos = p;
                        continue;
                    }
                    None => false,
                },
                Inst::Match => return Ok(true),
            };
            if ok {
                pc += 1;
                continue;
            }
            match self.backtrack()? {
                Some((p, q)) => (pc, pos) = (p, q),
                None => return Ok(false),
            }
        }
    }

    /// The body of the innermost open lookaround matched. A positive one succeeds for good: its
    /// alternatives are dropped (ECMA-262 22.2.2.4: a lookaround keeps the first match of its body)
    /// but its captures stay, with their restore frames. A negative one fails: everything it did is
    /// undone. Returns where to continue, or `None` to backtrack.
    fn look_end(&mut self) -> Option<(usize, usize)> {
        let at = self.s.looks.pop()?;
        let Frame::Look { end, pos, negate } = self.s.stack[at] else {
            return None;
        };
        if negate {
            while self.s.stack.len() > at {
                if let Some(Frame::Restore { slot, old }) = self.s.stack.pop() {
                    self.s.slots[slot] = old;
                }
            }
            return None;
        }
        let mut keep = at;
        for i in at + 1..self.s.stack.len() {
            if let Frame::Restore { .. } = self.s.stack[i] {
                self.s.stack[keep] = self.s.stack[i];
                keep += 1;
            }
        }
        self.s.stack.truncate(keep);
        Some((end, pos))
    }

    /// Pops frames until an alternative to resume: `Some((pc, pos))`, or `None` when none is left.
    fn backtrack(&mut self) -> Result<Option<(usize, usize)>, RegexLimit> {
        while let Some(frame) = self.s.stack.pop() {
            self.tick()?;
            match frame {
                Frame::Alt { pc, pos } => return Ok(Some((pc, pos))),
                Frame::GiveBack {
                    pc,
                    back,
                    floor,
                    pos,
                } => {
                    // Undo the last code point taken: step the other way from `pos`.
                    let pos = self.step(pos, !back).map_or(floor, |(_, p)| p);
                    self.give_back_later(pc, back, floor, pos)?;
                    return Ok(Some((pc as usize + 1, pos)));
                }
                Frame::Restore { slot, old } => self.s.slots[slot] = old,
                Frame::Look { end, pos, negate } => {
                    self.s.looks.pop();
                    if negate {
                        // The body of a negative lookaround found no match: the assertion holds.
                        return Ok(Some((end, pos)));
                    }
                }
            }
        }
        Ok(None)
    }
}
