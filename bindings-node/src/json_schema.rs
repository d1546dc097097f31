//! A JSON Schema compiled by the engine's validator (`libmcp::schema::CompiledSchema`), for checks
//! the JS layer makes on what a server sent: libmcp/sdk's `Client.callTool` checks a result's
//! `structuredContent` against the tool's listed `outputSchema` with it, as the SDK's client does.

use libmcp::schema::CompiledSchema;
use napi_derive::napi;

use crate::error::{invalid, parse};

/// A compiled schema.
#[napi]
pub struct NativeJsonSchema {
    schema: CompiledSchema,
}

#[napi]
impl NativeJsonSchema {
    /// Compiles `schema` (JSON text); a schema the engine cannot compile is an invalid argument
    /// naming why.
    #[napi(constructor)]
    pub fn new(schema: String) -> napi::Result<NativeJsonSchema> {
        let schema = CompiledSchema::new(&parse("the schema", &schema)?)
            .map_err(|e| invalid(format!("the schema cannot be compiled: {e}")))?;
        Ok(NativeJsonSchema { schema })
    }

    /// Null when `value` (JSON text) conforms, else what is wrong and where (the engine's words,
    /// one `<instance path>: <message>` per line).
    #[napi]
    pub fn check(&self, value: String) -> napi::Result<Option<String>> {
        let value = parse("the value", &value)?;
        Ok(self.schema.validate(&value).err().map(|e| e.to_string()))
    }
}
