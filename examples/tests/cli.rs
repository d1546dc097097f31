//! The `mcp` tool and the `everything-server` binaries, spawned as processes, in both eras.

use std::process::{Command, Output, Stdio};

use serde_json::Value;

const MCP: &str = env!("CARGO_BIN_EXE_mcp");
const SERVER: &str = env!("CARGO_BIN_EXE_everything-server");
const ERAS: [[&str; 2]; 2] = [["--legacy", "2025-11-25"], ["--modern", "2026-07-28"]];

/// The tools of the conformance server contract, in registration order.
const TOOLS: [&str; 28] = [
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
        assert!(human.ends_with("(28 tools)\n"), "{human}");
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

/// The everything-server over HTTP on a free loopback port, killed on drop.
struct HttpServer {
    child: std::process::Child,
    url: String,
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn http_server() -> HttpServer {
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
