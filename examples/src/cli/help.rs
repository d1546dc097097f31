//! The help texts: the overview ([`USAGE`]) and one man-page-style page per command ([`page`]).

/// The overview printed by `mcp --help`.
pub const USAGE: &str = "\
Usage: mcp [OPTIONS] <COMMAND> [ARGS...] -- <server program> [server args...]
       mcp [OPTIONS] <COMMAND> [ARGS...] <http(s) URL>

Commands:
  info                              what the server is: era, version, serverInfo, capabilities
  tools                             list the tools
  call <tool> [json-args]           call a tool (arguments as a JSON object, default {})
  resources                         list the resources
  read <uri>                        read a resource
  templates                         list the resource templates
  prompts                           list the prompts
  prompt <name> [json-args]         get a prompt (arguments as a JSON object of strings)
  complete <prompt|uri> <arg> [value]
                                    complete an argument of a prompt or resource template
  config <host>                     print (or --write) the server's entry for claude-desktop,
                                    claude-code, cursor or vscode
  completions <shell>               print a completion script for bash, zsh or fish
  help [command]                    this text, or a command's page (also: mcp <command> --help)

Options:
  --legacy VERSION    use the initialize handshake, asking for VERSION (e.g. 2025-11-25)
  --modern VERSION    use the stateless lifecycle at VERSION (e.g. 2026-07-28)
                      (default: probe with server/discover, fall back to initialize)
  --json              print one JSON document (errors too, as {\"error\": ...})
  --root PATH         offer the directory PATH to the server as a root (repeatable; none by default)
  --env KEY=VALUE     set an environment variable for the server program (repeatable)
  --cwd DIR           run the server program in DIR
  --timeout SECONDS   fail a request that gets no answer or progress for SECONDS (default 60)
  -v, --verbose       trace every message both ways on stderr, and show the server's stderr
  --answer KEY=VALUE  answer the elicitation form field KEY with VALUE (repeatable)
  --decline           decline every elicitation
  --header 'NAME: VALUE'
                      send this header with every request to an http(s) URL (repeatable)
  --bearer TOKEN      same as --header 'Authorization: Bearer TOKEN'
  --cacert FILE       also trust the PEM certificate(s) in FILE for https URLs (repeatable)
  --client-id ID      authorize an http(s) URL with the OAuth client credentials grant as client ID,
  --client-secret S     authenticated with the secret S,
  --client-key FILE     or with a private_key_jwt assertion signed by the PKCS #8 PEM ES256 key in FILE
  -h, --help          print this help
  -V, --version       print the version of mcp (that of libmcp, which it is built with)

Authorization: an http URL that answers 401 is authorized with OAuth 2.1: the authorization URL is
printed; the redirect is taken on a loopback listener (http://127.0.0.1:<port>/callback), or as a
URL pasted on stdin when stdin is a terminal. An Authorization header given with --header or
--bearer is sent as is, and OAuth is then not attempted. With --client-id no user is involved: the
token comes from the client credentials grant and is renewed the same way when it expires.

Elicitation: when stdin is a terminal (and neither --answer nor --decline is given), the server's
questions are asked interactively. Otherwise the form is filled from --answer values and the schema's
defaults, and accepted only if every required field has a value; if not, it is declined.

Exit codes: 0 success, 1 the request failed or the tool reported an error, 2 usage error,
3 the server could not be started or connected to.";

/// One command's page: synopsis, description, its own options, examples.
struct Page {
    name: &'static str,
    summary: &'static str,
    synopsis: &'static str,
    description: &'static str,
    options: &'static str,
    examples: &'static str,
}

const SERVER: &str = "-- <server program> [args...] | <URL>";

const PAGES: &[Page] = &[
    Page {
        name: "info",
        summary: "what the server is",
        synopsis: "mcp info",
        description: "Connects and prints what was learned: the era and protocol version in use, the versions a \
modern server lists, serverInfo, the declared capabilities and the instructions. Fields the server \
did not send are left out.",
        options: "",
        examples: "mcp info -- npx -y @modelcontextprotocol/server-everything\nmcp --json info http://127.0.0.1:3000/mcp",
    },
    Page {
        name: "tools",
        summary: "list the tools",
        synopsis: "mcp tools",
        description: "Lists every tool (all pages), with its parameters, required ones marked. A tool that \
supports task-augmented execution is marked [tasks: optional] or [tasks: required].",
        options: "",
        examples: "mcp tools -- python server.py\nmcp --json tools https://example.com/mcp",
    },
    Page {
        name: "call",
        summary: "call a tool",
        synopsis: "mcp [--task] call <tool> [json-args]",
        description: "Calls a tool with a JSON object of arguments and prints its content blocks and \
structured content. Exits 1 when the tool reports an error (isError), after printing its result. \
Elicitation questions are answered as the overview describes (--answer, --decline, or the terminal). \
With --task the call offers to run the tool as a task (tasks extension): each status the task \
reports (working, input_required, ...) is printed on stderr as it changes, and its result as above; \
a failed task exits 1 with its error, a cancelled one exits 1 too.",
        options: "  --answer KEY=VALUE  answer an elicitation field\n  --decline           decline every elicitation\n  --task              run the tool as a task and follow it to its end",
        examples: "mcp call echo '{\"text\":\"hi\"}' -- ./server\nmcp --answer name=Ada call greet -- ./server\nmcp --task call slow_compute '{\"seconds\":2}' -- ./server",
    },
    Page {
        name: "resources",
        summary: "list the resources",
        synopsis: "mcp resources",
        description: "Lists the resources: URI, name, MIME type and description. Says so when the server does \
not offer resources.",
        options: "",
        examples: "mcp resources -- ./server",
    },
    Page {
        name: "read",
        summary: "read a resource",
        synopsis: "mcp read <uri>",
        description: "Reads a resource and prints each of its contents: text as is, binary as a summary.",
        options: "",
        examples: "mcp read file:///etc/hosts -- ./server",
    },
    Page {
        name: "templates",
        summary: "list the resource templates",
        synopsis: "mcp templates",
        description: "Lists the resource templates (URI templates, RFC 6570).",
        options: "",
        examples: "mcp templates -- ./server",
    },
    Page {
        name: "prompts",
        summary: "list the prompts",
        synopsis: "mcp prompts",
        description: "Lists the prompts and their arguments, required ones marked.",
        options: "",
        examples: "mcp prompts -- ./server",
    },
    Page {
        name: "prompt",
        summary: "get a prompt",
        synopsis: "mcp prompt <name> [json-args]",
        description: "Gets a prompt with a JSON object of string arguments and prints its messages as \
role: content.",
        options: "",
        examples: "mcp prompt summarize '{\"style\":\"short\"}' -- ./server",
    },
    Page {
        name: "complete",
        summary: "complete an argument of a prompt or resource template",
        synopsis: "mcp complete <prompt|uri> <arg> [value] [--arg NAME=VALUE]...",
        description: "Asks the server to complete argument <arg> of a prompt (by name) or of a resource \
template (by its URI template, anything with ://), given what was typed so far. Prints one value per \
line, or \"(no completions)\". Needs the server's completions capability.",
        options: "  --arg NAME=VALUE    an argument already chosen, sent as context (repeatable)",
        examples: "mcp complete code_review language py -- ./server\nmcp complete 'github://{owner}/{repo}' repo lib --arg owner=rust-lang -- ./server",
    },
    Page {
        name: "config",
        summary: "register the server in a host application",
        synopsis: "mcp config <claude-desktop|claude-code|cursor|vscode> [--name NAME] [--write [--file FILE]]",
        description: "Prints the host application's configuration entry for the server, ready to paste: \
the command and any argument naming an existing file made absolute (hosts start servers from \
another directory; relative ones are taken from --cwd when it is given), --env values as its env. \
For a URL, the host's remote-server form, with --header values as headers (Claude Desktop reaches \
remote servers through the mcp-remote bridge). With --write, the entry is merged into the host's \
file (kept: everything else in it; saved first: FILE.bak):\n  claude-desktop  Claude/claude_desktop_config.json in the user's configuration directory\n  claude-code     .mcp.json in the current directory (project scope)\n  cursor          ~/.cursor/mcp.json\n  vscode          .vscode/mcp.json in the current directory",
        options: "  --name NAME   the server's key (default: from the program or URL)\n  --write       merge into the host's file instead of printing\n  --file FILE   the file to merge into",
        examples: "mcp config claude-desktop --env API_KEY=k -- node build/index.js\nmcp config vscode --write -- uvx mcp-server-time\nmcp config cursor --header 'Authorization: Bearer t' https://example.com/mcp",
    },
    Page {
        name: "completions",
        summary: "print a shell completion script",
        synopsis: "mcp completions <bash|zsh|fish>",
        description: "Prints a completion script for the shell: commands, options, hosts and shells.",
        options: "",
        examples: "mcp completions bash > ~/.local/share/bash-completion/completions/mcp\nmcp completions fish > ~/.config/fish/completions/mcp.fish",
    },
];

/// The names of the commands, in the overview's order.
pub fn commands() -> impl Iterator<Item = &'static str> {
    PAGES.iter().map(|p| p.name)
}

/// The page of `command`, or `None` for an unknown command.
pub fn page(command: &str) -> Option<String> {
    let p = PAGES.iter().find(|p| p.name == command)?;
    let server = if matches!(p.name, "config") {
        format!(" {SERVER}")
    } else if matches!(p.name, "completions") {
        String::new()
    } else {
        format!(" [OPTIONS] {SERVER}")
    };
    let mut out = format!(
        "NAME\n    mcp {} - {}\n\nSYNOPSIS\n    {}{server}\n\nDESCRIPTION\n",
        p.name, p.summary, p.synopsis
    );
    out.push_str(&indent(&wrap(p.description, 92)));
    if !p.options.is_empty() {
        out.push_str("\nOPTIONS\n");
        out.push_str(&indent(p.options));
    }
    out.push_str("\nEXAMPLES\n");
    out.push_str(&indent(p.examples));
    out.push_str("\nThe options every command takes (--json, --timeout, --verbose, ...) are in 'mcp --help'.");
    Some(out)
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("    {l}\n")).collect()
}

/// Wraps paragraphs (lines starting with a space are kept as they are).
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    for para in text.lines() {
        if para.starts_with(' ') {
            out.push_str(para);
            out.push('\n');
            continue;
        }
        let mut line = String::new();
        for word in para.split(' ') {
            if !line.is_empty() && line.len() + word.len() + 1 > width {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_has_a_page_with_a_summary() {
        for c in commands() {
            let p = page(c).unwrap();
            assert!(p.starts_with(&format!("NAME\n    mcp {c} - ")), "{p}");
            assert!(
                p.contains("\nSYNOPSIS\n") && p.contains("\nEXAMPLES\n"),
                "{p}"
            );
        }
        assert!(page("nope").is_none());
    }
}
