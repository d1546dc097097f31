//! napi-rs's link setup, and with `LIBMCP_STRIP=1` (what `scripts/dist.sh` sets) symbols stripped
//! by the linker: not cargo's `strip` setting, which is hashed into every crate's symbol names and
//! would give the engine's functions other names than in the C library built beside the addon
//! (see `ffi/build.rs`).
fn main() {
    napi_build::setup();
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=LIBMCP_STRIP");
    let linux = std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux");
    if linux && std::env::var("LIBMCP_STRIP").as_deref() == Ok("1") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,--strip-all");
    }
}
