//! The source files of `core/src` (and of the host crates' `src`) name each other one way only.
//!
//! The layering scanner (`layering/`) reads every file, resolves the crate paths its code names to
//! the files that define them, and these tests fail on any circle: a set of files each of which
//! reaches every other through those arrows. A failure names the files and the lines that close
//! the circle. The top-level modules of core are checked the same way with each module's files
//! taken together.
//!
//! Circles that existed when the check was written and are not yet broken are listed below by their
//! exact files. The lists only shrink: the test fails on a circle not listed, and also on a listed
//! circle that no longer exists exactly as listed (broken or shrunk: then take it off the list).

mod layering;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use layering::circles::{circles, describe};
use layering::scan::{Graph, graph, read_src};

/// Known circles of `core/src`, to be removed (none left: a new one fails the test).
const CORE_KNOWN: &[&[&str]] = &[];

/// Known circles of `ffi/src`, to be removed (none left).
const FFI_KNOWN: &[&[&str]] = &[];

/// Known circles of `bindings-node/src`, to be removed (none left).
const NODE_KNOWN: &[&[&str]] = &[];

fn src_of(krate: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(krate)
        .join("src")
}

/// Fails unless the circles of `g` are exactly `known`, describing every difference.
fn assert_circles(what: &str, g: &Graph, known: &[&[&str]]) {
    let found = circles(g);
    let known: BTreeSet<Vec<String>> = known
        .iter()
        .map(|c| c.iter().map(|f| f.to_string()).collect())
        .collect();
    let mut problems = Vec::new();
    for c in found.difference(&known) {
        problems.push(format!(
            "a circle among {} files of {what} (each arrow is file:lines -> file):\n{}",
            c.len(),
            describe(g, c)
        ));
    }
    for c in known.difference(&found) {
        problems.push(format!(
            "the known circle {c:?} of {what} no longer exists as listed: take it off the list \
             (and list what is left of it, if anything)"
        ));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

#[test]
fn files_of_core_src_have_no_circle_but_the_known_ones() {
    assert_circles("core/src", &graph(&read_src(&src_of("core"))), CORE_KNOWN);
}

#[test]
fn files_of_the_host_crates_have_no_circle_but_the_known_ones() {
    assert_circles("ffi/src", &graph(&read_src(&src_of("ffi"))), FFI_KNOWN);
    assert_circles(
        "bindings-python/src",
        &graph(&read_src(&src_of("bindings-python"))),
        &[],
    );
    assert_circles(
        "bindings-node/src",
        &graph(&read_src(&src_of("bindings-node"))),
        NODE_KNOWN,
    );
}

#[test]
fn top_level_modules_of_core_src_have_no_circle() {
    let files = graph(&read_src(&src_of("core")));
    let top = |f: &str| {
        f.split('/')
            .next()
            .unwrap()
            .trim_end_matches(".rs")
            .to_owned()
    };
    let mut modules = Graph::new();
    for (from, targets) in &files {
        for (to, lines) in targets {
            let (a, b) = (top(from), top(to));
            if a != b && a != "lib" {
                let at = modules.entry(a).or_default().entry(b).or_default();
                at.extend(lines);
            }
        }
    }
    assert_circles("core/src (top-level modules)", &modules, &[]);
}

/// A toy crate: the root re-exports `c.rs`'s `Thing`, `a.rs` calls `b.rs` and `c.rs`, and `b.rs`
/// holds `extra_b` besides its function.
fn toy(extra_b: &str) -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    files.insert(
        "lib.rs".to_owned(),
        "mod a;\nmod b;\npub mod c;\npub use c::Thing;\n".to_owned(),
    );
    files.insert(
        "a.rs".to_owned(),
        "use crate::b::go;\npub fn run() { go(); super::c::Thing::new(); }\n".to_owned(),
    );
    files.insert("b.rs".to_owned(), format!("pub fn go() {{}}\n{extra_b}\n"));
    files.insert(
        "c.rs".to_owned(),
        "pub struct Thing;\nimpl Thing { pub fn new() -> Self { Thing } }\n".to_owned(),
    );
    files
}

fn arrows(files: &BTreeMap<String, String>) -> Vec<String> {
    graph(files)
        .iter()
        .flat_map(|(from, to)| to.keys().map(move |t| format!("{from} -> {t}")))
        .collect()
}

#[test]
fn the_scanner_follows_use_paths_and_re_exports_to_the_defining_file() {
    assert_eq!(arrows(&toy("")), ["a.rs -> b.rs", "a.rs -> c.rs"]);
    // Through the root's re-export: the arrow goes to the file that defines `Thing`.
    let files = toy("fn f() { crate::Thing::new(); }");
    assert_eq!(
        arrows(&files),
        ["a.rs -> b.rs", "a.rs -> c.rs", "b.rs -> c.rs"]
    );
    assert!(circles(&graph(&files)).is_empty());
}

#[test]
fn the_scanner_finds_a_circle_through_a_grouped_use() {
    let files = toy("use crate::{c::Thing, a::{self}};\nfn f() { a::run(); }");
    let found = circles(&graph(&files));
    assert_eq!(found.len(), 1);
    assert_eq!(found.iter().next().unwrap(), &["a.rs", "b.rs"]);
}

#[test]
fn comments_strings_and_test_modules_are_not_arrows() {
    let b = r##"
// crate::a::run();
/* crate::a::run(); */
const S: &str = "crate::a::run()";
const R: &str = r#"crate::a::run()"#;
const C: char = '"'; fn after_char() {}
#[cfg(test)]
mod tests {
    fn t() { crate::a::run(); }
}
"##;
    let files = toy(b);
    assert_eq!(arrows(&files), ["a.rs -> b.rs", "a.rs -> c.rs"]);
    let still = toy(&format!("{b}\nfn g() {{ crate::a::run(); }}"));
    assert_eq!(circles(&graph(&still)).len(), 1);
}
