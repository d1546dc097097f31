//! Link options of the shared library:
//!
//! * a SONAME carrying the exact version: every 0.x release may break the ABI, and without a
//!   SONAME linkers record the build path of the file instead;
//! * in optimised builds for Linux, the functions general traffic runs placed together
//!   (`layout/libmcp.order`, written by `layout/make-order.sh` from the conformance suite's server
//!   scenarios and a stdio session), so the code a process touches fills few pages: a linker script
//!   puts their sections (`.text.SYMBOL`, one per function) in one output section before `.text`.
//!   A Rust symbol's hash (`17h<16 hex digits>E`) depends on how the crate was built (target, profile,
//!   flags), so it is matched as a wildcard, as is the `.llvm.N` suffix of thin LTO. Names that no
//!   longer exist match nothing. `LIBMCP_LINK_ORDER=0` turns it off.

use std::env;
use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let version = env::var("CARGO_PKG_VERSION").expect("cargo sets CARGO_PKG_VERSION");
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libmcp.so.{version}");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=layout/libmcp.order");
    println!("cargo:rerun-if-env-changed=LIBMCP_LINK_ORDER");
    let optimised = env::var("PROFILE").as_deref() == Ok("release");
    let linux = env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux");
    if !optimised || !linux || env::var("LIBMCP_LINK_ORDER").as_deref() == Ok("0") {
        return;
    }
    let dir = env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let Ok(order) = std::fs::read_to_string(Path::new(&dir).join("layout/libmcp.order")) else {
        return;
    };
    let mut script = String::from("SECTIONS {\n  .text.libmcp_ordered : {\n");
    for symbol in order.lines().map(str::trim).filter(|s| !s.is_empty()) {
        writeln!(script, "    *(.text.{})", pattern(symbol)).expect("writing to a String");
    }
    script.push_str("  }\n} INSERT BEFORE .text;\n");
    let out = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("libmcp-order.ld");
    std::fs::write(&out, script).expect("OUT_DIR is writable");
    println!("cargo:rustc-cdylib-link-arg=-Wl,-T,{}", out.display());
}

/// The linker-script pattern of `symbol`: its Rust hash and any `.llvm.N` suffix as wildcards.
fn pattern(symbol: &str) -> String {
    let base = symbol.split(".llvm.").next().unwrap_or(symbol);
    let hashed = base.len() > 20 && base.ends_with('E') && {
        let tail = &base[base.len() - 20..base.len() - 1];
        tail.starts_with("17h") && tail[3..].bytes().all(|b| b.is_ascii_hexdigit())
    };
    let mut p = if hashed {
        format!("{}17h*E", &base[..base.len() - 20])
    } else {
        base.to_owned()
    };
    if base.len() != symbol.len() {
        p.push('*');
    }
    p
}
