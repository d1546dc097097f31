//! The skills extension (`io.modelcontextprotocol/skills`, SEP-2640), shared by server and client:
//! a [`Skill`] is a directory of files whose root is `SKILL.md` (YAML frontmatter with at least
//! `name` and `description`, then Markdown), served as `skill://<name>/<path>` resources. A
//! [`SkillEntry`] (what `skills/list` and `skills/get` return) carries the frontmatter as a JSON
//! object and, for every file, its `sha256:<hex>` digest and byte size; a host verifies each file it
//! reads against them before using it ([`SkillEntry::verify`]).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};
use yaml_rust2::{Yaml, YamlLoader};

/// The extension identifier, the key under `capabilities.extensions`.
pub const EXTENSION: &str = "io.modelcontextprotocol/skills";
/// The URI scheme of skill files.
pub const SCHEME: &str = "skill://";
/// The file at the root of every skill.
pub const SKILL_MD: &str = "SKILL.md";
/// The MIME type of `SKILL.md`.
pub const MARKDOWN: &str = "text/markdown";
/// The MIME type of a directory in `resources/directory/read` results.
pub const DIRECTORY: &str = "inode/directory";

/// `sha256:` and the lowercase hex SHA-256 of `bytes`.
pub fn digest(bytes: &[u8]) -> String {
    let hash = Sha256::digest(bytes);
    let hex: String = hash.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

/// The YAML frontmatter at the start of a `SKILL.md` (after an optional byte-order mark, between
/// `---` lines) as a JSON object.
pub fn parse_frontmatter(text: &str) -> Result<Map<String, Value>, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
        .ok_or("SKILL.md does not begin with a --- frontmatter line")?;
    let mut yaml_end = None;
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if line
            .trim_end_matches(['\r', '\n'])
            .trim_end_matches([' ', '\t'])
            == "---"
        {
            yaml_end = Some(offset);
            break;
        }
        offset += line.len();
    }
    let yaml = &rest[..yaml_end.ok_or("the SKILL.md frontmatter has no closing --- line")?];
    let docs = YamlLoader::load_from_str(yaml)
        .map_err(|e| format!("the SKILL.md frontmatter is not YAML: {e}"))?;
    match docs.into_iter().next().map(to_json).transpose()? {
        Some(Value::Object(m)) => Ok(m),
        None => Ok(Map::new()),
        Some(other) => Err(format!(
            "the SKILL.md frontmatter is not a mapping but {other}"
        )),
    }
}

fn to_json(y: Yaml) -> Result<Value, String> {
    Ok(match y {
        Yaml::String(s) => json!(s),
        Yaml::Integer(i) => json!(i),
        Yaml::Real(r) => r
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map(Value::Number)
            .ok_or_else(|| format!("the number {r} has no JSON form"))?,
        Yaml::Boolean(b) => json!(b),
        Yaml::Null => Value::Null,
        Yaml::Array(items) => {
            Value::Array(items.into_iter().map(to_json).collect::<Result<_, _>>()?)
        }
        Yaml::Hash(h) => {
            let mut m = Map::new();
            for (k, v) in h {
                let Yaml::String(k) = k else {
                    return Err(format!("frontmatter key {k:?} is not a string"));
                };
                m.insert(k, to_json(v)?);
            }
            Value::Object(m)
        }
        Yaml::Alias(_) | Yaml::BadValue => return Err("unsupported YAML value".into()),
    })
}

/// Whether `name` follows the Agent Skills naming rules: 1 to 64 lowercase letters, digits and
/// hyphens, with no leading, trailing or doubled hyphen.
pub fn valid_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--")
}

/// One file of a skill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkillFile {
    /// The path inside the skill directory (`SKILL.md`, `references/FORMS.md`).
    pub path: String,
    /// Its MIME type.
    pub mime_type: String,
    /// Its bytes.
    pub content: Vec<u8>,
}

/// A skill to serve: `SKILL.md` and the other files of its directory.
#[derive(Clone, Debug)]
pub struct Skill {
    name: String,
    frontmatter: Map<String, Value>,
    files: Vec<SkillFile>,
}

impl Skill {
    /// A skill from the text of its `SKILL.md`, whose frontmatter must name it (a valid skill name)
    /// and describe it.
    pub fn new(skill_md: impl Into<String>) -> Result<Skill, String> {
        let text = skill_md.into();
        let frontmatter = parse_frontmatter(&text)?;
        let name = match frontmatter.get("name") {
            Some(Value::String(n)) if valid_name(n) => n.clone(),
            Some(Value::String(n)) => {
                return Err(format!(
                    "skill name {n:?} breaks the naming rules (1-64 of a-z, 0-9 and -, no leading, trailing or double -)"
                ));
            }
            _ => return Err("the SKILL.md frontmatter has no string name".into()),
        };
        if !matches!(frontmatter.get("description"), Some(Value::String(d)) if !d.is_empty()) {
            return Err(format!(
                "skill {name}: the SKILL.md frontmatter has no description"
            ));
        }
        Ok(Skill {
            name,
            frontmatter,
            files: vec![SkillFile {
                path: SKILL_MD.into(),
                mime_type: MARKDOWN.into(),
                content: text.into_bytes(),
            }],
        })
    }

    /// Adds a file at `path` (relative, `/`-separated, no `.` or `..` segments).
    pub fn file(
        mut self,
        path: impl Into<String>,
        mime_type: impl Into<String>,
        content: impl Into<Vec<u8>>,
    ) -> Result<Skill, String> {
        let path = path.into();
        let bad_segment = path
            .split('/')
            .any(|s| s.is_empty() || s == "." || s == "..");
        if bad_segment || path.contains(['?', '#', '\\']) {
            return Err(format!("skill {}: invalid file path {path:?}", self.name));
        }
        if self.files.iter().any(|f| {
            f.path == path
                || path.starts_with(&format!("{}/", f.path))
                || f.path.starts_with(&format!("{path}/"))
        }) {
            return Err(format!(
                "skill {}: {path:?} collides with another file",
                self.name
            ));
        }
        self.files.push(SkillFile {
            path,
            mime_type: mime_type.into(),
            content: content.into(),
        });
        Ok(self)
    }

    /// The skill's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The frontmatter of its `SKILL.md`.
    pub fn frontmatter(&self) -> &Map<String, Value> {
        &self.frontmatter
    }

    /// Its files, `SKILL.md` first.
    pub fn files(&self) -> &[SkillFile] {
        &self.files
    }

    /// `skill://<name>`: the skill's directory.
    pub fn directory_uri(&self) -> String {
        format!("{SCHEME}{}", self.name)
    }

    /// The URI of the file at `path`.
    pub fn uri(&self, path: &str) -> String {
        format!("{}/{path}", self.directory_uri())
    }

    /// The entry `skills/list` and `skills/get` return.
    pub fn entry(&self) -> SkillEntry {
        SkillEntry {
            uri: self.uri(SKILL_MD),
            frontmatter: self.frontmatter.clone(),
            resources: SkillResources::Listed(
                self.files
                    .iter()
                    .map(|f| SkillResource {
                        uri: self.uri(&f.path),
                        digest: digest(&f.content),
                        size: f.content.len() as u64,
                    })
                    .collect(),
            ),
        }
    }

    /// The direct children of the directory at `uri` (files and subdirectories, these with the
    /// `inode/directory` MIME type), or `None` when `uri` is not a directory of this skill.
    pub fn directory(&self, uri: &str) -> Option<Vec<Value>> {
        let root = self.directory_uri();
        let rel = uri.strip_prefix(&root)?;
        let prefix = match rel.strip_prefix('/') {
            None if rel.is_empty() => String::new(),
            Some(dir) if !dir.is_empty() && !dir.ends_with('/') => format!("{dir}/"),
            _ => return None,
        };
        let mut children: Vec<Value> = Vec::new();
        let mut dirs: Vec<String> = Vec::new();
        for f in &self.files {
            let Some(rest) = f.path.strip_prefix(&prefix) else {
                continue;
            };
            match rest.split_once('/') {
                None => children.push(json!({
                    "uri": self.uri(&f.path),
                    "name": rest,
                    "mimeType": f.mime_type,
                    "size": f.content.len(),
                })),
                Some((sub, _)) if !dirs.iter().any(|d| d == sub) => dirs.push(sub.to_owned()),
                Some(_) => {}
            }
        }
        if children.is_empty() && dirs.is_empty() {
            return None;
        }
        for d in dirs {
            children.push(json!({
                "uri": self.uri(&format!("{prefix}{d}")),
                "name": d,
                "mimeType": DIRECTORY,
            }));
        }
        Some(children)
    }
}

/// One file listed in a [`SkillEntry`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkillResource {
    /// The file's URI.
    pub uri: String,
    /// `sha256:<64 lowercase hex>` of its bytes.
    pub digest: String,
    /// Its length in bytes.
    pub size: u64,
}

/// The files of a skill entry: listed, or `"dynamic"` (not enumerated).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SkillResources {
    /// Every file of the skill, `SKILL.md` included.
    Listed(Vec<SkillResource>),
    /// The string `"dynamic"`.
    Dynamic(String),
}

/// A skill as `skills/list` and `skills/get` describe it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkillEntry {
    /// The URI of its `SKILL.md`.
    pub uri: String,
    /// The `SKILL.md` frontmatter as a JSON object.
    pub frontmatter: Map<String, Value>,
    /// Its files.
    pub resources: SkillResources,
}

impl SkillEntry {
    /// Checks the bytes read for `uri` against the entry: the size, then the digest, and for the
    /// `SKILL.md` itself the frontmatter, field by field. A file the entry does not list, or an
    /// entry whose files are dynamic, cannot be verified and is an error too.
    pub fn verify(&self, uri: &str, content: &[u8]) -> Result<(), String> {
        let SkillResources::Listed(files) = &self.resources else {
            return Err(format!(
                "{}: the entry lists no digests (dynamic resources)",
                self.uri
            ));
        };
        let file = files
            .iter()
            .find(|f| f.uri == uri)
            .ok_or_else(|| format!("{uri} is not listed in the entry of {}", self.uri))?;
        if content.len() as u64 != file.size {
            return Err(format!(
                "{uri}: {} bytes read, the entry says {}",
                content.len(),
                file.size
            ));
        }
        let actual = digest(content);
        if actual != file.digest {
            return Err(format!(
                "{uri}: digest {actual} does not match the entry's {}",
                file.digest
            ));
        }
        if uri == self.uri {
            let text = std::str::from_utf8(content)
                .map_err(|_| format!("{uri}: SKILL.md is not UTF-8"))?;
            let read = parse_frontmatter(text).map_err(|e| format!("{uri}: {e}"))?;
            let keys: std::collections::BTreeSet<&String> =
                read.keys().chain(self.frontmatter.keys()).collect();
            for k in keys {
                if read.get(k) != self.frontmatter.get(k) {
                    return Err(format!(
                        "{uri}: frontmatter field {k:?} is {} in the file but {} in the entry",
                        read.get(k).unwrap_or(&Value::Null),
                        self.frontmatter.get(k).unwrap_or(&Value::Null)
                    ));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MD: &str = "---\nname: pdf-processing\ndescription: Extract PDF text\nmetadata:\n  version: 2\n---\n\nBody.\n";

    #[test]
    fn frontmatter_becomes_json() {
        assert_eq!(
            Value::Object(parse_frontmatter(MD).unwrap()),
            json!({"name": "pdf-processing", "description": "Extract PDF text", "metadata": {"version": 2}})
        );
        assert!(
            parse_frontmatter("no frontmatter")
                .unwrap_err()
                .contains("does not begin")
        );
        assert!(
            parse_frontmatter("---\nname: x\n")
                .unwrap_err()
                .contains("closing")
        );
        assert!(
            parse_frontmatter("---\n- a\n---\n")
                .unwrap_err()
                .contains("not a mapping")
        );
        assert!(parse_frontmatter("\u{feff}---\r\nname: a\r\n---\r\n").is_ok());
    }

    #[test]
    fn names_and_paths_are_checked() {
        assert!(valid_name("pdf-processing"));
        for bad in ["", "-a", "a-", "a--b", "A", "a_b", &"a".repeat(65)] {
            assert!(!valid_name(bad), "{bad:?}");
        }
        assert!(Skill::new("---\nname: Bad\ndescription: d\n---\n").is_err());
        assert!(
            Skill::new("---\nname: ok\n---\n")
                .unwrap_err()
                .contains("description")
        );
        let s = Skill::new(MD).unwrap();
        assert!(s.clone().file("../x", "text/plain", "x").is_err());
        assert!(s.clone().file("SKILL.md", "text/plain", "x").is_err());
        assert!(s.clone().file("SKILL.md/x", "text/plain", "x").is_err());
    }

    #[test]
    fn entry_digests_and_directories() {
        let s = Skill::new(MD)
            .unwrap()
            .file("references/FORMS.md", "text/markdown", "Forms.\n")
            .unwrap();
        let e = s.entry();
        assert_eq!(e.uri, "skill://pdf-processing/SKILL.md");
        let SkillResources::Listed(files) = &e.resources else {
            panic!("listed")
        };
        assert_eq!(files.len(), 2);
        assert_eq!(files[1].uri, "skill://pdf-processing/references/FORMS.md");
        assert_eq!(files[1].size, 7);
        // sha256("Forms.\n")
        assert_eq!(files[1].digest, digest(b"Forms.\n"));
        assert_eq!(digest(b"").len(), "sha256:".len() + 64);
        assert_eq!(
            digest(b"abc"),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        let root = s.directory("skill://pdf-processing").unwrap();
        assert_eq!(root[0]["uri"], "skill://pdf-processing/SKILL.md");
        assert_eq!(root[1]["uri"], "skill://pdf-processing/references");
        assert_eq!(root[1]["mimeType"], DIRECTORY);
        let sub = s.directory("skill://pdf-processing/references").unwrap();
        assert_eq!(sub.len(), 1);
        assert!(s.directory("skill://pdf-processing/SKILL.md").is_none());
        assert!(s.directory("skill://pdf-processing/").is_none());
        assert!(s.directory("skill://other").is_none());
    }

    #[test]
    fn verification_catches_size_digest_and_frontmatter() {
        let s = Skill::new(MD).unwrap();
        let e = s.entry();
        assert_eq!(e.verify(&e.uri, MD.as_bytes()), Ok(()));
        let longer = format!("{MD}x");
        assert!(
            e.verify(&e.uri, longer.as_bytes())
                .unwrap_err()
                .contains("bytes read")
        );
        let same_len = MD.replace("Body.", "Evil.");
        assert!(
            e.verify(&e.uri, same_len.as_bytes())
                .unwrap_err()
                .contains("digest")
        );
        // A SKILL.md whose digest and size match the entry but whose frontmatter does not.
        let other = MD.replace("Extract PDF text", "Exfiltrate creds");
        let mut tampered = e.clone();
        tampered.resources = SkillResources::Listed(vec![SkillResource {
            uri: e.uri.clone(),
            digest: digest(other.as_bytes()),
            size: other.len() as u64,
        }]);
        assert!(
            tampered
                .verify(&e.uri, other.as_bytes())
                .unwrap_err()
                .contains("\"description\"")
        );
        assert!(
            e.verify("skill://pdf-processing/x", b"")
                .unwrap_err()
                .contains("not listed")
        );
        let wire = serde_json::to_value(&e).unwrap();
        assert_eq!(serde_json::from_value::<SkillEntry>(wire).unwrap(), e);
    }
}
