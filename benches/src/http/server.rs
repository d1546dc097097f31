//! An echo server child process in HTTP mode: spawned with `--http 127.0.0.1:0`, its address read
//! from its first stdout line, stopped by closing its stdin.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::driver::Error;
use crate::serve::parse_announcement;

/// A running echo server.
pub struct ServerProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    /// Where it listens.
    pub addr: SocketAddr,
}

impl ServerProcess {
    /// Starts `program ARGS --http 127.0.0.1:0` and waits (at most 20 s) for its address.
    pub fn spawn(program: &Path, args: &[String]) -> Result<ServerProcess, Error> {
        let mut child = Command::new(program)
            .args(args)
            .args(["--http", "127.0.0.1:0"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("spawning {}: {e}", program.display()))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut line = String::new();
            let _ = tx.send(reader.read_line(&mut line).map(|_| line));
            // Keep draining so the server never blocks on a full pipe.
            let mut sink = Vec::new();
            while matches!(reader.read_until(b'\n', &mut sink), Ok(n) if n > 0) {
                sink.clear();
            }
        });
        let mut process = ServerProcess {
            child,
            stdin,
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
        };
        let line = match rx.recv_timeout(Duration::from_secs(20)) {
            Ok(Ok(line)) => line,
            Ok(Err(e)) => {
                return Err(format!("reading {}'s address: {e}", program.display()).into());
            }
            Err(_) => {
                return Err(format!("{} printed no address in 20 s", program.display()).into());
            }
        };
        process.addr = parse_announcement(&line)
            .ok_or_else(|| format!("{} printed {line:?}, not its address", program.display()))?;
        Ok(process)
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Closes stdin and waits up to 10 s for the server to exit; kills it after that.
    pub fn stop(mut self) -> Result<(), Error> {
        self.finish()
    }

    fn finish(&mut self) -> Result<(), Error> {
        drop(self.stdin.take());
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if self.child.try_wait()?.is_some() {
                return Ok(());
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                let _ = self.child.wait();
                return Err("server did not exit within 10 s of stdin closing".into());
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        if self.stdin.is_some() {
            let _ = self.finish();
        }
    }
}
