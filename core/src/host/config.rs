//! The configuration rules every host passes its server options through, and the name each host
//! gives each setting, so that a refusal reads the same everywhere but for the option's spelling.

use crate::error::ConfigError;
use crate::server::ServerConfig;

/// A surface of the engine: how it spells an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Host {
    /// The Rust API: the configuration struct's field.
    Rust,
    /// The C ABI: the field, as the setters' documentation names it.
    C,
    /// The Python package: the keyword argument.
    Python,
    /// The Node package: the option's path in the options object.
    Node,
}

/// Each [`ServerConfig`] field a host sets, as Rust (and C), Python and Node spell it.
const SERVER_OPTIONS: [(&str, &str, &str); 10] = [
    ("page_size", "page_size", "pageSize"),
    ("max_message_bytes", "max_message_bytes", "maxMessageBytes"),
    ("max_in_flight", "max_in_flight", "maxInFlight"),
    ("max_input_rounds", "max_input_rounds", "maxInputRounds"),
    (
        "max_request_state_bytes",
        "max_request_state_bytes",
        "maxRequestStateBytes",
    ),
    ("state_ttl", "state_ttl", "stateTtlMs"),
    (
        "client_request_timeout",
        "client_request_timeout",
        "clientRequestTimeoutMs",
    ),
    ("handler_timeout", "handler_timeout", "handlerTimeoutMs"),
    ("task_ttl_ms", "task_ttl", "tasks.ttlMs"),
    (
        "task_poll_interval_ms",
        "task_poll_interval",
        "tasks.pollIntervalMs",
    ),
];

/// How `host` names the [`ServerConfig`] field `field` (the field itself when no host spells it
/// otherwise).
pub fn server_option(host: Host, field: &'static str) -> &'static str {
    let Some(&(_, python, node)) = SERVER_OPTIONS.iter().find(|(f, _, _)| *f == field) else {
        return field;
    };
    match host {
        Host::Rust | Host::C => field,
        Host::Python => python,
        Host::Node => node,
    }
}

/// The message of a refused server setting on `host`: `<option>: <reason>`.
pub fn server_config_message(host: Host, e: &ConfigError) -> String {
    format!("{}: {}", server_option(host, e.field), e.reason)
}

/// Checks a server's configuration as every host must: [`ServerConfig::validate`], the one place
/// the rules live (the Rust API applies the same).
pub fn validate_server_config(config: &ServerConfig) -> Result<(), ConfigError> {
    config.validate()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_poll_interval_is_refused_and_named_per_host() {
        assert_eq!(validate_server_config(&ServerConfig::default()), Ok(()));
        let zero = ServerConfig {
            task_poll_interval_ms: 0,
            ..ServerConfig::default()
        };
        let e = validate_server_config(&zero).unwrap_err();
        assert_eq!(
            server_config_message(Host::Node, &e),
            "tasks.pollIntervalMs: must not be zero"
        );
        assert_eq!(
            server_config_message(Host::Python, &e),
            "task_poll_interval: must not be zero"
        );
        assert_eq!(e.to_string(), "task_poll_interval_ms: must not be zero");
        assert_eq!(
            server_option(Host::Node, "shutdown_grace"),
            "shutdown_grace"
        );
    }
}
