"""The conformance "everything" server on the Python package: the tools, resources, prompts and
completion the official MCP conformance suite names (the same contract as the Rust and C
everything-servers), for both protocol eras.

Usage: python everything_server.py [--http [HOST:PORT]]   (stdio by default; HTTP prints its URL)
"""

from __future__ import annotations

import asyncio
import json
import sys
import threading
from typing import Any

from libmcp import Context, InputRequired, ProtocolError, Server, Skill, ToolError, ToolResult

PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
WAV = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA="
STEP = 0.05  # seconds between the notifications of the logging and progress tools

#: The skill served through the skills extension (SEP-2640): a SKILL.md and a file in a subdirectory,
#: so that listing, retrieval, verification and directory reads have something to work on.
SKILL_MD = ("---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\nlicense: Apache-2.0\n"
            "---\n\n# PDF processing\n\nUse the form reference in references/FORMS.md when a PDF has fields to fill.\n")
FORMS_MD = "# Forms\n\nFill every field, then flatten the document.\n"

server = Server(
    "libmcp-python-everything-server",
    "0.1.0",
    "Conformance fixture: every tool, resource and prompt named by the MCP conformance suite.",
    title="libmcp Python everything server",
    skills=[Skill(SKILL_MD, {"references/FORMS.md": ("text/markdown", FORMS_MD)})],
)
tool = server.tool
IMAGE = {"type": "image", "data": PNG, "mimeType": "image/png"}


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


# -- content -------------------------------------------------------------------------------------


@tool()
def test_simple_text() -> str:
    """Returns a simple text response"""
    return "This is a simple text response for testing."


@tool()
def test_image_content() -> ToolResult:
    """Returns an image (a 1x1 PNG)"""
    return ToolResult(content=[IMAGE])


@tool()
def test_audio_content() -> ToolResult:
    """Returns audio (a short WAV)"""
    return ToolResult(content=[{"type": "audio", "data": WAV, "mimeType": "audio/wav"}])


@tool()
def test_embedded_resource() -> ToolResult:
    """Returns an embedded text resource"""
    resource = {"uri": "test://embedded-resource", "mimeType": "text/plain", "text": "This is an embedded resource content."}
    return ToolResult(content=[{"type": "resource", "resource": resource}])


@tool()
def test_multiple_content_types() -> ToolResult:
    """Returns text, an image and an embedded resource"""
    resource = {"uri": "test://mixed-content-resource", "mimeType": "application/json", "text": '{"test":"data","value":123}'}
    return ToolResult(content=["Multiple content types test:", IMAGE, {"type": "resource", "resource": resource}])


@tool()
def test_error_handling() -> str:
    """Always fails with a tool error (isError), not a protocol error"""
    raise ToolError("This tool intentionally returns an error for testing")


@tool()
async def test_tool_with_logging(ctx: Context) -> str:
    """Sends three info log messages about 50 ms apart, then returns"""
    for i, message in enumerate(["Tool execution started", "Tool processing data", "Tool execution completed"]):
        if i:
            await asyncio.sleep(STEP)
        ctx.info(message)
    return "Tool with logging executed successfully"


@tool()
async def test_tool_with_progress(ctx: Context) -> str:
    """Reports progress 0, 50 and 100 of 100 about 50 ms apart (when a progressToken is given)"""
    for i, p in enumerate([0, 50, 100]):
        if i:
            await asyncio.sleep(STEP)
        ctx.report_progress(p, 100)
    return "Tool with progress executed successfully"


@tool()
def test_logging_tool(ctx: Context) -> str:
    """Logs at debug, info and warning; the modern era only delivers them when the request names a logLevel"""
    sent = sum(
        bool(ctx.log(level, f"test_logging_tool: {level} message", logger="test_logging_tool"))
        for level in ("debug", "info", "warning")
    )
    return f"Logging test completed: {sent} message(s) sent"


@tool()
def test_missing_capability(ctx: Context) -> str:
    """Needs the client's sampling capability: fails with -32021 when the request does not declare it"""
    if ctx.has_client_capability("sampling"):
        return "Success"
    raise ProtocolError(-32021, "Missing required client capability", {"requiredCapabilities": {"sampling": {}}})


JSON_SCHEMA_2020_12 = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "$defs": {
        "address": {
            "$anchor": "addressDef",
            "type": "object",
            "properties": {"street": {"type": "string"}, "city": {"type": "string"}, "postalCode": {"type": "string"}},
            "required": ["street", "city"],
        }
    },
    "properties": {
        "name": {"type": "string", "description": "The contact's name"},
        "address": {"$ref": "#/$defs/address"},
        "contactMethod": {"type": "string", "enum": ["phone", "email"]},
        "phone": {"type": "string"},
        "email": {"type": "string", "format": "email"},
    },
    "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
    "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
    "then": {"required": ["phone"]},
    "else": {"required": ["email"]},
    "additionalProperties": False,
}


@tool(
    description="Tool with a JSON Schema 2020-12 input schema ($defs, $anchor, $ref, allOf/anyOf, if/then/else)",
    input_schema=JSON_SCHEMA_2020_12,
)
def json_schema_2020_12_tool(**arguments: Any) -> str:
    return f"json_schema_2020_12_tool received: {_compact(arguments)}"


# -- input requests (legacy: real server-to-client requests; modern: MRTR) -------------------------


def _form(field: str, description: str) -> dict[str, Any]:
    return {"type": "object", "properties": {field: {"type": "string", "description": description}}, "required": [field]}


def _user_message(text: str, max_tokens: int) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": {"type": "text", "text": text}}], "maxTokens": max_tokens}


def _accepted(ctx: Context, key: str, field: str) -> Any:
    answer = (ctx.input_responses or {}).get(key)
    if not isinstance(answer, dict) or answer.get("action") != "accept":
        return None
    content = answer.get("content")
    return content.get(field) if isinstance(content, dict) else None


def _refused(ctx: Context, *keys: str) -> str | None:
    for key in keys:
        answer = ctx.input_response(key)
        if answer is not None and answer.action in ("decline", "cancel"):
            return f"The user chose to {answer.action} the question ({key})"
    return None


def _describe(ctx: Context, key: str) -> str:
    answer = (ctx.input_responses or {})[key]
    return f"action={answer.get('action', 'unknown')}, content={_compact(answer.get('content', {}))}"


def _sampled(ctx: Context, key: str) -> str | None:
    answer = (ctx.input_responses or {}).get(key)
    if not isinstance(answer, dict):
        return None
    content = answer.get("content")
    if isinstance(content, list):
        content = next((b for b in content if isinstance(b, dict) and b.get("type") == "text"), None)
    text = content.get("text") if isinstance(content, dict) else None
    return text if isinstance(text, str) else None


def _roots(ctx: Context, key: str) -> list[str] | None:
    answer = (ctx.input_responses or {}).get(key)
    if not isinstance(answer, dict) or not isinstance(answer.get("roots"), list):
        return None
    return [f"{r['uri']} ({r['name']})" if r.get("name") else r["uri"] for r in answer["roots"] if isinstance(r, dict) and "uri" in r]


def _ask_name(ir: InputRequired, key: str) -> InputRequired:
    return ir.elicit(key, "What is your name?", _form("name", "Your name"))


def _ask_capital(ir: InputRequired, key: str) -> InputRequired:
    return ir.sample(key, _user_message("What is the capital of France?", 100))


@tool(description="Asks the client's LLM to answer a prompt (sampling/createMessage)")
def test_sampling(prompt: str, ctx: Context) -> str | InputRequired:
    """Args:
        prompt: The prompt to send
    """
    text = _sampled(ctx, "sample")
    if text is not None:
        return f"LLM response: {text}"
    return InputRequired().sample("sample", _user_message(prompt, 100))


@tool(description="Asks the user for input (elicitation/create)")
def test_elicitation(message: str, ctx: Context) -> str | InputRequired:
    """Args:
        message: The message to show the user
    """
    if ctx.input_response("response") is not None:
        return f"User response: {_describe(ctx, 'response')}"
    return InputRequired().elicit("response", message, _form("response", "Your response"))


@tool()
def test_elicitation_sep1034_defaults(ctx: Context) -> str | InputRequired:
    """Elicitation whose form fields carry default values (SEP-1034)"""
    if ctx.input_response("defaults") is not None:
        return f"Elicitation completed: {_describe(ctx, 'defaults')}"
    schema = {
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "User name", "default": "John Doe"},
            "age": {"type": "integer", "description": "User age", "default": 30},
            "score": {"type": "number", "description": "User score", "default": 95.5},
            "status": {"type": "string", "description": "User status", "enum": ["active", "inactive", "pending"], "default": "active"},
            "verified": {"type": "boolean", "description": "Verification status", "default": True},
        },
    }
    return InputRequired().elicit("defaults", "Please review and update the form fields with defaults", schema)


TITLED = [
    {"const": "value1", "title": "First Option"},
    {"const": "value2", "title": "Second Option"},
    {"const": "value3", "title": "Third Option"},
]


@tool()
def test_elicitation_sep1330_enums(ctx: Context) -> str | InputRequired:
    """Elicitation with the five enum variants of SEP-1330"""
    if ctx.input_response("enums") is not None:
        return f"Elicitation completed: {_describe(ctx, 'enums')}"
    options = ["option1", "option2", "option3"]
    schema = {
        "type": "object",
        "properties": {
            "untitledSingle": {"type": "string", "description": "Untitled single-select", "enum": options},
            "titledSingle": {"type": "string", "description": "Titled single-select", "oneOf": TITLED},
            "legacyEnum": {"type": "string", "description": "Legacy titled enum", "enum": ["opt1", "opt2", "opt3"],
                           "enumNames": ["Option One", "Option Two", "Option Three"]},
            "untitledMulti": {"type": "array", "description": "Untitled multi-select", "items": {"type": "string", "enum": options}},
            "titledMulti": {"type": "array", "description": "Titled multi-select", "items": {"anyOf": TITLED}},
        },
    }
    return InputRequired().elicit("enums", "Please select options from the enum fields", schema)


@tool()
def test_streaming_elicitation(ctx: Context) -> str | InputRequired:
    """Elicitation without server-to-client requests in the modern era: progress, then an input_required result"""
    ctx.report_progress(0, 1, "asking the user")
    if ctx.input_response("confirmation") is not None:
        return f"Streaming elicitation completed: {_describe(ctx, 'confirmation')}"
    return InputRequired().elicit("confirmation", "Please confirm to continue", _form("confirmation", "Type anything to confirm"))


@tool()
def test_input_required_result_elicitation(ctx: Context) -> str | InputRequired:
    """MRTR: asks for the user's name, then greets them"""
    if refused := _refused(ctx, "user_name"):
        return refused
    name = _accepted(ctx, "user_name", "name")
    return f"Hello, {name}!" if isinstance(name, str) else _ask_name(InputRequired(), "user_name")


@tool()
def test_input_required_result_sampling(ctx: Context) -> str | InputRequired:
    """MRTR: asks the client's LLM for the capital of France"""
    text = _sampled(ctx, "capital_question")
    return f"Sampling result: {text}" if text is not None else _ask_capital(InputRequired(), "capital_question")


@tool()
def test_input_required_result_list_roots(ctx: Context) -> str | InputRequired:
    """MRTR: asks for the client's roots"""
    roots = _roots(ctx, "client_roots")
    return f"Client roots: {', '.join(roots)}" if roots is not None else InputRequired().list_roots("client_roots")


@tool()
def test_input_required_result_request_state(ctx: Context) -> str | InputRequired:
    """MRTR: asks for a confirmation and carries a requestState"""
    if refused := _refused(ctx, "confirm"):
        return refused
    ok = _accepted(ctx, "confirm", "ok")
    if isinstance(ok, bool) and ctx.request_state == "state-ok":
        return f"Request state verified: state-ok (ok={str(ok).lower()})"
    schema = {"type": "object", "properties": {"ok": {"type": "boolean", "description": "Confirm"}}, "required": ["ok"]}
    return InputRequired(state="state-ok").elicit("confirm", "Please confirm", schema)


@tool()
def test_input_required_result_multiple_inputs(ctx: Context) -> str | InputRequired:
    """MRTR: asks for a name, a sampled greeting and the roots at once"""
    if refused := _refused(ctx, "user_name"):
        return refused
    name, greeting, roots = _accepted(ctx, "user_name", "name"), _sampled(ctx, "greeting"), _roots(ctx, "client_roots")
    if isinstance(name, str) and greeting is not None and roots is not None and ctx.request_state == "multiple-inputs":
        return f"Hello, {name}! Greeting: {greeting}. Roots: {', '.join(roots)}"
    return (
        _ask_name(InputRequired(state="multiple-inputs"), "user_name")
        .sample("greeting", _user_message("Write a short greeting.", 50))
        .list_roots("client_roots")
    )


@tool()
def test_input_required_result_multi_round(ctx: Context) -> str | InputRequired:
    """MRTR: asks for a name, then in a second round for a favourite colour"""
    if refused := _refused(ctx, "step1", "step2"):
        return refused
    state = ctx.request_state or ""

    def step2(s: str) -> InputRequired:
        return InputRequired(state=s).elicit("step2", "Step 2: What is your favorite color?", _form("color", "Your favorite color"))

    if state == "round-1":
        name = _accepted(ctx, "step1", "name")
        if isinstance(name, str):
            return step2(f"round-2:{name}")
    elif state.startswith("round-2:"):
        color = _accepted(ctx, "step2", "color")
        if isinstance(color, str):
            return f"Hello, {state[len('round-2:'):]}! Your favorite color is {color}."
        return step2(state)
    return _ask_name(InputRequired(state="round-1"), "step1")


@tool()
def test_input_required_result_tampered_state(ctx: Context) -> str | InputRequired:
    """MRTR: carries an integrity-protected requestState; a modified one is rejected with -32602"""
    if refused := _refused(ctx, "user_name"):
        return refused
    name = _accepted(ctx, "user_name", "name")
    if isinstance(name, str) and ctx.request_state == "untampered":
        return f"State verified, hello {name}!"
    return _ask_name(InputRequired(state="untampered"), "user_name")


@tool()
def test_input_required_result_capabilities(ctx: Context) -> str | InputRequired:
    """MRTR: asks only for the kinds of input the client declared"""
    if refused := _refused(ctx, "user_name"):
        return refused
    elicit = ctx.has_client_capability("elicitation", "form")
    sample = ctx.has_client_capability("sampling")
    roots = ctx.has_client_capability("roots")
    if not (elicit or sample or roots):
        return "The client declared no input capability: nothing to ask"
    parts: list[str] = []
    missing = False
    if elicit:
        name = _accepted(ctx, "user_name", "name")
        missing |= not isinstance(name, str)
        parts += [f"name={name}"] if isinstance(name, str) else []
    if sample:
        text = _sampled(ctx, "capital_question")
        missing |= text is None
        parts += [f"sampling={text}"] if text is not None else []
    if roots:
        listed = _roots(ctx, "client_roots")
        missing |= listed is None
        parts += [f"roots={', '.join(listed)}"] if listed is not None else []
    if not missing:
        return f"Received: {'; '.join(parts)}"
    ir = InputRequired()
    if elicit:
        ir = _ask_name(ir, "user_name")
    if sample:
        ir = _ask_capital(ir, "capital_question")
    if roots:
        ir = ir.list_roots("client_roots")
    return ir


# -- transport ------------------------------------------------------------------------------------


@tool()
async def test_reconnection(ctx: Context) -> str:
    """Closes its SSE response stream mid-call; the result arrives after the client reconnects with Last-Event-ID"""
    closed = ctx.close_stream()
    await asyncio.sleep(0.1)
    if closed:
        return "Reconnection test completed: the result was delivered on the resumed stream"
    return "Reconnection test completed: this transport cannot close the stream, so it stayed open"


@tool(
    description="Echoes its region argument, which clients also send as the Mcp-Param-Region header",
    input_schema={
        "type": "object",
        "properties": {"region": {"type": "string", "description": "A region name, mirrored in the Mcp-Param-Region header",
                                  "x-mcp-header": "Region"}},
        "required": ["region"],
    },
)
def test_x_mcp_header(region: str) -> str:
    return f"region={region}"


# Held while a tool adds and removes its temporary tool or prompt (see test_trigger_tool_change).
_list_change = threading.Lock()


@tool()
def test_trigger_tool_change() -> str:
    """Changes the tool list (adds and removes a temporary tool) so that listeners receive notifications/tools/list_changed"""
    # Sync tools run on worker threads: two calls at once must not both add the tool.
    with _list_change:
        server.add_tool(lambda: "dynamic", name="test_dynamic_tool", description="A temporary tool of test_trigger_tool_change")
        server.remove_tool("test_dynamic_tool")
    return "Tool list changed"


@tool()
def test_trigger_prompt_change() -> str:
    """Changes the prompt list (adds and removes a temporary prompt) so that listeners receive notifications/prompts/list_changed"""
    with _list_change:
        server.add_prompt(lambda: "dynamic", name="test_dynamic_prompt", description="A temporary prompt of test_trigger_prompt_change")
        server.remove_prompt("test_dynamic_prompt")
    return "Prompt list changed"


# -- tasks (the suite's tasks-* scenarios) -----------------------------------------------------------


def _object(**properties: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties}


def _bool_form(field: str, description: str) -> dict[str, Any]:
    return {"type": "object", "properties": {field: {"type": "boolean", "description": description}}, "required": [field]}


@tool(description="Sync-only: greets by name",
      input_schema={"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]})
def greet(name: str = "World") -> str:
    return f"Hello, {name}!"


@tool(description="Task-supporting: sleeps `seconds` seconds, then reports the label (stops when cancelled)",
      input_schema=_object(seconds={"type": "number", "minimum": 0}, label={"type": "string"}), task="optional")
async def slow_compute(seconds: float = 0.0, label: str = "unlabelled") -> str:
    # Cancelling the task cancels this coroutine.
    await asyncio.sleep(seconds)
    return f"Computed {label} after {seconds:g} s"


@tool(description="Task-required: fails with a tool error after about a second", input_schema=_object(), task="required")
async def failing_job() -> str:
    await asyncio.sleep(1)
    raise ToolError("failing_job always fails")


@tool(description="Task-supporting: ends with a protocol (JSON-RPC) error", input_schema=_object(), task="optional")
def protocol_error_job() -> str:
    raise ProtocolError(-32603, "protocol_error_job always fails with a protocol error")


def _accepted_bool(ctx: Context, key: str, field: str) -> bool | None:
    value = _accepted(ctx, key, field)
    return value if isinstance(value, bool) else None


@tool(description="Task-supporting: asks the user to confirm deleting `filename` (inside the task), then reports",
      input_schema=_object(filename={"type": "string"}), task="optional")
def confirm_delete(ctx: Context, filename: str = "the file") -> str | InputRequired:
    confirmed = _accepted_bool(ctx, "confirm", "confirm")
    if confirmed is None:
        return InputRequired().elicit("confirm", f"Delete {filename}?", _bool_form("confirm", "Confirm the deletion"))
    return f"Deleted {filename}" if confirmed else f"Kept {filename}"


@tool(description="Task-supporting: asks two questions at once, then reports both answers", input_schema=_object(), task="optional")
def multi_input(ctx: Context) -> str | InputRequired:
    name = _accepted(ctx, "name", "name")
    confirmed = _accepted_bool(ctx, "confirm", "confirm")
    if isinstance(name, str) and confirmed is not None:
        return f"name={name}, confirm={'true' if confirmed else 'false'}"
    return (InputRequired().elicit("name", "What is your name?", _form("name", "Your name"))
            .elicit("confirm", "Confirm?", _bool_form("confirm", "Confirm")))


@tool(description="Task-required: asks for the user's name synchronously (MRTR), then runs as a task that greets them",
      input_schema=_object(), task="required", defer_task=True)
async def test_tool_with_task(ctx: Context) -> str | InputRequired:
    # Round 1 asks before any task exists; the round that brings the answer starts the task.
    name = _accepted(ctx, "user_name", "name")
    if not isinstance(name, str):
        return _ask_name(InputRequired(), "user_name")
    ctx.start_task()
    await asyncio.sleep(0.2)
    return f"Hello, {name}! (from the task)"


# -- resources, prompts, completion -------------------------------------------------------------------


@server.resource("test://static-text", name="static-text", title="Static text", description="A static text resource", mime_type="text/plain")
def static_text() -> str:
    return "This is the content of the static text resource."


@server.resource("test://static-binary", name="static-binary", title="Static binary",
                 description="A static binary resource (a 1x1 PNG)", mime_type="image/png")
def static_binary() -> dict[str, Any]:
    return {"contents": [{"uri": "test://static-binary", "mimeType": "image/png", "blob": PNG}]}


@server.resource("test://watched-resource", name="watched-resource", title="Watched resource",
                 description="A resource to subscribe to", mime_type="text/plain")
def watched() -> str:
    return "This is the content of the watched resource."


@server.resource("test://template/{id}/data", name="template-data", title="Template data",
                 description="Data for an id", mime_type="application/json")
def template_data(id: str) -> str:
    return _compact({"id": id, "templateTest": True, "data": f"Data for ID: {id}"})


def _user_text(text: str) -> dict[str, Any]:
    return {"role": "user", "content": {"type": "text", "text": text}}


@server.prompt(description="A simple prompt without arguments")
def test_simple_prompt() -> str:
    return "This is a simple prompt for testing."


@server.prompt(description="A prompt with two required arguments")
def test_prompt_with_arguments(arg1: str, arg2: str) -> str:
    """Args:
        arg1: First argument
        arg2: Second argument
    """
    return f"Prompt with arguments: arg1='{arg1}', arg2='{arg2}'"


@server.prompt(description="A prompt embedding a resource")
def test_prompt_with_embedded_resource(resourceUri: str) -> list[dict[str, Any]]:  # noqa: N803 - the contract's name
    """Args:
        resourceUri: URI of the resource to embed
    """
    resource = {"uri": resourceUri, "mimeType": "text/plain", "text": "Embedded resource content for testing."}
    return [{"role": "user", "content": {"type": "resource", "resource": resource}}, _user_text("Please process the embedded resource above.")]


@server.prompt(description="A prompt with an image")
def test_prompt_with_image() -> list[dict[str, Any]]:
    return [{"role": "user", "content": IMAGE}, _user_text("Please analyze the image above.")]


@server.prompt(description="A prompt that first asks the user for context (MRTR)")
def test_input_required_result_prompt(ctx: Context) -> dict[str, Any] | InputRequired:
    context = _accepted(ctx, "user_context", "context")
    if isinstance(context, str):
        return {"description": "A prompt built from user-provided context", "messages": [_user_text(f"Use this context: {context}")]}
    if _refused(ctx, "user_context"):
        return {"description": "A prompt without user context (the user refused)", "messages": [_user_text("No context was provided.")]}
    return InputRequired().elicit("user_context", "What context should the prompt use?", _form("context", "Context for the prompt"))


@server.completion()
def complete(ref: Any, argument: Any, context: Any) -> dict[str, Any]:
    values: list[str] = []
    if ref.type == "ref/prompt" and ref.name == "test_prompt_with_arguments" and argument.name == "arg1":
        values = [v for v in ("hello", "help", "world", "paris") if v.startswith(argument.value or "")]
    return {"values": values, "total": len(values), "hasMore": False}


def main() -> None:
    args = sys.argv[1:]
    if not args:
        server.run()
        return
    if args[0] != "--http" or len(args) > 2:
        sys.exit(__doc__)
    host, _, port = (args[1] if len(args) == 2 else "127.0.0.1:3000").rpartition(":")

    def ready(url: str) -> None:
        print(f"listening on {url}", file=sys.stderr, flush=True)

    try:
        asyncio.run(server.serve_async("http", host, int(port), ready=ready))
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
