//! The stdio transport, client side: spawns the server as a child process in a process group of its
//! own, moves frames over its stdin/stdout, hands its stderr lines to a callback, and shuts it down by
//! closing stdin, then SIGTERM, then SIGKILL, each signal sent to the whole group. The server never
//! outlives the client: the group is killed when the client is dropped and, on Linux, the direct child
//! when the parent process dies (PR_SET_PDEATHSIG).

use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

/// The `tracing` target of the events that carry a child's stderr lines by default.
pub const CHILD_STDERR: &str = "libmcp::child_stderr";

/// Receives each line the server writes to stderr.
pub type StderrSink = Arc<dyn Fn(&str) + Send + Sync>;

/// Receives the server's exit status once the process has been reaped.
pub type ExitSink = Arc<dyn Fn(std::process::ExitStatus) + Send + Sync>;

/// How to start a server process.
///
/// The process starts in a new process group (its pid is the group id), so that a launcher such as
/// `npx` or a shell script and the server it starts are shut down together: closing signals the
/// whole group, and whatever is left of the group once the child has exited gets SIGTERM, then SIGKILL
/// after [`shutdown_step`](Self::shutdown_step). A server that puts itself in yet another group or
/// session (`setsid`) is out of reach. Being in its own group, the server does not receive the
/// terminal's Ctrl-C; the client ends it.
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
    /// What to do with stderr lines (default: each line is a `tracing` event at INFO level with
    /// target [`CHILD_STDERR`] and a `program` field; nothing is written to this process's stderr).
    pub stderr: Option<StderrSink>,
    /// How long to wait after closing stdin, and again after SIGTERM.
    pub shutdown_step: Duration,
    /// Called with the exit status when the process has been reaped (at close).
    pub on_exit: Option<ExitSink>,
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
            on_exit: None,
        }
    }
}

/// A running server process, the leader of its own process group.
pub struct ChildProcess {
    child: Child,
    step: Duration,
    /// The process group, until shutdown has emptied it.
    group: Option<libc::pid_t>,
    on_exit: Option<ExitSink>,
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
        .process_group(0)
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
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        super::stdio_pipes::widen_pipe(stdin.as_raw_fd());
        super::stdio_pipes::widen_pipe(stdout.as_raw_fd());
    }
    let sink = spec.stderr.clone().unwrap_or_else(|| {
        let name = spec.program.clone();
        Arc::new(move |line: &str| tracing::info!(target: CHILD_STDERR, program = %name, "{line}"))
    });
    tokio::spawn(async move {
        let mut lines = BufReader::new(stderr).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            sink(&line);
        }
    });
    let group = child.id().map(|pid| pid as libc::pid_t);
    Ok((
        ChildProcess {
            child,
            step: spec.shutdown_step,
            group,
            on_exit: spec.on_exit.clone(),
        },
        ChildPipes { stdin, stdout },
    ))
}

impl ChildProcess {
    /// The process id, while it runs.
    pub fn id(&self) -> Option<u32> {
        self.child.id()
    }

    /// Waits for the process to exit after stdin was closed, escalating to SIGTERM and then SIGKILL
    /// (sent to its process group), then ends what is left of the group the same way. Always reaps
    /// the process.
    pub async fn shutdown(mut self) -> std::io::Result<std::process::ExitStatus> {
        let status = self.stop_child().await;
        if let Some(group) = self.group.take() {
            end_group(group, self.step).await;
        }
        if let (Ok(status), Some(on_exit)) = (&status, &self.on_exit) {
            on_exit(*status);
        }
        status
    }

    async fn stop_child(&mut self) -> std::io::Result<std::process::ExitStatus> {
        if let Ok(status) = tokio::time::timeout(self.step, self.child.wait()).await {
            return status;
        }
        if let Some(group) = self.group {
            signal_group(group, libc::SIGTERM);
            if let Ok(status) = tokio::time::timeout(self.step, self.child.wait()).await {
                return status;
            }
            signal_group(group, libc::SIGKILL);
        }
        self.child.kill().await?;
        self.child.wait().await
    }
}

impl Drop for ChildProcess {
    /// A client dropped without closing takes the whole group down (tokio's `kill_on_drop` reaches
    /// only the direct child).
    fn drop(&mut self) {
        if let Some(group) = self.group.take() {
            signal_group(group, libc::SIGKILL);
        }
    }
}

/// Sends `signal` to every process of `group`; false once the group is empty.
fn signal_group(group: libc::pid_t, signal: libc::c_int) -> bool {
    // SAFETY: kill(2) with a negative pid signals the process group; no memory is involved. The group
    // id is our child's pid, which the kernel does not reuse while the group has members.
    unsafe { libc::kill(-group, signal) == 0 }
}

/// Ends the processes left in `group` after its leader exited: SIGTERM, then SIGKILL for those still
/// there after `step`.
async fn end_group(group: libc::pid_t, step: Duration) {
    if !signal_group(group, libc::SIGTERM) {
        return;
    }
    let deadline = tokio::time::Instant::now() + step;
    while tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
        if !signal_group(group, 0) {
            return;
        }
    }
    signal_group(group, libc::SIGKILL);
}
