"""The conformance "everything" client on the Python package: what the official MCP conformance
suite's client scenarios ask of a client. The ``auth/*`` scenarios authorize with OAuth 2.1: the
suite's authorization servers redirect at once (so no ``authorize`` callable is needed), pre-registered
credentials come from the context, and servers that support client ID metadata documents get the
suite's URL; the OAuth extension scenarios (client credentials, workload identity, enterprise-managed
authorization, DPoP) configure their grant from the context.

Usage: python everything_client.py URL   (the scenario comes from MCP_CONFORMANCE_SCENARIO, the
protocol version from MCP_CONFORMANCE_PROTOCOL_VERSION, extra data from MCP_CONFORMANCE_CONTEXT)
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from typing import Any

from libmcp import Client, McpObject, OAuth
from libmcp.auth import ClientCredentialsGrant, EnterpriseManagedGrant, Grant, JwtBearerGrant

#: The client ID metadata document URL the suite's authorization servers accept.
CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json"


def _defaults(params: McpObject) -> dict[str, Any]:
    """Accepts an elicitation with every default of its form filled in."""
    props = params.model_dump().get("requestedSchema", {}).get("properties", {})
    return {"action": "accept", "content": {k: v["default"] for k, v in props.items() if "default" in v}}


def _accept_any(params: McpObject) -> dict[str, Any]:
    return {"action": "accept", "content": {"name": "conformance"}}


def _oauth(scenario: str, context: dict[str, Any]) -> OAuth:
    """The OAuth client of an ``auth/*`` scenario. The extension scenarios take their grant from the
    context: client credentials (``client_id`` with ``client_secret``, or with ``private_key_pem``
    and ``signing_algorithm``), workload identity (``valid_jwt``), enterprise-managed authorization
    (``idp_token_endpoint``, ``idp_client_id``, ``idp_id_token``, ``client_id``, ``client_secret``);
    the DPoP scenarios turn DPoP on. The others use the authorization code grant."""
    grant: Grant | None = None
    if scenario == "auth/client-credentials-basic":
        grant = ClientCredentialsGrant(context["client_id"], client_secret=context["client_secret"])
    elif scenario == "auth/client-credentials-jwt":
        grant = ClientCredentialsGrant(context["client_id"], private_key_pem=context["private_key_pem"],
                                       signing_algorithm=context.get("signing_algorithm") or "ES256")
    elif scenario == "auth/wif-jwt-bearer":
        grant = JwtBearerGrant(assertion=context["valid_jwt"], client_id=context.get("client_id"))
    elif scenario == "auth/enterprise-managed-authorization":
        grant = EnterpriseManagedGrant(
            idp_token_endpoint=context["idp_token_endpoint"], idp_client_id=context["idp_client_id"],
            id_token=context["idp_id_token"], client_id=context["client_id"], client_secret=context["client_secret"])
    if grant is not None:
        return OAuth(grant=grant)
    return OAuth(client_name="libmcp-python-everything-client", client_metadata_url=CLIENT_METADATA_URL,
                 client_id=context.get("client_id"), client_secret=context.get("client_secret"),
                 dpop=scenario.startswith("auth/dpop"))


async def run(scenario: str, url: str, version: str | None, context: dict[str, Any]) -> None:
    elicit = _defaults if scenario == "elicitation-sep1034-client-defaults" else _accept_any
    auth = _oauth(scenario, context) if scenario.startswith("auth/") else None
    async with Client.http(url, protocol_version=version, name="libmcp-python-everything-client",
                           elicitation=elicit, auth=auth) as c:
        if scenario.startswith("auth/"):
            # Every request is authorized by the transport; two after connecting let the step-up
            # and migration scenarios challenge again.
            await c.list_tools()
            result = await c.call_tool("test-tool")
            if result.is_error:
                raise SystemExit(f"test-tool returned a tool error: {result.model_dump()}")
        elif scenario in ("initialize", "json-schema-ref-no-deref"):
            await c.list_tools()
        elif scenario in ("tools_call", "http-standard-headers", "request-metadata"):
            if scenario == "request-metadata" and c.era == "modern":
                await c.request("server/discover")
            await c.list_tools()
            await c.call_tool("add_numbers", {"a": 5, "b": 3})
        elif scenario == "sse-retry":
            await c.list_tools()
            await c.call_tool("test_reconnection")
        elif scenario == "elicitation-sep1034-client-defaults":
            await c.call_tool("test_client_elicitation_defaults")
        elif scenario == "http-custom-headers":
            await c.list_tools()
            for call in context.get("toolCalls", []):
                await c.call_tool(call["name"], call.get("arguments") or {})
        elif scenario == "http-invalid-tool-headers":
            await c.list_tools()
            await c.call_tool("valid_tool", {})
        elif scenario == "sep-2322-client-request-state":
            await c.list_tools()
            for name in ("test_mrtr_echo_state", "test_mrtr_unrelated", "test_mrtr_no_state", "test_mrtr_no_result_type"):
                await c.call_tool(name)
        elif scenario == "sep-2640-client-no-prefetch":
            await c.list_skills()
        elif scenario in ("sep-2640-client-verify-digest", "sep-2640-client-verify-size",
                          "sep-2640-client-verify-frontmatter"):
            # Every skill: its SKILL.md, then its other files, each verified against the entry; the
            # first mismatch ends the scenario with an error.
            for entry in await c.list_skills():
                await c.read_skill_file(entry)
                for f in entry.files:
                    if f.uri != entry.uri:
                        await c.read_skill_file(entry, f.uri)
        elif scenario == "json-schema-2020-12-preservation":
            tools = {t.name: t for t in await c.list_tools()}
            schema = tools["json_schema_2020_12_tool"].model_dump()["inputSchema"]
            await c.call_tool("json_schema_echo", {"schema": schema})
        else:
            raise SystemExit(f"Unknown scenario: {scenario}")


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    scenario = os.environ.get("MCP_CONFORMANCE_SCENARIO", "")
    version = os.environ.get("MCP_CONFORMANCE_PROTOCOL_VERSION") or None
    context = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
    asyncio.run(run(scenario, sys.argv[-1], version, context))


if __name__ == "__main__":
    main()
