//! The server fed an arbitrary byte stream over stdio (in process, through an in-memory pipe), in
//! either era: the first byte picks a preamble (none: the stateless 2026-07-28 wire; or an
//! `initialize` of a legacy revision), the rest is sent as it is. Everything the server writes is a
//! JSON message per line, and the serve ends cleanly when its input does.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

const PREAMBLES: [&str; 4] = [
    "",
    "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"roots\":{},\"sampling\":{},\"elicitation\":{}},\"clientInfo\":{\"name\":\"fuzz\",\"version\":\"0\"}}}\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n",
    "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-03-26\",\"capabilities\":{},\"clientInfo\":{\"name\":\"fuzz\",\"version\":\"0\"}}}\n",
    "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2024-11-05\",\"capabilities\":{},\"clientInfo\":{\"name\":\"fuzz\",\"version\":\"0\"}}}\n",
];

fuzz_target!(|data: &[u8]| {
    let (pick, rest) = data.split_first().unwrap_or((&0, &[]));
    let preamble = PREAMBLES[usize::from(*pick) % PREAMBLES.len()];
    let rt = libmcp_fuzz::runtime();
    rt.block_on(async {
        let (ours, theirs) = tokio::io::duplex(1 << 16);
        let (sr, sw) = tokio::io::split(theirs);
        let serve = tokio::spawn(libmcp::transport::stdio::serve(
            libmcp_fuzz::server(),
            sr,
            sw,
        ));
        let (r, mut w) = tokio::io::split(ours);
        let reader = tokio::spawn(async move {
            let mut lines = BufReader::new(r).split(b'\n');
            while let Some(line) = lines
                .next_segment()
                .await
                .expect("reading the server's output")
            {
                libmcp_fuzz::assert_json_line(&line);
            }
        });
        w.write_all(preamble.as_bytes())
            .await
            .expect("the server reads its input");
        // The server may stop reading only once its input ended; a write error here is a bug too.
        w.write_all(rest).await.expect("the server reads its input");
        w.shutdown().await.expect("closing the server's input");
        serve
            .await
            .expect("the serve task does not panic")
            .expect("the serve ends cleanly");
        reader.await.expect("every line the server wrote is JSON");
    });
});
