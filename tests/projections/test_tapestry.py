"""The read models are game-agnostic: Tapestry games appear in them like any other game.

Two finished random-bot Tapestry games (3 and 4 seats) and an unfinished one are played on a
real SQLite store, with the incremental runner catching up while they are played. The games
read model lists them with their status and scores; a finished game's balance keys are the
names of the seats' starting civilizations (``TapestryGame.balance_keys``), counted in the
balance statistics; a rebuild gives the same tables.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from domain.bots import make_bot
from domain.tapestry import content as C
from projections import queries
from projections.runner import ReadModelRunner, rebuild
from projections.schema import connect, table_rows
from service.app.application import GameService
from service.app.autoplay import play_with_bots
from service.store.config import StoreConfig
from service.store.eventstore import EventStore
from tests.projections.conftest import scratch_dir

#: (seats, commands to play: None = to the end) of the games played.
GAMES: tuple[tuple[int, int | None], ...] = ((3, None), (4, None), (2, 25))


@dataclass
class Session:
    """The store, its service, the read-model file and the games played."""

    store: EventStore
    service: GameService
    path: str
    game_ids: list[str]


@pytest.fixture(scope="module")
def session() -> Iterator[Session]:
    """Tapestry games on a fresh store, followed by the incremental read models."""
    directory = scratch_dir()
    store = EventStore(StoreConfig(kind="sqlite", path=str(directory / "events.db")))
    service = GameService(store)
    path = str(directory / "readmodels.db")
    runner = ReadModelRunner(store, path, batch_size=53, cache_size=1)
    ids: list[str] = []
    for index, (seats, budget) in enumerate(GAMES):
        names = [f"tp-player-{(index + s) % 4}" for s in range(seats)]
        seed = f"tapestry-projection-{index}".encode()
        game_id = service.create_game("tapestry", {}, names, seed=seed).game_id
        ids.append(game_id)
        bots = {s: make_bot("random", f"tp-bot-{index}-{s}".encode()) for s in range(seats)}
        while True:  # a few commands at a time, the runner following
            done = play_with_bots(service, game_id, bots, max_commands=40)
            runner.catch_up()
            if budget is not None or done < 40:
                break
        if budget is not None:
            play_with_bots(service, game_id, bots, max_commands=budget)
    runner.catch_up()
    runner.db.close()
    yield Session(store, service, path, ids)
    store.close()
    shutil.rmtree(directory, ignore_errors=True)


def test_finished_tapestry_games_are_in_the_games_read_model(session: Session) -> None:
    db = connect(session.path)
    finished, _ = queries.list_games(db, game_type="tapestry", status="finished")
    assert {g.game_id for g in finished} == set(session.game_ids[:2])
    for row in finished:
        match = session.service.head(row.game_id)
        game, state = match.game, match.state
        outcome = game.outcome(state)
        assert outcome is not None
        assert row.status == "finished" and row.seed
        assert row.final_scores == outcome.scores
        assert row.winners == outcome.winners
        assert row.balance_keys == game.balance_keys(state)
        civs = {c.name for c in C.CIVILIZATIONS.values()}
        assert set(row.balance_keys) <= civs, row.balance_keys
        assert len(row.balance_keys) == len(row.seat_names)
    running = queries.get_game(db, session.game_ids[2])
    assert running is not None and running.status in ("setup", "running")
    assert running.balance_keys == ()


def test_balance_statistics_are_keyed_by_civilization(session: Session) -> None:
    db = connect(session.path)
    expected: dict[tuple[str, int], int] = {}
    for game_id in session.game_ids[:2]:
        match = session.service.head(game_id)
        for key in match.game.balance_keys(match.state):
            pair = (key, match.seats)
            expected[pair] = expected.get(pair, 0) + 1
    rows = [r for n in (3, 4) for r in queries.balance_stats(db, "tapestry", n)]
    assert {(r.balance_key, r.players): r.games for r in rows} == expected
    assert sum(r.wins for r in rows) >= 2
    assert not queries.balance_stats(db, "riseandfall")


def test_rebuild_equals_incremental(session: Session) -> None:
    incremental = table_rows(connect(session.path))
    copy = session.path.replace("readmodels.db", "rebuilt.db")
    rebuild(session.store, copy)
    assert table_rows(connect(copy)) == incremental


def test_solo_game_lists_the_automa_as_a_party() -> None:
    """A solo game's row carries its automated opponents (GameSummary.parties in ListGames),
    equal to the live game's ``parties`` once the read models caught up."""
    directory = scratch_dir()
    store = EventStore(StoreConfig(kind="sqlite", path=str(directory / "solo.db")))
    service = GameService(store)
    path = str(directory / "solo-readmodels.db")
    runner = ReadModelRunner(store, path, batch_size=53, cache_size=1)
    game_id = service.create_game("tapestry", {"automa_level": 3}, ["ann"], seed=b"solo").game_id
    play_with_bots(service, game_id, {0: make_bot("random", b"solo-bot")}, max_commands=30)
    runner.catch_up()
    match = service.head(game_id)
    live = [(p.name, p.score, p.winner) for p in match.game.parties(match.state)]
    assert live and live[0][0]
    with connect(path) as db:
        row = queries.get_game(db, game_id)
    assert row is not None and list(row.parties) == live
    store.close()
