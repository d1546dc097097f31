//! Link options of the benchmark binaries, on x86_64 Linux with glibc (the machines the results in
//! RESULTS.md come from):
//!
//! * every binary (libmcp's, rmcp's and the minimal loop's alike) packs its relative relocations
//!   (`-z pack-relative-relocs`, glibc 2.36 and later): the dynamic loader reads kilobytes of
//!   relocations at start instead of half a megabyte;
//! * `echo-libmcp` places the functions it runs together (`layout/echo-libmcp.order`, written by
//!   `layout/make-order.sh`), so the code it touches fills few pages. This needs LLD, the default
//!   linker of this target since Rust 1.90; `LIBMCP_LINK_ORDER=0`, or a linker chosen in
//!   RUSTFLAGS, turns it off.

use std::env;
use std::path::Path;

fn main() {
    println!("cargo:rerun-if-changed=layout/echo-libmcp.order");
    println!("cargo:rerun-if-env-changed=LIBMCP_LINK_ORDER");
    if env::var("TARGET").as_deref() != Ok("x86_64-unknown-linux-gnu") {
        return;
    }
    println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    let flags = env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    if env::var("LIBMCP_LINK_ORDER").as_deref() == Ok("0") || flags.contains("linker") {
        return;
    }
    let dir = env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let order = Path::new(&dir).join("layout/echo-libmcp.order");
    println!(
        "cargo:rustc-link-arg-bin=echo-libmcp=-Wl,--symbol-ordering-file={}",
        order.display()
    );
    // Names that no longer exist (a renamed function) are skipped without a warning.
    println!("cargo:rustc-link-arg-bin=echo-libmcp=-Wl,--no-warn-symbol-ordering");
}
