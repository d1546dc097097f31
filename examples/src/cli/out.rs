//! Writing to stdout and stderr without panicking.
//!
//! `println!` panics when stdout is a closed pipe (`mcp tools -- srv | head -1`), and Rust programs
//! ignore SIGPIPE, so the write fails with `EPIPE` instead of ending the process as it would a C
//! program. [`stdout`] reports that as [`Closed`], and the command then ends quietly with
//! [`EXIT_CLOSED_PIPE`], the status a shell shows for a program ended by SIGPIPE. Writes to stderr
//! ignore every error: there is nowhere left to say anything.

use std::io::Write;

/// Exit status after stdout was closed by its reader: 128 + SIGPIPE (13), as a shell reports for a
/// program that SIGPIPE ended.
pub const EXIT_CLOSED_PIPE: i32 = 141;

/// Stdout was closed by its reader (`EPIPE`); nothing more can be printed there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Closed;

/// Writes `text` to stdout and flushes it. Errors other than a closed pipe are ignored as well (a full
/// disk behind a redirection has no better place to be reported than the exit status).
pub fn stdout(text: &str) -> Result<(), Closed> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Err(Closed),
        _ => Ok(()),
    }
}

/// Writes `text` and a newline to stdout.
pub fn stdout_line(text: &str) -> Result<(), Closed> {
    let mut line = String::with_capacity(text.len() + 1);
    line.push_str(text);
    line.push('\n');
    stdout(&line)
}

/// Writes `text` and a newline to stderr, ignoring any error.
pub fn stderr_line(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{text}");
}

/// The exit status a command ends with: `code`, or [`EXIT_CLOSED_PIPE`] when its output found stdout
/// closed.
pub fn status(printed: Result<(), Closed>, code: i32) -> i32 {
    match printed {
        Ok(()) => code,
        Err(Closed) => EXIT_CLOSED_PIPE,
    }
}
