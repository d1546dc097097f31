//! Gives the shared library a SONAME carrying the exact version: every 0.x release may break the ABI,
//! and without a SONAME linkers record the build path of the file instead.

fn main() {
    let version = std::env::var("CARGO_PKG_VERSION").expect("cargo sets CARGO_PKG_VERSION");
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libmcp.so.{version}");
    println!("cargo:rerun-if-changed=build.rs");
}
