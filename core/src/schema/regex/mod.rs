//! TEMPORARY (branch own-validator only): the engine's regex API over regex-lite, until the
//! ECMA-262 engine of branch ecma-regex replaces this file.

use std::fmt;

use super::limits::REGEX_BACKTRACK_LIMIT;

#[derive(Clone, Debug)]
pub(crate) struct Regex(regex_lite::Regex);

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RegexError(String);

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RegexLimit;

impl fmt::Display for RegexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for RegexError {}
impl fmt::Display for RegexLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the regular expression needed more than {REGEX_BACKTRACK_LIMIT} backtracking steps"
        )
    }
}
impl std::error::Error for RegexLimit {}

impl Regex {
    pub(crate) fn new(pattern: &str) -> Result<Regex, RegexError> {
        regex_lite::RegexBuilder::new(pattern)
            .build()
            .map(Regex)
            .map_err(|e| RegexError(e.to_string()))
    }

    pub(crate) fn is_match(&self, haystack: &str) -> Result<bool, RegexLimit> {
        Ok(self.0.is_match(haystack))
    }
}
