//! What an `mcp_redis` handle shares with the builders and configs it is set on: the store and the
//! runtime its background tasks run on.

use std::sync::Arc;

use libmcp::store::redis::RedisStore;

use crate::error::mcp_error;
use crate::runtime::{Runtime, block_on};
use crate::status::mcp_status;

/// The store and the runtime its background tasks run on.
#[derive(Clone)]
pub(crate) struct SharedRedis {
    pub(crate) store: RedisStore,
    pub(crate) rt: Arc<Runtime>,
}

impl SharedRedis {
    /// Runs a Redis set-up step on the runtime; a Redis that does not answer is `MCP_STATUS_IO`.
    pub(crate) fn block_on<T, E, F>(&self, what: &str, fut: F) -> Result<T, mcp_error>
    where
        F: Future<Output = Result<T, E>> + Send + 'static,
        T: Send + 'static,
        E: std::fmt::Display + Send + 'static,
    {
        match block_on(&self.rt, what, fut)? {
            Ok(v) => Ok(v),
            Err(e) => Err(mcp_error::new(
                mcp_status::MCP_STATUS_IO,
                format!("{what}: {e}"),
            )),
        }
    }
}
