use std::collections::BTreeMap;

use super::{TemplateValue as V, UriTemplate};

fn s(x: &str) -> V {
    V::String(x.into())
}

fn list(xs: &[&str]) -> V {
    V::List(xs.iter().map(|x| x.to_string()).collect())
}

fn assoc(xs: &[(&str, &str)]) -> V {
    V::Assoc(
        xs.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
    )
}

fn vars(pairs: &[(&str, V)]) -> BTreeMap<String, V> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
}

/// The variables of RFC 6570 section 3.2.
fn rfc_vars() -> BTreeMap<String, V> {
    vars(&[
        ("count", list(&["one", "two", "three"])),
        ("dom", list(&["example", "com"])),
        ("dub", s("me/too")),
        ("hello", s("Hello World!")),
        ("half", s("50%")),
        ("var", s("value")),
        ("who", s("fred")),
        ("base", s("http://example.com/home/")),
        ("path", s("/foo/bar")),
        ("list", list(&["red", "green", "blue"])),
        (
            "keys",
            assoc(&[("semi", ";"), ("dot", "."), ("comma", ",")]),
        ),
        ("v", s("6")),
        ("x", s("1024")),
        ("y", s("768")),
        ("empty", s("")),
        ("empty_keys", V::Assoc(vec![])),
    ])
}

#[test]
fn rfc6570_section_3_2_examples() {
    let cases = [
        // 3.2.1
        ("{count}", "one,two,three"),
        ("{count*}", "one,two,three"),
        ("{/count}", "/one,two,three"),
        ("{/count*}", "/one/two/three"),
        ("{;count}", ";count=one,two,three"),
        ("{;count*}", ";count=one;count=two;count=three"),
        ("{?count}", "?count=one,two,three"),
        ("{?count*}", "?count=one&count=two&count=three"),
        ("{&count*}", "&count=one&count=two&count=three"),
        // 3.2.2
        ("{var}", "value"),
        ("{hello}", "Hello%20World%21"),
        ("{half}", "50%25"),
        ("O{empty}X", "OX"),
        ("O{undef}X", "OX"),
        ("{x,y}", "1024,768"),
        ("{x,hello,y}", "1024,Hello%20World%21,768"),
        ("?{x,empty}", "?1024,"),
        ("?{x,undef}", "?1024"),
        ("?{undef,y}", "?768"),
        ("{var:3}", "val"),
        ("{var:30}", "value"),
        ("{list}", "red,green,blue"),
        ("{list*}", "red,green,blue"),
        ("{keys}", "semi,%3B,dot,.,comma,%2C"),
        ("{keys*}", "semi=%3B,dot=.,comma=%2C"),
        // 3.2.3
        ("{+var}", "value"),
        ("{+hello}", "Hello%20World!"),
        ("{+half}", "50%25"),
        ("{base}index", "http%3A%2F%2Fexample.com%2Fhome%2Findex"),
        ("{+base}index", "http://example.com/home/index"),
        ("O{+empty}X", "OX"),
        ("{+path}/here", "/foo/bar/here"),
        ("here?ref={+path}", "here?ref=/foo/bar"),
        ("up{+path}{var}/here", "up/foo/barvalue/here"),
        ("{+x,hello,y}", "1024,Hello%20World!,768"),
        ("{+path,x}/here", "/foo/bar,1024/here"),
        ("{+path:6}/here", "/foo/b/here"),
        ("{+list*}", "red,green,blue"),
        ("{+keys}", "semi,;,dot,.,comma,,"),
        ("{+keys*}", "semi=;,dot=.,comma=,"),
        // 3.2.4
        ("{#var}", "#value"),
        ("{#hello}", "#Hello%20World!"),
        ("foo{#empty}", "foo#"),
        ("foo{#undef}", "foo"),
        ("{#x,hello,y}", "#1024,Hello%20World!,768"),
        ("{#path,x}/here", "#/foo/bar,1024/here"),
        ("{#path:6}/here", "#/foo/b/here"),
        ("{#list*}", "#red,green,blue"),
        ("{#keys*}", "#semi=;,dot=.,comma=,"),
        // 3.2.5
        ("{.who}", ".fred"),
        ("{.who,who}", ".fred.fred"),
        ("{.half,who}", ".50%25.fred"),
        ("www{.dom*}", "www.example.com"),
        ("X{.empty}", "X."),
        ("X{.undef}", "X"),
        ("X{.var:3}", "X.val"),
        ("X{.list}", "X.red,green,blue"),
        ("X{.list*}", "X.red.green.blue"),
        ("X{.keys}", "X.semi,%3B,dot,.,comma,%2C"),
        ("X{.keys*}", "X.semi=%3B.dot=..comma=%2C"),
        ("X{.empty_keys}", "X"),
        ("X{.empty_keys*}", "X"),
        // 3.2.6
        ("{/who,who}", "/fred/fred"),
        ("{/half,who}", "/50%25/fred"),
        ("{/who,dub}", "/fred/me%2Ftoo"),
        ("{/var,empty}", "/value/"),
        ("{/var,undef}", "/value"),
        ("{/var,x}/here", "/value/1024/here"),
        ("{/var:1,var}", "/v/value"),
        ("{/list*}", "/red/green/blue"),
        ("{/list*,path:4}", "/red/green/blue/%2Ffoo"),
        ("{/keys*}", "/semi=%3B/dot=./comma=%2C"),
        // 3.2.7
        ("{;who}", ";who=fred"),
        ("{;half}", ";half=50%25"),
        ("{;empty}", ";empty"),
        ("{;v,empty,who}", ";v=6;empty;who=fred"),
        ("{;v,bar,who}", ";v=6;who=fred"),
        ("{;x,y,empty}", ";x=1024;y=768;empty"),
        ("{;hello:5}", ";hello=Hello"),
        ("{;list*}", ";list=red;list=green;list=blue"),
        ("{;keys}", ";keys=semi,%3B,dot,.,comma,%2C"),
        ("{;keys*}", ";semi=%3B;dot=.;comma=%2C"),
        // 3.2.8
        ("{?who}", "?who=fred"),
        ("{?x,y,empty}", "?x=1024&y=768&empty="),
        ("{?x,y,undef}", "?x=1024&y=768"),
        ("{?var:3}", "?var=val"),
        ("{?list}", "?list=red,green,blue"),
        ("{?list*}", "?list=red&list=green&list=blue"),
        ("{?keys*}", "?semi=%3B&dot=.&comma=%2C"),
        // 3.2.9
        ("{&who}", "&who=fred"),
        ("?fixed=yes{&x}", "?fixed=yes&x=1024"),
        ("{&x,y,empty}", "&x=1024&y=768&empty="),
        ("{&list*}", "&list=red&list=green&list=blue"),
        ("{&keys}", "&keys=semi,%3B,dot,.,comma,%2C"),
    ];
    let v = rfc_vars();
    for (template, expected) in cases {
        let t = UriTemplate::parse(template).unwrap();
        assert_eq!(t.expand(&v), expected, "{template}");
        assert_eq!(t.as_str(), template);
    }
}

#[test]
fn unicode_is_utf8_percent_encoded_and_prefix_counts_chars() {
    let t = UriTemplate::parse("{x:2}/{+y}").unwrap();
    assert_eq!(
        t.expand(&vars(&[("x", s("été")), ("y", s("ü/%41"))])),
        "%C3%A9t/%C3%BC/%41"
    );
}

#[test]
fn parse_errors() {
    for bad in [
        "{",
        "x}",
        "{}",
        "{=x}",
        "{,x}",
        "{x,}",
        "{x:0}",
        "{x:10000}",
        "{x:}",
        "{x*:3}",
        "{x:3*}",
        "{a b}",
        "a b",
        "{x.}",
        "{.}",
        "{x..y}",
        "%zz",
        "a%4",
        "{x{y}",
        "<{x}>",
        "{x-y}",
    ] {
        let e = UriTemplate::parse(bad).expect_err(bad);
        assert!(
            e.to_string().starts_with("invalid URI template at byte"),
            "{e}"
        );
    }
    assert_eq!(UriTemplate::parse("ab{").unwrap_err().offset, 2);
    assert!(UriTemplate::parse("{x:9999,a.b,c%20d,_1*}").is_ok());
}

#[test]
fn variables_in_order_without_duplicates() {
    let t: UriTemplate = "a{b}{/c,b}{?d*,e:3}".parse().unwrap();
    assert_eq!(t.variables(), ["b", "c", "d", "e"]);
    assert_eq!(t.to_string(), "a{b}{/c,b}{?d*,e:3}");
}

#[test]
fn simple_variable_matches_one_segment() {
    let t = UriTemplate::parse("test://template/{id}/data").unwrap();
    assert_eq!(
        t.matches("test://template/123/data"),
        Some(vars(&[("id", s("123"))]))
    );
    assert_eq!(t.matches("test://template/1/2/data"), None);
    assert_eq!(t.matches("test://template//data"), None);
    assert_eq!(t.matches("test://template/1/datax"), None);
    assert_eq!(
        t.matches("test://template/a%2Fb/data"),
        Some(vars(&[("id", s("a/b"))]))
    );
    assert_eq!(
        t.matches("test://template/caf%C3%A9/data"),
        Some(vars(&[("id", s("café"))]))
    );
    // Broken escapes and invalid UTF-8 do not match.
    assert_eq!(t.matches("test://template/%zz/data"), None);
    assert_eq!(t.matches("test://template/%4/data"), None);
    assert_eq!(t.matches("test://template/%FF/data"), None);
    assert_eq!(t.matches("test://template/%+1/data"), None);
}

#[test]
fn reserved_path_and_segments() {
    let t = UriTemplate::parse("file:///{+path}").unwrap();
    assert_eq!(
        t.matches("file:///a/b/c.txt"),
        Some(vars(&[("path", s("a/b/c.txt"))]))
    );
    let t = UriTemplate::parse("test://x{/segs*}").unwrap();
    assert_eq!(
        t.matches("test://x/a/b%20c"),
        Some(vars(&[("segs", list(&["a", "b c"]))]))
    );
    assert_eq!(t.matches("test://x"), Some(BTreeMap::new()));
    let t = UriTemplate::parse("test://x{/id}").unwrap();
    assert_eq!(t.matches("test://x/1/2"), None);
    let t = UriTemplate::parse("repo://{owner}/{+path}/raw").unwrap();
    assert_eq!(
        t.matches("repo://me/src/lib.rs/raw"),
        Some(vars(&[("owner", s("me")), ("path", s("src/lib.rs"))]))
    );
}

#[test]
fn query_in_any_order() {
    let t = UriTemplate::parse("test://search{?q,limit}").unwrap();
    let both = vars(&[("q", s("rust")), ("limit", s("10"))]);
    assert_eq!(
        t.matches("test://search?limit=10&q=rust"),
        Some(both.clone())
    );
    assert_eq!(t.matches("test://search?q=rust&limit=10"), Some(both));
    assert_eq!(t.matches("test://search"), Some(BTreeMap::new()));
    assert_eq!(
        t.matches("test://search?q=a%26b"),
        Some(vars(&[("q", s("a&b"))]))
    );
    assert_eq!(t.matches("test://search?other=1"), None);
    assert_eq!(t.matches("test://search?q=1#frag"), None);
    let t = UriTemplate::parse("test://s{?q}{&rest*}").unwrap();
    assert_eq!(
        t.matches("test://s?q=1&a=2&b"),
        Some(vars(&[
            ("q", s("1")),
            ("rest", assoc(&[("a", "2"), ("b", "")]))
        ]))
    );
}

#[test]
fn repeated_variables_must_agree() {
    let t = UriTemplate::parse("x://{a}/{a}").unwrap();
    assert_eq!(t.matches("x://1/1"), Some(vars(&[("a", s("1"))])));
    assert_eq!(t.matches("x://1/2"), None);
}

#[test]
fn expand_then_match_round_trips() {
    let cases: Vec<(&str, BTreeMap<String, V>)> = vec![
        (
            "test://template/{id}/data",
            vars(&[("id", s("Hello World!/?&#,=é"))]),
        ),
        ("x://{a,b}", vars(&[("a", s("1")), ("b", s("two, three"))])),
        ("x://{a}", vars(&[("a", list(&["r", "g", "b"]))])),
        ("x://h{/a,b}", vars(&[("a", s("p/q")), ("b", s("z"))])),
        ("x://h{/list*}", vars(&[("list", list(&["a", "b c", "d"]))])),
        ("x://h{/list}", vars(&[("list", list(&["a", "b"]))])),
        ("x://h{.d*}", vars(&[("d", list(&["example", "com"]))])),
        ("x://h{;p,q}", vars(&[("p", s("1")), ("q", s(""))])),
        ("x://h{;l*}", vars(&[("l", list(&["a", "b"]))])),
        ("x://h{?q,n}", vars(&[("q", s("a b&c=d")), ("n", s("5"))])),
        ("x://h{?l*}", vars(&[("l", list(&["1", "2"]))])),
        (
            "x://h{?k*}",
            vars(&[("k", assoc(&[("a", "1"), ("b", "x y")]))]),
        ),
        ("x://h?fixed=1{&a,b}", vars(&[("a", s("x")), ("b", s("y"))])),
        (
            "x://h{/s}{?q}{#f}",
            vars(&[("s", s("seg")), ("q", s("v")), ("f", s("top"))]),
        ),
        ("x://{+p}", vars(&[("p", s("a/b;c@d"))])),
        (
            "x://h/{a}{/b*}{?c}",
            vars(&[("a", s("1")), ("b", list(&["x", "y"])), ("c", s("z"))]),
        ),
    ];
    for (template, values) in cases {
        let t = UriTemplate::parse(template).unwrap();
        let uri = t.expand(&values);
        assert_eq!(t.matches(&uri), Some(values), "{template} -> {uri}");
    }
}

#[test]
fn matching_is_bounded() {
    let t = UriTemplate::parse("{a}x{b}x{c}x{d}y").unwrap();
    let uri = "x".repeat(5_000);
    assert_eq!(matches_within_budget(&t, &uri), None);
    let t = UriTemplate::parse("x://{a}{b}{c}").unwrap();
    let m = t.matches("x://abcd").unwrap();
    // Greedy left to right: earlier variables take as much as they can.
    assert_eq!(m["a"], s("ab"));
    assert_eq!(m["c"], s("d"));
}

/// Matches, checking that the work charged stayed within the budget (give or take one candidate) and
/// covered every byte of span text decomposed.
fn matches_within_budget(t: &UriTemplate, uri: &str) -> Option<BTreeMap<String, V>> {
    use super::matching::{BYTES_SEEN, LAST_WORK, WORK_BUDGET};
    let before = BYTES_SEEN.with(|b| b.get());
    let found = t.matches(uri);
    let seen = BYTES_SEEN.with(|b| b.get()) - before;
    let work = LAST_WORK.with(|w| w.get());
    assert!(seen <= work, "{seen} bytes decomposed, {work} charged");
    assert!(work <= WORK_BUDGET + 20 + uri.len() * 8, "{work} charged");
    found
}

/// Inputs the fuzzer found slow (hundreds of milliseconds when only candidate spans were counted,
/// not their length): a variable used twice turns off memoization, and every span was decoded.
#[test]
fn repeated_variables_with_long_spans_stay_cheap() {
    use super::matching::WORK_BUDGET;
    let bad = "%EF%BF%BD".repeat(24);
    let t = UriTemplate::parse("htt\u{fffd}{;p}{1q}\u{fffd}\u{fffd}{;p}\u{fffd}").unwrap();
    let value = format!("%2F%7D%7B%3Fq%2A%7D%00{bad}");
    let uri = format!("htt\u{fffd};p={value}\u{fffd}\u{fffd};p={value}\u{fffd}");
    let m = matches_within_budget(&t, &uri).expect("the expansion matches");
    // `{1q}` needs a character, so the first `{;p}` can only be empty for both `p` to agree.
    let decoded = format!("/}}{{?q*}}\0{}", "\u{fffd}".repeat(24));
    assert_eq!(
        m,
        vars(&[("p", s(&decoded)), ("1q", s(&format!(";p={decoded}")))])
    );
    // Only spans that the next literal follows are decoded for `{1q}`, so this takes a fraction of
    // the budget (without that check, the budget ran out and the URI did not match).
    let work = super::matching::LAST_WORK.with(|w| w.get());
    assert!(work < WORK_BUDGET / 4, "{work} charged");

    // The same shape with no match: the budget ends the search.
    let t = UriTemplate::parse("{;p}{q}{r}{;p}!").unwrap();
    let uri = format!(";p={bad}{bad}{bad}?");
    assert_eq!(matches_within_budget(&t, &uri), None);
    let t = UriTemplate::parse("{;p}{q}{r}{;p}").unwrap();
    let uri = format!(";p={bad}{bad}{bad}/x");
    assert_eq!(matches_within_budget(&t, &uri), None);
    let work = super::matching::LAST_WORK.with(|w| w.get());
    assert!(
        work > WORK_BUDGET,
        "{work} charged: the budget did not end this search"
    );
}
