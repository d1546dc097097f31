//! Validation failures in a form a model or a log can read.

use std::fmt;

/// Entries kept per failed validation; the total is still counted past it.
const MAX_KEPT: usize = 100;
/// Entries shown by `Display`.
const MAX_SHOWN: usize = 10;
/// Longest message kept per entry, in bytes (messages can quote the whole offending value).
const MAX_MESSAGE: usize = 300;

/// One way an instance fails its schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationErrorEntry {
    /// JSON Pointer to the offending part of the instance (`""` is the instance itself).
    pub instance_path: String,
    /// JSON Pointer to the schema keyword that failed.
    pub schema_path: String,
    /// What is wrong, in words.
    pub message: String,
}

/// Why an instance does not conform; `Display` lists `"<instance path>: <message>"` lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationErrors {
    entries: Vec<ValidationErrorEntry>,
    total: usize,
}

impl ValidationErrors {
    pub(super) fn from_entries(mut entries: Vec<ValidationErrorEntry>) -> Self {
        let total = entries.len();
        entries.truncate(MAX_KEPT);
        for entry in &mut entries {
            truncate(&mut entry.message);
        }
        ValidationErrors { entries, total }
    }

    /// The first failures found (at most 100), in the validator's order.
    pub fn entries(&self) -> &[ValidationErrorEntry] {
        &self.entries
    }

    /// How many failures were found in all, including those not kept in [`entries`](Self::entries).
    pub fn total(&self) -> usize {
        self.total
    }
}

fn truncate(message: &mut String) {
    if message.len() > MAX_MESSAGE {
        let mut cut = MAX_MESSAGE;
        while !message.is_char_boundary(cut) {
            cut -= 1;
        }
        message.truncate(cut);
        message.push('…');
    }
}

impl fmt::Display for ValidationErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, entry) in self.entries.iter().take(MAX_SHOWN).enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            let path = if entry.instance_path.is_empty() {
                "(root)"
            } else {
                &entry.instance_path
            };
            write!(f, "{path}: {}", entry.message)?;
        }
        let shown = self.entries.len().min(MAX_SHOWN);
        if self.total > shown {
            write!(f, "\n... and {} more", self.total - shown)?;
        }
        Ok(())
    }
}

impl std::error::Error for ValidationErrors {}
