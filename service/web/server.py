"""The web port: the Connect services and the web app on one HTTP server (hypercorn).

``annales serve --web-port 8080`` starts it beside the gRPC port (see docs/web.md):

* ``POST /annales.v1.GameService/GetView`` (and every other method of every service): the
  Connect protocol from :mod:`service.web.connect`, over HTTP/1.1 and HTTP/2 (cleartext, prior
  knowledge) — hypercorn is the HTTP server, run on its own event loop thread;
* ``GET /`` and the app's other files from this package's ``static`` folder, and
  ``/names.json``: component names from the games' content files (:mod:`service.web.names`);
* CORS: a browser page may call the services only from the page's own origin, or from an origin
  given with ``--web-origin`` (repeatable; ``*`` for any). A request from another origin is
  refused before any servicer runs (PERMISSION_DENIED, reason ``CROSS_ORIGIN``);
* seat tokens travel only in ``authorization: Bearer`` headers: a query string naming a token is
  refused (UNAUTHENTICATED, reason ``TOKEN_IN_URL``), since URLs reach logs and histories.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import mimetypes
import socket
import threading
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from importlib import resources
from typing import Any
from urllib.parse import parse_qs

from connectrpc._protocol import ConnectWireError
from connectrpc.code import Code
from google.protobuf.descriptor import ServiceDescriptor
from hypercorn.asyncio import serve as hypercorn_serve
from hypercorn.config import Config

from service.web.connect import ConnectApp, endpoints, typed_error
from service.web.names import names

log = logging.getLogger("annales.web")
Send = Callable[[dict[str, Any]], Awaitable[None]]
Receive = Callable[[], Awaitable[dict[str, Any]]]

#: Same limit as the gRPC port's receive limit (an exported record is sent back to verify).
MAX_BODY = 64 * 1024 * 1024
TOKEN_PARAMS = ("token", "access_token", "authorization", "bearer", "seat_token")
ALLOW_HEADERS = (
    "content-type, authorization, connect-protocol-version, connect-timeout-ms, "
    "connect-accept-encoding, connect-content-encoding, accept-encoding, content-encoding, "
    "x-grpc-web, x-user-agent, grpc-timeout"
)
EXPOSE_HEADERS = "grpc-status, grpc-message, grpc-status-details-bin, content-encoding"
SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'",
    ),
]


def _static_file(path: str) -> tuple[bytes, str] | None:
    """The bytes and content type of a file of the web app (``None``: no such file)."""
    name = "index.html" if path in ("", "/") else path.removeprefix("/")
    parts = name.split("/")
    if any(part in ("", ".", "..") or part.startswith(".") for part in parts):
        return None
    node = resources.files("service.web").joinpath("static", *parts)
    if not node.is_file():
        return None
    kind = mimetypes.guess_type(name)[0] or "application/octet-stream"
    if name.endswith(".js"):
        kind = "text/javascript"
    if kind.startswith("text/") or kind in ("image/svg+xml",):
        kind += "; charset=utf-8"
    return node.read_bytes(), kind


@dataclass
class WebApp:
    """The ASGI application of the web port: routing, CORS, the token check, static files."""

    connect: ConnectApp
    origins: Sequence[str] = ()
    _any_origin: bool = field(init=False)

    def __post_init__(self) -> None:
        self._any_origin = "*" in self.origins

    def allowed(self, origin: str, scope: Mapping[str, Any], headers: Mapping[str, str]) -> bool:
        """Whether a page from ``origin`` may call the services: its own origin, a configured
        one, or any with ``*``."""
        own = f"{scope.get('scheme', 'http')}://{headers.get('host', '')}"
        return self._any_origin or origin == own or origin in self.origins

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        """Dispatch one ASGI event."""
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        if scope["type"] != "http":
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        path: str = scope["path"]
        method: str = scope["method"]
        rpc = path.count("/") == 2 and "." in path.split("/")[1]
        origin = headers.get("origin")
        cors: list[tuple[bytes, bytes]] = []
        if origin is not None:
            if not self.allowed(origin, scope, headers):
                if rpc:
                    await _error(
                        send,
                        typed_error(
                            Code.PERMISSION_DENIED,
                            "CROSS_ORIGIN",
                            f"Calls from the origin {origin[:200]!r} are not allowed here "
                            "(see --web-origin).",
                        ),
                    )
                else:
                    await _plain(send, 403, b"cross-origin request refused")
                return
            cors = [
                (b"access-control-allow-origin", origin.encode("latin-1")),
                (b"vary", b"Origin"),
                (b"access-control-expose-headers", EXPOSE_HEADERS.encode()),
            ]
        if method == "OPTIONS":
            await send(
                {
                    "type": "http.response.start",
                    "status": 204,
                    "headers": [
                        *cors,
                        (b"access-control-allow-methods", b"POST, OPTIONS"),
                        (b"access-control-allow-headers", ALLOW_HEADERS.encode()),
                        (b"access-control-max-age", b"7200"),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": b""})
            return
        if rpc:
            query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
            if any(name.lower() in TOKEN_PARAMS for name in query):
                await _error(
                    send,
                    typed_error(
                        Code.UNAUTHENTICATED,
                        "TOKEN_IN_URL",
                        "Seat tokens travel in the header 'authorization: Bearer <token>', not in "
                        "a URL.",
                    ),
                    cors,
                )
                return

            async def send_with_cors(message: dict[str, Any]) -> None:
                if message["type"] == "http.response.start" and cors:
                    message = {**message, "headers": [*message.get("headers", []), *cors]}
                await send(message)

            await self.connect(scope, receive, send_with_cors)
            return
        if method not in ("GET", "HEAD"):
            await _plain(send, 405, b"method not allowed")
            return
        found = (names(), "application/json") if path == "/names.json" else _static_file(path)
        if found is None:
            await _plain(send, 404, b"not found")
            return
        body, kind = found
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    (b"content-type", kind.encode()),
                    (b"cache-control", b"no-cache"),
                    *SECURITY_HEADERS,
                ],
            }
        )
        await send({"type": "http.response.body", "body": b"" if method == "HEAD" else body})


async def _plain(send: Send, status: int, text: bytes) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"text/plain; charset=utf-8")],
        }
    )
    await send({"type": "http.response.body", "body": text})


async def _error(send: Send, error: Exception, extra: Sequence[tuple[bytes, bytes]] = ()) -> None:
    """A Connect unary error response (the library's own encoding of the error)."""
    wire = ConnectWireError.from_exception(error)
    status = wire.to_http_status()
    await send(
        {
            "type": "http.response.start",
            "status": status.code,
            "headers": [(b"content-type", b"application/json"), *extra],
        }
    )
    await send({"type": "http.response.body", "body": wire.to_json_bytes()})


class WebServer:
    """The web port, served by hypercorn on a thread of its own."""

    def __init__(
        self,
        services: Mapping[ServiceDescriptor, object],
        origins: Sequence[str] = (),
        workers: int = 64,
    ) -> None:
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="annales-web")
        self.app = WebApp(ConnectApp(endpoints(services, self.pool), MAX_BODY), tuple(origins))
        self.port = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread: threading.Thread | None = None

    def start(self, host: str, port: int) -> int:
        """Listen on ``host:port`` (0: any free port) and return the bound port."""
        sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(512)
        sock.set_inheritable(True)
        self.port = int(sock.getsockname()[1])
        config = Config()
        config.bind = [f"fd://{sock.fileno()}"]
        config.accesslog = None  # one line per call is logged by the servicers already
        config.errorlog = log
        config.graceful_timeout = 3.0
        config.wsgi_max_body_size = MAX_BODY
        config.h11_max_incomplete_size = 64 * 1024
        ready = threading.Event()

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            self._stop = asyncio.Event()
            ready.set()
            try:
                loop.run_until_complete(
                    hypercorn_serve(self.app, config, shutdown_trigger=self._stop.wait)  # type: ignore[arg-type]
                )
            finally:
                with contextlib.suppress(OSError):  # hypercorn may have closed the fd already
                    sock.close()
                loop.close()

        self._thread = threading.Thread(target=run, name="annales-web", daemon=True)
        self._thread.start()
        ready.wait()
        return self.port

    def stop(self, grace: float = 5.0) -> None:
        """Stop accepting, let calls in flight end (streams are ended by the broadcaster)."""
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        if self._thread is not None:
            self._thread.join(grace)
        self.pool.shutdown(wait=False, cancel_futures=True)
