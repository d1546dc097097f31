//! Transports move bytes; the engine decides what they mean. A [`Sink`] (defined in
//! [`crate::outgoing`]) is where the engine puts outgoing messages for one connection, one request
//! stream, or one batch.

pub mod child;
#[cfg(feature = "http")]
pub mod http;
pub(crate) mod lines;
pub mod stdio;
mod stdio_feed;
mod stdio_out;
mod stdio_pipes;
mod stdio_queue;

pub use crate::outgoing::{OutKind, Outbound, Outgoing, Sink};
