//! `Responder::try_reply`: a handler's malformed result reaches the client as -32603 and the same
//! reason comes back to the handler, so a host can report it where the handler lives.

use std::sync::Arc;

use libmcp::client::Client;
use libmcp::server::{Reply, Server};
use parking_lot::Mutex;
use serde_json::{Value, json};

type Verdicts = Arc<Mutex<Vec<Result<(), String>>>>;

fn server(verdicts: Verdicts) -> Server {
    let tool = |name: &str, extra: Value| {
        let mut d = json!({"name": name, "inputSchema": {"type": "object"}});
        d.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        d
    };
    let answer = |result: Value, verdicts: Verdicts| {
        Arc::new(move |_ctx, responder: libmcp::server::Responder| {
            let v = responder.try_reply(Reply::Result(result.clone()));
            verdicts.lock().push(v.map_err(|e| e.message));
        }) as libmcp::server::Handler
    };
    Server::builder("verdicts", "1.0.0")
        .tool_handler(
            tool("good", json!({})),
            answer(json!({"content": []}), verdicts.clone()),
        )
        .tool_handler(
            tool("bad_content", json!({})),
            answer(json!({"content": "not a list"}), verdicts.clone()),
        )
        .tool_handler(
            tool(
                "bad_structured",
                json!({"outputSchema": {"type": "object", "required": ["n"],
                                        "properties": {"n": {"type": "integer"}}}}),
            ),
            answer(json!({"structuredContent": {"n": "one"}}), verdicts),
        )
        .build()
        .unwrap()
}

#[tokio::test]
async fn malformed_results_are_reported_to_the_handler_and_the_client() {
    let verdicts = Verdicts::default();
    let (client_io, server_io) = tokio::io::duplex(1 << 20);
    let (sr, sw) = tokio::io::split(server_io);
    let s = server(verdicts.clone());
    tokio::spawn(async move { libmcp::transport::stdio::serve(s, sr, sw).await });
    let (cr, cw) = tokio::io::split(client_io);
    let client = Client::builder("c", "1").connect_io(cr, cw).await.unwrap();

    client.call_tool("good", json!({})).await.unwrap();
    for (tool, reason) in [
        (
            "bad_content",
            "tool bad_content returned a content field that is not an array",
        ),
        (
            "bad_structured",
            "tool bad_structured returned structuredContent that violates its outputSchema",
        ),
    ] {
        let Err(libmcp::Error::Rpc(e)) = client.call_tool(tool, json!({})).await else {
            panic!("{tool}: expected an error response")
        };
        assert_eq!(e.code, -32603, "{tool}");
        assert!(e.message.contains(reason), "{tool}: {}", e.message);
        let verdict = verdicts.lock().last().cloned().unwrap();
        assert_eq!(verdict, Err(e.message), "{tool}");
    }
    assert_eq!(verdicts.lock()[0], Ok(()));
    client.close().await;
}
