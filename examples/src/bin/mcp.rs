//! `mcp`: talk to an MCP server over stdio or Streamable HTTP from the command line, and register it
//! in host applications.
//!
//! Usage: `mcp [OPTIONS] <command> [args] -- <server program> [args...] | <http URL>`; run
//! `mcp --help` for the commands and `mcp <command> --help` for one command's page.

use std::collections::VecDeque;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitStatus;
use std::sync::{Arc, Mutex};

use libmcp::auth::client::{OAuthClient, OAuthConfig, SigningKey};
use libmcp::client::http::HttpClientOptions;
use libmcp::client::{Client, ClientConfig, TaskCall, VersionPreference, WireDirection};
use libmcp::model::roots::Root;
use libmcp::transport::child::ChildSpec;
use libmcp_examples::cli::{self, Command, Options, ParseError, elicit, format, help, hosts};
use serde_json::{Value, json};

/// Exit code: the request failed or the tool reported an error.
const EXIT_FAILED: i32 = 1;
/// Exit code: usage error.
const EXIT_USAGE: i32 = 2;
/// Exit code: the server could not be started or connected to.
const EXIT_CONNECT: i32 = 3;
/// How many of the server's last stderr lines a start-up failure shows.
const STDERR_TAIL: usize = 20;

/// Why the command failed: the exit code, the message, the peer's error if it was one, and output
/// already due on stdout (a tool's error result).
struct Failure {
    code: i32,
    message: String,
    error: Option<libmcp::RpcError>,
    output: Option<String>,
}

impl Failure {
    fn new(code: i32, message: impl Into<String>) -> Self {
        Failure {
            code,
            message: message.into(),
            error: None,
            output: None,
        }
    }

    fn from_error(code: i32, what: &str, e: libmcp::Error) -> Self {
        let message = format!("{what}: {e}");
        let error = match e {
            libmcp::Error::Rpc(r) => Some(r),
            _ => None,
        };
        Failure {
            error,
            ..Failure::new(code, message)
        }
    }
}

/// Prints the failure (with `--json`, also as one `{"error": ...}` document on stdout) and exits.
fn fail(json_out: bool, f: Failure) -> ! {
    if let Some(out) = &f.output {
        println!("{out}");
    }
    if json_out && f.output.is_none() {
        let mut err = json!({"message": f.message, "exitCode": f.code});
        if let Some(e) = &f.error {
            err["code"] = json!(e.code);
            if let Some(d) = &e.data {
                err["data"] = d.clone();
            }
        }
        println!("{}", pretty(&json!({ "error": err })));
    }
    eprintln!("mcp: {}", f.message);
    std::process::exit(f.code)
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opts = match cli::parse(&args) {
        Ok(o) => o,
        Err(ParseError::Help(None)) => {
            println!("{}", cli::USAGE);
            return;
        }
        Err(ParseError::Version) => {
            println!("mcp {}", env!("CARGO_PKG_VERSION"));
            return;
        }
        Err(ParseError::Help(Some(c))) => match help::page(&c) {
            Some(page) => {
                print!("{page}");
                return;
            }
            None => usage_error(&format!("unknown command {c}"), None),
        },
        Err(ParseError::Usage(m, c)) => usage_error(&m, c.as_deref()),
    };
    match &opts.command {
        Command::Completions { shell } => {
            print!("{}", shell.script());
            return;
        }
        Command::Config { .. } => match config(&opts) {
            Ok(text) => {
                println!("{text}");
                return;
            }
            Err(f) => fail(opts.json, f),
        },
        _ => {}
    }
    let client = match connect(&opts).await {
        Ok(c) => c,
        Err(f) => fail(opts.json, f),
    };
    let outcome = run(&client, &opts).await;
    client.close().await;
    match outcome {
        Ok(text) => println!("{text}"),
        Err(f) => fail(opts.json, f),
    }
}

fn usage_error(message: &str, command: Option<&str>) -> ! {
    eprintln!("mcp: {message}\n{}", ParseError::hint(command));
    std::process::exit(EXIT_USAGE)
}

/// The server's stderr: the last lines kept for a start-up failure, and its exit status.
#[derive(Default)]
struct ServerLog {
    tail: Mutex<VecDeque<String>>,
    exit: Mutex<Option<ExitStatus>>,
}

impl ServerLog {
    /// `exited with status 3; its last lines on stderr: ...`, or nothing when it did not exit.
    fn describe(&self) -> Option<String> {
        let status = (*self.exit.lock().unwrap())?;
        let how = match (
            status.code(),
            std::os::unix::process::ExitStatusExt::signal(&status),
        ) {
            (Some(c), _) => format!("exit status {c}"),
            (None, Some(s)) => format!("signal {s}"),
            _ => status.to_string(),
        };
        let tail = self.tail.lock().unwrap();
        let mut text = format!("the server exited ({how})");
        if tail.is_empty() {
            text.push_str(" and wrote nothing on stderr");
        } else {
            text.push_str("; its last lines on stderr:");
            for l in tail.iter() {
                text.push_str("\n  ");
                text.push_str(l);
            }
        }
        Some(text)
    }
}

async fn connect(opts: &Options) -> Result<Client, Failure> {
    let interactive = std::io::stdin().is_terminal() && opts.answers.is_empty() && !opts.decline;
    let answers = Arc::new(opts.answers.clone());
    let decline = opts.decline;
    let mut config = ClientConfig::default();
    if let Some(t) = opts.timeout {
        config.request_timeout = t;
        config.probe_timeout = config.probe_timeout.min(t);
    }
    let mut builder = Client::builder("mcp-cli", env!("CARGO_PKG_VERSION"))
        .version_preference(opts.preference.clone())
        .config(config)
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
    if !opts.roots.is_empty() {
        builder = builder.roots(roots(&opts.roots)?);
    }
    if opts.verbose {
        builder = builder.on_wire(|direction, bytes| {
            let arrow = match direction {
                WireDirection::Sent => "-->",
                WireDirection::Received => "<--",
            };
            eprintln!("mcp: {arrow} {}", String::from_utf8_lossy(bytes).trim_end());
        });
    }
    let (program, rest) = opts.server.split_first().expect("parse checked a server");
    let log = Arc::new(ServerLog::default());
    let connected = if cli::is_http_url(&opts.server) {
        builder
            .connect_http_with(program, http_options(opts).await?)
            .await
    } else {
        let mut spec = ChildSpec::new(program.clone(), rest.iter().cloned());
        spec.env = opts.env.clone();
        spec.cwd = opts.cwd.as_ref().map(PathBuf::from);
        let (sink, verbose) = (log.clone(), opts.verbose);
        spec.stderr = Some(Arc::new(move |line: &str| {
            if verbose {
                eprintln!("[server] {line}");
            }
            let mut tail = sink.tail.lock().unwrap();
            if tail.len() == STDERR_TAIL {
                tail.pop_front();
            }
            tail.push_back(line.to_string());
        }));
        let exit = log.clone();
        spec.on_exit = Some(Arc::new(move |status| {
            *exit.exit.lock().unwrap() = Some(status);
        }));
        builder.connect_stdio(spec).await
    };
    connected.map_err(|e| {
        // An answer (an error, a refused version) or silence means the server runs but did not take
        // the request; anything else means it is gone, and its exit says why.
        let answered = matches!(
            e,
            libmcp::Error::Rpc(_) | libmcp::Error::Negotiation(_) | libmcp::Error::Timeout(_)
        );
        let what = format!("cannot connect to server {program}");
        let mut f = Failure::from_error(EXIT_CONNECT, &what, e);
        if answered && matches!(opts.preference, VersionPreference::Modern(_)) {
            f.message.push_str(
                "\nhint: the server may speak only the legacy era (initialize handshake): try --legacy 2025-11-25, or leave out --modern to let mcp find out",
            );
        } else if let Some(died) = log.describe().filter(|_| !answered) {
            f.message = format!("{}\n{died}", f.message);
        }
        f
    })
}

/// The `--root` directories as roots: absolute, percent-encoded `file://` URIs, named after the
/// directory.
fn roots(paths: &[String]) -> Result<Vec<Value>, Failure> {
    paths
        .iter()
        .map(|p| {
            let path = Path::new(p);
            if !path.is_dir() {
                return Err(Failure::new(
                    EXIT_USAGE,
                    format!("--root {p}: no such directory"),
                ));
            }
            let abs = std::path::absolute(path)
                .map_err(|e| Failure::new(EXIT_USAGE, format!("--root {p}: {e}")))?;
            let mut root = Root::from_path(&abs)
                .map_err(|e| Failure::new(EXIT_USAGE, format!("--root {p}: {e}")))?;
            root.name = abs.file_name().map(|n| n.to_string_lossy().into_owned());
            Ok(serde_json::to_value(root).unwrap_or_default())
        })
        .collect()
}

/// The HTTP options from `--header`, `--bearer` and `--cacert`; OAuth unless an Authorization header
/// was given.
/// The client credentials grant of `--client-id` with `--client-secret` or `--client-key`.
fn client_credentials(id: &str, opts: &Options) -> Result<OAuthConfig, Failure> {
    let Some(file) = &opts.client_key else {
        let secret = opts.client_secret.clone().unwrap_or_default();
        return Ok(OAuthConfig::client_credentials(id, secret));
    };
    let pem = std::fs::read_to_string(file)
        .map_err(|e| Failure::new(EXIT_USAGE, format!("cannot read --client-key {file}: {e}")))?;
    let key = SigningKey::from_pkcs8_pem(&pem, "ES256")
        .map_err(|e| Failure::new(EXIT_USAGE, format!("--client-key {file}: {e}")))?;
    Ok(OAuthConfig::client_credentials_jwt(id, key))
}

async fn http_options(opts: &Options) -> Result<HttpClientOptions, Failure> {
    let mut root_certificates = Vec::new();
    for file in &opts.cacerts {
        match std::fs::read(file) {
            Ok(pem) if pem.windows(27).any(|w| w == b"-----BEGIN CERTIFICATE-----") => {
                root_certificates.push(pem)
            }
            Ok(_) => {
                return Err(Failure::new(
                    EXIT_USAGE,
                    format!(
                        "--cacert {file} holds no PEM certificate (-----BEGIN CERTIFICATE-----)"
                    ),
                ));
            }
            Err(e) => {
                return Err(Failure::new(
                    EXIT_USAGE,
                    format!("cannot read --cacert {file}: {e}"),
                ));
            }
        }
    }
    let own_authorization = opts
        .headers
        .iter()
        .any(|(k, _)| k.eq_ignore_ascii_case("authorization"));
    let auth = if own_authorization {
        None
    } else if let Some(id) = &opts.client_id {
        Some(OAuthClient::new(client_credentials(id, opts)?))
    } else {
        Some(cli::oauth::loopback_oauth().await.map_err(|e| {
            Failure::new(
                EXIT_CONNECT,
                format!("cannot open the OAuth callback listener: {e}"),
            )
        })?)
    };
    Ok(HttpClientOptions {
        headers: opts.headers.clone(),
        auth,
        root_certificates,
        ..Default::default()
    })
}

/// `mcp config`: the host's entry, printed, or merged into its file.
fn config(opts: &Options) -> Result<String, Failure> {
    let Command::Config {
        host,
        name,
        write,
        file,
    } = &opts.command
    else {
        unreachable!("called for config only");
    };
    let usage = |m: String| Failure::new(EXIT_USAGE, m);
    let cwd = std::env::current_dir().map_err(|e| usage(format!("no current directory: {e}")))?;
    let base = opts.cwd.as_ref().map_or(cwd.clone(), |d| cwd.join(d));
    let path = std::env::var("PATH").ok();
    let server = if cli::is_http_url(&opts.server) {
        hosts::Server::Remote {
            url: opts.server[0].clone(),
            headers: opts.headers.clone(),
        }
    } else {
        let (program, args) = opts.server.split_first().expect("parse checked a server");
        hosts::Server::Stdio {
            command: hosts::absolute_program(program, &base, path.as_deref()).map_err(usage)?,
            args: hosts::absolute_args(args, &base),
            env: opts.env.clone(),
        }
    };
    let npx =
        hosts::absolute_program("npx", &cwd, path.as_deref()).unwrap_or_else(|_| "npx".into());
    let name = name
        .clone()
        .unwrap_or_else(|| hosts::default_name(&opts.server));
    let entry = hosts::entry(*host, &server, &npx);
    if !write {
        return Ok(pretty(&hosts::snippet(*host, &name, entry)));
    }
    let file = match file {
        Some(f) => cwd.join(f),
        None => {
            let home = PathBuf::from(
                std::env::var("HOME").map_err(|_| usage("HOME is not set; give --file".into()))?,
            );
            let config_dir = if cfg!(target_os = "macos") {
                home.join("Library/Application Support")
            } else {
                std::env::var("XDG_CONFIG_HOME")
                    .ok()
                    .filter(|d| !d.is_empty())
                    .map_or(home.join(".config"), PathBuf::from)
            };
            hosts::default_file(*host, &home, &config_dir, &cwd)
        }
    };
    let note =
        hosts::write(&file, *host, &name, entry).map_err(|m| Failure::new(EXIT_FAILED, m))?;
    Ok(if opts.json {
        pretty(&json!({"written": file.display().to_string(), "name": name}))
    } else {
        note
    })
}

/// `call --task`: offers to run the tool as a task and follows it to its end, printing each status
/// it reports on stderr; the result, as `tools/call` would have given it.
async fn call_as_task(client: &Client, tool: &str, args: &Value) -> libmcp::Result<Value> {
    let result = match client.call_tool_as_task(tool, args).await? {
        TaskCall::Complete(r) => {
            eprintln!("mcp: the server ran {tool} at once, not as a task");
            r
        }
        TaskCall::Task(t) => {
            client
                .follow_task(&t, |t| match &t.status_message {
                    Some(m) => eprintln!("mcp: task {}: {} ({m})", t.task_id, t.status.as_str()),
                    None => eprintln!("mcp: task {}: {}", t.task_id, t.status.as_str()),
                })
                .await?
        }
    };
    serde_json::to_value(result)
        .map_err(|e| libmcp::Error::Protocol(format!("the task's result does not serialize: {e}")))
}

/// Runs the command; the text to print, or why it failed.
async fn run(client: &Client, opts: &Options) -> Result<String, Failure> {
    let failed = |what: &str, e: libmcp::Error| {
        Failure::from_error(EXIT_FAILED, &format!("{what} failed"), e)
    };
    let list = |items: Vec<Value>, key: &str| pretty(&json!({ key: items }));
    let d = client.server();
    if let Some(why) = cli::missing_capability(&opts.command, &d.capabilities) {
        return Err(Failure::new(EXIT_FAILED, why));
    }
    Ok(match &opts.command {
        Command::Info if opts.json => pretty(&format::info_json(&d)),
        Command::Info => format::info(&d).trim_end().to_string(),
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
        Command::Call { tool, args, task } => {
            let r = if *task {
                call_as_task(client, tool, args).await
            } else {
                client.call_tool_raw(tool, args.clone()).await
            }
            .map_err(|e| failed(&format!("calling tool {tool}"), e))?;
            let text = if opts.json {
                pretty(&r)
            } else {
                format::call_result(&r)
            };
            if r["isError"] == true {
                return Err(Failure {
                    output: Some(text),
                    ..Failure::new(EXIT_FAILED, format!("tool {tool} reported an error"))
                });
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
            context,
        } => {
            let context = (!context.is_empty()).then(|| {
                Value::Object(context.iter().map(|(k, v)| (k.clone(), json!(v))).collect())
            });
            let r = client
                .complete_raw(reference.clone(), argument, value, context)
                .await
                .map_err(|e| failed("completion/complete", e))?;
            if opts.json {
                pretty(&r)
            } else {
                format::completion(&r)
            }
        }
        Command::Config { .. } | Command::Completions { .. } => {
            unreachable!("handled before connecting")
        }
    })
}
