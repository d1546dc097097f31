//! The everything-server over Streamable HTTP on a free loopback port, for the CLI tests.

use std::process::{Command, Stdio};

const SERVER: &str = env!("CARGO_BIN_EXE_everything-server");

/// The everything-server over HTTP on a free loopback port, killed on drop.
pub struct HttpServer {
    child: std::process::Child,
    /// The endpoint's URL.
    pub url: String,
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts the server and waits for its address.
pub fn http_server() -> HttpServer {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(SERVER)
        .args(["--http", "127.0.0.1:0"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("everything-server starts");
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let url = loop {
        let line = lines.next().expect("a listening line").expect("stderr");
        if let Some(at) = line.find("http://") {
            break line[at..].trim().to_string();
        }
    };
    // Keep draining stderr so the server never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    HttpServer { child, url }
}
