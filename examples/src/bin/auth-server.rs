//! An MCP server that requires OAuth 2.1 bearer tokens: how a [`TokenVerifier`] plugs into the HTTP
//! transport. The verifier here is a fixed table of opaque tokens given on the command line; a real
//! one validates a JWT against the authorization server's key set or calls its introspection
//! endpoint, and fills in the same `AuthInfo`.
//!
//! Usage: `auth-server [--bind ADDR] [--resource URL] [--issuer URL] --token TOKEN=SUBJECT[:SCOPE,...]...`
//!
//! [`TokenVerifier`]: libmcp::auth::TokenVerifier

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use libmcp::auth::{AuthInfo, ResourceServerConfig, TokenRejection};
use libmcp::server::{Reply, Server};
use libmcp::transport::http::{HttpServerConfig, serve_http};
use serde_json::json;

const USAGE: &str = "Usage: auth-server [--bind ADDR] [--resource URL] [--issuer URL] \
--token TOKEN=SUBJECT[:SCOPE,...]...\n\nServes http://ADDR/mcp (default 127.0.0.1:3000) and its \
protected resource metadata; every request needs `Authorization: Bearer TOKEN` for one of the \
given tokens, whose scopes must include mcp:read. The tool `whoami` shows the caller; `admin` \
also needs mcp:admin. The resource URL defaults to http://ADDR/mcp, the issuer to \
https://auth.example.com.";

/// What a token in the table grants.
struct Grant {
    subject: String,
    scopes: Vec<String>,
}

fn fail(msg: &str) -> ! {
    eprintln!("auth-server: {msg} (try --help)");
    std::process::exit(2);
}

#[tokio::main]
async fn main() {
    let mut bind: SocketAddr = "127.0.0.1:3000".parse().expect("a valid address");
    let mut resource = None;
    let mut issuer = "https://auth.example.com".to_string();
    let mut tokens = HashMap::new();
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        if flag == "-h" || flag == "--help" {
            println!("{USAGE}");
            return;
        }
        let Some(value) = args.next() else {
            fail(&format!("{flag} needs a value"));
        };
        match flag.as_str() {
            "--bind" => {
                bind = value
                    .parse()
                    .unwrap_or_else(|e| fail(&format!("bad address: {e}")))
            }
            "--resource" => resource = Some(value),
            "--issuer" => issuer = value,
            "--token" => {
                let Some((token, grant)) = value.split_once('=') else {
                    fail("--token takes TOKEN=SUBJECT[:SCOPE,...]");
                };
                let (subject, scopes) = grant.split_once(':').unwrap_or((grant, ""));
                let scopes = scopes
                    .split(',')
                    .filter(|s| !s.is_empty())
                    .map(String::from);
                let grant = Grant {
                    subject: subject.to_string(),
                    scopes: scopes.collect(),
                };
                tokens.insert(token.to_string(), grant);
            }
            other => fail(&format!("unexpected argument {other:?}")),
        }
    }
    let resource = resource.unwrap_or_else(|| format!("http://{bind}/mcp"));
    let tokens = Arc::new(tokens);
    let audience = resource.clone();
    // The verifier: any `Fn(String) -> impl Future<Output = Result<AuthInfo, TokenRejection>>`.
    let verifier = move |token: String| {
        let tokens = tokens.clone();
        let audience = audience.clone();
        async move {
            let grant = tokens
                .get(&token)
                .ok_or_else(|| TokenRejection::Invalid("unknown token".into()))?;
            let now = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
            Ok(AuthInfo::new()
                .subject(grant.subject.clone())
                .client_id("auth-server-demo")
                .scopes(grant.scopes.clone())
                .audience([audience])
                .expires_at(now + 3600))
        }
    };
    let auth = ResourceServerConfig::builder(resource.clone(), verifier)
        .authorization_server(issuer)
        .scopes_supported(["mcp:read", "mcp:admin"])
        .required_scopes(["mcp:read"])
        .tool_scopes("admin", ["mcp:admin"])
        .resource_name("libmcp auth example")
        .build()
        .unwrap_or_else(|e| fail(&e.to_string()));
    let server = Server::builder("auth-server", "0.1.0")
        .tool(
            json!({"name": "whoami", "description": "Who the caller is",
                     "inputSchema": {"type": "object"}}),
            |ctx, _| match ctx.auth() {
                Some(a) => Reply::text(format!(
                    "subject {} with scopes {}",
                    a.subject.as_deref().unwrap_or("-"),
                    a.scopes.join(" ")
                )),
                None => Reply::tool_error("not authenticated"),
            },
        )
        .tool(
            json!({"name": "admin", "description": "Needs mcp:admin",
                     "inputSchema": {"type": "object"}}),
            |_, _| Reply::text("admin done"),
        )
        .build()
        .expect("valid definitions");
    let config = HttpServerConfig {
        auth: Some(Arc::new(auth)),
        ..HttpServerConfig::with_bind(bind)
    };
    match serve_http(server, config).await {
        Ok(handle) => {
            eprintln!(
                "listening on http://{}/mcp (resource {resource})",
                handle.local_addr()
            );
            handle.wait().await;
        }
        Err(e) => {
            eprintln!("auth-server: {e}");
            std::process::exit(1);
        }
    }
}
