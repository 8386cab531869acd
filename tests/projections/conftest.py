"""A session of bot games on a real SQLite event store, followed by the read models.

:func:`played` plays ``GAMES`` Rise & Fall games (2–4 seats) with random bots through
``play_with_bots``, interleaved a few commands at a time as a busy server would see them,
with some ``Undo`` commands; about a third of the games are played to the end. While the
games are played the incremental runner catches up after every round of commands, with a
tiny batch size and an LRU of two games, so batches split commands and games fall out of
the LRU all the time.

The files live on ``/dev/shm`` when it exists (a real SQLite file, without the fsync cost).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from domain.bots import make_bot
from domain.core.kernel_events import Undo
from domain.registry import GAMES
from projections.runner import ReadModelRunner
from service.app.application import GameService
from service.app.autoplay import play_with_bots
from service.app.errors import RuleRejected
from service.store.config import StoreConfig
from service.store.eventstore import EventStore


@dataclass
class Played:
    """The event store, its service and the incrementally maintained read models."""

    directory: Path
    store: EventStore
    service: GameService
    readmodels: Path
    game_ids: list[str]
    seeds: dict[str, bytes]


def scratch_dir() -> Path:
    """A fresh directory, in memory when possible."""
    base = "/dev/shm" if os.path.isdir("/dev/shm") else None
    return Path(tempfile.mkdtemp(prefix="annales-proj-", dir=base))


def play_session(
    games: int,
    finished_every: int = 3,
    chunk: int = 40,
    game_types: tuple[str, ...] = ("riseandfall",),
) -> Played:
    """Play ``games`` interleaved games (every ``finished_every``-th to the end), cycling
    through ``game_types`` (registry names) game by game."""
    directory = scratch_dir()
    store = EventStore(StoreConfig(kind="sqlite", path=str(directory / "events.db")))
    service = GameService(store)
    runner = ReadModelRunner(store, str(directory / "readmodels.db"), batch_size=37, cache_size=2)
    live: dict[str, tuple[dict[int, object], int]] = {}
    ids: list[str] = []
    seeds: dict[str, bytes] = {}
    for index in range(games):
        game_type = game_types[index % len(game_types)]
        rules = GAMES[game_type]
        sizes = rules.max_seats - rules.min_seats + 1
        seats = rules.min_seats + (index // finished_every) % sizes  # finished games of every size
        seed = f"projection-session-seed-{index:04d}".encode()
        names = [f"player-{(index + s) % 5}" for s in range(seats)]
        created = service.create_game(game_type, {}, names, seed=seed)
        ids.append(created.game_id)
        seeds[created.game_id] = seed
        bots = {s: make_bot("random", f"bot-{index}-{s}".encode()) for s in range(seats)}
        budget = 10**9 if index % finished_every == 0 else 30 + 7 * (index % 5)
        live[created.game_id] = (bots, budget)  # type: ignore[assignment]
    step = 0
    while live:
        for game_id in list(live):
            bots, budget = live[game_id]
            done = play_with_bots(service, game_id, bots, max_commands=min(chunk, budget))  # type: ignore[arg-type]
            step += 1
            if step % 5 == 0:  # an undo now and then (refused when the policy forbids it)
                match = service.head(game_id)
                for seat in range(match.seats):
                    try:
                        service.submit(game_id, seat, Undo())
                        break
                    except RuleRejected:
                        continue
            budget -= done
            if done < min(chunk, budget + done) or budget <= 0:
                del live[game_id]
            else:
                live[game_id] = (bots, budget)
        runner.catch_up()
    runner.catch_up()
    runner.db.close()
    return Played(directory, store, service, directory / "readmodels.db", ids, seeds)


@pytest.fixture(scope="session")
def played() -> Iterator[Played]:
    """About 30 games (10 finished) with their incremental read models."""
    session = play_session(30)
    yield session
    session.store.close()
    shutil.rmtree(session.directory, ignore_errors=True)
