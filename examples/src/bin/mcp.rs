//! `mcp`: talk to an MCP server over stdio or Streamable HTTP from the command line.
//!
//! Usage: `mcp [--legacy VERSION|--modern VERSION] [--json] [--answer KEY=VALUE]... [--decline]
//! <command> [args] -- <server program> [args...] | <http URL>`; run `mcp --help` for the commands.

use std::io::IsTerminal;
use std::sync::Arc;

use libmcp::client::Client;
use libmcp::client::http::HttpClientOptions;
use libmcp::transport::child::ChildSpec;
use libmcp_examples::cli::{self, Command, Options, ParseError, elicit, format};
use serde_json::{Value, json};

/// Exit code: the request failed or the tool reported an error.
const EXIT_FAILED: i32 = 1;
/// Exit code: usage error.
const EXIT_USAGE: i32 = 2;
/// Exit code: the server could not be started or connected to.
const EXIT_CONNECT: i32 = 3;

fn die(code: i32, msg: &str) -> ! {
    eprintln!("mcp: {msg}");
    std::process::exit(code)
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opts = match cli::parse(&args) {
        Ok(o) => o,
        Err(ParseError::Help) => {
            println!("{}", cli::USAGE);
            return;
        }
        Err(ParseError::Usage(m)) => die(EXIT_USAGE, &format!("{m}\n\n{}", cli::USAGE)),
    };
    let client = connect(&opts).await;
    let outcome = run(&client, &opts).await;
    client.close().await;
    match outcome {
        Ok(text) => println!("{text}"),
        Err((code, msg)) => die(code, &msg),
    }
}

async fn connect(opts: &Options) -> Client {
    let interactive = std::io::stdin().is_terminal() && opts.answers.is_empty() && !opts.decline;
    let answers = Arc::new(opts.answers.clone());
    let decline = opts.decline;
    let cwd = std::env::current_dir()
        .ok()
        .and_then(|d| d.to_str().map(|s| format!("file://{s}")));
    let mut builder = Client::builder("mcp-cli", env!("CARGO_PKG_VERSION"))
        .version_preference(opts.preference.clone())
        .on_elicitation(move |params: Value| {
            let answers = answers.clone();
            async move {
                if decline {
                    return Ok(json!({"action": "decline"}));
                }
                if interactive {
                    // The terminal is read on a blocking thread; the engine keeps serving meanwhile.
                    let r = tokio::task::spawn_blocking(move || {
                        let mut stderr = std::io::stderr();
                        elicit::interactive(&params, &mut std::io::stdin().lock(), &mut stderr)
                    })
                    .await;
                    return Ok(match r {
                        Ok(Ok(v)) => v,
                        _ => json!({"action": "cancel"}),
                    });
                }
                let (result, notes) = elicit::from_answers(&params, &answers);
                for n in notes {
                    eprintln!("mcp: elicitation: {n}");
                }
                Ok(result)
            }
        });
    if let Some(uri) = cwd {
        builder = builder.roots(vec![json!({"uri": uri, "name": "current directory"})]);
    }
    let (program, rest) = opts.server.split_first().expect("parse checked a server");
    let connected = if cli::is_http_url(&opts.server) {
        builder
            .connect_http_with(program, http_options(opts).await)
            .await
    } else {
        builder
            .connect_stdio(ChildSpec::new(program.clone(), rest.iter().cloned()))
            .await
    };
    match connected {
        Ok(c) => c,
        Err(e) => die(
            EXIT_CONNECT,
            &format!("cannot connect to server {program}: {e}"),
        ),
    }
}

/// The HTTP options from `--header`, `--bearer` and `--cacert`; OAuth unless an Authorization header
/// was given.
async fn http_options(opts: &Options) -> HttpClientOptions {
    let mut root_certificates = Vec::new();
    for file in &opts.cacerts {
        match std::fs::read(file) {
            Ok(pem) if pem.windows(27).any(|w| w == b"-----BEGIN CERTIFICATE-----") => {
                root_certificates.push(pem)
            }
            Ok(_) => die(
                EXIT_USAGE,
                &format!("--cacert {file} holds no PEM certificate (-----BEGIN CERTIFICATE-----)"),
            ),
            Err(e) => die(EXIT_USAGE, &format!("cannot read --cacert {file}: {e}")),
        }
    }
    let own_authorization = opts
        .headers
        .iter()
        .any(|(k, _)| k.eq_ignore_ascii_case("authorization"));
    let auth = if own_authorization {
        None
    } else {
        match cli::oauth::loopback_oauth().await {
            Ok(a) => Some(a),
            Err(e) => die(
                EXIT_CONNECT,
                &format!("cannot open the OAuth callback listener: {e}"),
            ),
        }
    };
    HttpClientOptions {
        headers: opts.headers.clone(),
        auth,
        root_certificates,
        ..Default::default()
    }
}

/// Runs the command; the text to print, or an exit code and message.
async fn run(client: &Client, opts: &Options) -> Result<String, (i32, String)> {
    let failed = |what: &str, e: libmcp::Error| (EXIT_FAILED, format!("{what} failed: {e}"));
    let pretty = |v: &Value| serde_json::to_string_pretty(v).unwrap_or_default();
    let list = |items: Vec<Value>, key: &str| pretty(&json!({ key: items }));
    Ok(match &opts.command {
        Command::Info => {
            let d = client.server();
            if opts.json {
                pretty(&json!({
                    "era": format!("{:?}", d.era).to_lowercase(),
                    "protocolVersion": d.version.as_str(),
                    "supportedVersions": d.supported_versions,
                    "serverInfo": d.server_info,
                    "capabilities": d.capabilities,
                    "instructions": d.instructions,
                }))
            } else {
                format::info(&d).trim_end().to_string()
            }
        }
        Command::Tools => {
            let t = client
                .list_all_raw("tools/list")
                .await
                .map_err(|e| failed("tools/list", e))?;
            if opts.json {
                list(t, "tools")
            } else {
                format::tools(&t)
            }
        }
        Command::Resources => {
            let r = client
                .list_all_raw("resources/list")
                .await
                .map_err(|e| failed("resources/list", e))?;
            if opts.json {
                list(r, "resources")
            } else {
                format::resources(&r, "uri")
            }
        }
        Command::Templates => {
            let r = client
                .list_all_raw("resources/templates/list")
                .await
                .map_err(|e| failed("resources/templates/list", e))?;
            if opts.json {
                list(r, "resourceTemplates")
            } else {
                format::resources(&r, "uriTemplate")
            }
        }
        Command::Prompts => {
            let p = client
                .list_all_raw("prompts/list")
                .await
                .map_err(|e| failed("prompts/list", e))?;
            if opts.json {
                list(p, "prompts")
            } else {
                format::prompts(&p)
            }
        }
        Command::Call { tool, args } => {
            let r = client
                .call_tool_raw(tool, args.clone())
                .await
                .map_err(|e| failed(&format!("calling tool {tool}"), e))?;
            let text = if opts.json {
                pretty(&r)
            } else {
                format::call_result(&r)
            };
            if r["isError"] == true {
                println!("{text}");
                return Err((EXIT_FAILED, format!("tool {tool} reported an error")));
            }
            text
        }
        Command::Read { uri } => {
            let r = client
                .read_resource_raw(uri)
                .await
                .map_err(|e| failed(&format!("reading {uri}"), e))?;
            if opts.json {
                pretty(&r)
            } else {
                format::read_result(&r)
            }
        }
        Command::Prompt { name, args } => {
            let r = client
                .get_prompt_raw(name, args.clone())
                .await
                .map_err(|e| failed(&format!("getting prompt {name}"), e))?;
            if opts.json {
                pretty(&r)
            } else {
                format::prompt_result(&r)
            }
        }
        Command::Complete {
            reference,
            argument,
            value,
        } => {
            let r = client
                .complete_raw(reference.clone(), argument, value, None)
                .await
                .map_err(|e| failed("completion/complete", e))?;
            if opts.json {
                pretty(&r)
            } else {
                format::completion(&r)
            }
        }
    })
}
