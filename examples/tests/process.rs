//! The stdio client's process hygiene: a spawned server is always stopped and reaped, whether the
//! client closes, is dropped, or its own process dies; a server that ignores EOF and SIGTERM is killed.

use std::path::Path;
use std::time::{Duration, Instant};

use libmcp::client::{Client, ClientConfig};
use libmcp::transport::child::ChildSpec;

fn server() -> ChildSpec {
    ChildSpec::new(
        env!("CARGO_BIN_EXE_everything-server"),
        Vec::<String>::new(),
    )
}

/// Whether a process exists at all (a zombie still does).
fn exists(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

/// Whether a process has exited (a zombie of another parent counts: reaping it is not ours to do).
fn dead(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| rest.starts_with('Z')),
    }
}

async fn wait_for(limit: Duration, done: impl Fn() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if done() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    false
}

#[tokio::test]
async fn close_stops_and_reaps_the_server() {
    let client = Client::builder("t", "1")
        .connect_stdio(server())
        .await
        .unwrap();
    let pid = client.server_pid().expect("a running server");
    assert!(exists(pid));
    client.close().await;
    assert!(
        !exists(pid),
        "closed and reaped: no process, not even a zombie"
    );
}

#[tokio::test]
async fn dropping_the_client_kills_and_reaps_the_server() {
    let client = Client::builder("t", "1")
        .connect_stdio(server())
        .await
        .unwrap();
    let pid = client.server_pid().unwrap();
    drop(client);
    let reaped = wait_for(Duration::from_secs(5), || !exists(pid)).await;
    assert!(
        reaped,
        "server {pid} outlived its dropped client, or was left a zombie"
    );
}

#[tokio::test]
async fn a_server_that_ignores_eof_and_sigterm_is_killed() {
    let dir = std::env::temp_dir().join(format!("libmcp-stubborn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pidfile = dir.join("pid");
    // Ignored signals survive exec: this `sleep` ignores SIGTERM and never reads stdin.
    let script = format!(
        "echo $$ > {}; trap '' TERM; exec sleep 60",
        pidfile.display()
    );
    let mut spec = ChildSpec::new("sh", ["-c", script.as_str()]);
    spec.shutdown_step = Duration::from_millis(300);
    let config = ClientConfig {
        probe_timeout: Duration::from_millis(200),
        request_timeout: Duration::from_millis(200),
        ..ClientConfig::default()
    };
    let started = Instant::now();
    let result = Client::builder("t", "1")
        .config(config)
        .connect_stdio(spec)
        .await;
    assert!(
        result.is_err(),
        "a server that never answers cannot be connected to"
    );
    let pid: u32 = std::fs::read_to_string(&pidfile)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(!exists(pid), "escalated to SIGKILL and reaped");
    assert!(started.elapsed() < Duration::from_secs(10));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn the_server_dies_with_its_client_process() {
    let dir = std::env::temp_dir().join(format!("libmcp-orphan-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pidfile = dir.join("pid");
    let script = format!("echo $$ > {}; exec sleep 60", pidfile.display());
    // The `mcp` CLI is the client process here; it is killed while waiting for its server.
    let mut cli = std::process::Command::new(env!("CARGO_BIN_EXE_mcp"))
        .args(["info", "--", "sh", "-c", script.as_str()])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !pidfile.exists() && start.elapsed() < Duration::from_secs(10) {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let pid: u32 = std::fs::read_to_string(&pidfile)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(exists(pid));
    cli.kill().unwrap();
    cli.wait().unwrap();
    assert!(
        wait_for(Duration::from_secs(5), || dead(pid)).await,
        "server {pid} was orphaned"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
