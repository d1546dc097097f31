//! The pieces a URI template is parsed into (RFC 6570 operators, variables and their modifiers) and
//! the values variables take, shared by parsing, expansion and matching.

/// The value of one template variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TemplateValue {
    /// A string.
    String(String),
    /// A list of strings (an empty list counts as undefined).
    List(Vec<String>),
    /// An associative array, in order (an empty one counts as undefined).
    Assoc(Vec<(String, String)>),
}

impl From<&str> for TemplateValue {
    fn from(s: &str) -> Self {
        TemplateValue::String(s.to_owned())
    }
}

impl From<String> for TemplateValue {
    fn from(s: String) -> Self {
        TemplateValue::String(s)
    }
}

impl From<Vec<String>> for TemplateValue {
    fn from(v: Vec<String>) -> Self {
        TemplateValue::List(v)
    }
}

/// An RFC 6570 expression operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    Simple,
    Reserved,
    Fragment,
    Label,
    Path,
    Param,
    Query,
    Continuation,
}

impl Op {
    pub(super) fn from_char(c: char) -> Option<Op> {
        Some(match c {
            '+' => Op::Reserved,
            '#' => Op::Fragment,
            '.' => Op::Label,
            '/' => Op::Path,
            ';' => Op::Param,
            '?' => Op::Query,
            '&' => Op::Continuation,
            _ => return None,
        })
    }

    /// The text put before the first defined variable.
    pub(crate) fn first(self) -> &'static str {
        match self {
            Op::Simple | Op::Reserved => "",
            Op::Fragment => "#",
            Op::Label => ".",
            Op::Path => "/",
            Op::Param => ";",
            Op::Query => "?",
            Op::Continuation => "&",
        }
    }

    /// The separator between defined variables (and exploded items).
    pub(crate) fn sep(self) -> char {
        match self {
            Op::Simple | Op::Reserved | Op::Fragment => ',',
            Op::Label => '.',
            Op::Path => '/',
            Op::Param => ';',
            Op::Query | Op::Continuation => '&',
        }
    }

    /// Whether values are written as `name=value`.
    pub(crate) fn named(self) -> bool {
        matches!(self, Op::Param | Op::Query | Op::Continuation)
    }

    /// What a named empty value is written as after its name.
    pub(super) fn if_empty(self) -> &'static str {
        match self {
            Op::Query | Op::Continuation => "=",
            _ => "",
        }
    }

    /// Whether reserved characters and percent-escapes pass through unencoded.
    pub(super) fn allow_reserved(self) -> bool {
        matches!(self, Op::Reserved | Op::Fragment)
    }
}

/// How a variable is modified in an expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Modifier {
    None,
    Prefix(usize),
    Explode,
}

/// One variable of an expression, with its modifier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct VarSpec {
    pub(crate) name: String,
    pub(crate) modifier: Modifier,
}

/// A piece of a parsed template: literal text or an expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Part {
    Literal(String),
    Expr { op: Op, vars: Vec<VarSpec> },
}

/// Whether `b` is a hexadecimal digit (of a `%XX` escape).
pub(super) fn is_hex(b: u8) -> bool {
    b.is_ascii_hexdigit()
}
