//! Errors about what the application gave the library: a rejected server definition (tool, resource,
//! template, prompt) and an invalid configuration value.

use std::fmt;

/// What a [`DefinitionError`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DefinitionKind {
    /// A Tool.
    Tool,
    /// A static Resource.
    Resource,
    /// A ResourceTemplate.
    ResourceTemplate,
    /// A Prompt.
    Prompt,
    /// The server as a whole (its versions, its info).
    Server,
}

impl fmt::Display for DefinitionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DefinitionKind::Tool => "tool",
            DefinitionKind::Resource => "resource",
            DefinitionKind::ResourceTemplate => "resource template",
            DefinitionKind::Prompt => "prompt",
            DefinitionKind::Server => "server",
        })
    }
}

/// One definition the server builder rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefinitionError {
    /// What was being defined.
    pub kind: DefinitionKind,
    /// Its name (a tool or prompt name, a resource URI, a URI template), when it has one.
    pub name: Option<String>,
    /// What is wrong with it.
    pub reason: String,
}

impl DefinitionError {
    /// An error about the definition of `kind` called `name`.
    pub fn new(kind: DefinitionKind, name: impl Into<String>, reason: impl Into<String>) -> Self {
        DefinitionError {
            kind,
            name: Some(name.into()),
            reason: reason.into(),
        }
    }

    /// An error about a definition of `kind` whose name could not be read.
    pub fn unnamed(kind: DefinitionKind, reason: impl Into<String>) -> Self {
        DefinitionError {
            kind,
            name: None,
            reason: reason.into(),
        }
    }
}

impl fmt::Display for DefinitionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.name {
            Some(name) => write!(f, "{} {name:?}: {}", self.kind, self.reason),
            None => write!(f, "{}: {}", self.kind, self.reason),
        }
    }
}

impl std::error::Error for DefinitionError {}

/// The definitions of [`super::Error::InvalidDefinitions`], joined for display.
pub(super) struct Joined<'a>(pub(super) &'a [DefinitionError]);

impl fmt::Display for Joined<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

/// A configuration value that breaks a rule (zero where a positive value is needed, a request timeout
/// above the total timeout, an unknown protocol version, ...).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {reason}")]
pub struct ConfigError {
    /// The field, as named in the Rust configuration struct (`request_timeout`, ...).
    pub field: &'static str,
    /// What is wrong with its value.
    pub reason: String,
}

impl ConfigError {
    /// An error about `field`.
    pub fn new(field: &'static str, reason: impl Into<String>) -> Self {
        ConfigError {
            field,
            reason: reason.into(),
        }
    }

    /// The rule "`field` must not be zero": `Err` when `zero` holds.
    pub(crate) fn positive(field: &'static str, zero: bool) -> Result<(), ConfigError> {
        if zero {
            Err(ConfigError::new(field, "must not be zero"))
        } else {
            Ok(())
        }
    }
}
