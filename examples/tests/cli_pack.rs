//! `mcp pack`: the bundle of a real stdio server (a small standard-library Python server), read back
//! as a zip archive: its files, their modes and the manifest built from what the server said.
//! `scripts/test.d/43-cli-bundle.sh` checks the same bundle with the official `mcpb` CLI.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

const MCP: &str = env!("CARGO_BIN_EXE_mcp");

#[test]
fn a_python_server_is_packed_with_its_project_folder_and_a_manifest() {
    let dir = std::env::temp_dir().join(format!("libmcp-cli-pack-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("srv/data")).unwrap();
    std::fs::create_dir_all(dir.join("srv/.git")).unwrap();
    std::fs::create_dir_all(dir.join("srv/__pycache__")).unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pack/weather.py");
    std::fs::copy(&fixture, dir.join("srv/weather.py")).unwrap();
    std::fs::write(
        dir.join("srv/pyproject.toml"),
        "[project]\nname = \"weather\"\n",
    )
    .unwrap();
    std::fs::write(dir.join("srv/data/cities.txt"), "Paris\n").unwrap();
    std::fs::write(dir.join("srv/.git/HEAD"), "ref\n").unwrap();
    std::fs::write(dir.join("srv/__pycache__/x.pyc"), "").unwrap();
    let pack = || {
        Command::new(MCP)
            .args([
                "--json",
                "pack",
                "--author",
                "Ada",
                "--env",
                "LEVEL=2",
                "--file",
                "out/w.mcpb",
                "--",
                "python3",
                "srv/weather.py",
                "--units",
                "metric",
            ])
            .current_dir(&dir)
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let out = pack();
    // The output folder must exist: a clear error names it.
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("cannot create"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::create_dir_all(dir.join("out")).unwrap();
    let out = pack();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["files"], 4);
    let file = std::fs::File::open(dir.join("out/w.mcpb")).unwrap();
    let mut zip = zip::ZipArchive::new(file).expect("a zip archive");
    let mut names: Vec<String> = zip.file_names().map(str::to_string).collect();
    names.sort();
    assert_eq!(
        names,
        [
            "manifest.json",
            "server/data/cities.txt",
            "server/pyproject.toml",
            "server/weather.py"
        ]
    );
    let mut text = String::new();
    zip.by_name("manifest.json")
        .unwrap()
        .read_to_string(&mut text)
        .unwrap();
    let manifest: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(manifest, report["manifest"]);
    assert_eq!(
        manifest,
        json!({
            "manifest_version": "0.3",
            "name": "weather",
            "display_name": "Weather",
            "version": "1.2.0",
            "description": "Forecasts for any city.",
            "author": {"name": "Ada"},
            "server": {
                "type": "python",
                "entry_point": "server/weather.py",
                "mcp_config": {
                    "command": "python3",
                    "args": ["${__dirname}/server/weather.py", "--units", "metric"],
                    "env": {"LEVEL": "2"},
                },
            },
            "tools": [{"name": "forecast", "description": "Tomorrow's weather for a city"}],
        })
    );
    let script = zip.by_name("server/weather.py").unwrap();
    assert_eq!(script.unix_mode().map(|m| m & 0o777), Some(0o644));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn pack_refuses_urls_and_misplaced_options() {
    let run = |args: &[&str]| {
        let o = Command::new(MCP).args(args).output().unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    assert_eq!(
        run(&["pack", "http://127.0.0.1:9/mcp"]),
        (
            Some(2),
            "mcp: pack bundles a server program (mcp pack -- my-server), not a URL\nhint: see 'mcp pack --help'\n".into()
        )
    );
    assert_eq!(run(&["tools", "--author", "x", "--", "srv"]).0, Some(2));
    let (code, err) = run(&["pack", "--", "python3", "-u", "x.py"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("options before the script (-u)"), "{err}");
}
