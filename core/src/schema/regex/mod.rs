//! ECMA-262 regular expressions in unicode mode (the `u` flag), for JSON Schema's `pattern`,
//! `patternProperties` and `format: "regex"` (JSON Schema 2020-12 core, 6.4: patterns are ECMA-262).
//!
//! Supported: alternation, capturing, named and non-capturing groups, backreferences (`\1`..,
//! `\k<name>`), lookahead and lookbehind, greedy and lazy quantifiers with ECMA-262's empty check,
//! classes, `\d \w \s \b` (ASCII `\d \w \b`, as ECMA-262 defines them), `.` (not line terminators),
//! `^ $` (input boundaries only: there are no flags), and every unicode-mode escape. Syntax the
//! unicode grammar refuses (a lone `{`, `}` or `]`, identity escapes like `\a`, quantified
//! lookarounds, `{n,m}` with n > m, ...) is a [`RegexError`].
//!
//! `\p{..}` / `\P{..}` accept a few properties, decided by Rust's `char` predicates rather than tables
//! of our own:
//! - exact: `Alphabetic` (`Alpha`), `Uppercase` (`Upper`), `Lowercase` (`Lower`), `White_Space`
//!   (`space`), and the general category `N` / `Number` (`char::is_numeric` is Nd + Nl + No);
//! - approximations: `L` / `Letter` is tested as `Alphabetic` (a superset: it also holds letter
//!   numbers such as U+2160 and combining marks such as U+0345), `Lu` / `Uppercase_Letter` as
//!   `Uppercase` (also U+24B6 CIRCLED LATIN CAPITAL LETTER A ...), `Ll` / `Lowercase_Letter` as
//!   `Lowercase` (also U+00AA, U+02B0 modifier letters ...).
//!
//! The general categories may also be written `gc=X` or `General_Category=X`. Any other property
//! name (`Nd`, `Script=Greek`, `digit` ...) is a [`RegexError`] naming it, never a set that silently
//! matches nothing.
//!
//! Deliberate limits, each a [`RegexError`] at compile time: groups nest at most 128 deep; counted
//! repetitions are unrolled (but for a greedy one of a single atom, such as `[a-z]{1,64}`, which is
//! one loop instruction), so a pattern may compile to at most 20,000 instructions
//! (`(?:ab){0,30000}` is refused); group names are checked with std's `is_alphabetic` /
//! `is_alphanumeric` in place of ID_Start / ID_Continue, may not contain `\u` escapes and may not be
//! repeated (even in different alternatives, which ES2025 allows). A pattern may contain a lone
//! surrogate escape (`\uD800`): it is accepted and matches nothing, as no Rust string holds one.
//!
//! Matching is a backtracking machine over a compiled program with an explicit stack: it never
//! recurses on the input, and each [`Regex::is_match`] call stops with [`RegexLimit`] after
//! [`REGEX_BACKTRACK_LIMIT`] steps (instructions run plus frames unwound), or when its backtracking
//! stack would pass 2^19 entries (12 MiB), so hostile patterns such as `(a|a)*$` return quickly and
//! within bounded memory. A search skips what it can rule out: a `^` pattern runs at position 0 only,
//! a leading literal or class is searched for, a leading `.*` starts only at line starts, and a
//! haystack lacking a code point every match consumes is refused without running the machine.

mod ast;
mod class;
mod compile;
mod error;
mod exec;
mod parse;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_suite;

use super::limits::REGEX_BACKTRACK_LIMIT;
pub(crate) use error::{RegexError, RegexLimit};

/// A compiled ECMA-262 pattern. Immutable, so it is shared freely across threads.
#[derive(Clone, Debug)]
pub(crate) struct Regex {
    program: compile::Program,
}

impl Regex {
    /// Parses `pattern` as ECMA-262 (unicode mode, the `u` flag; no other flags).
    pub(crate) fn new(pattern: &str) -> Result<Regex, RegexError> {
        let parsed = parse::parse(pattern)?;
        Ok(Regex {
            program: compile::compile(parsed)?,
        })
    }

    /// Whether the pattern matches anywhere in `haystack` (`RegExp.prototype.test`: unanchored
    /// search), within [`REGEX_BACKTRACK_LIMIT`] steps per call.
    pub(crate) fn is_match(&self, haystack: &str) -> Result<bool, RegexLimit> {
        exec::search(&self.program, haystack, REGEX_BACKTRACK_LIMIT)
    }
}
