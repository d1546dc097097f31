//! The engine's features, errors and limits. The expected answers are what `new RegExp(p, "u").test(s)`
//! gives in an ECMA-262 engine (checked with Node 20), except where a test says it pins one of the
//! deliberate differences of the module documentation (`\p{..}` approximations, refused properties).

use super::*;

/// Whether `pattern` matches `hay`, panicking on a compile error or a limit.
fn m(pattern: &str, hay: &str) -> bool {
    let re = Regex::new(pattern).unwrap_or_else(|e| panic!("{pattern:?} should compile: {e}"));
    re.is_match(hay)
        .unwrap_or_else(|e| panic!("{pattern:?} on {hay:?} hit the limit: {e}"))
}

/// Asserts each `(haystack, expected)` for one pattern.
fn check(pattern: &str, cases: &[(&str, bool)]) {
    for &(hay, want) in cases {
        assert_eq!(m(pattern, hay), want, "{pattern:?} on {hay:?}");
    }
}

/// The error a pattern is refused with, as displayed.
fn err(pattern: &str) -> String {
    match Regex::new(pattern) {
        Ok(_) => panic!("{pattern:?} should be refused"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn regex_is_send_and_sync() {
    fn shared<T: Send + Sync + Clone>() {}
    shared::<Regex>();
}

#[test]
fn literals_search_unanchored() {
    check(
        "abc",
        &[("abc", true), ("xxabcxx", true), ("ab", false), ("", false)],
    );
    check("", &[("", true), ("x", true)]);
    check("é😀", &[("aé😀b", true), ("é", false)]);
    check("a+", &[("xxaxx", true), ("xyz", false)]);
}

#[test]
fn anchors_are_input_boundaries_only() {
    check(
        "^abc$",
        &[
            ("abc", true),
            ("abc\n", false),
            ("\nabc", false),
            ("xabc", false),
        ],
    );
    check("^$", &[("", true), ("\n", false)]);
    check("a$|^b", &[("ba", true), ("xb", false), ("xa", true)]);
}

#[test]
fn dot_excludes_line_terminators() {
    check("^.$", &[("a", true), ("😀", true), ("\t", true)]);
    for lt in ["\n", "\r", "\u{2028}", "\u{2029}"] {
        assert!(!m("^.$", lt), "{lt:?}");
    }
    check("a.c", &[("a\nc", false), ("a\u{85}c", true)]);
}

#[test]
fn alternation_and_groups() {
    check("^(?:ab|cd)+$", &[("abcdab", true), ("abc", false)]);
    check(
        "^(a|b|)c$",
        &[("ac", true), ("bc", true), ("c", true), ("dc", false)],
    );
    check(
        "^(?<year>\\d{4})-(?<m>\\d\\d)$",
        &[("2024-05", true), ("24-05", false)],
    );
    check("a||b", &[("zzz", true)]);
}

#[test]
fn backreferences() {
    check("^(a+)\\1$", &[("aaaa", true), ("aaa", false), ("aa", true)]);
    check(
        "^(?<q>['\"]).*\\k<q>$",
        &[("'x'", true), ("\"x\"", true), ("'x\"", false)],
    );
    // A group not set yet, or in an alternative not taken, matches empty.
    check("^\\1(a)$", &[("a", true)]);
    check("^\\k<n>(?<n>a)$", &[("a", true)]);
    check("^(?:(a)|b)\\1$", &[("b", true), ("aa", true), ("a", false)]);
    // Each iteration of a quantified group starts with its captures unset.
    check("^(?:(a)|b\\1c)+$", &[("abc", true), ("abac", false)]);
    check(
        "^(\\d)(\\d)(\\d)(\\d)(\\d)(\\d)(\\d)(\\d)(\\d)(\\d)\\10$",
        &[("01234567899", true), ("01234567890", false)],
    );
    check("^(😀)\\1$", &[("😀😀", true), ("😀", false)]);
}

#[test]
fn lookaround() {
    let password = "^(?=.*\\d)(?=.*[a-z])(?!.*\\s).{8,}$";
    check(
        password,
        &[
            ("abcdefg1", true),
            ("abcdefgh", false),
            ("abc defg1", false),
            ("abc1", false),
        ],
    );
    check("(?<=\\$)\\d+", &[("cost: $42", true), ("cost: 42", false)]);
    check("(?<!\\$)\\b\\d+", &[("$42", false), ("$42 and 7", true)]);
    check("^(?=(a+))a*b\\1$", &[("aaabaaa", true), ("aaaba", false)]);
    // Lookbehind matches right to left: the backreference runs before its group is set.
    check("(?<=(a)\\1)b", &[("ab", true)]);
    check("(?<=\\1(a))b", &[("aab", true), ("ab", false)]);
    check("(?<=^|,)x", &[("x", true), ("a,x", true), ("ax", false)]);
    check("(?<=é😀)z", &[("é😀z", true), ("😀z", false)]);
    // A negative lookaround's captures do not survive it.
    check("^(?!(a)b)a\\1c$", &[("ac", true), ("aac", false)]);
    // Lookarounds do not backtrack into: the lookahead takes the greedy `a+` once.
    check("^(?=(a+))a*b\\1$", &[("aaba", false)]);
}

#[test]
fn quantifiers() {
    check("^a{3}$", &[("aaa", true), ("aa", false), ("aaaa", false)]);
    check("^a{2,}$", &[("aa", true), ("aaaaa", true), ("a", false)]);
    check("^a{2,3}$", &[("aa", true), ("aaa", true), ("aaaa", false)]);
    check("^a{0}$", &[("", true), ("a", false)]);
    check("^a?b*c+$", &[("c", true), ("abbcc", true), ("aac", false)]);
    check("^(?:ab)*?c$", &[("ababc", true), ("abac", false)]);
    check("^a+?$", &[("aaa", true)]);
    check("^a{1,3}?b$", &[("aab", true), ("aaaab", false)]);
    check(
        "^\\d{4}-\\d{2}-\\d{2}$",
        &[("2024-01-31", true), ("2024-1-31", false)],
    );
    check(
        "^[a-z0-9_-]{1,64}$",
        &[("ok_name-1", true), ("", false), ("Bad", false)],
    );
}

#[test]
fn greedy_loops_over_one_atom_give_back_code_points() {
    check("^a*ab$", &[("aaab", true), ("ab", true), ("b", false)]);
    check(
        "^[a-z]{2,4}z$",
        &[("abz", true), ("abcdz", true), ("abcdez", false)],
    );
    check(
        "^.*😀.$",
        &[("x😀😀é", true), ("😀😀", true), ("é😀é", true)],
    );
    check("^\\w*?x$", &[("abx", true)]);
    check("(?<=^a+)b", &[("aab", true), ("cab", false)]);
    check(
        "(?<=^[a-c]{2,3})d",
        &[
            ("abd", true),
            ("abcd", true),
            ("ad", false),
            ("aabcd", false),
        ],
    );
    check(
        "(?<=(é+))\\1z",
        &[("ééz", true), ("éééz", false), ("éz", false), ("é", false)],
    );
    check("(?<=(é*)😀)\\1", &[("é😀é", true), ("😀x", true)]);
}

#[test]
fn empty_iterations_stop_loops() {
    check("^(?:a*)*$", &[("aaa", true), ("", true), ("b", false)]);
    check("^(?:a?)+b$", &[("aab", true), ("b", true)]);
    check("^(?:(?:)|a)*$", &[("", true)]);
    check("^(a?){3}$", &[("", true), ("aa", true), ("aaaa", false)]);
    check("^(?:\\b)*a$", &[("a", true)]);
    // The iteration that matched empty fails, so the capture keeps what the previous one took.
    check("^(?:(a)|())*\\1$", &[("aa", true)]);
    check("(?:){9999999}", &[("x", true)]);
}

#[test]
fn classes() {
    check("^[abc]+$", &[("cab", true), ("abd", false)]);
    check("^[^abc]$", &[("d", true), ("a", false), ("\n", true)]);
    check("^[a-fA-F0-9]+$", &[("DeadBeef09", true), ("xyz", false)]);
    check("^[-a]+$", &[("-a-", true)]);
    check("^[a-]+$", &[("-a-", true)]);
    check("^[--a]$", &[("0", true), ("b", false)]);
    check("^[a-c-e]+$", &[("b-e", true), ("d", false)]);
    check("^[\\b]$", &[("\u{8}", true), ("b", false)]);
    check("^[\\-\\]\\\\^]+$", &[("-]\\^", true)]);
    check("^[\\d\\s]+$", &[("1 2", true), ("1a", false)]);
    check("^[^\\D]$", &[("5", true), ("a", false)]);
    check("^[\\w-]+$", &[("a_b-c", true), ("a.b", false)]);
    check("^[😀-😂]$", &[("😁", true), ("😃", false)]);
    check("^[.]$", &[(".", true), ("a", false)]);
    check("^[]$", &[("", false), ("a", false)]);
    check("^[^]$", &[("\n", true), ("", false)]);
}

#[test]
fn class_escapes_are_ascii_for_d_and_w() {
    check("^\\d$", &[("7", true), ("\u{0660}", false), ("a", false)]);
    check("^\\D$", &[("\u{0660}", true), ("7", false)]);
    check("^\\w$", &[("_", true), ("Z", true), ("é", false)]);
    check("^\\W$", &[("é", true), ("_", false)]);
}

#[test]
fn whitespace_is_ecma_whitespace_and_line_terminators() {
    let spaces = "\t\n\u{B}\u{C}\r \u{A0}\u{1680}\u{2000}\u{2005}\u{200A}\u{2028}\u{2029}\u{202F}\u{205F}\u{3000}\u{FEFF}";
    for c in spaces.chars() {
        assert!(m("^\\s$", &c.to_string()), "{c:?} is \\s");
        assert!(!m("^\\S$", &c.to_string()), "{c:?} is not \\S");
    }
    for c in ['\u{0}', '\u{85}', '\u{180E}', '\u{200B}', 'a', '\u{2013}'] {
        assert!(!m("^\\s$", &c.to_string()), "{c:?} is not \\s");
    }
}

#[test]
fn word_boundaries_are_ascii() {
    check(
        "\\bfoo\\b",
        &[("a foo b", true), ("afoo", false), ("foo", true)],
    );
    check("\\Boo\\B", &[("food", true), ("oo", false)]);
    check("\\bé", &[("é", false), (" é", false)]);
    check("^\\B$", &[("", true)]);
}

#[test]
fn character_escapes() {
    check("^\\t\\n\\v\\f\\r\\0$", &[("\t\n\u{B}\u{C}\r\0", true)]);
    check("^\\x41\\u0042\\u{43}\\u{1F600}$", &[("ABC😀", true)]);
    check("^\\uD83D\\uDE00$", &[("😀", true)]);
    check("^\\cJ\\cj$", &[("\n\n", true)]);
    check(
        "^\\^\\$\\\\\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\/$",
        &[("^$\\.*+?()[]{}|/", true)],
    );
    check(
        "^[\\cA\\x7f\\u{10FFFF}]+$",
        &[("\u{1}\u{7F}\u{10FFFF}", true)],
    );
    check("^/$", &[("/", true)]);
}

#[test]
fn lone_surrogates_compile_and_match_nothing() {
    check("\\uD800", &[("\u{D7FF}", false), ("😀", false)]);
    check("^\\uD83D\\u0041$", &[("A", false)]);
    check("^[\\uD800-\\uDFFF]$", &[("😀", false), ("a", false)]);
    check(
        "^[\\u0000-\\uFFFF]$",
        &[("a", true), ("\u{FFFD}", true), ("😀", false)],
    );
}

#[test]
fn unicode_properties() {
    check(
        "^\\p{L}+$",
        &[("école", true), ("日本", true), ("a1", false)],
    );
    check("^\\p{Letter}\\P{Letter}$", &[("a1", true), ("ab", false)]);
    check("^\\p{Lu}\\p{Ll}+$", &[("Éa", true), ("éa", false)]);
    check(
        "^\\p{Uppercase_Letter}\\p{Lowercase_Letter}$",
        &[("Ab", true)],
    );
    check(
        "^\\p{N}+$",
        &[("12", true), ("\u{09EA}\u{2160}½", true), ("a", false)],
    );
    check("^\\p{Number}$", &[("x", false)]);
    check(
        "^\\p{White_Space}\\p{space}$",
        &[("\u{85} ", true), ("\u{FEFF} ", false)],
    );
    check(
        "^\\p{Alphabetic}\\p{Uppercase}\\p{Lowercase}$",
        &[("xYz", true)],
    );
    check("^\\p{gc=L}\\p{General_Category=Lu}$", &[("aB", true)]);
    check("^[\\p{Lu}\\d]+$", &[("A1B", true), ("a", false)]);
    check("^[^\\P{Ll}]$", &[("a", true), ("A", false)]);
    // The documented approximations: Alphabetic, Uppercase and Lowercase stand for L, Lu and Ll.
    check("^\\p{L}$", &[("\u{2160}", true), ("\u{345}", true)]);
    check("^\\p{Lu}$", &[("\u{24B6}", true)]);
    check("^\\p{Ll}$", &[("\u{AA}", true), ("\u{2B0}", true)]);
}

#[test]
fn unsupported_properties_are_errors_naming_them() {
    assert_eq!(
        err("\\p{digit}"),
        "at offset 0: unsupported Unicode property 'digit'"
    );
    assert_eq!(
        err("a\\P{Nd}"),
        "at offset 1: unsupported Unicode property 'Nd'"
    );
    assert_eq!(
        err("[\\p{Script=Greek}]"),
        "at offset 1: unsupported Unicode property 'Script=Greek'"
    );
    assert_eq!(
        err("\\p{gc=White_Space}"),
        "at offset 0: unsupported Unicode property 'gc=White_Space'"
    );
    assert_eq!(
        err("\\pL"),
        "at offset 0: '\\p' must be followed by '{property}'"
    );
    assert_eq!(err("\\p{L"), "at offset 0: unterminated '\\p{'");
}

#[test]
fn syntax_errors_have_exact_messages() {
    let cases = [
        ("(ab", "at offset 0: unterminated group"),
        ("ab)", "at offset 2: unmatched ')'"),
        ("a{2", "at offset 1: incomplete quantifier"),
        ("{", "at offset 0: lone '{'"),
        ("a{,3}", "at offset 1: lone '{'"),
        ("a}", "at offset 1: lone '}'"),
        ("]", "at offset 0: lone ']'"),
        ("*a", "at offset 0: nothing to repeat"),
        ("a|+", "at offset 2: nothing to repeat"),
        ("a**", "at offset 2: nothing to repeat"),
        ("{1}", "at offset 0: nothing to repeat"),
        ("^*", "at offset 1: nothing to repeat"),
        ("\\b+", "at offset 2: nothing to repeat"),
        ("(?=a)*", "at offset 5: nothing to repeat"),
        ("(?<=a)?", "at offset 6: nothing to repeat"),
        (
            "a{3,2}",
            "at offset 1: numbers out of order in {} quantifier",
        ),
        (
            "[b-a]",
            "at offset 1: range out of order in character class",
        ),
        (
            "[\\d-z]",
            "at offset 1: a class escape cannot be a range bound",
        ),
        (
            "[a-\\w]",
            "at offset 1: a class escape cannot be a range bound",
        ),
        ("[abc", "at offset 0: unterminated character class"),
        ("\\a", "at offset 0: invalid escape '\\a'"),
        ("x\\e", "at offset 1: invalid escape '\\e'"),
        ("\\z", "at offset 0: invalid escape '\\z'"),
        ("\\-", "at offset 0: invalid escape '\\-'"),
        ("[\\B]", "at offset 1: invalid escape '\\B'"),
        ("[\\1]", "at offset 1: invalid escape '\\1'"),
        ("\\", "at offset 0: '\\' at end of pattern"),
        ("\\00", "at offset 0: invalid decimal escape"),
        (
            "\\c1",
            "at offset 0: '\\c' must be followed by an ASCII letter",
        ),
        ("\\xZ1", "at offset 0: invalid \\x escape"),
        ("\\u12", "at offset 0: invalid \\u escape"),
        ("\\u{110000}", "at offset 0: invalid \\u{...} escape"),
        ("\\u{}", "at offset 0: invalid \\u{...} escape"),
        (
            "(a)\\2",
            "at offset 3: backreference \\2 to a group that does not exist",
        ),
        (
            "\\1",
            "at offset 0: backreference \\1 to a group that does not exist",
        ),
        (
            "\\k<x>",
            "at offset 0: backreference to an undefined group name 'x'",
        ),
        ("\\k", "at offset 0: '\\k' must be followed by '<name>'"),
        ("(?<a>x)(?<a>y)", "at offset 7: duplicate group name 'a'"),
        ("(?<>x)", "at offset 0: empty group name"),
        (
            "(?<1a>x)",
            "at offset 3: invalid character '1' in group name",
        ),
        (
            "(?<a\\u0062>x)",
            "at offset 4: escapes in group names are not supported",
        ),
        ("(?<ab", "at offset 0: unterminated group name"),
        (
            "(?i:a)",
            "at offset 0: invalid group: '(?' must be followed by ':', '=', '!', '<=', '<!' or '<name>'",
        ),
    ];
    for (pattern, want) in cases {
        assert_eq!(err(pattern), want, "{pattern:?}");
    }
}

#[test]
fn error_offsets_count_code_points() {
    assert_eq!(err("é😀)"), "at offset 2: unmatched ')'");
}

#[test]
fn nesting_is_capped() {
    let ok = format!("{}a{}", "(".repeat(128), ")".repeat(128));
    assert!(m(&ok, "a"));
    let deep = format!("{}a{}", "(?:".repeat(129), ")".repeat(129));
    assert_eq!(
        err(&deep),
        "at offset 384: groups nested deeper than 128 levels"
    );
    let deeper = "(?=".repeat(100_000);
    assert!(err(&deeper).ends_with("groups nested deeper than 128 levels"));
}

#[test]
fn unrolled_repetition_is_capped() {
    assert!(m("^a{1,5000}$", &"a".repeat(5000)));
    assert_eq!(
        err("x(?:ab){0,30000}"),
        "at offset 7: the pattern is too large to compile (more than 20000 instructions once its counted repetitions are unrolled)"
    );
    assert!(err("((a{100}){100}){100}").contains("too large"));
    assert!(err("a{4294967295}").contains("too large"));
    assert!(err("a{99999999999999999999}").contains("too large"));
}

#[test]
fn hostile_patterns_hit_the_step_limit() {
    let limit = "the regular expression needed more than 1000000 backtracking steps";
    for (pattern, hay) in [
        ("(a*)*bc", format!("{}b", "a".repeat(30))),
        ("(a|a)*$", format!("{}!", "a".repeat(30))),
        ("^(a+)+$", format!("{}!", "a".repeat(40))),
        ("(?:a|aa)+c", format!("{}bc", "a".repeat(60))),
        ("^(\\w+\\s?)*$", format!("{}!", "ab ".repeat(20))),
    ] {
        let re = Regex::new(pattern).unwrap();
        let got = re.is_match(&hay).unwrap_err();
        assert_eq!(got.to_string(), limit, "{pattern:?}");
    }
}

#[test]
fn long_haystacks_do_not_overflow_or_go_quadratic() {
    let big = "a".repeat(64 * 1024);
    assert!(!m("^[a-z0-9_-]{1,64}$", &big));
    assert!(!m(".*foo", &big));
    assert!(m(".*foo", &format!("{big}foo")));
    assert!(m("^a*$", &big));
    assert!(m("^(?:a|b)*$", &big));
    assert!(m("^.*$", &big));
    assert!(!m("^(a)*b", &big));
    assert!(!m("b", &big));
    assert!(!m("ab", &big[1..]));
    assert!(m("a$", &big));
    // A code point every match needs, missing from the input, settles it without backtracking.
    assert!(!m("\\w+@\\w+\\.com", &big));
    assert!(!m("[a-z]+X", &big));
    assert!(m("[a-z]+X", &format!("{big}X")));
    assert!(m("(?:x|a)(a)+(?=b|$)", &big));
    let lines = "ab\n".repeat(20 * 1024);
    assert!(!m(".*foo", &lines));
    assert!(m(".*b$", &lines[..lines.len() - 1]));
}

#[test]
fn the_scratch_buffers_are_reused_and_reentrant_state_is_clean() {
    let a = Regex::new("^(a)\\1$").unwrap();
    let b = Regex::new("^(?:(a)|b)\\1$").unwrap();
    for _ in 0..3 {
        assert_eq!(a.is_match("aa"), Ok(true));
        assert_eq!(b.is_match("b"), Ok(true));
        assert_eq!(a.is_match("ab"), Ok(false));
    }
}

#[test]
fn costly_steps_are_charged_or_bounded() {
    let big = "a".repeat(64 * 1024);
    // A class of thousands of items is one binary search per code point.
    let many: String = (0..5000)
        .map(|i| char::from_u32(0x4E00 + 2 * i).unwrap())
        .collect();
    let class = Regex::new(&format!("^[{many}b-z]*$")).unwrap();
    assert_eq!(class.is_match(&big), Ok(false));
    assert_eq!(class.is_match(&many), Ok(true));
    // Unsetting thousands of groups per iteration, and comparing long backreferences, use up steps.
    let groups = Regex::new(&format!("(?:{}a)*b", "()".repeat(5000))).unwrap();
    assert!(groups.is_match(&format!("{big}b")).is_err());
    let backref = Regex::new("(a+)(?:\\1)*b").unwrap();
    assert!(backref.is_match(&format!("b{big}")).is_err());
    // The backtracking stack is capped in entries as well as steps.
    let frames = Regex::new("^(?:()()()()()()()()()()a)*$").unwrap();
    let got = frames.is_match(&"a".repeat(20_000)).unwrap_err();
    assert_eq!(
        got.to_string(),
        "the regular expression needed more than 524288 backtracking stack entries"
    );
    // Scanning for group names stays linear on a long run of unfinished ones.
    assert!(err(&"(?<".repeat(30_000)).contains("invalid character '('"));
}
