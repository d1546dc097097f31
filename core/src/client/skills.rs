//! The host side of the skills extension (SEP-2640): listing skills (`skills/list`, every page),
//! one skill's entry (`skills/get`), and reading a skill's files, each verified against the entry
//! before it is returned (size, digest, and for `SKILL.md` the frontmatter), so content that fails
//! verification is never handed to the application. Nothing is read ahead of need: listing reads
//! no file.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde::Deserialize;
use serde_json::{Value, json};

use super::connection::CallOptions;
use super::handle::Client;
use super::pages::{Listed, Pages};
use crate::error::{Error, Result};
use crate::model::Cursor;
use crate::skills::SkillEntry;

/// One page of `skills/list`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListSkillsPage {
    #[serde(default)]
    skills: Vec<SkillEntry>,
    #[serde(default)]
    next_cursor: Option<Cursor>,
}

impl Listed for SkillEntry {
    const METHOD: &'static str = "skills/list";
    const KEY: &'static str = "skills";
    type Page = ListSkillsPage;
    fn split(page: ListSkillsPage) -> (Vec<Self>, Option<Cursor>) {
        (page.skills, page.next_cursor)
    }
}

/// The bytes of the first item of a `resources/read` result (`text` as UTF-8, or `blob` decoded).
fn content_bytes(uri: &str, result: &Value) -> Result<Vec<u8>> {
    let item = result["contents"]
        .as_array()
        .and_then(|c| c.iter().find(|i| i["uri"] == uri).or_else(|| c.first()))
        .ok_or_else(|| Error::Protocol(format!("resources/read of {uri} returned no contents")))?;
    if let Some(text) = item["text"].as_str() {
        return Ok(text.as_bytes().to_vec());
    }
    let blob = item["blob"].as_str().ok_or_else(|| {
        Error::Protocol(format!("resources/read of {uri}: neither text nor blob"))
    })?;
    STANDARD
        .decode(blob)
        .map_err(|e| Error::Protocol(format!("resources/read of {uri}: blob is not base64: {e}")))
}

impl Client {
    /// The skills, as a stream that follows `nextCursor`.
    pub fn list_skills(&self) -> Pages<SkillEntry> {
        Pages::new(self.clone())
    }

    /// Every skill.
    pub async fn list_all_skills(&self) -> Result<Vec<SkillEntry>> {
        self.list_skills().collect().await
    }

    /// `skills/get`: the entry of the skill whose `SKILL.md` is at `uri`.
    pub async fn get_skill(&self, uri: &str) -> Result<SkillEntry> {
        let result = self
            .call("skills/get", json!({ "uri": uri }), &CallOptions::default())
            .await?;
        serde_json::from_value(result["skill"].clone())
            .map_err(|e| Error::Protocol(format!("skills/get of {uri}: invalid skill entry: {e}")))
    }

    /// Reads the file at `uri` of the skill `entry` describes and returns its bytes once they match
    /// the entry; a mismatch is an [`Error::Protocol`] naming it, and the content is dropped.
    pub async fn read_skill_file(&self, entry: &SkillEntry, uri: &str) -> Result<Vec<u8>> {
        let result = self.read_resource_raw(uri).await?;
        let bytes = content_bytes(uri, &result)?;
        entry
            .verify(uri, &bytes)
            .map_err(|e| Error::Protocol(format!("skill verification failed: {e}")))?;
        Ok(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contents_text_and_blob() {
        let text = json!({"contents": [{"uri": "skill://a/SKILL.md", "text": "hi"}]});
        assert_eq!(content_bytes("skill://a/SKILL.md", &text).unwrap(), b"hi");
        let blob = json!({"contents": [{"uri": "skill://a/x", "blob": "AAE="}]});
        assert_eq!(content_bytes("skill://a/x", &blob).unwrap(), vec![0, 1]);
        assert!(content_bytes("u", &json!({"contents": []})).is_err());
        assert!(content_bytes("u", &json!({"contents": [{"uri": "u"}]})).is_err());
    }
}
