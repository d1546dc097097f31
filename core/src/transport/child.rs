//! The stdio transport, client side: spawns the server as a child process, moves frames over its
//! stdin/stdout, hands its stderr lines to a callback, and shuts it down by closing stdin, then SIGTERM,
//! then SIGKILL. The child never outlives the client: it is killed when the client is dropped and, on
//! Linux, when the parent process dies (PR_SET_PDEATHSIG).

use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

/// Receives each line the server writes to stderr.
pub type StderrSink = Arc<dyn Fn(&str) + Send + Sync>;

/// How to start a server process.
#[derive(Clone)]
pub struct ChildSpec {
    /// The program.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Extra environment variables.
    pub env: Vec<(String, String)>,
    /// Working directory.
    pub cwd: Option<std::path::PathBuf>,
    /// What to do with stderr lines (default: copy them to this process's stderr, prefixed).
    pub stderr: Option<StderrSink>,
    /// How long to wait after closing stdin, and again after SIGTERM.
    pub shutdown_step: Duration,
}

impl ChildSpec {
    /// A spec for `program args...`.
    pub fn new(
        program: impl Into<String>,
        args: impl IntoIterator<Item = impl Into<String>>,
    ) -> Self {
        ChildSpec {
            program: program.into(),
            args: args.into_iter().map(Into::into).collect(),
            env: Vec::new(),
            cwd: None,
            stderr: None,
            shutdown_step: Duration::from_secs(2),
        }
    }
}

/// A running server process.
pub struct ChildProcess {
    child: Child,
    step: Duration,
}

/// The pipes of a spawned server.
pub struct ChildPipes {
    /// The server's stdin.
    pub stdin: ChildStdin,
    /// The server's stdout.
    pub stdout: ChildStdout,
}

/// Spawns the server process.
pub fn spawn(spec: &ChildSpec) -> std::io::Result<(ChildProcess, ChildPipes)> {
    let mut cmd = Command::new(&spec.program);
    cmd.args(&spec.args)
        .envs(spec.env.iter().cloned())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    if let Some(cwd) = &spec.cwd {
        cmd.current_dir(cwd);
    }
    #[cfg(target_os = "linux")]
    {
        let parent = std::process::id();
        // SAFETY: only async-signal-safe calls (prctl, getppid, _exit) run between fork and exec.
        unsafe {
            cmd.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                // The parent may have died before prctl took effect.
                if libc::getppid() as u32 != parent {
                    libc::_exit(1);
                }
                Ok(())
            });
        }
    }
    let mut child = cmd.spawn().map_err(|e| {
        std::io::Error::new(e.kind(), format!("cannot start {}: {e}", spec.program))
    })?;
    let stdin = child.stdin.take().expect("stdin was piped");
    let stdout = child.stdout.take().expect("stdout was piped");
    let stderr = child.stderr.take().expect("stderr was piped");
    let sink = spec.stderr.clone().unwrap_or_else(|| {
        let name = spec.program.clone();
        Arc::new(move |line: &str| eprintln!("[{name}] {line}"))
    });
    tokio::spawn(async move {
        let mut lines = BufReader::new(stderr).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            sink(&line);
        }
    });
    Ok((
        ChildProcess {
            child,
            step: spec.shutdown_step,
        },
        ChildPipes { stdin, stdout },
    ))
}

impl ChildProcess {
    /// The process id, while it runs.
    pub fn id(&self) -> Option<u32> {
        self.child.id()
    }

    /// Waits for the process to exit after stdin was closed, escalating to SIGTERM and then SIGKILL.
    /// Always reaps the process.
    pub async fn shutdown(mut self) -> std::io::Result<std::process::ExitStatus> {
        if let Ok(status) = tokio::time::timeout(self.step, self.child.wait()).await {
            return status;
        }
        if let Some(pid) = self.child.id() {
            // SAFETY: plain kill(2) on our own child's pid, which has not been reaped yet.
            unsafe {
                libc::kill(pid as libc::pid_t, libc::SIGTERM);
            }
            if let Ok(status) = tokio::time::timeout(self.step, self.child.wait()).await {
                return status;
            }
        }
        self.child.kill().await?;
        self.child.wait().await
    }
}
