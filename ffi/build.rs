//! Link options of the shared library:
//!
//! * a SONAME carrying the exact version: every 0.x release may break the ABI, and without a
//!   SONAME linkers record the build path of the file instead;
//! * with `LIBMCP_STRIP=1` (what `scripts/dist.sh` sets), symbols stripped by the linker. Not
//!   cargo's `strip` setting: that is part of the profile, which cargo hashes into every crate's
//!   symbol names, and the layout below needs the names of the build that ships;
//! * in optimised builds for Linux, the functions general traffic runs placed together
//!   (`layout/libmcp.order`, written by `layout/make-order.sh` from the conformance suite's server
//!   scenarios and a stdio session), so the code a process touches fills few pages: a linker script
//!   puts their sections (`.text.SYMBOL`, or `.text.unlikely.SYMBOL` for a function marked cold)
//!   in one output section before `.text`. The names are exact: a Rust symbol's hash
//!   (`17h<16 hex digits>E`) depends on the crate's version, target, profile and features, so the
//!   list matches the build `make-order.sh` makes, the one `scripts/dist.sh` ships for x86_64
//!   glibc; other builds match only the names without a hash (the C functions). Names that no
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
    println!("cargo:rerun-if-env-changed=LIBMCP_STRIP");
    let linux = env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux");
    if linux && env::var("LIBMCP_STRIP").as_deref() == Ok("1") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,--strip-all");
    }
    let optimised = env::var("PROFILE").as_deref() == Ok("release");
    if !optimised || !linux || env::var("LIBMCP_LINK_ORDER").as_deref() == Ok("0") {
        return;
    }
    let dir = env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let Ok(order) = std::fs::read_to_string(Path::new(&dir).join("layout/libmcp.order")) else {
        return;
    };
    let mut script = String::from("SECTIONS {\n  .text.libmcp_ordered : {\n");
    for symbol in order.lines().map(str::trim) {
        if !symbol.is_empty() && !symbol.starts_with('#') {
            writeln!(script, "    *(.text.{symbol} .text.unlikely.{symbol})")
                .expect("writing to a String");
        }
    }
    script.push_str("  }\n} INSERT BEFORE .text;\n");
    let out = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("libmcp-order.ld");
    std::fs::write(&out, script).expect("OUT_DIR is writable");
    println!("cargo:rustc-cdylib-link-arg=-Wl,-T,{}", out.display());
}
