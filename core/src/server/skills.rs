//! The server side of the skills extension (SEP-2640): each registered [`Skill`]'s files are
//! resources (`skill://<name>/<path>`, `SKILL.md` listed with its frontmatter's name and
//! description); the extension is declared under `capabilities.extensions` with `directoryRead`
//! (in `capabilities`);
//! `skills/list`, `skills/get` and `resources/directory/read` answer from the registered skills.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};

use super::handlers::sync_handler;
use super::registry::{Registry, ResourceEntry, paginate};
use super::state::{RequestContext, SessionShared};
use crate::error::RpcError;
use crate::skills::{DIRECTORY, SKILL_MD, Skill};

/// The methods of the extension.
pub(crate) const METHODS: [&str; 3] = ["skills/list", "skills/get", "resources/directory/read"];

/// Adds `skill` and a resource per file; the URIs of files already registered as resources.
pub(crate) fn register(registry: &mut Registry, skill: Skill) -> Vec<String> {
    let mut taken = Vec::new();
    for f in skill.files() {
        let uri = skill.uri(&f.path);
        if registry.resources.contains(&uri) {
            taken.push(uri);
            continue;
        }
        let (name, description) = if f.path == SKILL_MD {
            let fm = skill.frontmatter();
            (fm["name"].clone(), fm["description"].clone())
        } else {
            (
                json!(f.path),
                json!(format!("{} of skill {}", f.path, skill.name())),
            )
        };
        let definition = json!({
            "uri": uri, "name": name, "description": description,
            "mimeType": f.mime_type, "size": f.content.len(),
        });
        let contents = match std::str::from_utf8(&f.content) {
            Ok(text) => json!({"uri": uri, "mimeType": f.mime_type, "text": text}),
            Err(_) => {
                json!({"uri": uri, "mimeType": f.mime_type, "blob": STANDARD.encode(&f.content)})
            }
        };
        let result = json!({ "contents": [contents] });
        let handler = sync_handler(move |_: &RequestContext| result.clone());
        registry.resources.insert(
            uri,
            ResourceEntry {
                definition,
                handler,
            },
        );
    }
    registry.skills.insert(skill.name().to_owned(), skill);
    taken
}

/// Answers one of [`METHODS`].
pub(crate) fn handle(shared: &SessionShared, ctx: &RequestContext) -> Result<Value, RpcError> {
    let registry = shared.server.registry.read();
    let params = ctx.params();
    let uri = || {
        params
            .get("uri")
            .and_then(Value::as_str)
            .ok_or_else(|| RpcError::invalid_params("uri must be a string"))
    };
    match ctx.method() {
        "skills/list" => {
            let cursor = match params.get("cursor") {
                None | Some(Value::Null) => None,
                Some(Value::String(s)) => Some(s.as_str()),
                Some(_) => return Err(RpcError::invalid_params("cursor must be a string")),
            };
            let page_size = shared.server.config.page_size;
            let all: Vec<_> = registry.skills.iter().collect();
            let (page, next) = paginate(all.iter(), cursor, page_size)?;
            let skills: Vec<_> = page.iter().map(|s| s.entry()).collect();
            let mut result = json!({ "skills": skills });
            if let Some(n) = next {
                result["nextCursor"] = json!(n);
            }
            Ok(result)
        }
        "skills/get" => {
            let uri = uri()?;
            registry
                .skills
                .iter()
                .find(|s| s.uri(SKILL_MD) == uri)
                .map(|s| json!({ "skill": s.entry() }))
                .ok_or_else(|| unknown(uri, "is not the SKILL.md of a skill this server serves"))
        }
        _ => {
            let uri = uri()?;
            registry
                .skills
                .iter()
                .find_map(|s| s.directory(uri))
                .map(|resources| json!({ "resources": resources }))
                .ok_or_else(|| unknown(uri, &format!("is not a directory ({DIRECTORY})")))
        }
    }
}

fn unknown(uri: &str, why: &str) -> RpcError {
    RpcError::invalid_params(format!("{uri} {why}")).with_data(json!({ "uri": uri }))
}
