//! How every config setter changes a core configuration: on a copy, kept only when the core's
//! `validate()` accepts it. The rules (what must not be zero, how timeouts relate, path syntax)
//! live in the core; a setter only converts its arguments.

use libmcp::client::ClientConfig;
use libmcp::error::ConfigError;
use libmcp::server::ServerConfig;
use libmcp::transport::http::HttpServerConfig;

use crate::status::mcp_status;

/// A core configuration with its validation.
pub(crate) trait Validated: Clone {
    fn check(&self) -> Result<(), ConfigError>;
}

impl Validated for ClientConfig {
    fn check(&self) -> Result<(), ConfigError> {
        self.validate()
    }
}

impl Validated for ServerConfig {
    /// The binding kit's rules of a server config (every host applies the same).
    fn check(&self) -> Result<(), ConfigError> {
        libmcp::host::validate_server_config(self)
    }
}

impl Validated for HttpServerConfig {
    fn check(&self) -> Result<(), ConfigError> {
        self.validate()
    }
}

/// Applies `edit` to a copy of `config` and keeps the copy when it is valid; otherwise
/// `MCP_STATUS_INVALID_ARGUMENT` (the reason goes to the log callback) and `config` is unchanged.
pub(crate) fn change<T: Validated>(config: &mut T, edit: impl FnOnce(&mut T)) -> mcp_status {
    let mut next = config.clone();
    edit(&mut next);
    match next.check() {
        Ok(()) => {
            *config = next;
            mcp_status::MCP_STATUS_OK
        }
        Err(e) => {
            tracing::debug!(target: "libmcp_ffi", "setting refused: {e}");
            mcp_status::MCP_STATUS_INVALID_ARGUMENT
        }
    }
}

#[cfg(test)]
mod tests {
    use parking_lot::Mutex;

    use crate::responder::mcp_log_level;
    use crate::status::mcp_status;
    use crate::string::mcp_str;

    static SEEN: Mutex<Vec<String>> = Mutex::new(Vec::new());

    unsafe extern "C" fn on_log(
        _: *mut std::ffi::c_void,
        l: mcp_log_level,
        t: mcp_str,
        m: mcp_str,
    ) {
        let text = |v: mcp_str| unsafe {
            String::from_utf8_lossy(std::slice::from_raw_parts(v.data.cast::<u8>(), v.len))
                .into_owned()
        };
        SEEN.lock()
            .push(format!("{} {}: {}", l as u32, text(t), text(m)));
    }

    #[test]
    fn a_refused_change_keeps_the_config_and_logs_the_core_rule() {
        let ok = crate::log::mcp_set_log_callback(0, Some(on_log), std::ptr::null_mut(), None);
        assert_eq!(ok, mcp_status::MCP_STATUS_OK);
        let mut c = libmcp::client::ClientConfig::default();
        let st = super::change(&mut c, |c| c.probe_timeout = std::time::Duration::ZERO);
        assert_eq!(st, mcp_status::MCP_STATUS_INVALID_ARGUMENT);
        assert_eq!(c.probe_timeout, std::time::Duration::from_secs(5));
        assert_eq!(
            *SEEN.lock(),
            ["0 libmcp_ffi: setting refused: probe_timeout: must not be zero"]
        );
        let st = super::change(&mut c, |c| c.max_input_rounds = 3);
        assert_eq!((st, c.max_input_rounds), (mcp_status::MCP_STATUS_OK, 3));
    }
}
