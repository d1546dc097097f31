//! The MCP client: connects over stdio (or any byte stream), probes the server's era and adapts,
//! fulfils input requests (MRTR, and legacy server-to-client requests) through registered handlers.
//!
//! ```no_run
//! use libmcp::client::Client;
//! use libmcp::transport::child::ChildSpec;
//! use serde_json::json;
//!
//! # async fn run() -> libmcp::Result<()> {
//! let client = Client::builder("demo-client", "1.0.0")
//!     .connect_stdio(ChildSpec::new("my-server", ["--stdio"]))
//!     .await?;
//! for tool in client.list_all_tools().await? {
//!     println!("{}: {}", tool.name, tool.description.unwrap_or_default());
//! }
//! let result = client.call_tool("echo", json!({"text": "hi"})).await?;
//! assert!(!result.is_error());
//! client.close().await;
//! # Ok(()) }
//! ```

mod builder;
mod config;
mod connection;
mod description;
mod handle;
mod handshake;
#[cfg(feature = "http")]
pub mod http;
mod mrtr;
mod pages;
mod raw;
mod skills;
mod subscription;
mod tasks;
mod typed;
mod validate;

use serde_json::{Value, json};

pub use builder::ClientBuilder;
pub use config::{
    ClientConfig, ClientHandlers, InputHandler, NotificationFn, WireDirection, WireFn,
};
pub use connection::{CallOptions, ProgressFn};
pub use description::ServerDescription;
pub use handle::Client;
pub use handshake::VersionPreference;
pub use pages::{Listed, Pages};
pub use subscription::{Subscription, SubscriptionFilter, task_of};
pub use tasks::TaskCall;

use crate::error::{Error, Result};
use crate::version::Era;

impl Client {
    /// Sends a request and checks its `resultType`: a missing one reads as complete, an unknown one is
    /// a protocol violation. Input requests are fulfilled and the call retried (MRTR).
    pub async fn call(&self, method: &str, params: Value, opts: &CallOptions) -> Result<Value> {
        mrtr::call_with_input(self, method, params, opts).await
    }

    /// `server/discover` (modern servers).
    pub async fn discover(&self) -> Result<Value> {
        self.call("server/discover", json!({}), &CallOptions::default())
            .await
    }

    /// `ping` (legacy era only; the modern era removed it).
    pub async fn ping(&self) -> Result<()> {
        if self.era() == Era::Modern {
            return Err(Error::InvalidArgument(
                "ping does not exist in the modern era".into(),
            ));
        }
        self.request("ping", json!({}), &CallOptions::default())
            .await
            .map(|_| ())
    }

    /// Subscribes to change notifications: a `subscriptions/listen` stream (modern) or the session's
    /// notifications plus `resources/subscribe` (legacy), behind one API.
    pub async fn subscribe(&self, filter: SubscriptionFilter) -> Result<Subscription> {
        subscription::open(self, filter).await
    }
}
