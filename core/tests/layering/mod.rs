//! The import graph of a crate's source files, read from the text, and its circles.

pub mod circles;
pub mod scan;
mod tokens;
