//! The `mcp` command-line tool: argument parsing ([`parse`]), help texts ([`help`]), answering
//! elicitation ([`elicit`]), human-readable output ([`format`](mod@format)), host configuration
//! snippets ([`hosts`]) and shell completions ([`completions`]).

pub mod completions;
pub mod elicit;
pub mod format;
pub mod help;
pub mod hosts;
pub mod jsonc;
pub mod oauth;
pub mod out;
pub mod pack;
pub mod server_json;
pub mod suggest;

use std::time::Duration;

use libmcp::ProtocolVersion;
use libmcp::client::VersionPreference;
use serde_json::Value;

pub use help::USAGE;

/// What to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `info`.
    Info,
    /// `tools`.
    Tools,
    /// `call <tool> [json-args]`.
    Call {
        /// The tool.
        tool: String,
        /// The arguments object.
        args: Value,
        /// `--task`: offer to run it as a task and follow the task to its end.
        task: bool,
    },
    /// `resources`.
    Resources,
    /// `read <uri>`.
    Read {
        /// The resource URI.
        uri: String,
    },
    /// `templates`.
    Templates,
    /// `prompts`.
    Prompts,
    /// `prompt <name> [json-args]`.
    Prompt {
        /// The prompt.
        name: String,
        /// The arguments object.
        args: Value,
    },
    /// `complete <prompt|uri> <arg> [value] [--arg NAME=VALUE]...`.
    Complete {
        /// `ref/prompt` or `ref/resource` reference.
        reference: Value,
        /// The argument to complete.
        argument: String,
        /// What was typed so far.
        value: String,
        /// Arguments already chosen (`context.arguments`).
        context: Vec<(String, String)>,
    },
    /// `config <host> [--name NAME] [--write] [--file FILE]`.
    Config {
        /// The host application.
        host: hosts::Host,
        /// The server's name in the host's configuration.
        name: Option<String>,
        /// Merge into the host's file instead of printing.
        write: bool,
        /// Which of the host's files: `--scope`, or the host's default.
        scope: hosts::Scope,
        /// The file to merge into (default: the host's usual file).
        file: Option<String>,
    },
    /// `pack [--name NAME] [--author NAME] [--file OUT.mcpb]`: an MCP Bundle of a stdio server.
    Pack {
        /// The bundle's name (default: the server's name).
        name: Option<String>,
        /// The author named in the manifest (default: `$USER`).
        author: Option<String>,
        /// Where to write the bundle (default: `NAME-VERSION.mcpb` here).
        file: Option<String>,
    },
    /// `server-json --name NAMESPACE/NAME [--package REGISTRY:SPEC] [--file FILE]`: the registry's
    /// `server.json` for the server.
    ServerJson {
        /// The registry name (reverse DNS namespace, a slash, the server's name).
        name: String,
        /// The package, when the command line does not show it (`npx`/`uvx`).
        package: Option<server_json::Package>,
        /// Where to write it (default: printed).
        file: Option<String>,
    },
    /// `completions <shell>`.
    Completions {
        /// The shell.
        shell: completions::Shell,
    },
}

impl Command {
    /// Whether the command talks to a server.
    pub fn connects(&self) -> bool {
        !matches!(self, Command::Config { .. } | Command::Completions { .. })
    }
}

/// Parsed command line.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Era and version.
    pub preference: VersionPreference,
    /// Print one JSON document.
    pub json: bool,
    /// `--answer KEY=VALUE` pairs, in order.
    pub answers: Vec<(String, String)>,
    /// `--decline`.
    pub decline: bool,
    /// `--header` and `--bearer` values, as (name, value), in order (HTTP URLs only).
    pub headers: Vec<(String, String)>,
    /// `--cacert` files, in order (HTTP URLs only).
    pub cacerts: Vec<String>,
    /// `--client-id`: authorize with the client credentials grant as this client (HTTP URLs only),
    /// authenticated with `--client-secret` or `--client-key`.
    pub client_id: Option<String>,
    /// `--client-secret SECRET`.
    pub client_secret: Option<String>,
    /// `--client-key FILE`: a PKCS #8 PEM ES256 key signing a `private_key_jwt` assertion.
    pub client_key: Option<String>,
    /// `--root` directories, as given, in order.
    pub roots: Vec<String>,
    /// `--env K=V` for the server process, in order.
    pub env: Vec<(String, String)>,
    /// `--cwd DIR`: the server process's working directory.
    pub cwd: Option<String>,
    /// `--timeout SECONDS`: how long a request may go without an answer or progress.
    pub timeout: Option<Duration>,
    /// `--verbose`: every message on stderr, and the server's stderr as it comes.
    pub verbose: bool,
    /// `--quiet`: no progress or log messages of the server on stderr, even on a terminal.
    pub quiet: bool,
    /// The command.
    pub command: Command,
    /// The server program and its arguments, or one http(s) URL.
    pub server: Vec<String>,
}

/// Why the command line was not accepted.
#[derive(Clone, Debug, PartialEq)]
pub enum ParseError {
    /// `--help` was asked for, for this command (or in general).
    Help(Option<String>),
    /// `--version` was asked for.
    Version,
    /// A usage error, described, and the command it concerns (for the hint).
    Usage(String, Option<String>),
}

impl ParseError {
    /// The hint printed under a usage error.
    pub fn hint(command: Option<&str>) -> String {
        match command {
            Some(c) => format!("hint: see 'mcp {c} --help'"),
            None => "hint: see 'mcp --help'".into(),
        }
    }
}

/// Every option `mcp` takes before `--`, for "did you mean" (the parser's match arms must agree: a
/// test parses each).
pub const OPTIONS: &[&str] = &[
    "--help",
    "--version",
    "--json",
    "--decline",
    "--verbose",
    "--quiet",
    "--write",
    "--task",
    "--legacy",
    "--modern",
    "--answer",
    "--arg",
    "--env",
    "--header",
    "--bearer",
    "--cacert",
    "--client-id",
    "--client-secret",
    "--client-key",
    "--root",
    "--cwd",
    "--name",
    "--file",
    "--scope",
    "--author",
    "--package",
    "--timeout",
];

/// Whether the command line asks for JSON output (`--json` before any `--`), for reporting a usage
/// error in the form the caller reads.
pub fn wants_json(args: &[String]) -> bool {
    args.iter()
        .take_while(|a| *a != "--")
        .any(|a| a == "--json")
}

fn usage(msg: impl Into<String>) -> ParseError {
    ParseError::Usage(msg.into(), None)
}

/// Parses a JSON arguments object given on the command line.
fn json_object(what: &str, text: Option<&String>) -> Result<Value, ParseError> {
    let Some(text) = text else {
        return Ok(Value::Object(Default::default()));
    };
    let v: Value = serde_json::from_str(text)
        .map_err(|e| usage(format!("{what} are not valid JSON ({e}): {text}")))?;
    if !v.is_object() {
        return Err(usage(format!("{what} must be a JSON object, got: {text}")));
    }
    Ok(v)
}

/// Parses a `--header` value, `NAME: VALUE`: a token name (RFC 9110) and a value without control
/// characters, surrounding blanks trimmed.
fn header(text: &str) -> Result<(String, String), ParseError> {
    let (name, value) = text
        .split_once(':')
        .ok_or_else(|| usage(format!("--header needs 'NAME: VALUE', got {text:?}")))?;
    let name = name.trim();
    let token = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
    if name.is_empty() || !name.chars().all(token) {
        return Err(usage(format!(
            "--header: bad header name {name:?} in {text:?}"
        )));
    }
    let value = value.trim_matches([' ', '\t']);
    if value.chars().any(|c| c.is_control() && c != '\t') {
        return Err(usage(format!(
            "--header: the value of {name} holds a control character"
        )));
    }
    Ok((name.to_string(), value.to_string()))
}

fn key_value(option: &str, text: &str) -> Result<(String, String), ParseError> {
    match text.split_once('=') {
        Some((k, v)) if !k.is_empty() => Ok((k.to_string(), v.to_string())),
        _ => Err(usage(format!("{option} needs KEY=VALUE, got {text:?}"))),
    }
}

/// Whether `s` is an `http://` or `https://` URL.
pub fn is_url(s: &str) -> bool {
    s.starts_with("http://") || s.starts_with("https://")
}

/// Whether `server` is a single `http://` or `https://` URL.
pub fn is_http_url(server: &[String]) -> bool {
    matches!(server, [url] if is_url(url))
}

/// Options only some commands take.
#[derive(Default)]
struct CommandFlags {
    context: Vec<(String, String)>,
    name: Option<String>,
    write: bool,
    file: Option<String>,
    scope: Option<hosts::Scope>,
    author: Option<String>,
    package: Option<String>,
    task: bool,
}

/// Parses the arguments after the program name.
pub fn parse(args: &[String]) -> Result<Options, ParseError> {
    let (front, mut server) = match args.iter().position(|a| a == "--") {
        Some(i) => (&args[..i], args[i + 1..].to_vec()),
        None => (args, Vec::new()),
    };
    let mut o = Options {
        preference: VersionPreference::Auto,
        json: false,
        answers: Vec::new(),
        decline: false,
        headers: Vec::new(),
        cacerts: Vec::new(),
        client_id: None,
        client_secret: None,
        client_key: None,
        roots: Vec::new(),
        env: Vec::new(),
        cwd: None,
        timeout: None,
        verbose: false,
        quiet: false,
        command: Command::Info,
        server: Vec::new(),
    };
    let mut flags = CommandFlags::default();
    let mut help = false;
    let mut version = false;
    let mut positional: Vec<String> = Vec::new();
    let mut it = front.iter();
    while let Some(a) = it.next() {
        let mut value = |what: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| usage(format!("{a} needs {what}")))
        };
        match a.as_str() {
            "-h" | "--help" => help = true,
            "-V" | "--version" => version = true,
            "-q" | "--quiet" => o.quiet = true,
            "--json" => o.json = true,
            "--decline" => o.decline = true,
            "-v" | "--verbose" => o.verbose = true,
            "--write" => flags.write = true,
            "--task" => flags.task = true,
            "--legacy" | "--modern" => o.preference = preference(a, &value("a VERSION")?)?,
            "--answer" => o.answers.push(key_value(a, &value("KEY=VALUE")?)?),
            "--arg" => flags.context.push(key_value(a, &value("NAME=VALUE")?)?),
            "--env" => o.env.push(key_value(a, &value("KEY=VALUE")?)?),
            "--header" => o.headers.push(header(&value("'NAME: VALUE'")?)?),
            "--bearer" => o.headers.push(header(&format!(
                "Authorization: Bearer {}",
                value("a TOKEN")?
            ))?),
            "--cacert" => o.cacerts.push(value("a FILE")?),
            "--client-id" => o.client_id = Some(value("a CLIENT-ID")?),
            "--client-secret" => o.client_secret = Some(value("a SECRET")?),
            "--client-key" => o.client_key = Some(value("a FILE")?),
            "--root" => o.roots.push(value("a PATH")?),
            "--cwd" => o.cwd = Some(value("a DIR")?),
            "--name" => flags.name = Some(value("a NAME")?),
            "--file" => flags.file = Some(value("a FILE")?),
            "--author" => flags.author = Some(value("a NAME")?),
            "--package" => flags.package = Some(value("REGISTRY:SPEC")?),
            "--scope" => {
                flags.scope =
                    Some(hosts::Scope::parse(&value("user, project or local")?).map_err(usage)?)
            }
            "--timeout" => {
                let v = value("SECONDS")?;
                let secs: f64 = v
                    .parse()
                    .ok()
                    .filter(|s: &f64| s.is_finite() && *s > 0.0)
                    .ok_or_else(|| {
                        usage(format!("--timeout needs a number of seconds, got {v:?}"))
                    })?;
                o.timeout = Some(Duration::from_secs_f64(secs));
            }
            s if s.starts_with('-') && s.len() > 1 => {
                let typed = s.split('=').next().unwrap_or(s);
                let hint = suggest::hint(typed, OPTIONS.iter().copied());
                return Err(usage(format!("unknown option {s}{hint}")));
            }
            _ => positional.push(a.clone()),
        }
    }
    // `help COMMAND` and `COMMAND --help`.
    if positional.first().map(String::as_str) == Some("help") {
        return Err(ParseError::Help(positional.get(1).cloned()));
    }
    if help {
        return Err(ParseError::Help(positional.first().cloned()));
    }
    if version {
        return Err(ParseError::Version);
    }
    // A bare URL as the last word names the server.
    if server.is_empty() && positional.len() > 1 && positional.last().is_some_and(|p| is_url(p)) {
        server = positional.pop().into_iter().collect();
    }
    let name = positional
        .first()
        .filter(|c| help::commands().any(|known| known == c.as_str()))
        .cloned();
    let in_command = |e: ParseError| match e {
        ParseError::Usage(m, None) => ParseError::Usage(m, name.clone()),
        other => other,
    };
    o.command = command(&positional, &mut flags).map_err(in_command)?;
    check(&o, &server, &flags).map_err(in_command)?;
    o.server = server;
    Ok(o)
}

fn preference(option: &str, v: &str) -> Result<VersionPreference, ParseError> {
    let version = ProtocolVersion::new(v);
    if !version.is_known() {
        return Err(usage(format!("unknown protocol version {v}")));
    }
    let legacy = option == "--legacy";
    if (version.era() == libmcp::Era::Legacy) != legacy {
        return Err(usage(format!("{v} is not a {} version", &option[2..])));
    }
    Ok(if legacy {
        VersionPreference::Legacy(version)
    } else {
        VersionPreference::Modern(version)
    })
}

/// Checks that the options fit the command and the server.
fn check(o: &Options, server: &[String], flags: &CommandFlags) -> Result<(), ParseError> {
    let is_complete = matches!(o.command, Command::Complete { .. });
    if !flags.context.is_empty() && !is_complete {
        return Err(usage("--arg applies only to complete"));
    }
    if flags.task && !matches!(o.command, Command::Call { .. }) {
        return Err(usage("--task applies only to call"));
    }
    let is_config = matches!(o.command, Command::Config { .. });
    let is_pack = matches!(o.command, Command::Pack { .. });
    let is_server_json = matches!(o.command, Command::ServerJson { .. });
    if !is_config && (flags.write || flags.scope.is_some()) {
        return Err(usage("--write and --scope apply only to config"));
    }
    if !is_config && !is_pack && !is_server_json && (flags.name.is_some() || flags.file.is_some()) {
        return Err(usage(
            "--name and --file apply only to config, pack and server-json",
        ));
    }
    if flags.package.is_some() {
        return Err(usage("--package applies only to server-json"));
    }
    if !is_pack && flags.author.is_some() {
        return Err(usage("--author applies only to pack"));
    }
    if let Command::Completions { .. } = o.command {
        return if server.is_empty() {
            Ok(())
        } else {
            Err(usage("completions takes no server"))
        };
    }
    if server.is_empty() {
        return Err(usage(
            "no server given: put the server program after -- or give its http(s) URL (e.g. mcp tools -- my-server)",
        ));
    }
    let url = is_http_url(server);
    if is_pack && url {
        return Err(usage(
            "pack bundles a server program (mcp pack -- my-server), not a URL",
        ));
    }
    let http_options = !o.headers.is_empty() || !o.cacerts.is_empty();
    if http_options && !url {
        return Err(usage(
            "--header, --bearer and --cacert apply only to an http:// or https:// URL",
        ));
    }
    match (&o.client_id, &o.client_secret, &o.client_key) {
        (None, None, None) => {}
        (Some(_), Some(_), None) | (Some(_), None, Some(_)) if url => {}
        (Some(_), Some(_), None) | (Some(_), None, Some(_)) => {
            return Err(usage(
                "--client-id, --client-secret and --client-key apply only to an http:// or https:// URL",
            ));
        }
        _ => {
            return Err(usage(
                "--client-id needs exactly one of --client-secret and --client-key (and they need it)",
            ));
        }
    }
    if url && (!o.env.is_empty() || o.cwd.is_some()) {
        return Err(usage(
            "--env and --cwd apply only to a server program, not to a URL",
        ));
    }
    Ok(())
}

fn command(p: &[String], flags: &mut CommandFlags) -> Result<Command, ParseError> {
    let Some((name, rest)) = p.split_first() else {
        return Err(usage("no command given"));
    };
    let max_args = match name.as_str() {
        "info" | "tools" | "resources" | "templates" | "prompts" | "pack" | "server-json" => 0,
        "read" | "config" | "completions" => 1,
        "call" | "prompt" => 2,
        "complete" => 3,
        other => {
            let hint = suggest::hint(other, help::commands().chain(["help"]));
            return Err(usage(format!("unknown command {other}{hint}")));
        }
    };
    if rest.len() > max_args {
        return Err(usage(format!(
            "too many arguments for {name}: {}",
            rest[max_args..].join(" ")
        )));
    }
    let need = |i: usize, what: &str| {
        rest.get(i)
            .cloned()
            .ok_or_else(|| usage(format!("{name} needs {what}")))
    };
    Ok(match name.as_str() {
        "info" => Command::Info,
        "tools" => Command::Tools,
        "resources" => Command::Resources,
        "templates" => Command::Templates,
        "prompts" => Command::Prompts,
        "read" => Command::Read {
            uri: need(0, "a URI")?,
        },
        "call" => Command::Call {
            tool: need(0, "a tool name")?,
            args: json_object("tool arguments", rest.get(1))?,
            task: std::mem::take(&mut flags.task),
        },
        "prompt" => Command::Prompt {
            name: need(0, "a prompt name")?,
            args: json_object("prompt arguments", rest.get(1))?,
        },
        "config" => {
            let host =
                hosts::Host::parse(&need(0, &format!("a host ({})", hosts::HOSTS.join(", ")))?)
                    .map_err(usage)?;
            Command::Config {
                host,
                name: flags.name.take(),
                write: std::mem::take(&mut flags.write),
                scope: host.scope(flags.scope.take()).map_err(usage)?,
                file: flags.file.take(),
            }
        }
        "pack" => Command::Pack {
            name: flags.name.take(),
            author: flags.author.take(),
            file: flags.file.take(),
        },
        "server-json" => {
            let name = flags.name.take().ok_or_else(|| {
                usage("server-json needs --name NAMESPACE/NAME (reverse DNS, e.g. io.github.you/weather)")
            })?;
            server_json::check_name(&name).map_err(usage)?;
            let package = flags
                .package
                .take()
                .map(|p| server_json::parse_package(&p))
                .transpose()
                .map_err(usage)?;
            Command::ServerJson {
                name,
                package,
                file: flags.file.take(),
            }
        }
        "completions" => Command::Completions {
            shell: completions::Shell::parse(&need(0, "a shell (bash, zsh or fish)")?)
                .map_err(usage)?,
        },
        _ => {
            let target = need(0, "a prompt name or resource URI")?;
            let reference = if target.contains("://") {
                serde_json::json!({"type": "ref/resource", "uri": target})
            } else {
                serde_json::json!({"type": "ref/prompt", "name": target})
            };
            Command::Complete {
                reference,
                argument: need(1, "an argument name")?,
                value: rest.get(2).cloned().unwrap_or_default(),
                context: std::mem::take(&mut flags.context),
            }
        }
    })
}

/// The capability a command needs from the server, and what to call it in a message.
pub fn needed_capability(command: &Command) -> Option<(&'static str, &'static str)> {
    match command {
        Command::Tools | Command::Call { .. } => Some(("tools", "tools")),
        Command::Resources | Command::Read { .. } | Command::Templates => {
            Some(("resources", "resources"))
        }
        Command::Prompts | Command::Prompt { .. } => Some(("prompts", "prompts")),
        Command::Complete { .. } => Some(("completions", "argument completion")),
        _ => None,
    }
}

/// Why the command cannot run against a server declaring `caps`, in words; `None` when it can.
pub fn missing_capability(command: &Command, caps: &Value) -> Option<String> {
    let (key, what) = needed_capability(command)?;
    if caps.get(key).is_some() {
        return None;
    }
    Some(format!(
        "the server does not offer {what} (it declares: {})",
        format::capability_names(caps)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn args(s: &[&str]) -> Vec<String> {
        s.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn a_bare_url_is_the_server() {
        let o = parse(&args(&[
            "tools",
            "--client-id",
            "svc",
            "--client-secret",
            "s",
            "https://h/mcp",
        ]))
        .unwrap();
        assert_eq!(
            (
                o.client_id.as_deref(),
                o.client_secret.as_deref(),
                o.client_key
            ),
            (Some("svc"), Some("s"), None)
        );
        let message = |a: &[&str]| match parse(&args(a)) {
            Err(ParseError::Usage(m, _)) => m,
            other => panic!("{a:?}: {other:?}"),
        };
        let needs =
            "--client-id needs exactly one of --client-secret and --client-key (and they need it)";
        let both = [
            "tools",
            "--client-id",
            "c",
            "--client-secret",
            "s",
            "--client-key",
            "k",
            "https://h/mcp",
        ];
        for bad in [
            &["tools", "--client-id", "svc", "https://h/mcp"][..],
            &["tools", "--client-secret", "s", "https://h/mcp"],
            &both,
        ] {
            assert_eq!(message(bad), needs, "{bad:?}");
        }
        let stdio = [
            "tools",
            "--client-id",
            "c",
            "--client-key",
            "k",
            "--",
            "srv",
        ];
        assert_eq!(
            message(&stdio),
            "--client-id, --client-secret and --client-key apply only to an http:// or https:// URL"
        );
        let o = parse(&args(&["--json", "tools", "https://h/mcp"])).unwrap();
        assert_eq!(o.server, ["https://h/mcp"]);
        assert_eq!(o.command, Command::Tools);
        let o = parse(&args(&["read", "https://h/res", "http://h/mcp"])).unwrap();
        assert_eq!(
            o.command,
            Command::Read {
                uri: "https://h/res".into()
            }
        );
        assert_eq!(o.server, ["http://h/mcp"]);
        let o = parse(&args(&["read", "--", "./srv", "-x"])).unwrap_err();
        assert_eq!(
            o,
            ParseError::Usage("read needs a URI".into(), Some("read".into()))
        );
    }

    #[test]
    fn options_of_the_server_and_the_command() {
        let o = parse(&args(&[
            "--root",
            "/a",
            "--root",
            "b c",
            "--env",
            "K=v=w",
            "--cwd",
            "/tmp",
            "--timeout",
            "2.5",
            "-v",
            "complete",
            "p",
            "arg",
            "x",
            "--arg",
            "a=1",
            "--",
            "srv",
        ]))
        .unwrap();
        assert_eq!(o.roots, ["/a", "b c"]);
        assert_eq!(o.env, [("K".to_string(), "v=w".to_string())]);
        assert_eq!(o.timeout, Some(Duration::from_millis(2500)));
        assert!(o.verbose);
        assert!(
            matches!(&o.command, Command::Complete { context, .. } if context == &[("a".to_string(), "1".to_string())])
        );
        let e = |a: &[&str]| parse(&args(a)).unwrap_err();
        assert_eq!(
            e(&["--env", "K=v", "tools", "http://h/mcp"]),
            ParseError::Usage(
                "--env and --cwd apply only to a server program, not to a URL".into(),
                Some("tools".into())
            )
        );
        assert_eq!(
            e(&["tools", "--arg", "a=1", "--", "s"]),
            ParseError::Usage(
                "--arg applies only to complete".into(),
                Some("tools".into())
            )
        );
        assert_eq!(
            e(&["--timeout", "0", "tools", "--", "s"]),
            usage("--timeout needs a number of seconds, got \"0\"")
        );
        assert_eq!(
            e(&["call", "--help"]),
            ParseError::Help(Some("call".into()))
        );
        assert_eq!(
            e(&["help", "config"]),
            ParseError::Help(Some("config".into()))
        );
        assert_eq!(e(&["--version"]), ParseError::Version);
        assert_eq!(e(&["-V", "tools", "--", "s"]), ParseError::Version);
        assert_eq!(
            e(&["completions", "tcsh"]),
            ParseError::Usage(
                "unknown shell tcsh (known: bash, zsh, fish)".into(),
                Some("completions".into())
            )
        );
        assert!(parse(&args(&["completions", "fish"])).is_ok());
    }

    #[test]
    fn every_listed_option_is_known_and_typos_get_a_suggestion() {
        for o in OPTIONS {
            if let Err(ParseError::Usage(m, _)) = parse(&args(&[o])) {
                assert!(!m.starts_with("unknown option"), "{o}: {m}");
            }
        }
        let e = |a: &[&str]| parse(&args(a)).unwrap_err();
        assert_eq!(
            e(&["--jsno", "tools", "--", "s"]),
            usage("unknown option --jsno (did you mean --json?)")
        );
        assert_eq!(
            e(&["toosl", "--", "s"]),
            usage("unknown command toosl (did you mean tools?)")
        );
        assert_eq!(e(&["deploy", "--", "s"]), usage("unknown command deploy"));
        assert_eq!(e(&["-V"]), ParseError::Version);
        assert_eq!(e(&["tools", "--version", "--", "s"]), ParseError::Version);
        assert!(parse(&args(&["-q", "tools", "--", "s"])).unwrap().quiet);
        assert!(wants_json(&args(&["tools", "--json", "x"])));
        assert!(!wants_json(&args(&["tools", "--", "srv", "--json"])));
    }

    #[test]
    fn the_completion_scripts_know_every_option() {
        for o in OPTIONS {
            assert!(
                completions::OPTIONS.iter().any(|(name, _, _)| name == o),
                "{o} is missing from the completion scripts"
            );
        }
    }

    #[test]
    fn capabilities_are_named_when_missing() {
        let caps = json!({"logging": {}, "tools": {}});
        assert_eq!(missing_capability(&Command::Tools, &caps), None);
        assert_eq!(
            missing_capability(&Command::Prompts, &caps).unwrap(),
            "the server does not offer prompts (it declares: logging, tools)"
        );
        let complete = Command::Complete {
            reference: json!({}),
            argument: "a".into(),
            value: String::new(),
            context: vec![],
        };
        assert_eq!(
            missing_capability(&complete, &json!({})).unwrap(),
            "the server does not offer argument completion (it declares: none)"
        );
        assert_eq!(missing_capability(&Command::Info, &json!({})), None);
    }
}
