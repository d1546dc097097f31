//! A stdio server started through a launcher (a shell script here, `npx` in life) is shut down with
//! everything it started: the child runs in its own process group and closing signals the group.

use std::path::{Path, PathBuf};
use std::time::Duration;

use libmcp::transport::child::{ChildSpec, spawn};

/// A launcher script that starts a long-lived grandchild (its pid written to `pidfile`), then runs
/// `tail` (the launcher's last command) in the foreground.
fn launcher(dir: &Path, name: &str, tail: &str) -> (ChildSpec, PathBuf) {
    let pidfile = dir.join(format!("{name}.pid"));
    let script = format!("sleep 600 &\necho $! > '{}'\n{tail}\n", pidfile.display());
    let mut spec = ChildSpec::new("sh", ["-c", script.as_str()]);
    spec.shutdown_step = Duration::from_millis(300);
    (spec, pidfile)
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("libmcp-child-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

async fn grandchild(pidfile: &Path) -> i32 {
    for _ in 0..500 {
        if let Ok(text) = std::fs::read_to_string(pidfile)
            && let Ok(pid) = text.trim().parse()
        {
            return pid;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the launcher did not start its grandchild");
}

/// Whether `pid` runs (a zombie waiting for init to reap it has ended).
fn running(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
        Err(_) => false,
    }
}

async fn ended(pid: i32) -> bool {
    for _ in 0..300 {
        if !running(pid) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    false
}

#[tokio::test]
async fn a_launcher_that_exits_leaves_no_orphan() {
    let dir = temp_dir("exits");
    // `cat` ends when stdin closes, and the launcher with it; the grandchild would live on.
    let (spec, pidfile) = launcher(&dir, "exits", "cat > /dev/null");
    let (process, pipes) = spawn(&spec).unwrap();
    let pid = grandchild(&pidfile).await;
    assert!(running(pid));
    drop(pipes);
    let status = process.shutdown().await.unwrap();
    assert!(status.success(), "{status:?}");
    assert!(ended(pid).await, "grandchild {pid} outlived the close");
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn a_launcher_that_ignores_stdin_is_signalled_with_its_group() {
    let dir = temp_dir("waits");
    // `wait` ignores the closed stdin: SIGTERM must reach the launcher and the grandchild.
    let (spec, pidfile) = launcher(&dir, "waits", "wait");
    let (process, pipes) = spawn(&spec).unwrap();
    let pid = grandchild(&pidfile).await;
    drop(pipes);
    process.shutdown().await.unwrap();
    assert!(ended(pid).await, "grandchild {pid} outlived the close");
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn a_dropped_process_takes_its_group_down() {
    let dir = temp_dir("dropped");
    let (spec, pidfile) = launcher(&dir, "dropped", "wait");
    let (process, _pipes) = spawn(&spec).unwrap();
    let pid = grandchild(&pidfile).await;
    drop(process);
    assert!(ended(pid).await, "grandchild {pid} outlived the drop");
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn the_exit_status_is_reported() {
    let (tx, rx) = std::sync::mpsc::channel();
    let mut spec = ChildSpec::new("sh", ["-c", "exit 7"]);
    spec.on_exit = Some(std::sync::Arc::new(
        move |status: std::process::ExitStatus| {
            let _ = tx.send(status.code());
        },
    ));
    let (process, _pipes) = spawn(&spec).unwrap();
    process.shutdown().await.unwrap();
    assert_eq!(rx.try_recv().unwrap(), Some(7));
}
