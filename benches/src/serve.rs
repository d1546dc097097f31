//! What both echo servers share in HTTP mode: the command line (`--http ADDR`), the line that tells
//! the driver where they listen, and stopping when the driver closes their stdin.

use std::net::SocketAddr;

/// How an echo server was asked to serve.
pub enum Serve {
    /// Newline-delimited JSON-RPC on stdin/stdout (no arguments).
    Stdio,
    /// Streamable HTTP on this address (`--http ADDR`; port 0 picks a free port).
    Http(SocketAddr),
}

/// Reads the echo server's command line; exits with status 2 and a usage line when it is wrong.
pub fn parse_args(program: &str) -> Serve {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => Serve::Stdio,
        [flag, addr] if flag == "--http" => match addr.parse() {
            Ok(a) => Serve::Http(a),
            Err(e) => {
                eprintln!("{program}: --http {addr}: not a socket address ({e})");
                std::process::exit(2)
            }
        },
        _ => {
            eprintln!("usage: {program} [--http ADDR]   (stdio without arguments)");
            std::process::exit(2)
        }
    }
}

/// The first line an HTTP echo server prints on stdout; the driver reads the address from it.
pub fn announce(addr: SocketAddr) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "listening on http://{addr}/mcp");
    let _ = out.flush();
}

/// Resolves when stdin reaches end of file (or fails): the driver's way to stop an HTTP server.
pub async fn stdin_closed() {
    use tokio::io::AsyncReadExt;
    let mut stdin = tokio::io::stdin();
    let mut buf = [0u8; 64];
    while let Ok(n) = stdin.read(&mut buf).await {
        if n == 0 {
            break;
        }
    }
}

/// Parses the line printed by [`announce`].
pub fn parse_announcement(line: &str) -> Option<SocketAddr> {
    line.trim()
        .strip_prefix("listening on http://")?
        .strip_suffix("/mcp")?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn announcement_round_trips() {
        assert_eq!(
            parse_announcement("listening on http://127.0.0.1:4242/mcp\n"),
            Some("127.0.0.1:4242".parse().unwrap())
        );
        assert_eq!(parse_announcement("listening on 127.0.0.1:4242"), None);
    }
}
