//! Version-manager shims. `~/.pyenv/shims/python3` (asdf, mise, rbenv and nodenv have the same kind)
//! picks the interpreter from the directory it is started in; a host application starts servers from
//! a directory of its own, so the shim may run another version, or none, there. `mcp config` writes
//! the interpreter the shim selects in the project instead, as `MANAGER which NAME` reports it, and
//! says so; when that fails it keeps the shim and says why.

use std::path::Path;
use std::process::{Command, Stdio};

/// The version managers whose shims are resolved, with the folder that holds their shims.
const MANAGERS: [(&str, &str); 5] = [
    ("pyenv", "/.pyenv/shims/"),
    ("asdf", "/.asdf/shims/"),
    ("mise", "/mise/shims/"),
    ("rbenv", "/.rbenv/shims/"),
    ("nodenv", "/.nodenv/shims/"),
];

/// The program a shim stands for, resolved in `project`; any other program as it is. The note says
/// what was done with a shim.
pub fn resolve(command: &str, project: &Path, path: Option<&str>) -> (String, Option<String>) {
    let Some((manager, root)) = MANAGERS
        .iter()
        .find_map(|(m, dir)| command.find(dir).map(|i| (*m, &command[..i])))
    else {
        return (command.to_string(), None);
    };
    let name = command.rsplit('/').next().unwrap_or(command);
    // The manager itself: on PATH, or in its root's bin/ (pyenv's own layout).
    let own = Path::new(root).join(format!(".{manager}/bin/{manager}"));
    let candidates = [own.display().to_string(), manager.to_string()];
    let mut why = format!("{manager} is not installed where its shim is, nor on PATH");
    for program in candidates {
        let mut cmd = Command::new(&program);
        cmd.args(["which", name])
            .current_dir(project)
            .stdin(Stdio::null());
        if let Some(p) = path {
            cmd.env("PATH", p);
        }
        match cmd.output() {
            Ok(out) if out.status.success() => {
                let real = String::from_utf8_lossy(&out.stdout).trim().to_string();
                if Path::new(&real).is_absolute() && Path::new(&real).is_file() {
                    let note = format!(
                        "{command} is a {manager} shim; wrote the interpreter it selects in {}: {real}",
                        project.display()
                    );
                    return (real, Some(note));
                }
                why = format!("`{manager} which {name}` printed {real:?}, not a file");
            }
            Ok(out) => {
                let err = String::from_utf8_lossy(&out.stderr).trim().to_string();
                why = format!("`{manager} which {name}` failed: {err}");
            }
            Err(_) => continue,
        }
        break;
    }
    let note = format!(
        "kept the {manager} shim {command} ({why}); the host will run what {manager} selects in its own directory"
    );
    (command.to_string(), Some(note))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn script(path: &Path, body: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    #[test]
    fn a_shim_becomes_the_interpreter_it_selects_or_is_kept_with_the_reason() {
        let home = std::env::temp_dir().join(format!("libmcp-shims-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&home);
        let shim = home.join(".pyenv/shims/python3");
        let real = home.join(".pyenv/versions/3.12.1/bin/python3");
        script(&shim, "exit 0");
        script(&real, "exit 0");
        // pyenv answers for the project directory it runs in.
        script(
            &home.join(".pyenv/bin/pyenv"),
            &format!(
                "[ \"$1 $2\" = 'which python3' ] && [ -f .python-version ] && echo {} && exit 0\necho 'pyenv: python3: command not found' >&2; exit 127",
                real.display()
            ),
        );
        let project = home.join("proj");
        std::fs::create_dir_all(&project).unwrap();
        let shim_s = shim.display().to_string();
        let (kept, note) = resolve(&shim_s, &project, Some("/usr/bin:/bin"));
        assert_eq!(kept, shim_s);
        assert_eq!(
            note.unwrap(),
            format!(
                "kept the pyenv shim {shim_s} (`pyenv which python3` failed: pyenv: python3: command not found); the host will run what pyenv selects in its own directory"
            )
        );
        std::fs::write(project.join(".python-version"), "3.12.1\n").unwrap();
        let (resolved, note) = resolve(&shim_s, &project, Some("/usr/bin:/bin"));
        assert_eq!(resolved, real.display().to_string());
        assert!(note.unwrap().contains("is a pyenv shim"));
        assert_eq!(
            resolve("/usr/bin/python3", &project, None),
            ("/usr/bin/python3".into(), None)
        );
        let asdf = home.join(".asdf/shims/node");
        script(&asdf, "exit 0");
        let (kept, note) = resolve(&asdf.display().to_string(), &project, Some("/nonexistent"));
        assert_eq!(kept, asdf.display().to_string());
        assert!(
            note.unwrap()
                .contains("asdf is not installed where its shim is, nor on PATH")
        );
        let _ = std::fs::remove_dir_all(&home);
    }
}
