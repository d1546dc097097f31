#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets into fuzz/corpus/<target>/ from the vendored spec
examples (tests/spec/2026-07-28/examples) plus a few hand-written inputs for what the examples do not
show (legacy handshakes, HTTP exchanges, OAuth documents). Each input is laid out as its target
reads it (see the doc comment of each file in fuzz/fuzz_targets/).

Usage: fuzz/seed_corpora.py [CORPUS_DIR]   (default: fuzz/corpus; existing seeds are replaced)
"""

import base64
import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "tests/spec/2026-07-28/examples"
V26 = "2026-07-28"
META = {
    "io.modelcontextprotocol/protocolVersion": V26,
    "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}, "roots": {}, "sampling": {}},
    "io.modelcontextprotocol/clientInfo": {"name": "seed", "version": "1"},
}


def compact(v):
    return json.dumps(v, separators=(",", ":"), ensure_ascii=False)


def examples():
    """(definition name, parsed example) for every example file, in a stable order."""
    for path in sorted(EXAMPLES.glob("*/*.json")):
        yield path.parent.name, json.loads(path.read_text())


def messages():
    """The examples that are whole JSON-RPC messages."""
    return [v for _, v in examples() if isinstance(v, dict) and v.get("jsonrpc") == "2.0"]


def client_messages():
    """Requests and notifications a client sends, plus calls to the fuzz server's own handlers."""
    out = [m for m in messages() if "method" in m]

    def call(i, method, params):
        return {"jsonrpc": "2.0", "id": i, "method": method, "params": dict(params, _meta=META)}

    out += [
        call(100, "tools/call", {"name": "echo", "arguments": {"text": "hi"}}),
        call(101, "tools/call", {"name": "ask", "arguments": {}}),
        call(102, "tools/call", {"name": "routed", "arguments": {"region": "eu", "n": 3}}),
        call(103, "tools/call", {"name": "slow", "arguments": {}, "_meta": {"progressToken": "p"}}),
        call(104, "tools/call", {"name": "roots", "arguments": {}}),
        call(105, "tools/call", {"name": "structured", "arguments": {"n": 1}}),
        call(107, "resources/read", {"uri": "test://items/42?q=a&r=b"}),
        call(108, "prompts/get", {"name": "greet", "arguments": {"who": "x"}}),
        call(109, "completion/complete", {"ref": {"type": "ref/prompt", "name": "greet"},
                                          "argument": {"name": "who", "value": "al"}}),
        call(110, "tools/list", {"cursor": "bm90LWEtY3Vyc29y"}),
        call(111, "server/discover", {}),
        call(112, "subscriptions/listen", {"notifications": {"toolsListChanged": True}}),
    ]
    return out


def legacy(m):
    """A message without the modern `_meta` keys (what a legacy session sends)."""
    m = json.loads(json.dumps(m))
    params = m.get("params")
    if isinstance(params, dict) and isinstance(params.get("_meta"), dict):
        for k in list(params["_meta"]):
            if k.startswith("io.modelcontextprotocol/"):
                del params["_meta"][k]
    return m


def initialize(version):
    return {"jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": version, "capabilities": {"roots": {}},
                       "clientInfo": {"name": "seed", "version": "1"}}}


def schemas():
    """Every schema object in the examples (inputSchema, outputSchema, requestedSchema, the
    *Schema definitions)."""
    found = []

    def walk(v, key=None):
        if isinstance(v, dict):
            if key in ("inputSchema", "outputSchema", "requestedSchema"):
                found.append(v)
            for k, x in v.items():
                walk(x, k)
        elif isinstance(v, list):
            for x in v:
                walk(x, key)

    for name, v in examples():
        if name.endswith("Schema"):
            found.append(v)
        walk(v)
    return found


def strings_at(key):
    out = []

    def walk(v):
        if isinstance(v, dict):
            for k, x in v.items():
                if k == key and isinstance(x, str):
                    out.append(x)
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    for _, v in examples():
        walk(v)
    return out


def http_record(method, path, headers, body=b""):
    head = "\n".join([f"{method} {path}"] + [f"{k}: {v}" for k, v in headers])
    return head.encode() + b"\n\n" + body


def modern_headers(m):
    h = [("content-type", "application/json"), ("accept", "application/json, text/event-stream"),
         ("mcp-protocol-version", V26), ("mcp-method", m.get("method", ""))]
    params = m.get("params") or {}
    name = params.get("name") or params.get("uri")
    if isinstance(name, str):
        h.append(("mcp-name", name))
    if params.get("name") == "routed":
        h += [("mcp-param-region", "eu"), ("mcp-param-n", "3")]
    return h


def corpora():
    msgs = messages()
    client = client_messages()
    c = {}
    c["jsonrpc_decode"] = [compact(m).encode() for m in msgs] + [
        compact(msgs[:2]).encode(),
        "\n".join(compact(m) for m in msgs[:6]).encode() + b"\r\n\n  \n",
        b"\x10\x03" + "\n".join(compact(m) for m in msgs[:3]).encode(),
    ]
    lines = lambda ms: "".join(compact(m) + "\n" for m in ms).encode()
    c["stdio_server"] = [bytes([0]) + lines(client[i:i + 6]) for i in range(0, len(client), 6)]
    for pick in (1, 2, 3):
        c["stdio_server"] += [bytes([pick]) + lines(legacy(m) for m in client[i:i + 8])
                              for i in range(0, len(client), 8)]
    legacy_hdrs = [("content-type", "application/json"), ("accept", "application/json, text/event-stream")]
    sessioned = legacy_hdrs + [("mcp-session-id", "$SESSION"), ("mcp-protocol-version", "2025-11-25")]
    http = []
    for i in range(0, len(client), 4):
        http.append(bytes([0]) + b"\0".join(
            http_record("POST", "/mcp", modern_headers(m), compact(m).encode()) for m in client[i:i + 4]))
    http.append(bytes([0]) + b"\0".join([
        http_record("POST", "/mcp", legacy_hdrs, compact(initialize("2025-11-25")).encode()),
        http_record("POST", "/mcp", sessioned,
                    b'{"jsonrpc":"2.0","method":"notifications/initialized"}'),
        http_record("POST", "/mcp", sessioned, compact(legacy(client[-13])).encode()),
        http_record("POST", "/mcp", sessioned, compact([legacy(client[-12]), legacy(client[-11])]).encode()),
        http_record("GET", "/mcp", [("accept", "text/event-stream"), ("mcp-session-id", "$SESSION"),
                                    ("last-event-id", "x.0-1")]),
        http_record("DELETE", "/mcp", [("mcp-session-id", "$SESSION")]),
    ]))
    http.append(bytes([1]) + b"\0".join([
        http_record("GET", "/sse", [("accept", "text/event-stream")]),
        http_record("POST", "/messages?sessionId=$SESSION", legacy_hdrs,
                    compact(initialize("2024-11-05")).encode()),
    ]))
    c["http_server"] = http
    sse = []
    for i, m in enumerate(msgs[:20]):
        sse.append(bytes([i]) + f"id: s.{i}-1\nevent: message\ndata: {compact(m)}\n\n".encode())
    sse.append(b"\x03: keep-alive\r\nretry: 1500\r\ndata: a\r\ndata: b\r\r\nid\n\n\xef\xbb\xbfdata\n\n")
    c["sse_parser"] = sse
    header_schema = {"type": "object", "properties": {
        "region": {"type": "string", "x-mcp-header": "Region"},
        "n": {"type": ["integer", "null"], "x-mcp-header": "N"}}}
    hdr = []
    for v in ["plain", " padded ", "=?base64?w6k=?=", "caf\u00e9", "tag.3-14"]:
        hdr.append(b"\0".join([v.encode(), compact(header_schema).encode(),
                               b'{"region":"eu west","n":42}',
                               b"mcp-protocol-version: 2026-07-28\nmcp-method: tools/call\nmcp-name: routed\n"
                               b"mcp-param-region: =?base64?ZXUgd2VzdA==?=\nmcp-param-n: 42\n"
                               b"content-type: application/json\naccept: */*\nhost: localhost:3000\n"
                               b"origin: http://localhost"]))
    hdr += [b"x\0" + compact(s).encode() + b"\0{}\0" for s in schemas()]
    c["mcp_headers"] = hdr
    templates = strings_at("uriTemplate") + ["test://items/{id}{?q*}", "file:///{+path}",
                                             "http://x/{a,b}{/c*}{#f}{;p}{&q}", "{.dom*}"]
    uris = strings_at("uri") + ["test://items/42?q=a", "file:///a/b/c", "http://x/1,2/c/d#frag"]
    c["uri_template"] = [f"{t}\0{u}\0a,b,c,d".encode() for t in templates for u in uris[:4]]
    # Inputs a long run found slow before matching charged for span length (repeated variables, long
    # percent-encoded values): kept so that every short run tries them again.
    c["uri_template"] += [base64.b64decode(s) for s in (
        "aHR0//////////97O3B9ezFxff////97O3B98ABmLmx3AC+5ubl9ez9xKn0AOwAAubm5ubm5ubm5ubm5ubm5ubm5ubm5ubm5",
        "aHR0//////////97O3B9ezBxff////97O3B98ABmLmx3AO+5ubm5ubm5ubm5uQAAAAAAAAAIubm5ubm5ubm5ubm5ubm5ubk=",
        "aHR0cDovL3gve2F9e2Z9/zV7O2Mqfbl7Yyp9eyNmfWZpYwAzAAAsLCNmLy94L3thfXtmff81eztjKn25e2MqfWZpYwAAAGws"
        "AAAAAAAAAAAAAAAAAAAAAAD+/////////AAAAABk")]
    c["request_state"] = [b"\0payload\0tools/call\0user", b"AQAAAZ\0\0\0", b"%%%\0x\0prompts/get"]
    c["cursor"] = [bytes([9, 2]) + s.encode() for s in strings_at("nextCursor") + strings_at("cursor")] + [
        bytes([20, 3]) + b"b2Zmc2V0OjQ"]
    bearer = ['Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", '
              'scope="files:read", error="insufficient_scope"',
              'Basic realm="x", Bearer error="invalid_token", error_description="expired"',
              'DPoP algs="ES256", Bearer scope="a b"',
              'DPoP algs="ES256 PS256", scope="files:read", error="insufficient_scope"']
    asm = {"issuer": "https://auth.example.com", "authorization_endpoint": "https://auth.example.com/authorize",
           "token_endpoint": "https://auth.example.com/token", "registration_endpoint": "https://auth.example.com/register",
           "scopes_supported": ["files:read"], "code_challenge_methods_supported": ["S256"],
           "response_types_supported": ["code"]}
    prm = {"resource": "https://mcp.example.com/mcp", "authorization_servers": ["https://auth.example.com"],
           "scopes_supported": ["files:read"], "bearer_methods_supported": ["header"]}
    urls = ["https://mcp.example.com/mcp?x=1&y=%20#f", "http://127.0.0.1:8080/", "https://[::1]/a/b"]
    c["oauth"] = [f"{b}\0{compact(d)}\0{u}".encode() for b in bearer for d in (asm, prm) for u in urls]
    ffi = []
    for i, m in enumerate(msgs[:40]):
        pointer = ["", "/params/name", "/id", "/result/content/0/text", "/params/_meta/a~1b"][i % 5]
        ffi.append(compact(m).encode() + b"\0" + bytes([i % 4]) + pointer.encode() + b"\0")
    defs = [{"name": "echo", "inputSchema": s} for s in schemas() if s.get("type") == "object"]
    defs += [{"uri": "test://a", "name": "a"}, {"uriTemplate": "test://{x}", "name": "t"},
             {"name": "p", "arguments": [{"name": "who", "required": True}]}]
    for k, d in enumerate(defs):
        ffi.append(b"{}\0" + bytes([k % 4]) + b"\0" + compact(d).encode())
    c["ffi_json"] = ffi
    deep = bytes([1, 200]) + bytes(range(10))
    c["schema_compile"] = [b"\0" + compact(s).encode() + b"\0{}" for s in schemas()] + [
        deep, b"\x02(a+)+$\0{\"s\":\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\"}",
        b"\x03\x50\xc3\x01\0{\"e\":7}", b"\x04\x00\x01\x01\x02\x02\x00\0{\"x\":[[1]]}"]
    return c


def main():
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "fuzz/corpus"
    total = 0
    for target, seeds in corpora().items():
        d = out / target
        d.mkdir(parents=True, exist_ok=True)
        for old in d.glob("seed-*"):
            old.unlink()
        for s in seeds:
            (d / f"seed-{hashlib.sha1(s).hexdigest()[:16]}").write_bytes(s)
        total += len(seeds)
    print(f"{total} seeds for {len(corpora())} targets in {out}")


if __name__ == "__main__":
    main()
