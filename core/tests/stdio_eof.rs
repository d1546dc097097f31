//! Stdin closing while the server waits on the client: a legacy tool that asked for `roots/list` can
//! get no answer once the client's input has ended, so its request is answered at once with an error
//! saying so (and the server returns), instead of waiting out `client_request_timeout` and leaving
//! the request unanswered when the shutdown grace ends.

use std::time::Duration;

use libmcp::server::{InputRequired, Reply, Server, ServerConfig};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines};

fn server() -> Server {
    let config = ServerConfig {
        // Both far beyond the tests' own limits: only failing the waiting request ends them in time.
        client_request_timeout: Duration::from_secs(600),
        shutdown_grace: Duration::from_secs(600),
        ..ServerConfig::default()
    };
    Server::builder("eof", "1.0.0")
        .config(config)
        .tool(json!({"name": "roots"}), |ctx, _args| {
            match ctx.input_response("roots") {
                Some(r) => Reply::text(r.to_string()),
                None => InputRequired::new().list_roots("roots").into(),
            }
        })
        // Asks only after a pause, by which time stdin has closed.
        .tool_async(json!({"name": "late_roots"}), |ctx| async move {
            if let Some(r) = ctx.input_response("roots") {
                return Reply::text(r.to_string());
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
            InputRequired::new().list_roots("roots").into()
        })
        .build()
        .unwrap()
}

struct Peer {
    input: DuplexStream,
    output: Lines<BufReader<DuplexStream>>,
    serving: tokio::task::JoinHandle<libmcp::Result<()>>,
}

impl Peer {
    /// A server on in-memory pipes, after a 2025-11-25 handshake declaring `roots`.
    async fn start() -> Peer {
        let (input, server_in) = tokio::io::duplex(1 << 16);
        let (server_out, output) = tokio::io::duplex(1 << 16);
        let serving = tokio::spawn(libmcp::transport::stdio::serve(
            server(),
            server_in,
            server_out,
        ));
        let mut peer = Peer {
            input,
            output: BufReader::new(output).lines(),
            serving,
        };
        peer.send(
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {"roots": {}},
            "clientInfo": {"name": "t", "version": "1"}}}),
        )
        .await;
        assert_eq!(peer.recv().await["result"]["protocolVersion"], "2025-11-25");
        peer.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        peer
    }

    async fn send(&mut self, v: Value) {
        self.input
            .write_all(format!("{v}\n").as_bytes())
            .await
            .unwrap();
    }

    async fn recv(&mut self) -> Value {
        let line = tokio::time::timeout(Duration::from_secs(30), self.output.next_line())
            .await
            .expect("the server writes within 30 s")
            .unwrap()
            .expect("a message, not the end of the output");
        serde_json::from_str(&line).unwrap()
    }

    /// Closes the client's side of stdin, then expects the answer to request 2 and the server's end.
    async fn close_and_expect(mut self, message: &str) {
        drop(self.input);
        let answer = {
            let line = tokio::time::timeout(Duration::from_secs(30), self.output.next_line())
                .await
                .expect("the waiting request is answered once stdin has closed")
                .unwrap()
                .expect("an answer, not the end of the output");
            serde_json::from_str::<Value>(&line).unwrap()
        };
        assert_eq!(answer["id"], 2, "{answer}");
        assert!(answer.to_string().contains(message), "{answer}");
        tokio::time::timeout(Duration::from_secs(30), self.serving)
            .await
            .expect("the server returns once the request is answered")
            .unwrap()
            .unwrap();
        assert!(self.output.next_line().await.unwrap().is_none());
    }
}

#[tokio::test]
async fn a_request_waiting_on_the_client_fails_when_stdin_closes() {
    let mut peer = Peer::start().await;
    peer.send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "roots", "arguments": {}}}))
        .await;
    assert_eq!(peer.recv().await["method"], "roots/list");
    peer.close_and_expect("the connection to the client closed before it answered")
        .await;
}

#[tokio::test]
async fn a_request_for_input_after_stdin_closed_fails_at_once() {
    let mut peer = Peer::start().await;
    peer.send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "late_roots", "arguments": {}}}))
        .await;
    // No roots/list goes out: the next message is the answer.
    peer.close_and_expect(
        "the client can no longer answer roots/list: its input to the server has ended",
    )
    .await;
}
