//! Why a pattern was refused, and why a match gave up.

use std::fmt;

/// Why a pattern is not a valid ECMA-262 regular expression (or one this engine refuses).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RegexError {
    /// Where the problem starts, in code points from the start of the pattern.
    pub(super) offset: usize,
    pub(super) message: String,
}

impl fmt::Display for RegexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at offset {}: {}", self.offset, self.message)
    }
}

impl std::error::Error for RegexError {}

/// A match gave up after its step budget, so the answer is unknown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RegexLimit {
    /// The bound that was reached, and what it counts (steps, or entries of the backtracking stack).
    pub(super) count: usize,
    pub(super) unit: &'static str,
}

impl fmt::Display for RegexLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the regular expression needed more than {} {}",
            self.count, self.unit
        )
    }
}

impl std::error::Error for RegexLimit {}
