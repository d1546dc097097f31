"""Type stubs of the native module (``bindings-python/src``). Asynchronous operations take a
``done(ok, value)`` callable, called from an engine thread, and return a :class:`Task`; those of the
mounted endpoint complete an asyncio future instead (through a :class:`LoopQueue`)."""

import asyncio
from typing import Any, Callable, final

__all__ = [
    "ENGINE_VERSION",
    "AuthorizationReply",
    "Client",
    "Endpoint",
    "HttpServer",
    "InputReply",
    "InputRequired",
    "LoopQueue",
    "OAuth",
    "Pipe",
    "Request",
    "ResponseStream",
    "Server",
    "SessionNotifier",
    "Stopper",
    "Subscription",
    "Task",
    "VerifyReply",
    "connect_http",
    "connect_memory",
    "connect_stdio",
    "serve_pipe",
    "set_engine_log",
    "shutdown",
    "task_of",
]

ENGINE_VERSION: str

_Done = Callable[[bool, Any], None]

def shutdown() -> None:
    """Stops the engine runtime (registered with atexit)."""

def set_engine_log(min_level: int, emit: Callable[[int, str, str], None] | None) -> bool:
    """Delivers the engine's diagnostics at ``min_level`` (a ``logging`` level) or more severe to
    ``emit(level, target, message)``; False when the process has another ``tracing`` subscriber."""

def task_of(method: str, params: Any) -> dict[str, Any] | None:
    """The task a task status notification carries, or None for another notification."""

def connect_stdio(
    done: _Done,
    options: dict[str, Any],
    command: str,
    args: list[str],
    env: list[tuple[str, str]] | None = None,
    cwd: str | None = None,
    on_stderr: Callable[[str], None] | None = None,
) -> Task:
    """Spawns a server and connects over its stdio; ``done(True, Client)``."""

def connect_http(
    done: _Done,
    options: dict[str, Any],
    url: str,
    headers: list[tuple[str, str]] | None = None,
    auth: OAuth | None = None,
    root_certificates: list[bytes] | None = None,
    skip_default_roots: bool = False,
) -> Task:
    """Connects to a Streamable HTTP endpoint; ``done(True, Client)``."""

def connect_memory(done: _Done, options: dict[str, Any], server: Server) -> Task:
    """Connects to ``server`` in this process over an in-memory pipe; ``done(True, Client)``."""

def serve_pipe(server: Server) -> Pipe:
    """Serves ``server`` over a new in-memory pipe (one JSON-RPC message a line); its Python end."""

@final
class Pipe:
    """The Python end of a pipe the engine serves."""

    def send(self, done: _Done, message: bytes) -> Task: ...
    def recv(self, done: _Done) -> Task: ...
    def close(self, done: _Done) -> Task: ...

@final
class OAuth:
    """The engine's OAuth 2.1 client (wrapped by :class:`libmcp.auth.OAuth`)."""

    def __new__(
        cls,
        options: dict[str, Any],
        authorize: Callable[[str, AuthorizationReply], None] | None = None,
        store: Any = None,
    ) -> OAuth: ...
    @property
    def access_token(self) -> str | None: ...

@final
class AuthorizationReply:
    """The answer slot of one authorization step."""

    def send(self, redirect_url: str) -> None: ...
    def fail(self, message: str, denied: bool = False) -> None: ...

@final
class VerifyReply:
    """The answer slot of one token check."""

    def accept(
        self,
        subject: str | None = None,
        client_id: str | None = None,
        scopes: list[str] = ...,
        expires_at: int | None = None,
        audience: list[str] = ...,
        claims: dict[str, Any] | None = None,
    ) -> None: ...
    def reject(self, message: str) -> None: ...
    def unavailable(self, message: str) -> None: ...

@final
class Task:
    """A running engine operation."""

    def abort(self) -> None:
        """Stops the operation if it is still running."""

@final
class InputRequired:
    """Input a handler needs before it can finish (MRTR); return it from the handler."""

    def __new__(cls, state: str | None = None) -> InputRequired: ...
    def elicit(self, key: str, message: str, requested_schema: dict[str, Any]) -> InputRequired:
        """Adds a form-mode elicitation request."""
    def elicit_url(self, key: str, message: str, url: str) -> InputRequired:
        """Adds a URL-mode elicitation request."""
    def sample(self, key: str, params: dict[str, Any]) -> InputRequired:
        """Adds a sampling request with these ``sampling/createMessage`` params."""
    def list_roots(self, key: str) -> InputRequired:
        """Adds a roots request."""
    @property
    def requests(self) -> dict[str, Any]:
        """The requests so far."""
    @property
    def state(self) -> str | None:
        """The state to get back on the retry."""

@final
class SessionNotifier:
    """A handle on the legacy session of a request (``Request.session_notifier()``)."""

    @property
    def protocol_version(self) -> str: ...
    @property
    def is_open(self) -> bool: ...
    def notify(self, method: str, params: dict[str, Any] | None = None) -> None: ...
    def elicitation_complete(self, elicitation_id: str) -> None: ...

@final
class Request:
    """A request being served (wrapped by :class:`libmcp.Context`)."""

    @property
    def method(self) -> str: ...
    @property
    def params(self) -> dict[str, Any]: ...
    @property
    def arguments(self) -> dict[str, Any]: ...
    @property
    def template_vars(self) -> dict[str, Any] | None: ...
    @property
    def meta(self) -> dict[str, Any] | None: ...
    @property
    def request_id(self) -> str | int: ...
    @property
    def protocol_version(self) -> str: ...
    @property
    def era(self) -> str: ...
    @property
    def client_capabilities(self) -> dict[str, Any]: ...
    @property
    def client_info(self) -> dict[str, Any] | None: ...
    def has_client_capability(self, path: list[str]) -> bool: ...
    @property
    def auth(self) -> dict[str, Any] | None: ...
    @property
    def http(self) -> tuple[str, str, list[tuple[str, str]], str | None, Any] | None: ...
    @property
    def input_responses(self) -> dict[str, Any] | None: ...
    def elicitation_answer(self, key: str, requested_schema: dict[str, Any]) -> dict[str, Any] | None: ...
    @property
    def request_state(self) -> str | None: ...
    @property
    def round(self) -> int: ...
    @property
    def cancelled(self) -> bool: ...
    def on_cancel(self, callback: Callable[[], Any]) -> None: ...
    def close_stream(self) -> bool: ...
    def session_notifier(self) -> SessionNotifier: ...
    def progress(self, progress: float, total: float | None = None, message: str | None = None) -> bool: ...
    def log(self, level: str, data: Any, logger: str | None = None) -> bool: ...
    @property
    def can_run_as_task(self) -> bool: ...
    @property
    def task_id(self) -> str | None: ...
    def start_task(self) -> bool: ...
    def reply_result(self, result: dict[str, Any]) -> None: ...
    def reply_nothing(self) -> None: ...
    def reply_tool_error(self, message: str) -> None: ...
    def reply_error(self, code: int, message: str, data: Any = None) -> None: ...
    def reply_input_required(self, input: InputRequired) -> None: ...
    @property
    def answered(self) -> bool: ...

_Invoke = Callable[[Request], None]

@final
class Stopper:
    """Stops a stdio server."""

    def stop(self) -> None: ...

@final
class HttpServer:
    """A listening Streamable HTTP server."""

    @property
    def port(self) -> int: ...
    @property
    def host(self) -> str: ...
    def shutdown(self, done: _Done) -> Task: ...

@final
class LoopQueue:
    """Calls queued for an event loop (``async def`` handlers, the mounted endpoint's answers)."""

    def __new__(cls) -> LoopQueue: ...
    def fileno(self) -> int: ...
    def drain(self) -> int: ...
    def close(self) -> None: ...

@final
class Server:
    """The engine's server."""

    def __new__(
        cls,
        name: str,
        version: str,
        instructions: str | None = None,
        info: dict[str, Any] | None = None,
        versions: list[str] | None = None,
        page_size: int | None = None,
        state_key: bytes | None = None,
        task_ttl: float | None = None,
        task_poll_interval: float | None = None,
        task_store: Any = None,
        skills: list[tuple[str, list[tuple[str, str, bytes]]]] | None = None,
        redis: str | None = None,
        limits: dict[str, int | float] | None = None,
    ) -> Server: ...
    def add_tool(
        self, definition: dict[str, Any], invoke: _Invoke, on_loop: bool = False, check_input: bool = True
    ) -> None: ...
    def add_resource(self, definition: dict[str, Any], invoke: _Invoke, on_loop: bool = False) -> None: ...
    def add_template(self, definition: dict[str, Any], invoke: _Invoke, on_loop: bool = False) -> None: ...
    def add_prompt(self, definition: dict[str, Any], invoke: _Invoke, on_loop: bool = False) -> None: ...
    def set_completion(self, invoke: _Invoke | None, on_loop: bool = False) -> None: ...
    def set_method_handler(self, method: str, invoke: _Invoke | None, on_loop: bool = False) -> None: ...
    def set_resource_lister(self, invoke: _Invoke | None, on_loop: bool = False) -> None: ...
    def declare_capabilities(self, capabilities: str) -> None: ...
    def set_loop_queue(self, queue: LoopQueue | None) -> None: ...
    def remove_tool(self, name: str) -> bool: ...
    def remove_resource(self, uri: str) -> bool: ...
    def remove_template(self, uri_template: str) -> bool: ...
    def remove_prompt(self, name: str) -> bool: ...
    def add_skill(self, skill_md: str, files: list[tuple[str, str, bytes]]) -> None: ...
    def remove_skill(self, name: str) -> bool: ...
    def tool_definition(self, name: str) -> dict[str, Any] | None: ...
    def capabilities(self) -> dict[str, Any]: ...
    def notify_resource_updated(self, uri: str) -> None: ...
    def notify_list_changed(self, list: str) -> None: ...
    def serve_stdio(self, done: _Done) -> Stopper: ...
    def serve_http(self, done: _Done, host: str, port: int, options: dict[str, Any] | None = None) -> Task: ...
    def endpoint(self, options: dict[str, Any] | None = None) -> Endpoint: ...

@final
class Endpoint:
    """The Streamable HTTP endpoint mounted in an ASGI server."""

    def exchange(
        self,
        queue: LoopQueue | None,
        answer: asyncio.Future[Any],
        method: str,
        target: str,
        headers: Any,
        body: bytes,
        extension: Any = None,
    ) -> Task: ...
    def close(self) -> None: ...
    @property
    def max_body_bytes(self) -> int: ...

@final
class ResponseStream:
    """The SSE events of one endpoint response."""

    def next_chunk(self, queue: LoopQueue | None, answer: asyncio.Future[Any]) -> Task: ...
    def close(self) -> None: ...

@final
class InputReply:
    """The answer slot of one input request."""

    def send(self, result: dict[str, Any]) -> None: ...
    def fail(self, code: int, message: str, data: Any = None) -> None: ...

@final
class Client:
    """The engine's client."""

    @property
    def server(self) -> dict[str, Any]: ...
    @property
    def server_pid(self) -> int | None: ...
    def call(
        self,
        done: _Done,
        method: str,
        params: dict[str, Any] | None = None,
        timeout: float | None = None,
        progress: Callable[..., None] | None = None,
    ) -> Task: ...
    def call_tool(
        self,
        done: _Done,
        name: str,
        arguments: dict[str, Any] | None = None,
        timeout: float | None = None,
        progress: Callable[..., None] | None = None,
    ) -> Task: ...
    def call_tool_as_task(self, done: _Done, name: str, arguments: dict[str, Any] | None = None) -> Task: ...
    def get_task(self, done: _Done, task_id: str) -> Task: ...
    def cancel_task(self, done: _Done, task_id: str) -> Task: ...
    def task_result(self, done: _Done, task_id: str) -> Task: ...
    def list_skills(self, done: _Done) -> Task: ...
    def get_skill(self, done: _Done, uri: str) -> Task: ...
    def read_skill_file(self, done: _Done, entry: dict[str, Any], uri: str) -> Task: ...
    def list_all(self, done: _Done, method: str) -> Task: ...
    def read_resource(self, done: _Done, uri: str) -> Task: ...
    def get_prompt(self, done: _Done, name: str, arguments: dict[str, Any] | None = None) -> Task: ...
    def complete(
        self, done: _Done, reference: dict[str, Any], argument: str, value: str, context: dict[str, Any] | None = None
    ) -> Task: ...
    def subscribe(self, done: _Done, filter: dict[str, Any]) -> Task: ...
    def ping(self, done: _Done) -> Task: ...
    def close(self, done: _Done) -> Task: ...

@final
class Subscription:
    """An open subscription."""

    @property
    def acknowledged(self) -> dict[str, Any]: ...
    def next(self, done: _Done) -> Task: ...
    def close(self, done: _Done) -> Task: ...
