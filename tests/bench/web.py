"""Web port benchmarks (``make bench``): SubmitAction and GetView over Connect (binary and
JSON) against the same calls over gRPC, on one server in the same run; never asserted.

A real ``annales serve --web-port`` subprocess on a temporary SQLite file. Each transport
plays its own Rise & Fall game from the same precomputed script (seeded random bots, as in
:mod:`tests.bench.api`), one call in flight, with ``expected_version`` and an idempotency
key; GetView is then timed on each game for a seat. The Connect clients are the
``connectrpc`` runtime's own sync client (HTTP/1.1 keep-alive). Echo over each transport is
the raw baseline.

Then the first meaningful paint of the board view of a long game (a 4-seat Rise & Fall game
to 6 trophies played to its end: thousands of events), from the page's own performance
timing (``performance.mark("board-drawn")`` after the first draw, from navigation start), in
headless Chromium when it is installed — against the time the same API answers (GetGame, GetView,
ListLegalActions; the event log, GetHistory, loads after the first paint) take from Python.

Run alone: ``.venv/bin/python -m tests.bench.web``.
"""

from __future__ import annotations

import functools
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc

from tests.api.conftest import free_port, start_server, stop_server
from tests.api.helpers import auth
from tests.bench.api import _script
from tests.web.client import Connect

SUBMITS = 300
VIEWS = 300
ECHOES = 500
GAME = pb.DESCRIPTOR.services_by_name["GameService"]
DIAG = pb.DESCRIPTOR.services_by_name["DiagnosticsService"]


def _stats(latencies: list[float]) -> str:
    ordered = sorted(latencies)
    p50 = statistics.median(ordered) * 1000
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] * 1000
    return f"{len(ordered) / sum(ordered):7.0f}/s  p50 {p50:6.2f} ms  p99 {p99:6.2f} ms"


def _time(calls: list[Callable[[], Any]]) -> list[float]:
    latencies = []
    for call in calls:
        t0 = time.perf_counter()
        call()
        latencies.append(time.perf_counter() - t0)
    return latencies


def main() -> None:
    """Print SubmitAction, GetView and Echo over gRPC, Connect binary and Connect JSON."""
    with tempfile.TemporaryDirectory() as tmp:
        web_port = free_port()
        server = start_server(Path(tmp), ("--web-port", str(web_port), "--no-projections"))
        try:
            channel = server.channel()
            stub = annales_pb2_grpc.GameServiceStub(channel)
            diag = annales_pb2_grpc.DiagnosticsServiceStub(channel)
            base = f"http://127.0.0.1:{web_port}"
            clients = {
                "connect proto": Connect(base, "proto"),
                "connect json": Connect(base, "json"),
            }
            submit = GAME.methods_by_name["SubmitAction"]
            view = GAME.methods_by_name["GetView"]
            echo = DIAG.methods_by_name["Echo"]
            payload = pb.EchoRequest(payload=b"x" * 64)
            rows: dict[str, dict[str, str]] = {}
            for transport in ("grpc", *clients):
                client = clients.get(transport)

                def send(method: Any, request: Any, token: str | None) -> Any:
                    if client is not None:  # noqa: B023 (called within this iteration)
                        return client.unary(method, request, token)  # noqa: B023
                    call = getattr(diag if method is echo else stub, method.name)
                    return call(request, metadata=auth(token) if token else None)

                seed = f"bench-web-{transport}-seed-0123456789"
                script = _script(3, seed, SUBMITS)
                created = stub.CreateGame(
                    pb.CreateGameRequest(
                        game_type=pb.GAME_TYPE_RISE_AND_FALL, seat_names=["a", "b", "c"], seed=seed
                    )
                )
                tokens = {t.seat: t.token for t in created.seat_tokens}
                gid, version = created.game_id, created.version
                latencies: list[float] = []
                for step, (seat, action) in enumerate(script):
                    request = pb.SubmitActionRequest(  # one key per step
                        game_id=gid,
                        action=action,
                        expected_version=version,
                        idempotency_key=str(step),
                    )
                    t0 = time.perf_counter()
                    version = send(submit, request, tokens[seat]).version
                    latencies.append(time.perf_counter() - t0)
                get_view = pb.GetViewRequest(game_id=gid)
                views = _time([functools.partial(send, view, get_view, tokens[0])] * VIEWS)
                echoes = _time([functools.partial(send, echo, payload, None)] * ECHOES)
                rows[transport] = {
                    "SubmitAction": _stats(latencies),
                    "GetView": _stats(views),
                    "Echo": _stats(echoes),
                }
            for rpc in ("SubmitAction", "GetView", "Echo"):
                for transport, row in rows.items():
                    print(f"{rpc:13s} {transport:14s} {row[rpc]}")
            first_paint(stub, base, clients["connect json"])
            channel.close()
        finally:
            stop_server(server)


def first_paint(stub: Any, base: str, client: Connect) -> None:
    """First meaningful paint of a long game's board, in headless Chromium."""
    import shutil

    from tests.api.helpers import Driver, create_game, history

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        chromium = None
    if chromium is None:
        print("first paint: skipped (no Chromium or Playwright)")
        return
    game = create_game(stub, seats=4, seed="bench-web-first-paint-seed-0123456789", trophies=6)
    Driver(stub, game, b"first-paint").play()
    events = len(history(stub, game.game_id))
    t0 = time.perf_counter()
    for name, request in (("GetGame", pb.GetGameRequest), ("GetView", pb.GetViewRequest),
                          ("ListLegalActions", pb.ListLegalActionsRequest)):  # fmt: skip
        client.unary(GAME.methods_by_name[name], request(game_id=game.game_id), game.tokens[0])
    api_ms = (time.perf_counter() - t0) * 1000
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        paints = []
        for _ in range(3):
            page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
            page.goto(f"{base}/#/game/{game.game_id}?token={game.tokens[0]}")
            page.wait_for_selector("#board svg", timeout=120_000)
            page.wait_for_function(
                "performance.getEntriesByName('board-drawn').length > 0", timeout=120_000
            )
            paints.append(page.evaluate("performance.getEntriesByName('board-drawn')[0].startTime"))
            page.context.close()
        browser.close()
    paint = statistics.median(paints)
    print(f"first paint, {events}-event game: {paint:.0f} ms (median of 3, from navigation)")
    print(f"  the same API answers from Python (Connect JSON): {api_ms:.0f} ms")


if __name__ == "__main__":
    main()
