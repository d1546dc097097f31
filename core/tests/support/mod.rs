//! Shared helpers for the integration tests: `mod support;` from a test file, then use
//! `support::wire` to check messages against the vendored schemas in `tests/spec/`.
// Each test crate uses a different part of the helpers.
#![allow(dead_code)]

pub mod fixture;
pub mod harness;
pub mod inprocess;
pub mod notifier;
pub mod strict;
pub mod tap;
pub mod wire;
