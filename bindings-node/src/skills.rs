//! `new Server(info, {skills})` and `server.addSkill(skill)`: the skills the server serves (the skills extension, SEP-2640;
//! `libmcp::skills::Skill`, served by `ServerBuilder::skill`), from the JSON the JS layer sends:
//! `[{skillMd, files: [{path, mimeType, text | blob}]}]`, `blob` being base64 bytes.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use libmcp::skills::Skill;
use serde_json::Value;

use crate::error::invalid;

/// The skills described by `list` (a JSON array); a SKILL.md or file the core refuses (no
/// frontmatter name or description, a bad name, a bad or colliding path) is an invalid argument
/// with the core's reason.
pub(crate) fn parse(list: &Value) -> napi::Result<Vec<Skill>> {
    let items = list
        .as_array()
        .ok_or_else(|| invalid("skills must be an array"))?;
    items.iter().map(skill).collect()
}

/// One skill, `{skillMd, files}` (as in [`parse`]).
pub(crate) fn skill(spec: &Value) -> napi::Result<Skill> {
    let md = spec["skillMd"]
        .as_str()
        .ok_or_else(|| invalid("a skill's skillMd must be a string"))?;
    let mut skill = Skill::new(md).map_err(invalid)?;
    let files = match &spec["files"] {
        Value::Null => &Vec::new(),
        Value::Array(files) => files,
        _ => return Err(invalid("a skill's files must be an array")),
    };
    for f in files {
        let field = |k: &str| {
            f[k].as_str()
                .ok_or_else(|| invalid(format!("a skill file's {k} must be a string")))
        };
        let content = match (f["text"].as_str(), f["blob"].as_str()) {
            (Some(text), None) => text.as_bytes().to_vec(),
            (None, Some(blob)) => STANDARD
                .decode(blob)
                .map_err(|e| invalid(format!("a skill file's blob is not base64: {e}")))?,
            _ => return Err(invalid("a skill file needs text or blob content")),
        };
        skill = skill
            .file(field("path")?, field("mimeType")?, content)
            .map_err(invalid)?;
    }
    Ok(skill)
}
