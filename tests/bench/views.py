"""GetView with and without its cache of answers (``make bench``): printed, never asserted.

Two ``annales serve --no-projections`` subprocesses on fresh SQLite files, one with the
default cache and one with ``ANNALES_VIEW_CACHE=0``, each holding the same games (the same
seeded random-bot commands). On each server, with ``INFLIGHT`` client threads (one game each,
its seats round robin):

* **head reads**: every seat reads the head view again and again (a client polling a game
  that has not moved): the cache's best case, every call after the first a hit;
* **fresh reads**: every (version, seat) read once, oldest versions included: every call a
  miss, the cache's cost (the answer stored, an older one evicted) against none.

Each figure is next to Echo/s at the same concurrency on the same server. Run alone:
``.venv/bin/python -m tests.bench.views``.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from annales.v1 import annales_pb2 as pb

from tests.api.conftest import ServerProcess, stop_server
from tests.api.helpers import auth
from tests.bench.api import _run_threads, _script, _stubs, bench_echo
from tests.bench.writepath import start

INFLIGHT = 8
SEATS = 3
#: commands played per game before the reads
MOVES = 30
#: head reads per thread
HEAD_READS = 300


@contextmanager
def _cache_entries(value: str | None) -> Iterator[None]:
    """``ANNALES_VIEW_CACHE`` set to ``value`` (unset with ``None``) for servers started here."""
    saved = os.environ.get("ANNALES_VIEW_CACHE")
    if value is None:
        os.environ.pop("ANNALES_VIEW_CACHE", None)
    else:
        os.environ["ANNALES_VIEW_CACHE"] = value
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("ANNALES_VIEW_CACHE", None)
        else:
            os.environ["ANNALES_VIEW_CACHE"] = saved


def _games(stubs: list[Any]) -> list[tuple[str, dict[int, str], int]]:
    """``INFLIGHT`` games, ``MOVES`` commands each: (id, tokens by seat, version)."""
    games = []
    for index in range(INFLIGHT):
        seed = f"bench-views-{index}-seed-0123456789"
        answer = stubs[index].CreateGame(
            pb.CreateGameRequest(
                game_type=pb.GAME_TYPE_RISE_AND_FALL, seat_names=["a", "b", "c"], seed=seed
            )
        )
        tokens = {t.seat: t.token for t in answer.seat_tokens}
        version = answer.version
        for seat, action in _script(SEATS, seed, MOVES):
            version = (
                stubs[index]
                .SubmitAction(
                    pb.SubmitActionRequest(game_id=answer.game_id, action=action),
                    metadata=auth(tokens[seat]),
                )
                .version
            )
        games.append((answer.game_id, tokens, version))
    return games


def measure(server: ServerProcess) -> tuple[float, float, float]:
    """(head reads/s, fresh reads/s, Echo/s) at ``INFLIGHT`` in flight on ``server``."""
    channels, stubs, _ = _stubs(server, INFLIGHT)
    games = _games(stubs)

    def head(index: int) -> list[float]:
        game_id, tokens, _ = games[index]
        for step in range(HEAD_READS):
            stubs[index].GetView(
                pb.GetViewRequest(game_id=game_id), metadata=auth(tokens[step % SEATS])
            )
        return []

    def fresh(index: int) -> list[float]:
        game_id, tokens, version = games[index]
        for at in range(1, version + 1):
            for seat in range(SEATS):
                stubs[index].GetView(
                    pb.GetViewRequest(game_id=game_id, version=at), metadata=auth(tokens[seat])
                )
        return []

    head(0)  # warm-up (game 0's head entries exist on the cached server afterwards)
    wall, _ = _run_threads(INFLIGHT, head)
    head_rate = HEAD_READS * INFLIGHT / wall
    wall, _ = _run_threads(INFLIGHT, fresh)
    fresh_rate = sum(g[2] for g in games) * SEATS / wall
    for channel in channels:
        channel.close()
    echo = bench_echo(server, INFLIGHT)[0]
    return head_rate, fresh_rate, echo


def main() -> None:
    """Print GetView/s with the cache and without, next to Echo/s."""
    with tempfile.TemporaryDirectory() as tmp:
        for label, entries in (("cache off", "0"), ("cache on ", None)):
            with _cache_entries(entries):
                server = start(Path(tmp) / label.strip().replace(" ", "-"))
            try:
                head, fresh, echo = measure(server)
            finally:
                stop_server(server)
            print(
                f"GetView {label}, {INFLIGHT} in flight: head reads {head:,.0f}/s "
                f"({head / echo:.2f}x Echo), fresh reads (all misses) {fresh:,.0f}/s "
                f"({fresh / echo:.2f}x Echo) | Echo {echo:,.0f}/s"
            )


if __name__ == "__main__":
    main()
