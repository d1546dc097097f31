//! The same program, three tools and a client calling them, written with libmcp and with rmcp: both
//! must print the same thing, and the libmcp one must be the shorter (lines of code, neither blank
//! nor comment, as rustfmt leaves them).

use std::process::Command;

fn output(binary: &str) -> String {
    let out = Command::new(binary).output().expect("runs");
    assert!(out.status.success(), "{binary}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

fn code_lines(source: &str) -> usize {
    source
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//"))
        .count()
}

#[test]
fn both_print_the_same_results() {
    let expected = "add: 5\ngreet: Hello, Ada!\nforecast: {\"celsius\":21.5,\"city\":\"Oslo\"}\n";
    assert_eq!(output(env!("CARGO_BIN_EXE_three-tools-libmcp")), expected);
    assert_eq!(output(env!("CARGO_BIN_EXE_three-tools-rmcp")), expected);
}

#[test]
fn the_libmcp_program_is_shorter() {
    let libmcp = code_lines(include_str!("../src/bin/three_tools_libmcp.rs"));
    let rmcp = code_lines(include_str!("../src/bin/three_tools_rmcp.rs"));
    println!("lines of code: libmcp {libmcp}, rmcp {rmcp}");
    assert!(libmcp < rmcp, "libmcp {libmcp} lines, rmcp {rmcp}");
}
