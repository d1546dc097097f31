//! The ECMA-262 pattern grammar (22.2.1) with the `u` flag, into an [`Node`] tree.
//!
//! Recursion follows group nesting only, capped at [`MAX_NESTING`].

use super::ast::{Assertion, Atom, Node};
use super::class::{Class, ClassItem, Perl, Prop};
use super::error::RegexError;

/// Deepest nesting of groups and lookarounds accepted in a pattern.
pub(super) const MAX_NESTING: usize = 128;

/// A parsed pattern: its tree, its number of capturing groups and the classes its atoms index.
pub(super) struct Parsed {
    pub(super) root: Node,
    pub(super) groups: usize,
    pub(super) classes: Vec<Class>,
}

/// Parses `pattern`, or says where and why it is not an ECMA-262 unicode-mode pattern.
pub(super) fn parse(pattern: &str) -> Result<Parsed, RegexError> {
    let chars: Vec<char> = pattern.chars().collect();
    let names = group_names(&chars);
    let mut p = Parser {
        s: chars,
        i: 0,
        names,
        groups: 0,
        seen: Vec::new(),
        classes: Vec::new(),
    };
    let root = p.disjunction(0)?;
    if p.i < p.s.len() {
        // `disjunction` stops only at the end or at a `)` it did not open.
        return Err(p.err(p.i, "unmatched ')'"));
    }
    Ok(Parsed {
        root,
        groups: p.groups,
        classes: p.classes,
    })
}

/// The capturing groups in order (`None` for unnamed ones), found by a flat scan so that
/// backreferences may point forward (`\k<a>(?<a>x)` and `\1(x)` are valid in ECMA-262).
fn group_names(s: &[char]) -> Vec<Option<String>> {
    let mut names = Vec::new();
    let (mut i, mut in_class) = (0, false);
    while i < s.len() {
        match s[i] {
            '\\' => i += 1,
            '[' => in_class = true,
            ']' => in_class = false,
            '(' if !in_class => {
                if s.get(i + 1) != Some(&'?') {
                    names.push(None);
                } else if s.get(i + 2) == Some(&'<') && !matches!(s.get(i + 3), Some('=' | '!')) {
                    // Stopping at parentheses keeps the scan linear on `(?<(?<(?<...`; a name
                    // holding one is refused by the parser anyway.
                    let name_end = |c: &&char| !matches!(c, '>' | '(' | ')');
                    let name = s[i + 3..].iter().take_while(name_end).collect();
                    names.push(Some(name));
                }
            }
            _ => {}
        }
        i += 1;
    }
    names
}

struct Parser {
    s: Vec<char>,
    i: usize,
    /// From [`group_names`]: how many groups there are and what they are called.
    names: Vec<Option<String>>,
    /// Capturing groups opened so far.
    groups: usize,
    /// Group names already defined, to refuse duplicates.
    seen: Vec<String>,
    classes: Vec<Class>,
}

/// What an escape or class atom stands for: one code point (maybe a lone surrogate) or a set.
enum Item {
    Code(u32),
    Set(ClassItem),
}

impl Parser {
    fn err(&self, offset: usize, message: impl Into<String>) -> RegexError {
        RegexError {
            offset,
            message: message.into(),
        }
    }

    fn peek(&self) -> Option<char> {
        self.s.get(self.i).copied()
    }

    fn eat(&mut self, c: char) -> bool {
        let hit = self.peek() == Some(c);
        if hit {
            self.i += 1;
        }
        hit
    }

    fn looking_at(&self, text: &str) -> bool {
        let mut i = self.i;
        text.chars().all(|c| {
            i += 1;
            self.s.get(i - 1) == Some(&c)
        })
    }

    fn disjunction(&mut self, depth: usize) -> Result<Node, RegexError> {
        let mut alts = vec![self.alternative(depth)?];
        while self.eat('|') {
            alts.push(self.alternative(depth)?);
        }
        Ok(if alts.len() == 1 {
            alts.pop().unwrap_or(Node::Empty)
        } else {
            Node::Alt(alts)
        })
    }

    fn alternative(&mut self, depth: usize) -> Result<Node, RegexError> {
        let mut items = Vec::new();
        while !matches!(self.peek(), None | Some('|' | ')')) {
            items.push(self.term(depth)?);
        }
        Ok(match items.len() {
            0 => Node::Empty,
            1 => items.pop().unwrap_or(Node::Empty),
            _ => Node::Concat(items),
        })
    }

    /// An assertion or an atom with its optional quantifier.
    fn term(&mut self, depth: usize) -> Result<Node, RegexError> {
        let start = self.i;
        let Some(c) = self.peek() else {
            return Ok(Node::Empty);
        };
        self.i += 1;
        let (node, quantifiable) = match c {
            '^' => (Node::Assert(Assertion::Start), false),
            '$' => (Node::Assert(Assertion::End), false),
            '\\' if self.eat('b') => (Node::Assert(Assertion::WordBoundary), false),
            '\\' if self.eat('B') => (Node::Assert(Assertion::NotWordBoundary), false),
            '\\' => (self.atom_escape(start)?, true),
            '(' => self.group(start, depth)?,
            '.' => (Node::Atom(Atom::Any), true),
            '[' => (self.class(start)?, true),
            '*' | '+' | '?' => return Err(self.err(start, "nothing to repeat")),
            '{' => {
                self.i = start;
                return Err(match self.quantifier()? {
                    Some(_) => self.err(start, "nothing to repeat"),
                    None => self.err(start, "lone '{'"),
                });
            }
            '}' | ']' => return Err(self.err(start, format!("lone '{c}'"))),
            c => (Node::Atom(Atom::Char(c)), true),
        };
        let q_start = self.i;
        let Some((min, max, greedy)) = self.quantifier()? else {
            return Ok(node);
        };
        if !quantifiable {
            return Err(self.err(q_start, "nothing to repeat"));
        }
        if max.is_some_and(|m| m < min) {
            return Err(self.err(q_start, "numbers out of order in {} quantifier"));
        }
        Ok(Node::Repeat {
            node: Box::new(node),
            min,
            max,
            greedy,
            offset: q_start,
        })
    }

    /// `* + ? {n} {n,} {n,m}` with an optional lazy `?`. A `{` that does not open a well-formed
    /// quantifier is an error in unicode mode, so `None` means no quantifier character at all.
    fn quantifier(&mut self) -> Result<Option<(u32, Option<u32>, bool)>, RegexError> {
        let start = self.i;
        let (min, max) = match self.peek() {
            Some('*') => (0, None),
            Some('+') => (1, None),
            Some('?') => (0, Some(1)),
            Some('{') => {
                self.i += 1;
                let Some(min) = self.number() else {
                    return Err(self.err(start, "lone '{'"));
                };
                let max = if self.eat(',') {
                    self.number()
                } else {
                    Some(min)
                };
                if !self.eat('}') {
                    return Err(self.err(start, "incomplete quantifier"));
                }
                self.i -= 1;
                (min, max)
            }
            _ => return Ok(None),
        };
        self.i += 1;
        let greedy = !self.eat('?');
        Ok(Some((min, max, greedy)))
    }

    /// Decimal digits, saturating at `u32::MAX` (far beyond what compiling accepts).
    fn number(&mut self) -> Option<u32> {
        let start = self.i;
        let mut n: u32 = 0;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            n = n.saturating_mul(10).saturating_add(d);
            self.i += 1;
        }
        (self.i > start).then_some(n)
    }

    /// After `(`: a capturing, named, non-capturing group or a lookaround, and whether a
    /// quantifier may follow it (not after a lookaround in unicode mode).
    fn group(&mut self, start: usize, depth: usize) -> Result<(Node, bool), RegexError> {
        if depth + 1 > MAX_NESTING {
            return Err(self.err(
                start,
                format!("groups nested deeper than {MAX_NESTING} levels"),
            ));
        }
        let looks = [
            ("?=", true, false),
            ("?!", true, true),
            ("?<=", false, false),
            ("?<!", false, true),
        ];
        let look = looks.into_iter().find(|(text, ..)| self.looking_at(text));
        if let Some((text, ahead, negate)) = look {
            self.i += text.chars().count();
            let node = Box::new(self.close_group(start, depth)?);
            return Ok((
                Node::Look {
                    node,
                    ahead,
                    negate,
                },
                false,
            ));
        }
        if self.looking_at("?:") {
            self.i += 2;
            return Ok((self.close_group(start, depth)?, true));
        }
        if self.looking_at("?<") {
            self.i += 2;
            let name = self.group_name(start)?;
            if self.seen.contains(&name) {
                return Err(self.err(start, format!("duplicate group name '{name}'")));
            }
            self.seen.push(name);
        } else if self.peek() == Some('?') {
            return Err(self.err(
                start,
                "invalid group: '(?' must be followed by ':', '=', '!', '<=', '<!' or '<name>'",
            ));
        }
        self.groups += 1;
        let number = self.groups;
        let inner = self.close_group(start, depth)?;
        Ok((Node::Capture(Box::new(inner), number), true))
    }

    fn close_group(&mut self, start: usize, depth: usize) -> Result<Node, RegexError> {
        let inner = self.disjunction(depth + 1)?;
        if !self.eat(')') {
            return Err(self.err(start, "unterminated group"));
        }
        Ok(inner)
    }

    /// A group name after `<`, through the closing `>`. Identifier characters are approximated by
    /// std predicates (ID_Start by `is_alphabetic`, ID_Continue by `is_alphanumeric`).
    fn group_name(&mut self, start: usize) -> Result<String, RegexError> {
        let mut name = String::new();
        loop {
            match self.peek() {
                None => return Err(self.err(start, "unterminated group name")),
                Some('>') => break,
                Some('\\') => {
                    return Err(self.err(self.i, "escapes in group names are not supported"));
                }
                Some(c) => {
                    let ok = if name.is_empty() {
                        c.is_alphabetic() || c == '$' || c == '_'
                    } else {
                        c.is_alphanumeric() || matches!(c, '$' | '_' | '\u{200C}' | '\u{200D}')
                    };
                    if !ok {
                        return Err(
                            self.err(self.i, format!("invalid character '{c}' in group name"))
                        );
                    }
                    name.push(c);
                    self.i += 1;
                }
            }
        }
        self.i += 1;
        if name.is_empty() {
            return Err(self.err(start, "empty group name"));
        }
        Ok(name)
    }

    /// After `\` outside a class: a backreference, a class escape or a character escape.
    fn atom_escape(&mut self, start: usize) -> Result<Node, RegexError> {
        if self.peek().is_some_and(|c| matches!(c, '1'..='9')) {
            let n = self.number().unwrap_or(0) as usize;
            if n > self.names.len() {
                return Err(self.err(
                    start,
                    format!("backreference \\{n} to a group that does not exist"),
                ));
            }
            return Ok(Node::BackRef(n));
        }
        if self.eat('k') {
            if !self.eat('<') {
                return Err(self.err(start, "'\\k' must be followed by '<name>'"));
            }
            let name = self.group_name(start)?;
            let Some(n) = self.names.iter().position(|g| g.as_deref() == Some(&name)) else {
                return Err(self.err(
                    start,
                    format!("backreference to an undefined group name '{name}'"),
                ));
            };
            return Ok(Node::BackRef(n + 1));
        }
        Ok(match self.escape(start, false)? {
            Item::Code(c) => match char::from_u32(c) {
                Some(c) => Node::Atom(Atom::Char(c)),
                None => self.set(vec![ClassItem::Range(c, c)], false),
            },
            Item::Set(item) => self.set(vec![item], false),
        })
    }

    fn set(&mut self, items: Vec<ClassItem>, negated: bool) -> Node {
        self.classes.push(Class::new(items, negated));
        Node::Atom(Atom::Set(self.classes.len() - 1))
    }

    /// After `\`: a character escape or a class escape (`in_class` allows `\b` and `\-`).
    fn escape(&mut self, start: usize, in_class: bool) -> Result<Item, RegexError> {
        let Some(c) = self.peek() else {
            return Err(self.err(start, "'\\' at end of pattern"));
        };
        self.i += 1;
        let code = match c {
            't' => 9,
            'n' => 10,
            'v' => 11,
            'f' => 12,
            'r' => 13,
            'b' if in_class => 8,
            '-' if in_class => u32::from('-'),
            '0' if self.peek().is_some_and(|d| d.is_ascii_digit()) => {
                return Err(self.err(start, "invalid decimal escape"));
            }
            '0' => 0,
            'c' => match self.peek() {
                Some(l) if l.is_ascii_alphabetic() => {
                    self.i += 1;
                    u32::from(l) % 32
                }
                _ => return Err(self.err(start, "'\\c' must be followed by an ASCII letter")),
            },
            'x' => self.hex_digits(start, 2, "\\x")?,
            'u' => self.unicode_escape(start)?,
            'd' | 'D' => return Ok(Item::Set(ClassItem::Perl(Perl::Digit, c == 'D'))),
            'w' | 'W' => return Ok(Item::Set(ClassItem::Perl(Perl::Word, c == 'W'))),
            's' | 'S' => return Ok(Item::Set(ClassItem::Perl(Perl::Space, c == 'S'))),
            'p' | 'P' => return self.property(start, c == 'P'),
            '^' | '$' | '\\' | '.' | '*' | '+' | '?' | '(' | ')' | '[' | ']' | '{' | '}' | '|'
            | '/' => u32::from(c),
            _ => return Err(self.err(start, format!("invalid escape '\\{c}'"))),
        };
        Ok(Item::Code(code))
    }

    /// Exactly `n` hex digits.
    fn hex_digits(&mut self, start: usize, n: usize, what: &str) -> Result<u32, RegexError> {
        let mut v = 0;
        for _ in 0..n {
            let Some(d) = self.peek().and_then(|c| c.to_digit(16)) else {
                return Err(self.err(start, format!("invalid {what} escape")));
            };
            v = v * 16 + d;
            self.i += 1;
        }
        Ok(v)
    }

    /// After `\u`: `{H..}` up to 10FFFF, or four hex digits, joining a surrogate pair written as
    /// two escapes into one code point (ECMA-262 22.2.1, RegExpUnicodeEscapeSequence).
    fn unicode_escape(&mut self, start: usize) -> Result<u32, RegexError> {
        if self.eat('{') {
            let mut v: u32 = 0;
            let digits = self.i;
            while let Some(d) = self.peek().and_then(|c| c.to_digit(16)) {
                v = v.saturating_mul(16).saturating_add(d);
                self.i += 1;
            }
            if self.i == digits || !self.eat('}') || v > 0x10FFFF {
                return Err(self.err(start, "invalid \\u{...} escape"));
            }
            return Ok(v);
        }
        let lead = self.hex_digits(start, 4, "\\u")?;
        if (0xD800..0xDC00).contains(&lead) && self.looking_at("\\u") {
            let back = self.i;
            self.i += 2;
            match self.hex_digits(start, 4, "\\u") {
                Ok(trail) if (0xDC00..0xE000).contains(&trail) => {
                    return Ok(0x10000 + ((lead - 0xD800) << 10) + (trail - 0xDC00));
                }
                _ => self.i = back,
            }
        }
        Ok(lead)
    }

    /// After `\p` or `\P`: `{Name}` or `{Name=Value}`.
    fn property(&mut self, start: usize, negated: bool) -> Result<Item, RegexError> {
        if !self.eat('{') {
            return Err(self.err(start, "'\\p' must be followed by '{property}'"));
        }
        let name: String = self.s[self.i..].iter().take_while(|&&c| c != '}').collect();
        self.i += name.chars().count();
        if !self.eat('}') {
            return Err(self.err(start, "unterminated '\\p{'"));
        }
        match Prop::from_name(&name) {
            Some(p) => Ok(Item::Set(ClassItem::Prop(p, negated))),
            None => Err(self.err(start, format!("unsupported Unicode property '{name}'"))),
        }
    }

    /// After `[`: the class through its `]`.
    fn class(&mut self, start: usize) -> Result<Node, RegexError> {
        let negated = self.eat('^');
        let mut items = Vec::new();
        loop {
            let at = self.i;
            let lo = match self.peek() {
                None => return Err(self.err(start, "unterminated character class")),
                Some(']') => break,
                Some(_) => self.class_atom()?,
            };
            if self.peek() == Some('-') && !matches!(self.s.get(self.i + 1), None | Some(']')) {
                self.i += 1;
                let hi = self.class_atom()?;
                match (lo, hi) {
                    (Item::Code(lo), Item::Code(hi)) if lo <= hi => {
                        items.push(ClassItem::Range(lo, hi));
                    }
                    (Item::Code(_), Item::Code(_)) => {
                        return Err(self.err(at, "range out of order in character class"));
                    }
                    _ => return Err(self.err(at, "a class escape cannot be a range bound")),
                }
                continue;
            }
            items.push(match lo {
                Item::Code(c) => ClassItem::Range(c, c),
                Item::Set(item) => item,
            });
        }
        self.i += 1;
        Ok(self.set(items, negated))
    }

    fn class_atom(&mut self) -> Result<Item, RegexError> {
        let at = self.i;
        let c = self.peek().unwrap_or('\0');
        self.i += 1;
        if c != '\\' {
            return Ok(Item::Code(u32::from(c)));
        }
        self.escape(at, true)
    }
}
