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
use libmcp::model::logging::LoggingLevel;
use libmcp::model::roots::Root;
use libmcp::transport::child::ChildSpec;
use libmcp_examples::cli::{self, Command, Options, ParseError, elicit, format, help, hosts, out};
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

/// Prints the failure (with `--json`, also as one `{"error": ...}` document on stdout); the exit status
/// to end with.
fn report(json_out: bool, f: &Failure) -> i32 {
    let mut printed = Ok(());
    if let Some(out) = &f.output {
        printed = out::stdout_line(out);
    }
    if json_out && f.output.is_none() {
        let mut err = json!({"message": f.message, "exitCode": f.code});
        if let Some(e) = &f.error {
            err["code"] = json!(e.code);
            if let Some(d) = &e.data {
                err["data"] = d.clone();
            }
        }
        printed = out::stdout_line(&pretty(&json!({ "error": err })));
    }
    out::stderr_line(&format!("mcp: {}", f.message));
    out::status(printed, f.code)
}

/// Reports the failure and exits (before any server was started, or when none is left to close).
fn fail(json_out: bool, f: Failure) -> ! {
    std::process::exit(report(json_out, &f))
}

/// Prints `text` (and a newline when `line`) and exits: 0, or [`out::EXIT_CLOSED_PIPE`].
fn print_and_exit(text: &str, line: bool) -> ! {
    let printed = if line {
        out::stdout_line(text)
    } else {
        out::stdout(text)
    };
    std::process::exit(out::status(printed, 0))
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let json_out = cli::wants_json(&args);
    let opts = match cli::parse(&args) {
        Ok(o) => o,
        Err(ParseError::Help(None)) => print_and_exit(cli::USAGE, true),
        Err(ParseError::Version) => print_and_exit(&help::version_line(), true),
        Err(ParseError::Help(Some(c))) => match help::page(&c) {
            Some(page) => print_and_exit(&page, false),
            None => {
                let hint = cli::suggest::hint(&c, help::commands());
                usage_error(json_out, &format!("unknown command {c}{hint}"), None)
            }
        },
        Err(ParseError::Usage(m, c)) => usage_error(json_out, &m, c.as_deref()),
    };
    match &opts.command {
        Command::Completions { shell } => print_and_exit(&shell.script(), false),
        Command::Config { .. } => match config(&opts) {
            Ok(text) => print_and_exit(&text, true),
            Err(f) => fail(opts.json, f),
        },
        _ => {}
    }
    // What a bundle would hold is worked out before the server is started (usage errors first).
    let bundle = match &opts.command {
        Command::Pack { .. } => Some(pack_plan(&opts).unwrap_or_else(|f| fail(opts.json, f))),
        _ => None,
    };
    let client = match connect(&opts).await {
        Ok(c) => c,
        Err(f) => fail(opts.json, f),
    };
    let outcome = match &bundle {
        Some(b) => pack(&client, &opts, b).await,
        None => run(&client, &opts).await,
    };
    // The answer is printed as soon as it is there; closing the server comes after (it may take the
    // child's shutdown grace periods, a few seconds, for a server slow to exit).
    let code = match outcome {
        Ok(text) => out::status(out::stdout_line(&text), 0),
        Err(f) => report(opts.json, &f),
    };
    client.close().await;
    std::process::exit(code)
}

/// Reports a usage error on stderr (with `--json`, also as `{"error": ...}` on stdout) and exits 2.
fn usage_error(json_out: bool, message: &str, command: Option<&str>) -> ! {
    let hint = ParseError::hint(command);
    let mut printed = Ok(());
    if json_out {
        let err = json!({"message": message, "exitCode": EXIT_USAGE, "hint": hint});
        printed = out::stdout_line(&pretty(&json!({ "error": err })));
    }
    out::stderr_line(&format!("mcp: {message}\n{hint}"));
    std::process::exit(out::status(printed, EXIT_USAGE))
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
    // Progress and the server's log messages: shown on a terminal (the wire trace of --verbose
    // already holds them), silenced by --quiet or when stderr is piped.
    let notes = !opts.quiet && !opts.verbose && std::io::stderr().is_terminal();
    if notes {
        config.log_level = Some(LoggingLevel::Info);
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
                    out::stderr_line(&format!("mcp: elicitation: {n}"));
                }
                Ok(result)
            }
        });
    if notes {
        builder = builder.on_notification(|method, params| {
            if let Some(line) = format::notification(method, params) {
                out::stderr_line(&format!("mcp: {line}"));
            }
        });
    }
    if !opts.roots.is_empty() {
        builder = builder.roots(roots(&opts.roots)?);
    }
    if opts.verbose {
        builder = builder.on_wire(|direction, bytes| {
            let arrow = match direction {
                WireDirection::Sent => "-->",
                WireDirection::Received => "<--",
            };
            out::stderr_line(&format!(
                "mcp: {arrow} {}",
                String::from_utf8_lossy(bytes).trim_end()
            ));
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
                out::stderr_line(&format!("[server] {line}"));
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
        scope,
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
    } else if host.portable() {
        // A plugin runs on other machines: the command as given.
        let (program, args) = opts.server.split_first().expect("parse checked a server");
        hosts::Server::Stdio {
            command: program.clone(),
            args: args.to_vec(),
            env: opts.env.clone(),
        }
    } else {
        let (program, args) = opts.server.split_first().expect("parse checked a server");
        let found = hosts::absolute_program(program, &base, path.as_deref()).map_err(usage)?;
        let (command, note) = hosts::shims::resolve(&found, &base, path.as_deref());
        if let Some(note) = note {
            out::stderr_line(&format!("mcp: {note}"));
        }
        hosts::Server::Stdio {
            command,
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
    let home = std::env::var("HOME").ok().filter(|h| !h.is_empty());
    if *write && file.is_none() && home.is_none() {
        return Err(usage("HOME is not set; give --file".into()));
    }
    let home = PathBuf::from(home.unwrap_or_default());
    let config_dir = if cfg!(target_os = "macos") {
        home.join("Library/Application Support")
    } else {
        std::env::var("XDG_CONFIG_HOME")
            .ok()
            .filter(|d| !d.is_empty())
            .map_or(home.join(".config"), PathBuf::from)
    };
    let codex_home = std::env::var("CODEX_HOME")
        .ok()
        .filter(|d| !d.is_empty())
        .map(PathBuf::from);
    let dirs = hosts::Dirs {
        home: &home,
        config_dir: &config_dir,
        cwd: &cwd,
        codex_home: codex_home.as_deref(),
    };
    let target = hosts::target(*host, *scope, &dirs, file.as_ref().map(|f| cwd.join(f)));
    if !write {
        if opts.json {
            // The entry where it goes, as JSON whatever the file's format.
            let mut doc = json!({ name.as_str(): entry });
            for key in target.servers.iter().rev() {
                doc = json!({ key.as_str(): doc });
            }
            return Ok(pretty(&doc));
        }
        return target
            .snippet(&name, &entry)
            .map_err(|m| Failure::new(EXIT_FAILED, m));
    }
    let note = hosts::write(&target, &name, &entry).map_err(|m| Failure::new(EXIT_FAILED, m))?;
    Ok(if opts.json {
        let written = match host {
            hosts::Host::AgentPlugin => target.file.join("mcp.json"),
            _ => target.file.clone(),
        };
        pretty(&json!({"written": written.display().to_string(), "name": name}))
    } else {
        note
    })
}

/// What `mcp pack` packs, from the command line.
fn pack_plan(opts: &Options) -> Result<cli::pack::Bundle, Failure> {
    let usage = |m: String| Failure::new(EXIT_USAGE, m);
    let cwd = std::env::current_dir().map_err(|e| usage(format!("no current directory: {e}")))?;
    let base = opts.cwd.as_ref().map_or(cwd.clone(), |d| cwd.join(d));
    let path = std::env::var("PATH").ok();
    let program =
        hosts::absolute_program(&opts.server[0], &base, path.as_deref()).map_err(usage)?;
    cli::pack::plan(&opts.server, &base, &program).map_err(usage)
}

/// `mcp pack`: the bundle of the connected stdio server, written; what was written.
async fn pack(
    client: &Client,
    opts: &Options,
    bundle: &cli::pack::Bundle,
) -> Result<String, Failure> {
    let Command::Pack { name, author, file } = &opts.command else {
        unreachable!("called for pack only");
    };
    let failed = |m: String| Failure::new(EXIT_FAILED, m);
    let cwd = std::env::current_dir()
        .map_err(|e| Failure::new(EXIT_USAGE, format!("no current directory: {e}")))?;
    let d = client.server();
    let tools = if d.capabilities.get("tools").is_some() {
        client
            .list_all_raw("tools/list")
            .await
            .map_err(|e| Failure::from_error(EXIT_FAILED, "tools/list failed", e))?
    } else {
        Vec::new()
    };
    let user = std::env::var("USER").ok().filter(|u| !u.is_empty());
    let author = author.clone().or(user).unwrap_or_else(|| {
        out::stderr_line(
            "mcp: no --author and no $USER: the manifest names the author \"unknown\"",
        );
        "unknown".into()
    });
    let manifest = cli::pack::manifest(bundle, &d, &tools, name.as_deref(), &author, &opts.env);
    let out_file = match file {
        Some(f) => cwd.join(f),
        None => cwd.join(format!(
            "{}-{}.mcpb",
            manifest["name"].as_str().unwrap_or("server"),
            manifest["version"].as_str().unwrap_or("0.0.0")
        )),
    };
    let (count, size) = cli::pack::write(bundle, &manifest, &out_file).map_err(failed)?;
    Ok(if opts.json {
        pretty(
            &json!({"written": out_file.display().to_string(), "files": count, "bytes": size, "manifest": manifest}),
        )
    } else {
        format!(
            "wrote {} ({}, {size} bytes): {} server, entry point {}",
            out_file.display(),
            format::count(count, "file", "files"),
            bundle.kind,
            manifest["server"]["entry_point"]
                .as_str()
                .unwrap_or_default()
        )
    })
}

/// `mcp server-json`: the registry's `server.json`, printed or written to `file`.
fn server_json(
    client: &Client,
    opts: &Options,
    name: &str,
    package: Option<&cli::server_json::Package>,
    file: Option<&str>,
) -> Result<String, Failure> {
    use cli::server_json::{Reach, detect_package, document};
    let reach = if cli::is_http_url(&opts.server) {
        Reach::Remote(&opts.server[0], &opts.headers)
    } else {
        let package = package
            .cloned()
            .or_else(|| detect_package(&opts.server))
            .ok_or_else(|| {
                Failure::new(
                    EXIT_USAGE,
                    format!(
                        "server-json needs --package REGISTRY:SPEC (npm:NAME@VERSION, pypi:NAME==VERSION or oci:IMAGE:TAG): {} runs no package the registry knows (npx or uvx)",
                        opts.server[0]
                    ),
                )
            })?;
        Reach::Package(package, &opts.env)
    };
    let doc = document(name, &client.server(), reach);
    let text = cli::jsonc::render(&doc, "", "  ");
    let Some(file) = file else {
        return Ok(text);
    };
    std::fs::write(file, text + "\n")
        .map_err(|e| Failure::new(EXIT_FAILED, format!("cannot write {file}: {e}")))?;
    Ok(if opts.json {
        pretty(&json!({"written": file, "name": name}))
    } else {
        format!("wrote {file} ({name})")
    })
}

/// `call --task`: offers to run the tool as a task and follows it to its end, printing each status
/// it reports on stderr; the result, as `tools/call` would have given it.
async fn call_as_task(client: &Client, tool: &str, args: &Value) -> libmcp::Result<Value> {
    let result = match client.call_tool_as_task(tool, args).await? {
        TaskCall::Complete(r) => {
            out::stderr_line(&format!(
                "mcp: the server ran {tool} at once, not as a task"
            ));
            r
        }
        TaskCall::Task(t) => {
            client
                .follow_task(&t, |t| {
                    out::stderr_line(&match &t.status_message {
                        Some(m) => format!("mcp: task {}: {} ({m})", t.task_id, t.status.as_str()),
                        None => format!("mcp: task {}: {}", t.task_id, t.status.as_str()),
                    })
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
        Command::ServerJson {
            name,
            package,
            file,
        } => server_json(client, opts, name, package.as_ref(), file.as_deref())?,
        Command::Config { .. } | Command::Completions { .. } | Command::Pack { .. } => {
            unreachable!("handled apart")
        }
    })
}
