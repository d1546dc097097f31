//! Where a server's command comes from and what it is called: the program found as a shell finds it,
//! arguments that name files made absolute, and a default name for the entry.

use std::path::Path;

/// Finds `program` the way a shell does: a name with a `/` is a path (made absolute against `base`),
/// any other name is looked up in `path` (the `PATH` value).
pub fn absolute_program(program: &str, base: &Path, path: Option<&str>) -> Result<String, String> {
    if program.contains('/') {
        let p = base.join(program);
        return if p.is_file() {
            Ok(clean(&p))
        } else {
            Err(format!("{program}: no such file"))
        };
    }
    for dir in path.unwrap_or("").split(':').filter(|d| !d.is_empty()) {
        let candidate = base.join(dir).join(program);
        if is_executable(&candidate) {
            return Ok(clean(&candidate));
        }
    }
    Err(format!(
        "{program} is not on PATH; give its path (hosts need an absolute command)"
    ))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    p.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// `p` made absolute without resolving symlinks, `.` segments dropped.
fn clean(p: &Path) -> String {
    std::path::absolute(p)
        .unwrap_or_else(|_| p.to_path_buf())
        .display()
        .to_string()
}

/// The arguments with each one that names an existing file or directory (relative to `base`) made
/// absolute: the host starts the server from a directory of its own.
pub fn absolute_args(args: &[String], base: &Path) -> Vec<String> {
    args.iter()
        .map(|a| {
            let p = Path::new(a);
            if a.starts_with('-') || p.is_absolute() || a.is_empty() || !base.join(p).exists() {
                a.clone()
            } else {
                clean(&base.join(p))
            }
        })
        .collect()
}

/// A name for the server: the package or script a launcher runs, the program otherwise, or the
/// URL's host; letters, digits, `-` and `_` only (what every host accepts as a key).
pub fn default_name(server: &[String]) -> String {
    const LAUNCHERS: [&str; 10] = [
        "npx", "bunx", "uvx", "pipx", "node", "python", "python3", "uv", "deno", "bun",
    ];
    let raw = match server {
        [url] if crate::cli::is_url(url) => url
            .split("://")
            .nth(1)
            .and_then(|rest| rest.split(['/', ':', '?']).next())
            .unwrap_or("server")
            .to_string(),
        [program, args @ ..] => {
            let base = |s: &str| s.rsplit('/').next().unwrap_or(s).to_string();
            let prog = base(program);
            let target = LAUNCHERS
                .contains(&prog.as_str())
                .then(|| args.iter().find(|a| !a.starts_with('-') && *a != "run"))
                .flatten();
            let word = base(target.unwrap_or(program));
            // `pkg@1.2`, `server.py`.
            let word = word.split('@').next().unwrap_or(&word).to_string();
            match word.rsplit_once('.') {
                Some((stem, ext)) if ["py", "js", "mjs", "ts", "sh"].contains(&ext) => stem.into(),
                _ => word,
            }
        }
        [] => String::new(),
    };
    let mut name: String = raw
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        name.insert_str(0, "mcp-");
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &[&str]) -> Vec<String> {
        s.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn names_come_from_the_package_script_or_host() {
        let cases: [(&[&str], &str); 6] = [
            (
                &[
                    "npx",
                    "-y",
                    "@modelcontextprotocol/server-filesystem",
                    "/tmp",
                ],
                "server-filesystem",
            ),
            (&["uvx", "mcp-server-time"], "mcp-server-time"),
            (&["/usr/bin/python3", "tools/weather.py"], "weather"),
            (&["./my server"], "my-server"),
            (&["https://mcp.example.com:8443/mcp"], "mcp-example-com"),
            (&["npx", "pkg@1.2.3"], "pkg"),
        ];
        for (server, name) in cases {
            assert_eq!(default_name(&words(server)), name, "{server:?}");
        }
        assert_eq!(default_name(&words(&["9lives"])), "mcp-9lives");
    }
}
