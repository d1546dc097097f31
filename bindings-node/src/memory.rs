//! `NativeSession`: a connection to a server made of JS calls, for an in-memory transport (the
//! `InMemoryTransport` of `libmcp/sdk`): each message the client sends is handed in as JSON text
//! (`send`), and every message the server sends on the connection is given to a JS callback as JSON
//! text. The engine serves it as any stdio-like connection (both eras, MRTR, legacy requests to the
//! client).

use libmcp::outgoing::Sink;
use libmcp::server::Session;
use napi::bindgen_prelude::{Function, within_runtime_if_available};
use napi::threadsafe_function::ThreadsafeFunctionCallMode;
use napi_derive::napi;

use crate::server::NativeServer;

/// One in-memory connection.
#[napi]
pub struct NativeSession {
    session: Session,
}

#[napi]
impl NativeSession {
    /// Hands one message from the client (a JSON-RPC message or batch, JSON text) to the server.
    #[napi]
    pub fn send(&self, message: String) {
        within_runtime_if_available(|| self.session.handle_bytes(message.as_bytes()));
    }

    /// Closes the connection: no answer from the client can arrive any more, subscriptions end.
    #[napi]
    pub fn close(&self) {
        within_runtime_if_available(|| {
            self.session.close_answers();
            self.session.close();
        });
    }
}

#[napi]
impl NativeServer {
    /// A new in-memory connection to this server whose messages to the client go to `on_message`
    /// (JSON text each, in order; held weakly: an open connection does not keep the process
    /// alive).
    #[napi]
    pub fn open_session(&self, on_message: Function<String, ()>) -> napi::Result<NativeSession> {
        let tsfn = on_message
            .build_threadsafe_function::<String>()
            .weak::<true>()
            .callee_handled::<false>()
            .build()?;
        let (sink, mut out) = Sink::channel();
        let session = within_runtime_if_available(|| {
            napi::bindgen_prelude::spawn(async move {
                while let Some(msg) = out.recv().await {
                    let text = String::from_utf8_lossy(&msg.bytes).into_owned();
                    tsfn.call(text, ThreadsafeFunctionCallMode::NonBlocking);
                }
            });
            self.server.session(sink)
        });
        Ok(NativeSession { session })
    }
}
