//! The client scenarios of the MCP conformance suite (its `src/scenarios/client` folder), each a
//! function over a connected [`Client`]. The transport-specific parts of some scenarios (HTTP headers, SSE retry,
//! OAuth) belong to the transport; what is here is the protocol logic every transport shares.

use libmcp::auth::client::{
    Assertion, AutoRedirect, ClientCredentials, EnterpriseManaged, OAuthClient, OAuthConfig,
    PreRegistered, SigningKey,
};
use libmcp::client::{Client, ClientBuilder, VersionPreference};
use libmcp::model::Tool;
use libmcp::skills::SkillResources;
use libmcp::{Era, ProtocolVersion};
use serde_json::{Map, Value, json};

/// The scenarios [`run`] implements.
pub const SCENARIOS: [&str; 15] = [
    "initialize",
    "tools_call",
    "elicitation-sep1034-client-defaults",
    "request-metadata",
    "sep-2322-client-request-state",
    "json-schema-2020-12-preservation",
    "json-schema-ref-no-deref",
    "sse-retry",
    "http-standard-headers",
    "http-custom-headers",
    "http-invalid-tool-headers",
    "sep-2640-client-no-prefetch",
    "sep-2640-client-verify-digest",
    "sep-2640-client-verify-size",
    "sep-2640-client-verify-frontmatter",
];

/// The OAuth scenarios [`run`] implements (authorization code with PKCE over HTTP, and the
/// extensions: client credentials, enterprise-managed authorization, DPoP, workload identity).
pub const AUTH_SCENARIOS: [&str; 33] = [
    "auth/metadata-default",
    "auth/metadata-var1",
    "auth/metadata-var2",
    "auth/metadata-var3",
    "auth/basic-cimd",
    "auth/scope-from-www-authenticate",
    "auth/scope-from-scopes-supported",
    "auth/scope-omitted-when-undefined",
    "auth/scope-step-up",
    "auth/scope-retry-limit",
    "auth/token-endpoint-auth-basic",
    "auth/token-endpoint-auth-post",
    "auth/token-endpoint-auth-none",
    "auth/pre-registration",
    "auth/resource-mismatch",
    "auth/offline-access-scope",
    "auth/offline-access-not-supported",
    "auth/authorization-server-migration",
    "auth/iss-supported",
    "auth/iss-not-advertised",
    "auth/iss-supported-missing",
    "auth/iss-wrong-issuer",
    "auth/iss-unexpected",
    "auth/iss-normalized",
    "auth/metadata-issuer-mismatch",
    "auth/2025-03-26-oauth-metadata-backcompat",
    "auth/2025-03-26-oauth-endpoint-fallback",
    "auth/client-credentials-jwt",
    "auth/client-credentials-basic",
    "auth/enterprise-managed-authorization",
    "auth/dpop",
    "auth/dpop-nonce",
    "auth/wif-jwt-bearer",
];

/// The client ID metadata document URL the conformance suite's authorization servers accept.
pub const CONFORMANCE_CLIENT_METADATA_URL: &str =
    "https://conformance-test.local/client-metadata.json";

/// Whether `name` is one of the OAuth scenarios this client implements.
pub fn is_auth(name: &str) -> bool {
    AUTH_SCENARIOS.contains(&name)
}

/// A string member of the scenario context.
fn context_str<'a>(context: &'a Value, key: &str) -> Result<&'a str, String> {
    context[key]
        .as_str()
        .ok_or_else(|| format!("MCP_CONFORMANCE_CONTEXT has no string {key:?}"))
}

/// The OAuth client for the `auth/*` scenarios. The extension scenarios configure their grant
/// from the context: client credentials (`client_id` with `client_secret`, or with
/// `private_key_pem` and `signing_algorithm`), workload identity (`valid_jwt`), enterprise-managed
/// authorization (`idp_token_endpoint`, `idp_client_id`, `idp_id_token`, `client_id`,
/// `client_secret`); the DPoP scenarios turn DPoP on. The others use the authorization code grant:
/// the suite's authorization servers redirect at once ([`AutoRedirect`]); pre-registered
/// credentials come from the context (`client_id`, `client_secret`); servers that support client
/// ID metadata documents get the suite's URL.
pub fn conformance_oauth(scenario: &str, context: &Value) -> Result<OAuthClient, String> {
    let config = match scenario {
        "auth/client-credentials-basic" => OAuthConfig::client_credentials(
            context_str(context, "client_id")?,
            context_str(context, "client_secret")?,
        ),
        "auth/client-credentials-jwt" => {
            let alg = context["signing_algorithm"].as_str().unwrap_or("ES256");
            let key = SigningKey::from_pkcs8_pem(context_str(context, "private_key_pem")?, alg)
                .map_err(|e| e.to_string())?;
            OAuthConfig::client_credentials_jwt(context_str(context, "client_id")?, key)
        }
        "auth/wif-jwt-bearer" => OAuthConfig::jwt_bearer(
            context["client_id"].as_str().map(str::to_owned),
            Assertion::Value(context_str(context, "valid_jwt")?.to_owned()),
        ),
        "auth/enterprise-managed-authorization" => {
            OAuthConfig::enterprise_managed(EnterpriseManaged {
                idp_token_endpoint: context_str(context, "idp_token_endpoint")?.to_owned(),
                idp_client_id: context_str(context, "idp_client_id")?.to_owned(),
                idp_client_secret: None,
                id_token: Assertion::Value(context_str(context, "idp_id_token")?.to_owned()),
                client: ClientCredentials::confidential(
                    context_str(context, "client_id")?,
                    context_str(context, "client_secret")?,
                ),
            })
        }
        _ => {
            let mut config = OAuthConfig::new(
                "libmcp-everything-client",
                "http://localhost:3000/callback",
                AutoRedirect,
            );
            config.client_metadata_url = Some(CONFORMANCE_CLIENT_METADATA_URL.to_owned());
            if let Some(id) = context["client_id"].as_str() {
                config.pre_registered = Some(PreRegistered {
                    issuer: None,
                    credentials: ClientCredentials {
                        client_id: id.to_owned(),
                        client_secret: context["client_secret"].as_str().map(str::to_owned),
                        token_endpoint_auth_method: None,
                    },
                });
            }
            config.with_dpop(scenario.starts_with("auth/dpop"))
        }
    };
    Ok(OAuthClient::new(config))
}

/// The era and version to connect with: the harness's `MCP_CONFORMANCE_PROTOCOL_VERSION` decides
/// (dated versions through 2025-11-25 use `initialize`, 2026-07-28 and later the modern lifecycle);
/// without it the client probes. `json-schema-ref-no-deref` is always legacy: its mock server only
/// speaks the handshake lifecycle.
pub fn version_preference(scenario: &str, protocol_version: Option<&str>) -> VersionPreference {
    if scenario == "json-schema-ref-no-deref" {
        let v = protocol_version
            .map(ProtocolVersion::new)
            .filter(|v| v.era() == Era::Legacy)
            .unwrap_or(ProtocolVersion::LATEST_LEGACY);
        return VersionPreference::Legacy(v);
    }
    match protocol_version.map(ProtocolVersion::new) {
        None => VersionPreference::Auto,
        Some(v) if v.era() == Era::Legacy => VersionPreference::Legacy(v),
        Some(v) => VersionPreference::Modern(v),
    }
}

/// Answers an elicitation form: `accept`, with every schema `default` filled in, and a placeholder for
/// required fields that have none.
pub fn accept_with_defaults(params: &Value) -> Value {
    let schema = &params["requestedSchema"];
    let required: Vec<&str> = schema["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut content = Map::new();
    for (name, prop) in schema["properties"].as_object().into_iter().flatten() {
        if let Some(d) = prop.get("default") {
            content.insert(name.clone(), d.clone());
        } else if required.contains(&name.as_str()) {
            content.insert(name.clone(), placeholder(prop));
        }
    }
    json!({"action": "accept", "content": content})
}

/// A value of the property's type for a required field without a default.
fn placeholder(prop: &Value) -> Value {
    if let Some(first) = prop["enum"].as_array().and_then(|e| e.first()) {
        return first.clone();
    }
    if let Some(first) = prop["oneOf"].as_array().and_then(|e| e.first()) {
        return first["const"].clone();
    }
    match prop["type"].as_str() {
        Some("boolean") => json!(true),
        Some("integer" | "number") => json!(0),
        Some("array") => json!([]),
        _ => json!("conformance"),
    }
}

/// A client builder with the handlers the scenarios need: elicitation accepted with defaults, a canned
/// sampling answer, and one root.
pub fn client_builder() -> ClientBuilder {
    Client::builder("libmcp-everything-client", env!("CARGO_PKG_VERSION"))
        .on_elicitation(|params: Value| async move { Ok(accept_with_defaults(&params)) })
        .on_sampling(|_params: Value| async move {
            Ok(json!({
                "role": "assistant",
                "content": {"type": "text", "text": "This is a canned answer from the libmcp everything-client."},
                "model": "libmcp-everything-client",
                "stopReason": "endTurn",
            }))
        })
        .roots(vec![
            json!({"uri": "file:///tmp/libmcp-everything-client", "name": "Scratch"}),
        ])
}

/// Runs one scenario. `context` is the parsed `MCP_CONFORMANCE_CONTEXT` (or `{}`).
pub async fn run(name: &str, client: &Client, context: &Value) -> Result<(), String> {
    match name {
        "initialize" | "json-schema-ref-no-deref" => list_tools(client).await.map(drop),
        "tools_call" | "http-standard-headers" => {
            list_tools(client).await?;
            call(client, "add_numbers", json!({"a": 5, "b": 3})).await
        }
        "request-metadata" => {
            if client.era() == Era::Modern {
                client
                    .discover()
                    .await
                    .map_err(|e| format!("server/discover: {e}"))?;
            }
            list_tools(client).await?;
            call(client, "add_numbers", json!({"a": 5, "b": 3})).await
        }
        "elicitation-sep1034-client-defaults" => {
            call(client, "test_client_elicitation_defaults", json!({})).await
        }
        "sse-retry" => {
            list_tools(client).await?;
            call(client, "test_reconnection", json!({})).await
        }
        "sep-2322-client-request-state" => {
            list_tools(client).await?;
            for tool in [
                "test_mrtr_echo_state",
                "test_mrtr_unrelated",
                "test_mrtr_no_state",
                "test_mrtr_no_result_type",
            ] {
                call(client, tool, json!({})).await?;
            }
            Ok(())
        }
        "json-schema-2020-12-preservation" => {
            let tools = list_tools(client).await?;
            let schema = tools
                .iter()
                .find(|t| t.name == "json_schema_2020_12_tool")
                .map(|t| t.input_schema.clone())
                .ok_or("json_schema_2020_12_tool is not listed")?;
            call(client, "json_schema_echo", json!({ "schema": schema })).await
        }
        "http-custom-headers" => {
            // The transport learns each tool's x-mcp-header parameters from tools/list.
            list_tools(client).await?;
            let calls = context["toolCalls"].as_array().cloned().unwrap_or_default();
            for c in calls {
                let tool = c["name"].as_str().ok_or("a toolCalls entry has no name")?;
                let args = c.get("arguments").cloned().unwrap_or_else(|| json!({}));
                call(client, tool, args).await?;
            }
            Ok(())
        }
        "http-invalid-tool-headers" => {
            list_tools(client).await?;
            call(client, "valid_tool", json!({})).await
        }
        // Listing reads no skill file (files are read only when a skill is loaded).
        "sep-2640-client-no-prefetch" => client
            .list_all_skills()
            .await
            .map(drop)
            .map_err(|e| format!("skills/list: {e}")),
        // Loads every skill: its SKILL.md, verified, then its other files, each verified; the
        // first file that fails verification stops the scenario with an error.
        "sep-2640-client-verify-digest"
        | "sep-2640-client-verify-size"
        | "sep-2640-client-verify-frontmatter" => {
            let skills = client
                .list_all_skills()
                .await
                .map_err(|e| format!("skills/list: {e}"))?;
            for entry in skills {
                client
                    .read_skill_file(&entry, &entry.uri)
                    .await
                    .map_err(|e| format!("loading {}: {e}", entry.uri))?;
                if let SkillResources::Listed(files) = &entry.resources {
                    for f in files.iter().filter(|f| f.uri != entry.uri) {
                        client
                            .read_skill_file(&entry, &f.uri)
                            .await
                            .map_err(|e| format!("reading {}: {e}", f.uri))?;
                    }
                }
            }
            Ok(())
        }
        // Every request is authorized by the transport; two requests after connecting let the
        // step-up and migration scenarios challenge again.
        other if is_auth(other) => {
            list_tools(client).await?;
            call(client, "test-tool", json!({})).await
        }
        other => Err(format!("Unknown scenario: {other}")),
    }
}

async fn list_tools(client: &Client) -> Result<Vec<Tool>, String> {
    client
        .list_all_tools()
        .await
        .map_err(|e| format!("tools/list: {e}"))
}

/// Calls a tool; a result with `isError: true` is a failure of the scenario.
async fn call(client: &Client, tool: &str, args: Value) -> Result<(), String> {
    let r = client
        .call_tool(tool, args)
        .await
        .map_err(|e| format!("tools/call {tool}: {e}"))?;
    if r.is_error() {
        return Err(format!(
            "tools/call {tool} returned a tool error: {}",
            r.first_text().unwrap_or_default()
        ));
    }
    Ok(())
}
