//! `mcp completions <shell>`: completion scripts for bash, zsh and fish, generated from the command
//! list ([`super::help::commands`]), the options and the host names, so they never drift.

use super::help;
use super::hosts::HOSTS;

/// A shell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shell {
    /// GNU bash.
    Bash,
    /// zsh.
    Zsh,
    /// fish.
    Fish,
}

/// The shells `mcp completions` takes.
pub const SHELLS: [&str; 3] = ["bash", "zsh", "fish"];

/// The options, each with whether it takes a value and a description.
pub const OPTIONS: [(&str, bool, &str); 27] = [
    ("--legacy", true, "use the initialize handshake at VERSION"),
    ("--modern", true, "use the stateless lifecycle at VERSION"),
    ("--json", false, "print one JSON document"),
    ("--root", true, "offer a directory as a root"),
    (
        "--env",
        true,
        "environment variable KEY=VALUE for the server",
    ),
    ("--cwd", true, "working directory of the server"),
    ("--timeout", true, "request timeout in seconds"),
    ("--verbose", false, "trace messages and server stderr"),
    ("--quiet", false, "no progress or log messages on stderr"),
    ("--answer", true, "answer an elicitation field KEY=VALUE"),
    ("--decline", false, "decline every elicitation"),
    ("--task", false, "run the tool as a task (call)"),
    ("--header", true, "HTTP header 'NAME: VALUE'"),
    ("--bearer", true, "bearer token for an http(s) URL"),
    ("--cacert", true, "trust the PEM certificates in FILE"),
    ("--client-id", true, "client credentials grant as CLIENT-ID"),
    ("--client-secret", true, "the client secret for --client-id"),
    (
        "--client-key",
        true,
        "PEM key signing the --client-id assertion",
    ),
    ("--arg", true, "context argument NAME=VALUE for complete"),
    ("--name", true, "the name (config, pack, server-json)"),
    ("--write", false, "merge into the host's file (config)"),
    ("--scope", true, "user, project or local (config)"),
    (
        "--file",
        true,
        "the file to write (config, pack, server-json)",
    ),
    ("--author", true, "the bundle's author (pack)"),
    (
        "--package",
        true,
        "REGISTRY:SPEC of the server (server-json)",
    ),
    ("--help", false, "print help"),
    ("--version", false, "print the version"),
];

fn options() -> impl Iterator<Item = &'static (&'static str, bool, &'static str)> {
    OPTIONS.iter()
}

const LEGACY: &str = "2025-11-25 2025-06-18 2025-03-26 2024-11-05";
const MODERN: &str = "2026-07-28";

impl Shell {
    /// Parses a shell name.
    pub fn parse(name: &str) -> Result<Shell, String> {
        match name {
            "bash" => Ok(Shell::Bash),
            "zsh" => Ok(Shell::Zsh),
            "fish" => Ok(Shell::Fish),
            other => Err(format!(
                "unknown shell {other} (known: {})",
                SHELLS.join(", ")
            )),
        }
    }

    /// The completion script.
    pub fn script(self) -> String {
        let commands: Vec<&str> = help::commands().chain(["help"]).collect();
        match self {
            Shell::Bash => bash(&commands),
            Shell::Zsh => zsh(&commands),
            Shell::Fish => fish(&commands),
        }
    }
}

fn bash(commands: &[&str]) -> String {
    let opts: Vec<&str> = options().map(|o| o.0).collect();
    let valued: Vec<&str> = options().filter(|o| o.1).map(|o| o.0).collect();
    format!(
        r#"# bash completion for mcp
_mcp() {{
    local cur prev words cword
    _init_completion 2>/dev/null || {{ cur="${{COMP_WORDS[COMP_CWORD]}}"; prev="${{COMP_WORDS[COMP_CWORD-1]}}"; words=("${{COMP_WORDS[@]}}"); cword=$COMP_CWORD; }}
    local i cmd=""
    for ((i = 1; i < cword; i++)); do
        [[ ${{words[i]}} == -- ]] && {{ COMPREPLY=($(compgen -c -- "$cur")); return; }}
    done
    case "$prev" in
        --legacy) COMPREPLY=($(compgen -W "{LEGACY}" -- "$cur")); return ;;
        --modern) COMPREPLY=($(compgen -W "{MODERN}" -- "$cur")); return ;;
        --root|--cwd) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --cacert|--file) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        {valued}) return ;;
    esac
    for ((i = 1; i < cword; i++)); do
        case "${{words[i]}}" in
            {valued}) ((i++)) ;;
            -*) ;;
            *) cmd="${{words[i]}}"; break ;;
        esac
    done
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "{opts}" -- "$cur"))
    elif [[ -z $cmd ]]; then
        COMPREPLY=($(compgen -W "{commands}" -- "$cur"))
    elif [[ $cmd == config ]]; then
        COMPREPLY=($(compgen -W "{hosts}" -- "$cur"))
    elif [[ $cmd == completions ]]; then
        COMPREPLY=($(compgen -W "{shells}" -- "$cur"))
    elif [[ $cmd == help ]]; then
        COMPREPLY=($(compgen -W "{commands}" -- "$cur"))
    fi
}}
complete -F _mcp mcp
"#,
        valued = valued.join("|"),
        opts = opts.join(" "),
        commands = commands.join(" "),
        hosts = HOSTS.join(" "),
        shells = SHELLS.join(" "),
    )
}

fn zsh(commands: &[&str]) -> String {
    let mut specs = String::new();
    for (name, valued, desc) in options() {
        let value = match (*name, valued) {
            ("--legacy", _) => format!(":version:({LEGACY})"),
            ("--modern", _) => format!(":version:({MODERN})"),
            ("--root" | "--cwd", _) => ":directory:_directories".into(),
            ("--cacert" | "--file", _) => ":file:_files".into(),
            (_, true) => ":value:".into(),
            _ => String::new(),
        };
        let repeat = if *valued { "*" } else { "" };
        specs.push_str(&format!("    '{repeat}{name}[{desc}]{value}' \\\n"));
    }
    format!(
        r#"#compdef mcp
# zsh completion for mcp
_mcp() {{
  local -a commands=({commands})
  if (( ${{words[(I)--]}} && ${{words[(I)--]}} < CURRENT )); then
    _normal; return
  fi
  _arguments -s \
{specs}    '1:command:($commands)' \
    '*::arg:->args'
  case $words[1] in
    config) _values host {hosts} ;;
    completions) _values shell {shells} ;;
    help) _values command $commands ;;
  esac
}}
compdef _mcp mcp
"#,
        commands = commands.join(" "),
        hosts = HOSTS.join(" "),
        shells = SHELLS.join(" "),
    )
}

fn fish(commands: &[&str]) -> String {
    let mut out = String::from("# fish completion for mcp\ncomplete -c mcp -f\n");
    let none = format!("not __fish_seen_subcommand_from {}", commands.join(" "));
    for c in commands {
        let summary = help::page(c)
            .and_then(|p| {
                p.lines()
                    .nth(1)
                    .map(|l| l.split(" - ").nth(1).unwrap_or("").to_string())
            })
            .unwrap_or_else(|| "help on a command".into());
        out.push_str(&format!(
            "complete -c mcp -n '{none}' -a {c} -d '{summary}'\n"
        ));
    }
    for (name, valued, desc) in options() {
        let long = &name[2..];
        let arg = match (*name, valued) {
            ("--legacy", _) => format!(" -x -a '{LEGACY}'"),
            ("--modern", _) => format!(" -x -a '{MODERN}'"),
            ("--root" | "--cwd" | "--cacert" | "--file", _) => " -r -F".into(),
            (_, true) => " -x".into(),
            _ => String::new(),
        };
        out.push_str(&format!("complete -c mcp -l {long}{arg} -d '{desc}'\n"));
    }
    out.push_str(&format!(
        "complete -c mcp -n '__fish_seen_subcommand_from config' -a '{}'\n",
        HOSTS.join(" ")
    ));
    out.push_str(&format!(
        "complete -c mcp -n '__fish_seen_subcommand_from completions' -a '{}'\n",
        SHELLS.join(" ")
    ));
    out
}
