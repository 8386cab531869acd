"""Seeded tournaments reproduce byte for byte.

* a 16-entrant Swiss tournament (Tapestry, random bots, 3 rounds) run twice with the same
  master seed gives byte-identical exports; another master seed changes them;
* a duplicate tournament (Rise & Fall) run twice gives byte-identical exports, and every
  table of a round sees the same random setup (world tiles, set-aside tiles, first player);
* a round robin of Imperium bots shows the engine is game-agnostic; every record verifies.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from domain.tournament import engine, seeds
from service.tournaments.record import verify_tournament
from tests.tournament.helpers import BotRun, fast_dir, run_bot_tournament


@pytest.fixture(scope="module")
def swiss_runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[BotRun]]:
    """The same 16-entrant Swiss tournament twice, and once with another master seed."""
    with fast_dir(tmp_path_factory.mktemp("swiss")) as base:
        runs = [
            run_bot_tournament(
                base / f"{i}.db",
                game="tapestry",
                format="swiss",
                entrants=16,
                rounds=3,
                master_seed=seed,
            )
            for i, seed in enumerate([b"master-one", b"master-one", b"master-two"])
        ]
        yield runs
        for run in runs:
            run.close()


def test_swiss_16_same_master_seed_gives_identical_exports(swiss_runs: list[BotRun]) -> None:
    """Same seed → same bytes, line for line; the record verifies offline."""
    first, second, _ = swiss_runs
    assert first.lines == second.lines
    assert len(first.lines) > 16 * 3 * 10
    report = verify_tournament(first.lines)
    assert report.ok, report.message
    assert report.games == 3 * 8


def test_swiss_16_other_master_seed_changes_the_export(swiss_runs: list[BotRun]) -> None:
    """Another master seed: another commitment, other game seeds, other games."""
    first, _, other = swiss_runs
    assert first.lines != other.lines
    head_one = msgspec.json.decode(first.lines[0])
    head_two = msgspec.json.decode(other.lines[0])
    assert head_one["seed_commitment"] != head_two["seed_commitment"]
    assert verify_tournament(other.lines).ok


def test_swiss_pairs_never_repeat_and_standings_add_up(swiss_runs: list[BotRun]) -> None:
    """16 entrants, 3 rounds: no pair meets twice; all 16 play every round (no byes)."""
    run = swiss_runs[0]
    state = run.service.state(run.tournament_id)
    pairs = [tuple(sorted(t)) for p in state.pairings.values() for t in p.tables]
    assert len(pairs) == len(set(pairs)) == 24
    assert all(not p.byes for p in state.pairings.values())
    assert state.ended is not None
    assert sum(row.points for row in state.ended.standings) == 24 * 2
    assert state.ended.master_seed == b"master-one".hex()


@pytest.fixture(scope="module")
def duplicate_runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[BotRun]]:
    """A duplicate Rise & Fall tournament (4 bots, 2 rounds of 2 tables), run twice."""
    with fast_dir(tmp_path_factory.mktemp("duplicate")) as base:
        runs = [
            run_bot_tournament(
                base / f"{i}.db",
                game="riseandfall",
                format="duplicate",
                entrants=4,
                rounds=2,
                master_seed=b"duplicate-master",
            )
            for i in range(2)
        ]
        yield runs
        for run in runs:
            run.close()


def test_duplicate_same_master_seed_gives_identical_exports(duplicate_runs: list[BotRun]) -> None:
    """Byte-identical twice, and the record verifies."""
    first, second = duplicate_runs
    assert first.lines == second.lines
    report = verify_tournament(first.lines)
    assert report.ok, report.message


def test_duplicate_tables_share_seed_and_random_events(duplicate_runs: list[BotRun]) -> None:
    """All tables of a round: one seed commitment, seats rotated, identical random events.

    Every random draw of Rise & Fall (the random world: ``WorldTilePlaced``; the first
    player: ``FirstPlayerDrawn``; and ``TileSetAside`` when a tile cannot be placed) comes
    from the game's ``Chance``; those events, over the whole game, are byte-identical across
    the tables of a round, although different entrants sit in each seat.
    """
    run = duplicate_runs[0]
    state = run.service.state(run.tournament_id)
    store = run.service.games.store
    random_kinds = {"WorldTilePlaced", "TileSetAside", "FirstPlayerDrawn"}
    for round_number in (1, 2):
        games = state.round_games(round_number)
        assert len(games) == 2
        assert len({g.seed_commitment for g in games}) == 1
        expected = seeds.commitment(
            seeds.duplicate_seed(b"duplicate-master", run.tournament_id, round_number)
        )
        assert games[0].seed_commitment == expected
        setups = []
        for game in games:
            envelopes = store.read(game.game_id)
            drawn = [(e.kind, e.payload) for e in envelopes if e.kind in random_kinds]
            assert {"WorldTilePlaced", "FirstPlayerDrawn"} <= {kind for kind, _ in drawn}
            setups.append(drawn)
        assert setups[0] == setups[1]
        paired = state.pairings[round_number].tables
        for game in games:
            table = paired[game.table]
            shift = (round_number + game.table) % 2
            assert game.seats == table[shift:] + table[:shift]


def test_round_robin_imperium_is_game_agnostic(tmp_path: Path) -> None:
    """A 3-entrant Imperium round robin: 3 rounds, one bye each, verified record."""
    with fast_dir(tmp_path) as base:
        run = run_bot_tournament(
            base / "rr.db",
            game="imperium",
            format="round_robin",
            entrants=3,
            rounds=0,
            master_seed=b"rr",
        )
        _check_round_robin(run)


def _check_round_robin(run: BotRun) -> None:
    try:
        state = run.service.state(run.tournament_id)
        assert state.rounds == 3
        assert sorted(e for p in state.pairings.values() for e in p.byes) == [0, 1, 2]
        assert engine.met(state) == {0: {1, 2}, 1: {0, 2}, 2: {0, 1}}
        report = verify_tournament(run.lines)
        assert report.ok, report.message
    finally:
        run.close()
