//! The `mcp` tool and the `everything-server` binaries, spawned as processes, in both eras.

use std::process::{Command, Output, Stdio};

use serde_json::Value;

#[path = "support/http_server.rs"]
mod http_server;
use http_server::http_server;

const MCP: &str = env!("CARGO_BIN_EXE_mcp");
const SERVER: &str = env!("CARGO_BIN_EXE_everything-server");
const ERAS: [[&str; 2]; 2] = [["--legacy", "2025-11-25"], ["--modern", "2026-07-28"]];

/// The tools of the conformance server contract, in registration order.
const TOOLS: [&str; 35] = [
    "test_simple_text",
    "test_image_content",
    "test_audio_content",
    "test_embedded_resource",
    "test_multiple_content_types",
    "test_error_handling",
    "test_tool_with_logging",
    "test_tool_with_progress",
    "test_logging_tool",
    "test_missing_capability",
    "json_schema_2020_12_tool",
    "test_sampling",
    "test_elicitation",
    "test_elicitation_sep1034_defaults",
    "test_elicitation_sep1330_enums",
    "test_streaming_elicitation",
    "test_input_required_result_elicitation",
    "test_input_required_result_sampling",
    "test_input_required_result_list_roots",
    "test_input_required_result_request_state",
    "test_input_required_result_multiple_inputs",
    "test_input_required_result_multi_round",
    "test_input_required_result_tampered_state",
    "test_input_required_result_capabilities",
    "test_reconnection",
    "test_x_mcp_header",
    "greet",
    "slow_compute",
    "failing_job",
    "protocol_error_job",
    "confirm_delete",
    "multi_input",
    "test_tool_with_task",
    "test_trigger_tool_change",
    "test_trigger_prompt_change",
];

fn mcp(args: &[&str]) -> Output {
    Command::new(MCP)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("mcp runs")
}

fn mcp_server(era: &[&str], args: &[&str]) -> Output {
    let mut all: Vec<&str> = era.to_vec();
    all.extend_from_slice(args);
    all.extend_from_slice(&["--", SERVER]);
    mcp(&all)
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn lists_every_contract_tool_in_both_eras() {
    for era in ERAS {
        let o = mcp_server(&era, &["--json", "tools"]);
        assert!(o.status.success(), "{era:?}: {}", stderr(&o));
        let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
        let names: Vec<&str> = v["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, TOOLS, "{era:?}");
        let human = stdout(&mcp_server(&era, &["tools"]));
        assert!(human.starts_with("test_simple_text  Returns a simple text response\n"));
        assert!(human.ends_with("(35 tools)\n"), "{human}");
    }
}

#[test]
fn calls_test_simple_text_in_both_eras() {
    for era in ERAS {
        let o = mcp_server(&era, &["call", "test_simple_text"]);
        assert!(o.status.success(), "{era:?}: {}", stderr(&o));
        assert_eq!(stdout(&o), "This is a simple text response for testing.\n");
        let o = mcp_server(&era, &["--json", "call", "test_simple_text"]);
        let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(
            v["content"],
            serde_json::json!([{"type": "text", "text": "This is a simple text response for testing."}])
        );
        // The client hands back the modern result shape as received, legacy results have none.
        let modern = era[0] == "--modern";
        assert_eq!(v.get("resultType").is_some(), modern, "{era:?}: {v}");
    }
}

#[test]
fn info_names_era_and_version() {
    for era in ERAS {
        let o = mcp_server(&era, &["--json", "info"]);
        let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
        let expected = if era[0] == "--modern" {
            "modern"
        } else {
            "legacy"
        };
        assert_eq!(v["era"], expected);
        assert_eq!(v["protocolVersion"], era[1]);
        assert_eq!(v["serverInfo"]["name"], "libmcp-everything-server");
        assert_eq!(v["capabilities"]["tools"]["listChanged"], true);
    }
}

#[test]
fn mrtr_elicitation_resources_and_prompts_in_both_eras() {
    for era in ERAS {
        let o = mcp_server(
            &era,
            &[
                "--answer",
                "name=Ada",
                "call",
                "test_input_required_result_elicitation",
            ],
        );
        assert_eq!(stdout(&o), "Hello, Ada!\n", "{era:?}: {}", stderr(&o));
        let o = mcp_server(&era, &["call", "test_input_required_result_elicitation"]);
        assert_eq!(
            stdout(&o),
            "The user chose to decline the question (user_name)\n",
            "{era:?}"
        );
        let o = mcp_server(&era, &["read", "test://static-text"]);
        assert_eq!(
            stdout(&o),
            "[resource test://static-text text/plain]\nThis is the content of the static text resource.\n"
        );
        let o = mcp_server(&era, &["--json", "read", "test://template/123/data"]);
        let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
        let text: Value = serde_json::from_str(v["contents"][0]["text"].as_str().unwrap()).unwrap();
        assert_eq!(
            text,
            serde_json::json!({"id": "123", "templateTest": true, "data": "Data for ID: 123"})
        );
        let o = mcp_server(
            &era,
            &[
                "prompt",
                "test_prompt_with_arguments",
                r#"{"arg1":"hello","arg2":"world"}"#,
            ],
        );
        assert_eq!(
            stdout(&o),
            "user: Prompt with arguments: arg1='hello', arg2='world'\n"
        );
        let o = mcp_server(
            &era,
            &["complete", "test_prompt_with_arguments", "arg1", "he"],
        );
        assert_eq!(stdout(&o), "hello\nhelp\n");
    }
}

#[test]
fn failures_have_messages_and_exit_codes() {
    let o = mcp_server(&ERAS[1], &["call", "no_such_tool"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("Unknown tool: no_such_tool"),
        "{}",
        stderr(&o)
    );
    let o = mcp_server(&ERAS[0], &["call", "test_error_handling"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stdout(&o),
        "This tool intentionally returns an error for testing\n"
    );
    let o = mcp_server(&ERAS[1], &["call", "test_simple_text", "{not json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("tool arguments are not valid JSON"));
    let o = mcp(&["tools", "--", "/nonexistent/mcp-server"]);
    assert_eq!(o.status.code(), Some(3));
    assert!(stderr(&o).contains("cannot connect to server /nonexistent/mcp-server"));
    let o = mcp(&["tools"]);
    assert_eq!(o.status.code(), Some(2));
    let o = mcp(&["frobnicate", "--", SERVER]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown command frobnicate"));
}

#[test]
fn the_cli_speaks_http_in_both_eras() {
    let server = http_server();
    for (era, expect) in [
        (["--legacy", "2025-11-25"], "legacy"),
        (["--modern", "2026-07-28"], "modern"),
    ] {
        let out = mcp(&[era[0], era[1], "--json", "info", "--", &server.url]);
        assert!(out.status.success(), "{}", stderr(&out));
        let info: Value = serde_json::from_str(&stdout(&out)).unwrap();
        assert_eq!(info["era"], expect, "{info}");
        let out = mcp(&[
            era[0],
            era[1],
            "--json",
            "call",
            "test_simple_text",
            "--",
            &server.url,
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        let result: Value = serde_json::from_str(&stdout(&out)).unwrap();
        assert_eq!(
            result["content"][0]["text"],
            "This is a simple text response for testing."
        );
    }
    let out = mcp(&["--json", "tools", "--", &server.url]);
    assert!(out.status.success(), "{}", stderr(&out));
    let tools: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let names: Vec<&str> = tools["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(names, TOOLS);
}

/// A TLS front end on a free loopback port, with a self-signed certificate for `localhost`, relaying
/// to the plain HTTP server at `backend` (`host:port`) and recording the decrypted bytes the client
/// sent. Runs on its own thread for the life of the test process.
struct TlsFront {
    port: u16,
    cert_pem: String,
    sent: std::sync::Arc<std::sync::Mutex<Vec<u8>>>,
}

fn tls_front(backend: String) -> TlsFront {
    use std::sync::{Arc, Mutex};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    let issued = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
    let cert_pem = issued.cert.pem();
    let key = rustls::pki_types::PrivateKeyDer::Pkcs8(issued.signing_key.serialize_der().into());
    let config = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_no_client_auth()
    .with_single_cert(vec![issued.cert.der().clone()], key)
    .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let sent: Arc<Mutex<Vec<u8>>> = Arc::default();
    let record = sent.clone();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            while let Ok((tcp, _)) = listener.accept().await {
                let (acceptor, record, backend) =
                    (acceptor.clone(), record.clone(), backend.clone());
                tokio::spawn(async move {
                    // A client that refuses the certificate aborts the handshake.
                    let Ok(tls) = acceptor.accept(tcp).await else {
                        return;
                    };
                    let Ok(plain) = tokio::net::TcpStream::connect(&backend).await else {
                        return;
                    };
                    let (mut tls_r, mut tls_w) = tokio::io::split(tls);
                    let (mut plain_r, mut plain_w) = plain.into_split();
                    let up = async move {
                        let mut buf = [0u8; 8192];
                        while let Ok(n @ 1..) = tls_r.read(&mut buf).await {
                            record.lock().unwrap().extend_from_slice(&buf[..n]);
                            if plain_w.write_all(&buf[..n]).await.is_err() {
                                break;
                            }
                        }
                        let _ = plain_w.shutdown().await;
                    };
                    let down = async move {
                        let _ = tokio::io::copy(&mut plain_r, &mut tls_w).await;
                        let _ = tls_w.shutdown().await;
                    };
                    tokio::join!(up, down);
                });
            }
        });
    });
    TlsFront {
        port,
        cert_pem,
        sent,
    }
}

#[test]
fn cacert_and_headers_reach_an_https_server() {
    let server = http_server();
    let backend = server
        .url
        .trim_start_matches("http://")
        .trim_end_matches("/mcp")
        .to_string();
    let front = tls_front(backend);
    let url = format!("https://localhost:{}/mcp", front.port);
    let dir = std::env::temp_dir().join(format!("mcp-cli-cacert-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cert = dir.join("ca.pem");
    std::fs::write(&cert, &front.cert_pem).unwrap();
    let cert = cert.to_str().unwrap();

    // Without the root the certificate is refused, and nothing reaches the server.
    let out = mcp(&["--bearer", "s3cret", "info", "--", &url]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("UnknownIssuer"),
        "expected a certificate error: {}",
        stderr(&out)
    );
    assert!(front.sent.lock().unwrap().is_empty());

    for era in ERAS {
        let out = mcp(&[
            era[0],
            era[1],
            "--cacert",
            cert,
            "--bearer",
            "s3cret",
            "--header",
            "X-Trace-Id :  abc 123 ",
            "--json",
            "call",
            "test_simple_text",
            "--",
            &url,
        ]);
        assert!(out.status.success(), "{era:?}: {}", stderr(&out));
        let result: Value = serde_json::from_str(&stdout(&out)).unwrap();
        assert_eq!(
            result["content"][0]["text"],
            "This is a simple text response for testing."
        );
    }
    let sent = String::from_utf8_lossy(&front.sent.lock().unwrap()).to_ascii_lowercase();
    let requests = sent.matches("\r\n\r\n").count();
    assert!(requests >= 4, "{sent}");
    // Every request carries both headers (counting POST, GET and DELETE heads alike).
    assert_eq!(
        sent.matches("\r\nauthorization: bearer s3cret\r\n").count(),
        sent.matches(" /mcp http/1.1\r\n").count(),
        "{sent}"
    );
    assert_eq!(
        sent.matches("\r\nx-trace-id: abc 123\r\n").count(),
        sent.matches(" /mcp http/1.1\r\n").count(),
        "{sent}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_header_and_cacert_options_are_usage_errors() {
    let dir = std::env::temp_dir().join(format!("mcp-cli-badopts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let not_pem = dir.join("not.pem");
    std::fs::write(&not_pem, "just text\n").unwrap();
    let not_pem = not_pem.to_str().unwrap();
    let url = "https://localhost:1/mcp";
    let cases: [(&[&str], &str); 7] = [
        (
            &["--header", "NoColon", "info", "--", url],
            "--header needs 'NAME: VALUE', got \"NoColon\"",
        ),
        (
            &["--header", "Bad Name: x", "info", "--", url],
            "bad header name \"Bad Name\"",
        ),
        (
            &["--header", "X-A: a\u{1}b", "info", "--", url],
            "the value of X-A holds a control character",
        ),
        (&["--bearer"], "--bearer needs a TOKEN"),
        (
            &["--cacert", not_pem, "info", "--", SERVER],
            "apply only to an http:// or https:// URL",
        ),
        (
            &["--cacert", "/nonexistent/ca.pem", "info", "--", url],
            "cannot read --cacert /nonexistent/ca.pem",
        ),
        (
            &["--cacert", not_pem, "info", "--", url],
            "holds no PEM certificate",
        ),
    ];
    for (args, message) in cases {
        let out = mcp(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn everything_server_rejects_bad_http_flags() {
    for (args, message) in [
        (&["--http-sse"][..], "--http-sse needs --http"),
        (
            &["--http", "127.0.0.1:0", "--http-sse", "--http-sse"][..],
            "--http-sse given twice",
        ),
        (&["--http", "nowhere"][..], "bad address \"nowhere\""),
        (
            &["--http", "127.0.0.1:0", "extra"][..],
            "unexpected argument \"extra\"",
        ),
    ] {
        let out = Command::new(SERVER)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
    }
}

/// `call --task` in both eras: a task-supporting tool runs as a task whose statuses are printed on
/// stderr as they change and whose result is printed like a plain call's; a tool that fails inside
/// its task exits 1 with the task's error; a sync-only tool is answered at once; `--task` with
/// another command is a usage error.
#[test]
fn call_with_task_follows_the_task_to_its_end() {
    for era in ERAS {
        let o = mcp_server(
            &era,
            &[
                "--task",
                "call",
                "slow_compute",
                r#"{"seconds":0.3,"label":"x"}"#,
            ],
        );
        let err = stderr(&o);
        assert!(o.status.success(), "{era:?}: {err}");
        assert_eq!(stdout(&o).trim(), "Computed x after 0.3 s", "{era:?}");
        let statuses: Vec<&str> = err
            .lines()
            .filter_map(|l| l.strip_prefix("mcp: task "))
            .map(|l| l.split_once(": ").expect("task ID: status").1)
            .collect();
        assert_eq!(statuses.first(), Some(&"working"), "{era:?}: {err}");
        assert_eq!(statuses.last(), Some(&"completed"), "{era:?}: {err}");

        let o = mcp_server(&era, &["--task", "call", "protocol_error_job"]);
        assert_eq!(o.status.code(), Some(1), "{era:?}");
        let err = stderr(&o);
        assert!(
            err.contains(": failed (Internal error: protocol_error_job always fails")
                && err.contains("calling tool protocol_error_job failed"),
            "{era:?}: {err}"
        );

        let o = mcp_server(&era, &["--task", "call", "greet", r#"{"name":"Ada"}"#]);
        assert!(o.status.success(), "{era:?}: {}", stderr(&o));
        assert_eq!(stdout(&o).trim(), "Hello, Ada!");
        assert!(stderr(&o).contains("the server ran greet at once, not as a task"));
    }
    let o = mcp_server(&ERAS[0], &["--task", "tools"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--task applies only to call"),
        "{}",
        stderr(&o)
    );
}
