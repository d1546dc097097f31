//! The soak's lanes: loops of real client work against the servers until a deadline, each operation
//! timed and checked, every failure recorded (never fatal to the lane).
//!
//! - `http legacy churn`: a new legacy session per round (2025-11-25, 2025-06-18, 2025-03-26 in
//!   turn): initialize, list tools, a text call, an elicitation (from 2025-06-18) and a sampling
//!   request from the server, a list-changed subscription, then DELETE;
//! - `http+sse churn`: the same over the 2024-11-05 HTTP+SSE transport;
//! - `http modern`: one stateless 2026-07-28 client: text calls, a two-round MRTR call, a resource
//!   read, a prompt;
//! - `http cancel`: calls abandoned after 20 ms (the 100 ms progress tool), in both eras, each
//!   followed by a text call on the same connection;
//! - `http listen`: `subscriptions/listen` opened, a list change triggered and received, closed;
//! - `stdio modern` / `stdio legacy`: one long connection each to its own server process, with the
//!   mix of the lanes above.

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use libmcp::ProtocolVersion;
use libmcp::client::{Client, ClientBuilder, SubscriptionFilter, VersionPreference};
use libmcp::model::{CallToolResult, ContentBlock};
use libmcp::transport::child::ChildSpec;
use serde_json::{Map, Value, json};

use super::ServerCommand;
use super::stats::Stats;

/// The text `test_simple_text` answers (libmcp_examples::everything::SIMPLE_TEXT).
const SIMPLE_TEXT: &str = libmcp_examples::everything::SIMPLE_TEXT;
/// Longest any one operation may take before it counts as failed.
const OP_LIMIT: Duration = Duration::from_secs(30);
/// How long a cancelled call runs before the client abandons it (the tool takes about 100 ms).
const ABANDON_AFTER: Duration = Duration::from_millis(20);

/// Where the lanes go and until when.
#[derive(Clone)]
pub struct Plan {
    /// The Streamable HTTP endpoint.
    pub http_url: String,
    /// The HTTP+SSE (2024-11-05) endpoint of the same server.
    pub sse_url: String,
    /// When the lanes stop starting operations.
    pub deadline: Instant,
    /// Shared records.
    pub stats: Arc<Stats>,
    /// A lane's pause after each operation (zero: as fast as the servers answer).
    pub pause: Duration,
}

impl Plan {
    fn running(&self) -> bool {
        Instant::now() < self.deadline
    }

    /// Runs `f` as one operation of `lane`: timed, bounded by [`OP_LIMIT`], recorded.
    async fn op<T>(
        &self,
        lane: &'static str,
        what: &str,
        f: impl Future<Output = Result<T, String>>,
    ) -> Option<T> {
        let start = Instant::now();
        let result = tokio::time::timeout(OP_LIMIT, f).await;
        if !self.pause.is_zero() {
            tokio::time::sleep(self.pause).await;
        }
        match result {
            Ok(Ok(v)) => {
                self.stats.ok(lane, start.elapsed());
                Some(v)
            }
            Ok(Err(e)) => {
                self.stats.error(lane, format!("{what}: {e}"));
                None
            }
            Err(_) => {
                self.stats
                    .error(lane, format!("{what}: no answer in {OP_LIMIT:?}"));
                None
            }
        }
    }
}

impl Plan {
    /// A client of `url` in the era of `pref`, connected as an operation of `lane`.
    async fn connect(
        &self,
        lane: &'static str,
        url: &str,
        pref: VersionPreference,
    ) -> Option<Client> {
        let connect = builder(pref).connect_http(url);
        self.op(lane, "connect", async {
            connect.await.map_err(|e| e.to_string())
        })
        .await
    }
}

/// A client that answers every kind of server request the everything-server makes.
pub fn builder(pref: VersionPreference) -> ClientBuilder {
    Client::builder("mcp-soak", env!("CARGO_PKG_VERSION"))
        .version_preference(pref)
        .on_elicitation(|params| async move { Ok(fill_form(&params)) })
        .on_sampling(|_params| async {
            Ok(
                json!({"role": "assistant", "content": {"type": "text", "text": "soak"},
                "model": "soak-model", "stopReason": "endTurn"}),
            )
        })
        .roots(vec![json!({"uri": "file:///soak", "name": "soak"})])
}

/// Accepts a form elicitation with a value of the right type for every requested property.
fn fill_form(params: &Value) -> Value {
    let mut content = Map::new();
    let props = params["requestedSchema"]["properties"].as_object();
    for (name, schema) in props.into_iter().flatten() {
        let value = match (schema["enum"].get(0), schema["type"].as_str()) {
            (Some(first), _) => first.clone(),
            (None, Some("number" | "integer")) => json!(1),
            (None, Some("boolean")) => json!(true),
            _ => json!("soak"),
        };
        content.insert(name.clone(), value);
    }
    json!({"action": "accept", "content": content})
}

fn text_of(r: &CallToolResult) -> Result<&str, String> {
    if r.is_error == Some(true) {
        return Err(format!("tool error: {:?}", r.content));
    }
    match r.content.first() {
        Some(ContentBlock::Text(t)) => Ok(&t.text),
        other => Err(format!("expected a text block, got {other:?}")),
    }
}

async fn call_text(c: &Client, tool: &str) -> Result<String, String> {
    call_with(c, tool, json!({})).await
}

async fn call_with(c: &Client, tool: &str, arguments: Value) -> Result<String, String> {
    let r = c
        .call_tool(tool, arguments)
        .await
        .map_err(|e| e.to_string())?;
    text_of(&r).map(str::to_owned)
}

async fn simple_text(c: &Client) -> Result<(), String> {
    let text = call_text(c, "test_simple_text").await?;
    if text != SIMPLE_TEXT {
        return Err(format!("test_simple_text answered {text:?}"));
    }
    Ok(())
}

/// Subscribes to tool list changes, triggers one, and waits for it.
async fn list_change(c: &Client) -> Result<(), String> {
    let filter = SubscriptionFilter {
        tools_list_changed: Some(true),
        ..SubscriptionFilter::default()
    };
    let mut sub = c.subscribe(filter).await.map_err(|e| e.to_string())?;
    call_text(c, "test_trigger_tool_change").await?;
    match sub.next().await {
        Some(n) if n.method == "notifications/tools/list_changed" => Ok(()),
        Some(n) => Err(format!("expected tools/list_changed, got {}", n.method)),
        None => Err("the subscription ended without a notification".into()),
    }
}

/// `test_elicitation`: the server asks the client (a server-to-client request, or an input round).
async fn elicitation(c: &Client) -> Result<(), String> {
    let args = json!({"message": "Soak: what is your name?"});
    call_with(c, "test_elicitation", args).await.map(drop)
}

/// `test_sampling`: the server asks the client's model.
async fn sampling(c: &Client) -> Result<(), String> {
    let args = json!({"prompt": "Soak: say something"});
    call_with(c, "test_sampling", args).await.map(drop)
}

/// A call abandoned before it completes, then a call on the same connection.
async fn abandoned_call(c: &Client) -> Result<(), String> {
    let call = c.call_tool("test_tool_with_progress", json!({}));
    // A stalled client process can find the answer and the timer ready at once, and then takes
    // the answer: that is a correct call, not abandoned, and is checked as such.
    if let Ok(r) = tokio::time::timeout(ABANDON_AFTER, call).await {
        let r = r.map_err(|e| e.to_string())?;
        let text = text_of(&r)?;
        if text != "Tool with progress executed successfully" {
            return Err(format!("test_tool_with_progress answered {text:?}"));
        }
    }
    simple_text(c).await
}

/// One legacy session per round, over Streamable HTTP or (with `sse`) HTTP+SSE.
pub async fn legacy_churn(
    plan: Plan,
    lane: &'static str,
    versions: Vec<ProtocolVersion>,
    sse: bool,
) {
    let url = if sse { &plan.sse_url } else { &plan.http_url };
    for v in versions.iter().cycle() {
        if !plan.running() {
            break;
        }
        let Some(c) = plan
            .connect(lane, url, VersionPreference::Legacy(v.clone()))
            .await
        else {
            continue;
        };
        plan.op(lane, "tools/list", async {
            c.list_all_tools()
                .await
                .map(drop)
                .map_err(|e| e.to_string())
        })
        .await;
        plan.op(lane, "test_simple_text", simple_text(&c)).await;
        // Elicitation came with 2025-06-18 (revision dates order as strings).
        if v.as_str() >= "2025-06-18" {
            plan.op(lane, "test_elicitation", elicitation(&c)).await;
        }
        plan.op(lane, "test_sampling", sampling(&c)).await;
        plan.op(lane, "list change", list_change(&c)).await;
        c.close().await;
    }
}

/// One stateless client doing the modern mix until the deadline.
pub async fn modern(plan: Plan, lane: &'static str) {
    let pref = VersionPreference::Modern(ProtocolVersion::V2026_07_28);
    let Some(c) = plan.connect(lane, &plan.http_url, pref).await else {
        return;
    };
    while plan.running() {
        plan.op(lane, "test_simple_text", simple_text(&c)).await;
        let mrtr = call_text(&c, "test_input_required_result_multi_round");
        plan.op(lane, "multi-round MRTR", mrtr).await;
        plan.op(lane, "resources/read", async {
            c.read_resource("test://static-text")
                .await
                .map(drop)
                .map_err(|e| e.to_string())
        })
        .await;
        plan.op(lane, "prompts/get", async {
            c.get_prompt("test_simple_prompt", json!({}))
                .await
                .map(drop)
                .map_err(|e| e.to_string())
        })
        .await;
    }
    c.close().await;
}

/// Abandoned calls on one modern and one legacy connection.
pub async fn cancels(plan: Plan, lane: &'static str) {
    let prefs = [
        VersionPreference::Modern(ProtocolVersion::V2026_07_28),
        VersionPreference::Legacy(ProtocolVersion::V2025_11_25),
    ];
    let mut clients = Vec::new();
    for pref in prefs {
        if let Some(c) = plan.connect(lane, &plan.http_url, pref).await {
            clients.push(c);
        }
    }
    'run: while plan.running() {
        for c in &clients {
            if !plan.running() {
                break 'run;
            }
            plan.op(lane, "abandoned call", abandoned_call(c)).await;
        }
    }
    for c in clients {
        c.close().await;
    }
}

/// `subscriptions/listen` streams opened and closed around a triggered change.
pub async fn listens(plan: Plan, lane: &'static str) {
    let pref = VersionPreference::Modern(ProtocolVersion::V2026_07_28);
    let Some(c) = plan.connect(lane, &plan.http_url, pref).await else {
        return;
    };
    while plan.running() {
        plan.op(lane, "listen + change", list_change(&c)).await;
    }
    c.close().await;
}

/// Connects a stdio client to a new server process (`server --serve-stdio`, with the environment
/// variables `env` besides this process's) in the era of `pref`.
pub async fn stdio_client(
    server: &ServerCommand,
    pref: VersionPreference,
    env: Vec<(String, String)>,
) -> Result<Client, String> {
    builder(pref)
        .connect_stdio(ChildSpec {
            env,
            ..ChildSpec::new(&server.program, server.args_for("--serve-stdio"))
        })
        .await
        .map_err(|e| format!("cannot start {server} --serve-stdio: {e}"))
}

/// The whole mix on one long stdio connection.
pub async fn stdio(plan: Plan, lane: &'static str, c: Arc<Client>) {
    while plan.running() {
        plan.op(lane, "test_simple_text", simple_text(&c)).await;
        plan.op(lane, "test_elicitation", elicitation(&c)).await;
        plan.op(lane, "test_sampling", sampling(&c)).await;
        plan.op(lane, "abandoned call", abandoned_call(&c)).await;
        plan.op(lane, "list change", list_change(&c)).await;
    }
}
