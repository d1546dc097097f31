//! [`ServerConfig::validate`]: the rules every host applies to a server's settings, written once.

use std::time::Duration;

use super::config::ServerConfig;
use crate::error::ConfigError;
use crate::error::ConfigError as E;

impl ServerConfig {
    /// Checks the settings: page size, message size, request-state lifetime and size, input rounds, requests
    /// in flight, the client-request timeout, the task poll interval (0 would ask clients to poll
    /// without pause) and a handler timeout, when set, above zero. (A zero shutdown grace and zero
    /// cache hints are valid.)
    pub fn validate(&self) -> Result<(), ConfigError> {
        E::positive("page_size", self.page_size == 0)?;
        E::positive("max_message_bytes", self.max_message_bytes == 0)?;
        E::positive("state_ttl", self.state_ttl == Duration::ZERO)?;
        E::positive("max_request_state_bytes", self.max_request_state_bytes == 0)?;
        E::positive("max_input_rounds", self.max_input_rounds == 0)?;
        E::positive("max_in_flight", self.max_in_flight == 0)?;
        E::positive(
            "client_request_timeout",
            self.client_request_timeout == Duration::ZERO,
        )?;
        E::positive(
            "handler_timeout",
            self.handler_timeout == Some(Duration::ZERO),
        )?;
        E::positive("task_poll_interval_ms", self.task_poll_interval_ms == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_config_rules() {
        assert_eq!(ServerConfig::default().validate(), Ok(()));
        let zero_grace = ServerConfig {
            shutdown_grace: Duration::ZERO,
            ..ServerConfig::default()
        };
        assert_eq!(zero_grace.validate(), Ok(()));
        let zero = ServerConfig {
            page_size: 0,
            ..ServerConfig::default()
        };
        assert_eq!(
            zero.validate().unwrap_err().to_string(),
            "page_size: must not be zero"
        );
        let no_time = ServerConfig {
            handler_timeout: Some(Duration::ZERO),
            ..ServerConfig::default()
        };
        assert_eq!(
            no_time.validate().unwrap_err().to_string(),
            "handler_timeout: must not be zero"
        );
    }
}
