//! Character sets: `[...]` classes, `\d \w \s` and their negations, `.` and `\p{..}` properties.

/// One of the ECMA-262 CharacterClassEscapes `\d`, `\w`, `\s` (their upper-case forms negate).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Perl {
    /// `\d`: ASCII digits only (ECMA-262 22.2.2.9, CharacterClassEscape :: `d`).
    Digit,
    /// `\w`: `[A-Za-z0-9_]` (WordCharacters without the `i`+`u` case folding, which we do not have).
    Word,
    /// `\s`: WhiteSpace and LineTerminator code points.
    Space,
}

/// The Unicode properties `\p{..}` accepts; see the module documentation for which are approximations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Prop {
    /// `Alphabetic`, and `L` / `Letter` approximated by it.
    Alphabetic,
    /// `Uppercase`, and `Lu` / `Uppercase_Letter` approximated by it.
    Uppercase,
    /// `Lowercase`, and `Ll` / `Lowercase_Letter` approximated by it.
    Lowercase,
    /// `N` / `Number`: general categories Nd, Nl and No.
    Number,
    /// `White_Space`.
    WhiteSpace,
}

impl Prop {
    /// The property `\p{name}` names, or `None` when it is not one we support.
    pub(super) fn from_name(name: &str) -> Option<Prop> {
        // `General_Category=X` and `gc=X` name the same categories as a bare `X` (ECMA-262 22.2.2.9).
        let category = name
            .strip_prefix("General_Category=")
            .or_else(|| name.strip_prefix("gc="));
        let prop = match category.unwrap_or(name) {
            "L" | "Letter" => Prop::Alphabetic,
            "Lu" | "Uppercase_Letter" => Prop::Uppercase,
            "Ll" | "Lowercase_Letter" => Prop::Lowercase,
            "N" | "Number" => Prop::Number,
            other if category.is_none() => match other {
                "Alphabetic" | "Alpha" => Prop::Alphabetic,
                "Uppercase" | "Upper" => Prop::Uppercase,
                "Lowercase" | "Lower" => Prop::Lowercase,
                "White_Space" | "space" => Prop::WhiteSpace,
                _ => return None,
            },
            _ => return None,
        };
        Some(prop)
    }

    fn matches(self, c: char) -> bool {
        match self {
            Prop::Alphabetic => c.is_alphabetic(),
            Prop::Uppercase => c.is_uppercase(),
            Prop::Lowercase => c.is_lowercase(),
            Prop::Number => c.is_numeric(),
            Prop::WhiteSpace => c.is_whitespace(),
        }
    }
}

/// One member of a class: a code point range (bounds may be lone surrogates, which never match a
/// Rust string), or a named set, each possibly negated (`\D`, `\P{..}`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum ClassItem {
    Range(u32, u32),
    Perl(Perl, bool),
    Prop(Prop, bool),
}

/// A set of code points: the union of sorted, disjoint `ranges` and a few named `sets`, complemented
/// when `negated` (`[^...]`). Normalised so that a class of thousands of items still costs a binary
/// search per code point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Class {
    negated: bool,
    ranges: Vec<(u32, u32)>,
    /// Only `Perl` and `Prop` items, each at most once.
    sets: Vec<ClassItem>,
}

impl Class {
    /// The class of `items`, complemented when `negated`.
    pub(super) fn new(items: Vec<ClassItem>, negated: bool) -> Class {
        let mut ranges = Vec::new();
        let mut sets = Vec::new();
        for item in items {
            match item {
                ClassItem::Range(lo, hi) => ranges.push((lo, hi)),
                set if !sets.contains(&set) => sets.push(set),
                _ => {}
            }
        }
        ranges.sort_unstable();
        let mut merged: Vec<(u32, u32)> = Vec::with_capacity(ranges.len());
        for (lo, hi) in ranges {
            match merged.last_mut() {
                Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
                _ => merged.push((lo, hi)),
            }
        }
        Class {
            negated,
            ranges: merged,
            sets,
        }
    }

    /// Whether `c` is in the set.
    pub(super) fn matches(&self, c: char) -> bool {
        let c32 = u32::from(c);
        let i = self.ranges.partition_point(|&(_, hi)| hi < c32);
        let in_ranges = self.ranges.get(i).is_some_and(|&(lo, _)| lo <= c32);
        let inside = in_ranges
            || self.sets.iter().any(|item| match *item {
                ClassItem::Perl(p, negated) => perl_matches(p, c) != negated,
                ClassItem::Prop(p, negated) => p.matches(c) != negated,
                ClassItem::Range(..) => false,
            });
        inside != self.negated
    }
}

fn perl_matches(p: Perl, c: char) -> bool {
    match p {
        Perl::Digit => c.is_ascii_digit(),
        Perl::Word => is_word(c),
        Perl::Space => is_space(c),
    }
}

/// An ASCII word character, as `\w` and `\b` see it.
pub(super) fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// ECMA-262 WhiteSpace (22.2.2.9 via 12.2: TAB, VT, FF, ZWNBSP and the Space_Separator category)
/// plus LineTerminator (12.3). Space_Separator is listed by hand: it is 17 code points.
fn is_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{B}' | '\u{C}' | '\r' | ' ' | '\u{A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202F}'
                | '\u{205F}'
                | '\u{3000}'
                | '\u{FEFF}'
    )
}

/// What `.` refuses: the LineTerminators of ECMA-262 12.3.
pub(super) fn is_line_terminator(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}
