//! The changes a server announces (list changes, a resource update).

/// A change the server announces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// The tool list changed.
    Tools,
    /// The prompt list changed.
    Prompts,
    /// The resource list changed.
    Resources,
    /// One resource's content changed.
    ResourceUpdated(String),
}

impl Change {
    /// The notification method announcing this change.
    pub fn method(&self) -> &'static str {
        match self {
            Change::Tools => "notifications/tools/list_changed",
            Change::Prompts => "notifications/prompts/list_changed",
            Change::Resources => "notifications/resources/list_changed",
            Change::ResourceUpdated(_) => "notifications/resources/updated",
        }
    }
}
