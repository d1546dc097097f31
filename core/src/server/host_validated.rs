//! Tools whose arguments (and structured output) the host language checks itself, with its own
//! schema library (Zod in Node, Pydantic in Python), before and after its handler runs: the engine
//! lists and compiles their schemas as for any tool, but does not check `arguments` against
//! `inputSchema` (or `structuredContent` against `outputSchema`) when they are called, so the host's
//! library is the one gate and its defaults, coercions and transforms apply.

use super::builder;
use super::change::Change;
use super::registry::Handler;
use super::state::Server;
use crate::error::DefinitionKind;

/// Which of a tool's checks the host makes instead of the engine.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ValidatedByHost {
    /// The host checks `arguments` (the engine does not check them against `inputSchema`).
    pub input: bool,
    /// The host checks `structuredContent` (the engine does not check it against `outputSchema`).
    pub output: bool,
}

impl Server {
    /// Registers (or replaces) a tool like [`add_tool`](Self::add_tool), leaving the checks
    /// `by_host` names to the host: the definition is checked and its schemas compiled as for
    /// any tool (a schema the engine cannot compile is refused), and the change is announced.
    pub fn add_tool_validated_by_host(
        &self,
        definition: impl serde::Serialize,
        handler: Handler,
        by_host: ValidatedByHost,
    ) -> crate::Result<()> {
        let (name, mut entry) = builder::tool_entry(
            &self.inner.schemas,
            builder::to_definition(DefinitionKind::Tool, definition)?,
            handler,
        )?;
        if by_host.input {
            entry.input = None;
        }
        if by_host.output {
            entry.output = None;
        }
        self.inner.registry.write().tools.insert(name, entry);
        self.notify(Change::Tools);
        Ok(())
    }
}
