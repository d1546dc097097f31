//! The command-line options every mode of `mcp-bench` shares.

use std::time::Duration;

/// `--quick`, `--json`, `--requests N`, `--requests-large N`, `--rounds R`, `--phase-time SECS`.
#[derive(Clone, Debug)]
pub struct Common {
    /// A short smoke run that checks every response.
    pub quick: bool,
    /// Print the results as JSON instead of markdown.
    pub json: bool,
    /// Measured calls with the small text.
    pub requests: Option<usize>,
    /// Measured calls with the large text.
    pub requests_large: Option<usize>,
    /// Rounds per target (the median is reported).
    pub rounds: usize,
    /// Longest a phase may send for, seconds.
    pub phase_time: Option<u64>,
}

impl Default for Common {
    fn default() -> Common {
        Common {
            quick: false,
            json: false,
            requests: None,
            requests_large: None,
            rounds: 1,
            phase_time: None,
        }
    }
}

impl Common {
    /// Takes `flag` if it is one of these, reading its value with `value`; `false` for other
    /// flags. A missing or non-numeric value calls `usage`.
    pub fn take(
        &mut self,
        flag: &str,
        value: &mut dyn FnMut() -> Option<String>,
        usage: fn() -> !,
    ) -> bool {
        let mut number = || {
            value()
                .and_then(|v| v.parse::<usize>().ok())
                .unwrap_or_else(|| usage())
        };
        match flag {
            "--quick" => self.quick = true,
            "--json" => self.json = true,
            "--requests" => self.requests = Some(number()),
            "--requests-large" => self.requests_large = Some(number()),
            "--rounds" => self.rounds = number().max(1),
            "--phase-time" => self.phase_time = Some(number() as u64),
            _ => return false,
        }
        true
    }

    /// `--phase-time`, else 10 s in quick mode and 30 s otherwise.
    pub fn phase_time(&self) -> Duration {
        Duration::from_secs(self.phase_time.unwrap_or(if self.quick { 10 } else { 30 }))
    }

    /// Every response is checked in quick mode, every 97th otherwise.
    pub fn verify_every(&self) -> usize {
        if self.quick { 1 } else { 97 }
    }
}
