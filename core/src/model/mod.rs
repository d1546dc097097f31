//! Typed protocol shapes, split by domain. The engine routes raw JSON; these types are for users who
//! build or read messages, and they round-trip every example message of the specification unchanged.

pub mod logging;
