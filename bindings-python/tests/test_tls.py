"""The HTTP client over ``https://`` with extra root certificates: a CA and a server certificate made
in the test (trustme), a TLS front end here (the ``ssl`` module) relaying to a libmcp HTTP server, and
the trust rules: the certificate is accepted only when its CA is given (as PEM bytes, PEM text or a
file), only for the names it was issued for, and bad root options are refused up front."""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import trustme
from support import run, serving

from libmcp import Client, InvalidArgument, Server, TransportError

Seen = list[str]


def echo_server() -> Server:
    server = Server("tls-test", "1.0.0")

    @server.tool()
    def echo(text: str) -> str:
        return text

    return server


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, asyncio.CancelledError):
        pass
    finally:
        writer.close()


@asynccontextmanager
async def tls_front(ca: trustme.CA, names: list[str]) -> AsyncIterator[tuple[int, Seen]]:
    """A TLS listener with a certificate for ``names`` in front of a libmcp HTTP server; yields its
    port and the SNI name of every handshake."""
    async with serving(echo_server(), dns_rebinding_protection=False) as url:
        back_port = int(url.split(":")[2].split("/")[0])
        async with _front(ca, names, back_port) as front:
            yield front


@asynccontextmanager
async def _front(ca: trustme.CA, names: list[str], back_port: int) -> AsyncIterator[tuple[int, Seen]]:
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert(*names).configure_cert(ctx)
    sni: Seen = []
    ctx.sni_callback = lambda sock, name, c: sni.append(name or "")  # type: ignore[assignment,func-returns-value]

    async def relay(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", back_port)
        await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))

    front = await asyncio.start_server(relay, "127.0.0.1", 0, ssl=ctx)
    try:
        yield front.sockets[0].getsockname()[1], sni
    finally:
        front.close()


async def _echo(url: str, **options: Any) -> str:
    async with Client.http(url, **options) as c:
        result = await c.call_tool("echo", {"text": "over TLS"})
        text: str = result.content[0].text
        return text


def _with_front(names: list[str], body: Callable[[int, trustme.CA, Seen], Awaitable[Any]]) -> Any:
    ca = trustme.CA()

    async def main() -> Any:
        async with tls_front(ca, names) as (port, sni):
            return await body(port, ca, sni)

    return run(main())


def test_root_certificate_as_bytes_text_or_file(tmp_path: Path) -> None:
    async def body(port: int, ca: trustme.CA, sni: Seen) -> list[str]:
        pem = ca.cert_pem.bytes()
        path = tmp_path / "ca.pem"
        path.write_bytes(pem)
        url = f"https://localhost:{port}/mcp"
        answers = [await _echo(url, root_certificates=[pem]),
                   await _echo(url, root_certificates=[pem.decode()], skip_default_roots=True),
                   await _echo(url, root_certificates=[path]),
                   await _echo(url, root_certificates=[str(path)])]
        assert set(sni) == {"localhost"}
        return answers

    assert _with_front(["localhost"], body) == ["over TLS"] * 4


def test_certificate_not_trusted_without_its_root() -> None:
    async def body(port: int, ca: trustme.CA, sni: Seen) -> None:
        with pytest.raises(TransportError, match="(?i)certificate"):
            await _echo(f"https://localhost:{port}/mcp")
        other = trustme.CA().cert_pem.bytes()
        with pytest.raises(TransportError, match="(?i)certificate"):
            await _echo(f"https://localhost:{port}/mcp", root_certificates=[other])

    _with_front(["localhost"], body)


def test_certificate_only_for_its_names() -> None:
    async def body(port: int, ca: trustme.CA, sni: Seen) -> None:
        with pytest.raises(TransportError, match="(?i)certificate"):
            await _echo(f"https://127.0.0.1:{port}/mcp", root_certificates=[ca.cert_pem.bytes()])

    _with_front(["localhost"], body)


def test_bad_root_options_are_refused() -> None:
    async def connect(**options: Any) -> str:
        return await _echo("https://localhost:9/mcp", **options)

    with pytest.raises(InvalidArgument, match="bundle 0 holds no PEM CERTIFICATE section"):
        run(connect(root_certificates=[b"not a certificate"]))
    with pytest.raises(InvalidArgument, match="skip_default_roots is set and no root certificates"):
        run(connect(skip_default_roots=True))
    with pytest.raises(TypeError, match="PEM bytes, PEM text or a path, not int"):
        Client.http("https://localhost:9/mcp", root_certificates=[42])  # type: ignore[list-item]
    with pytest.raises(FileNotFoundError):
        Client.http("https://localhost:9/mcp", root_certificates=["/nonexistent/ca.pem"])
