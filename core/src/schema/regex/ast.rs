//! The parsed form of a pattern, between [`parse`](super::parse) and [`compile`](super::compile).

/// Something that consumes exactly one code point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Atom {
    Char(char),
    /// An index into the parsed pattern's class list.
    Set(usize),
    /// `.`: any code point but a line terminator.
    Any,
}

/// A zero-width test of the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Assertion {
    /// `^`: the start of the input (no multiline flag).
    Start,
    /// `$`: the end of the input, not before a trailing `\n`.
    End,
    /// `\b`.
    WordBoundary,
    /// `\B`.
    NotWordBoundary,
}

/// A node of the pattern tree. Its depth is bounded by the parser's nesting cap.
#[derive(Clone, Debug)]
pub(super) enum Node {
    Empty,
    Atom(Atom),
    Assert(Assertion),
    /// A capturing group and its 1-based number.
    Capture(Box<Node>, usize),
    Concat(Vec<Node>),
    Alt(Vec<Node>),
    Repeat {
        node: Box<Node>,
        min: u32,
        max: Option<u32>,
        greedy: bool,
        /// Where the quantifier starts in the pattern, for errors found while compiling it.
        offset: usize,
    },
    /// A backreference to the 1-based group number, checked to exist once parsing ends.
    BackRef(usize),
    Look {
        node: Box<Node>,
        ahead: bool,
        negate: bool,
    },
}

impl Node {
    /// Whether the node can match without consuming anything (for the empty-check of loops).
    pub(super) fn nullable(&self) -> bool {
        match self {
            Node::Atom(_) => false,
            Node::Empty | Node::Assert(_) | Node::BackRef(_) | Node::Look { .. } => true,
            Node::Capture(n, _) => n.nullable(),
            Node::Concat(v) => v.iter().all(Node::nullable),
            Node::Alt(v) => v.iter().any(Node::nullable),
            Node::Repeat { node, min, .. } => *min == 0 || node.nullable(),
        }
    }

    /// The lowest and highest group numbers captured inside the node, if any.
    pub(super) fn captures(&self) -> Option<(usize, usize)> {
        let join = |a: Option<(usize, usize)>, b: Option<(usize, usize)>| match (a, b) {
            (Some((l1, h1)), Some((l2, h2))) => Some((l1.min(l2), h1.max(h2))),
            (x, None) | (None, x) => x,
        };
        match self {
            Node::Empty | Node::Atom(_) | Node::Assert(_) | Node::BackRef(_) => None,
            Node::Capture(n, k) => join(Some((*k, *k)), n.captures()),
            Node::Concat(v) | Node::Alt(v) => v.iter().map(Node::captures).fold(None, join),
            Node::Repeat { node, .. } | Node::Look { node, .. } => node.captures(),
        }
    }
}
