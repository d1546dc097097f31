//! The `mcp` command-line tool: argument parsing ([`parse`]), answering elicitation ([`elicit`]) and
//! human-readable output ([`format`](mod@format)).

pub mod elicit;
pub mod format;
pub mod oauth;

use libmcp::ProtocolVersion;
use libmcp::client::VersionPreference;
use serde_json::Value;

/// The usage text.
pub const USAGE: &str = "\
Usage: mcp [OPTIONS] <COMMAND> [ARGS...] -- <server program> [server args...] | <http URL>

Commands:
  info                              era, protocol version, serverInfo, capabilities, instructions
  tools                             list the tools
  call <tool> [json-args]           call a tool (arguments as a JSON object, default {})
  resources                         list the resources
  read <uri>                        read a resource
  templates                         list the resource templates
  prompts                           list the prompts
  prompt <name> [json-args]         get a prompt (arguments as a JSON object of strings)
  complete <prompt|uri> <arg> [value]
                                    complete an argument of a prompt (or of a resource template URI)

Options:
  --legacy VERSION    use the initialize handshake, asking for VERSION (e.g. 2025-11-25)
  --modern VERSION    use the stateless lifecycle at VERSION (e.g. 2026-07-28)
                      (default: probe with server/discover, fall back to initialize)
  --json              print the raw JSON results
  --answer KEY=VALUE  answer the elicitation form field KEY with VALUE (repeatable)
  --decline           decline every elicitation
  --header 'NAME: VALUE'
                      send this header with every request to an http(s) URL (repeatable)
  --bearer TOKEN      same as --header 'Authorization: Bearer TOKEN'
  --cacert FILE       also trust the PEM certificate(s) in FILE for https URLs (repeatable)
  -h, --help          print this help

Authorization: an http URL that answers 401 is authorized with OAuth 2.1: the authorization URL is
printed; the redirect is taken on a loopback listener (http://127.0.0.1:<port>/callback), or as a
URL pasted on stdin when stdin is a terminal. An Authorization header given with --header or
--bearer is sent as is, and OAuth is then not attempted.

Elicitation: when stdin is a terminal (and neither --answer nor --decline is given), the server's
questions are asked interactively. Otherwise the form is filled from --answer values and the schema's
defaults, and accepted only if every required field has a value; if not, it is declined.

Exit codes: 0 success, 1 the request failed or the tool reported an error, 2 usage error,
3 the server could not be started or connected to.";

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
    /// `complete <prompt|uri> <arg> [value]`.
    Complete {
        /// `ref/prompt` or `ref/resource` reference.
        reference: Value,
        /// The argument to complete.
        argument: String,
        /// What was typed so far.
        value: String,
    },
}

/// Parsed command line.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Era and version.
    pub preference: VersionPreference,
    /// Print raw JSON.
    pub json: bool,
    /// `--answer KEY=VALUE` pairs, in order.
    pub answers: Vec<(String, String)>,
    /// `--decline`.
    pub decline: bool,
    /// `--header` and `--bearer` values, as (name, value), in order (HTTP URLs only).
    pub headers: Vec<(String, String)>,
    /// `--cacert` files, in order (HTTP URLs only).
    pub cacerts: Vec<String>,
    /// The command.
    pub command: Command,
    /// The server program and its arguments.
    pub server: Vec<String>,
}

/// Why the command line was not accepted.
#[derive(Clone, Debug, PartialEq)]
pub enum ParseError {
    /// `--help` was asked for.
    Help,
    /// A usage error, described.
    Usage(String),
}

fn usage(msg: impl Into<String>) -> ParseError {
    ParseError::Usage(msg.into())
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

/// Whether `server` is a single `http://` or `https://` URL.
pub fn is_http_url(server: &[String]) -> bool {
    matches!(server, [url] if url.starts_with("http://") || url.starts_with("https://"))
}

/// Parses the arguments after the program name.
pub fn parse(args: &[String]) -> Result<Options, ParseError> {
    let (front, server) = match args.iter().position(|a| a == "--") {
        Some(i) => (&args[..i], args[i + 1..].to_vec()),
        None => (args, Vec::new()),
    };
    let mut preference = VersionPreference::Auto;
    let mut json = false;
    let mut decline = false;
    let mut answers = Vec::new();
    let mut headers = Vec::new();
    let mut cacerts = Vec::new();
    let mut positional: Vec<String> = Vec::new();
    let mut it = front.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-h" | "--help" => return Err(ParseError::Help),
            "--json" => json = true,
            "--decline" => decline = true,
            "--legacy" | "--modern" => {
                let v = it
                    .next()
                    .ok_or_else(|| usage(format!("{a} needs a VERSION")))?;
                let version = ProtocolVersion::new(v.as_str());
                if !version.is_known() {
                    return Err(usage(format!("unknown protocol version {v}")));
                }
                let legacy = a == "--legacy";
                if (version.era() == libmcp::Era::Legacy) != legacy {
                    return Err(usage(format!("{v} is not a {} version", &a[2..])));
                }
                preference = if legacy {
                    VersionPreference::Legacy(version)
                } else {
                    VersionPreference::Modern(version)
                };
            }
            "--answer" => {
                let kv = it.next().ok_or_else(|| usage("--answer needs KEY=VALUE"))?;
                let (k, v) = kv
                    .split_once('=')
                    .ok_or_else(|| usage(format!("--answer needs KEY=VALUE, got {kv}")))?;
                answers.push((k.to_string(), v.to_string()));
            }
            "--header" => {
                let h = it
                    .next()
                    .ok_or_else(|| usage("--header needs 'NAME: VALUE'"))?;
                headers.push(header(h)?);
            }
            "--bearer" => {
                let token = it.next().ok_or_else(|| usage("--bearer needs a TOKEN"))?;
                headers.push(header(&format!("Authorization: Bearer {token}"))?);
            }
            "--cacert" => {
                let file = it.next().ok_or_else(|| usage("--cacert needs a FILE"))?;
                cacerts.push(file.clone());
            }
            s if s.starts_with("--") => return Err(usage(format!("unknown option {s}"))),
            _ => positional.push(a.clone()),
        }
    }
    let command = command(&positional)?;
    if server.is_empty() {
        return Err(usage(
            "no server given: put the server program after -- (e.g. mcp tools -- my-server)",
        ));
    }
    let http_options = !(headers.is_empty() && cacerts.is_empty());
    if http_options && !is_http_url(&server) {
        return Err(usage(
            "--header, --bearer and --cacert apply only to an http:// or https:// URL",
        ));
    }
    Ok(Options {
        preference,
        json,
        answers,
        decline,
        headers,
        cacerts,
        command,
        server,
    })
}

fn command(p: &[String]) -> Result<Command, ParseError> {
    let Some((name, rest)) = p.split_first() else {
        return Err(usage("no command given"));
    };
    let max_args = match name.as_str() {
        "info" | "tools" | "resources" | "templates" | "prompts" => 0,
        "read" => 1,
        "call" | "prompt" => 2,
        "complete" => 3,
        other => return Err(usage(format!("unknown command {other}"))),
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
        },
        "prompt" => Command::Prompt {
            name: need(0, "a prompt name")?,
            args: json_object("prompt arguments", rest.get(1))?,
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
            }
        }
    })
}
