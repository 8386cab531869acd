"""``annales simulate``: bot games in worker processes, straight into the store.

A small simulation (20 Rise & Fall games, 2 spawned workers, batched commits) lands complete,
verifiable games in a real SQLite file, is reproducible from its seed whatever the workers or
batch size, resumes by skipping stored games, and feeds the balance statistics read model.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from projections import queries
from projections.runner import ReadModelRunner
from service.app.application import GameService
from service.app.errors import InvalidArgument
from service.audit.records import export_lines, verify_record
from service.simulation.jobs import SimJob, bot_seed, game_seed, kind_stats, simulation_jobs
from service.simulation.names import bot_kind
from service.simulation.runner import run_jobs
from service.store.config import StoreConfig
from service.store.eventstore import EventStore

ROOT = Path(__file__).resolve().parents[2]
GAMES = 20
PLAYERS = 2


def _record(service: GameService, game_id: str) -> list[bytes]:
    """The game's exported record (``annales export``)."""
    return export_lines(service.events(game_id), lambda e: service.decode(game_id, e))


def _hashes(store: EventStore, game_id: str) -> list[str]:
    return [e.hash for e in store.read(game_id)]


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> tuple[StoreConfig, list[SimJob]]:
    """20 two-player random-bot games played by 2 workers, 10 games per commit."""
    path = tmp_path_factory.mktemp("sim") / "events.db"
    config = StoreConfig(kind="sqlite", path=str(path))
    jobs = simulation_jobs("riseandfall", PLAYERS, GAMES, ["random"], b"S")
    seen: list[tuple[int, int, int]] = []
    report = run_jobs(config, jobs, workers=2, batch=10, progress=lambda *a: seen.append(a))
    assert report.played == GAMES and report.workers == 2
    assert [r.game_id for r in report.results] == [j.game_id for j in jobs]
    assert seen[-1][:2] == (GAMES, GAMES) and seen[-1][2] == report.events
    return config, jobs


def test_simulated_games_are_complete_stored_games(
    simulated: tuple[StoreConfig, list[SimJob]],
) -> None:
    """Every job is a finished game in the store: seed stored and revealed, the same seed
    as derived, bots rotated over seats, snapshots taken like the application does."""
    config, jobs = simulated
    store = EventStore(config)
    try:
        service = GameService(store)
        assert sorted(store.game_ids()) == sorted(j.game_id for j in jobs)
        for index, job in enumerate(jobs):
            match = service.head(job.game_id)
            assert match.game.is_over(match.state)
            assert match.kernel.seed == game_seed(b"S", "riseandfall", PLAYERS, index).hex()
            assert store.load_seed(job.game_id) == job.seed
            assert service.header(job.game_id).seat_names == job.seat_names
            assert job.bot_seeds == tuple(bot_seed(job.seed or b"", s) for s in range(PLAYERS))
        longest = max(jobs, key=lambda j: store.last_seq(j.game_id))
        assert store.latest_snapshot(longest.game_id) is not None
    finally:
        store.close()


def test_bot_kinds_rotate_over_the_seats() -> None:
    """Seat ``s`` of game ``i`` gets kind ``kinds[(i + s) % len(kinds)]``, named
    ``"{kind}#{s}"``: unique in its game, the kind read back by ``bot_kind``."""
    jobs = simulation_jobs("riseandfall", 3, 4, ["random", "greedy"], b"S")
    assert [j.bots for j in jobs] == [
        ("random", "greedy", "random"),
        ("greedy", "random", "greedy"),
    ] * 2
    assert all(j.seat_names == tuple(f"{k}#{s}" for s, k in enumerate(j.bots)) for j in jobs)
    assert all(len(set(j.seat_names)) == len(j.seat_names) for j in jobs)
    assert all(tuple(bot_kind(n) for n in j.seat_names) == j.bots for j in jobs)
    assert bot_kind("greedy") == "greedy" and bot_kind("ann#x") == "ann#x"
    assert len({j.seed for j in jobs}) == 4 and len({j.game_id for j in jobs}) == 4


def test_simulated_games_verify_by_reexecution(
    simulated: tuple[StoreConfig, list[SimJob]], tmp_path: Path
) -> None:
    """The exported record of a simulated game verifies (hash chain, seed, re-execution),
    here and with ``annales verify`` in a fresh process."""
    config, jobs = simulated
    store = EventStore(config)
    try:
        service = GameService(store)
        for job in jobs[:2]:
            lines = _record(service, job.game_id)
            report = verify_record(lines)
            assert report.ok and report.reexecuted, report.message
        record = tmp_path / "game.jsonl"
        lines = _record(service, jobs[2].game_id)
        record.write_bytes(b"".join(line + b"\n" for line in lines))
    finally:
        store.close()
    done = subprocess.run(
        [sys.executable, "-m", "annales_cli.main", "verify", str(record)],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


def test_reproducible_from_the_seed_whatever_workers_and_batches(
    simulated: tuple[StoreConfig, list[SimJob]], tmp_path: Path
) -> None:
    """The same master seed stores byte-identical games (every event hash) with 0 workers
    and another batch size; another master seed stores other games."""
    config, jobs = simulated
    again = StoreConfig(kind="sqlite", path=str(tmp_path / "again.db"))
    report = run_jobs(again, jobs[:5], workers=0, batch=3)
    assert report.played == 5
    other_jobs = simulation_jobs("riseandfall", PLAYERS, 2, ["random"], b"T")
    run_jobs(again, other_jobs, workers=0)
    first, second = EventStore(config), EventStore(again)
    try:
        for job in jobs[:5]:
            assert _hashes(first, job.game_id) == _hashes(second, job.game_id)
        assert {j.game_id for j in other_jobs}.isdisjoint(j.game_id for j in jobs)
        assert _hashes(second, other_jobs[0].game_id)[-1] != _hashes(first, jobs[0].game_id)[-1]
    finally:
        first.close()
        second.close()


def test_rerun_skips_stored_games_and_appends_nothing(
    simulated: tuple[StoreConfig, list[SimJob]],
) -> None:
    """Running the same simulation again resumes it: every game is skipped, no event added."""
    config, jobs = simulated
    store = EventStore(config)
    try:
        before = store.max_notification_id()
        report = run_jobs(config, jobs, workers=0, batch=7)
        assert {r.status for r in report.results} == {"skipped"}
        assert report.played == 0 and report.events == 0
        assert store.max_notification_id() == before
    finally:
        store.close()


def test_balance_read_model_counts_the_simulated_games(
    simulated: tuple[StoreConfig, list[SimJob]], tmp_path: Path
) -> None:
    """After the read models catch up, balance statistics count each simulated game once
    per seat, and the leaderboard (by bot kind, read from the unique seat names) agrees
    with the run's results."""
    config, jobs = simulated
    store = EventStore(config)
    runner = ReadModelRunner(store, str(tmp_path / "readmodels.db"), batch_size=2000)
    try:
        runner.catch_up()
        rows = queries.balance_stats(runner.db, "riseandfall", PLAYERS)
        assert sorted(r.balance_key for r in rows) == ["seat 0", "seat 1"]
        assert all(r.games == GAMES for r in rows)
        report = run_jobs(config, jobs, workers=0)  # all skipped: results read back
        board, _ = queries.leaderboard(runner.db, "riseandfall", limit=10)
        by_kind = {s.kind: s for s in kind_stats(report.results)}
        assert {e.player: (e.games, e.wins) for e in board} == {
            k: (s.seats, s.wins) for k, s in by_kind.items()
        }
        assert sum(r.wins for r in rows) == sum(len(r.winners) for r in report.results)
    finally:
        runner.db.close()
        store.close()


def test_continues_a_game_created_elsewhere(tmp_path: Path) -> None:
    """A job without a seed plays on a game already stored (a tournament's game, created with
    seat tokens through the application) to its end; the record verifies."""
    config = StoreConfig(kind="sqlite", path=str(tmp_path / "events.db"))
    store = EventStore(config)
    try:
        service = GameService(store)
        created = service.create_game("riseandfall", {}, ["Ann", "Bob"], seed=b"elsewhere")
        job = SimJob(created.game_id, "riseandfall", {}, ("Ann", "Bob"), None,
                     ("random", "random"), (b"a", b"b"))  # fmt: skip
        (result,) = run_jobs(config, [job], workers=0).results
        assert result.status == "played" and result.commands > 0
        fresh = GameService(EventStore(config))
        match = fresh.head(created.game_id)
        assert match.game.is_over(match.state) and result.version == match.version
        lines = _record(fresh, created.game_id)
        assert verify_record(lines).ok
    finally:
        store.close()


def test_bad_input_is_refused_with_typed_errors(tmp_path: Path) -> None:
    """Unknown bot or game, a player count out of range, duplicate ids, a job without seed
    for a game not stored: typed errors, nothing stored."""
    with pytest.raises(InvalidArgument, match="unknown bot"):
        simulation_jobs("riseandfall", 2, 1, ["nobody"], b"S")
    with pytest.raises(InvalidArgument, match="Unknown game"):
        simulation_jobs("chess", 2, 1, ["random"], b"S")
    with pytest.raises(InvalidArgument, match="2 to 4"):
        simulation_jobs("riseandfall", 7, 1, ["random"], b"S")
    config = StoreConfig(kind="sqlite", path=str(tmp_path / "events.db"))
    job = simulation_jobs("riseandfall", 2, 1, ["random"], b"S")[0]
    with pytest.raises(InvalidArgument, match="same game id"):
        run_jobs(config, [job, job], workers=0)
    from service.simulation.jobs import SimulationError

    unseeded = SimJob("nowhere", "riseandfall", {}, ("a", "b"), None, ("random",) * 2, (b"", b""))
    with pytest.raises(SimulationError, match="not stored"):
        run_jobs(config, [unseeded], workers=0)
    store = EventStore(config)
    try:
        assert store.max_notification_id() == 0
    finally:
        store.close()


@pytest.mark.postgres
def test_two_workers_into_postgres(pg_config: StoreConfig) -> None:
    """The same engine on the real PostgreSQL server: 2 worker processes, batched commits."""
    jobs = simulation_jobs("riseandfall", 2, 2, ["random"], b"pg")
    report = run_jobs(pg_config, jobs, workers=2, batch=1)
    assert report.played == 2
    store = EventStore(pg_config)
    try:
        service = GameService(store)
        for job in jobs:
            match = service.head(job.game_id)
            assert match.game.is_over(match.state)
        lines = _record(service, jobs[0].game_id)
        assert verify_record(lines).ok
    finally:
        store.close()


def test_cli_simulate_end_to_end(tmp_path: Path) -> None:
    """``annales simulate`` in a fresh process: 2 workers, progress, summary, balance table
    from the read models; the games are in the store."""
    db = tmp_path / "cli.db"
    done = subprocess.run(
        [sys.executable, "-m", "annales_cli.main", "simulate", "--game", "rise-and-fall",
         "--players", "2", "--games", "4", "--bots", "random", "--workers", "2",
         "--seed", "cli", "--db", str(db)],
        cwd=ROOT, capture_output=True, text=True, timeout=300, env={**os.environ, "COLUMNS": "200"},
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "4 games played (0 already stored)" in done.stdout
    assert "games/s" in done.stdout and "Balance statistics" in done.stdout
    assert "worker 1" in done.stdout and "worker 2" in done.stdout, done.stdout
    assert "riseandfall 2p total" in done.stdout and "4/4" in done.stdout
    store = EventStore(StoreConfig(kind="sqlite", path=str(db)))
    try:
        jobs = simulation_jobs("riseandfall", 2, 4, ["random"], b"cli")
        assert sorted(store.game_ids()) == sorted(j.game_id for j in jobs)
    finally:
        store.close()


def test_cli_refuses_bad_input(tmp_path: Path) -> None:
    """Unknown bot, options that are not a JSON object, unknown game: exit status 2, a clear
    message, no store written."""
    from annales_cli.main import app
    from typer.testing import CliRunner

    db = str(tmp_path / "none.db")
    for args, message in (
        (["--bots", "nobody"], "unknown bot"),
        (["--options", "[1]"], "JSON object"),
        (["--options", "{"], "not JSON"),
        (["--players", "9"], "2 to 4"),
    ):
        result = CliRunner().invoke(
            app, ["simulate", "--games", "1", "--db", db, *args], env={"COLUMNS": "200"}
        )
        assert result.exit_code == 2, result.output
        assert message in result.output
    assert not os.path.exists(db)


def test_a_game_changed_by_another_writer_is_a_conflict(tmp_path: Path) -> None:
    """A game stored by someone else while the batch was being played: the batch falls back
    to one transaction per game, the others are stored, that one is reported as a conflict
    (none of our events or snapshots of it are stored) and ``run_jobs`` would raise."""
    from service.simulation.playing import commit, play_job

    config = StoreConfig(kind="sqlite", path=str(tmp_path / "events.db"))
    store = EventStore(config)
    try:
        first, second = simulation_jobs("riseandfall", 2, 2, ["random"], b"race")
        played = [play_job(store, first), play_job(store, second)]
        other = GameService(store).create_game(  # seat names are unique per created game
            "riseandfall", {}, ["other-0", "other-1"], seed=second.seed, game_id=second.game_id
        )
        results = commit(store, played)
        assert [r.status for r in results] == ["played", "conflict"]
        assert results[1].version == other.version == store.last_seq(second.game_id)
        assert store.last_seq(first.game_id) == results[0].version
        assert store.latest_snapshot(second.game_id) is None
        assert store.latest_snapshot(first.game_id) is not None
    finally:
        store.close()


def test_each_finished_game_is_reported_by_its_worker(tmp_path: Path) -> None:
    """``game_progress`` hears of every game as its worker finishes it (before the commit of
    its batch): one whole batch of 6 games on 2 workers still reports 6 games, one by one,
    and the games stored are those of any other run of the same seed."""
    config = StoreConfig(kind="sqlite", path=str(tmp_path / "p.db"))
    jobs = simulation_jobs("riseandfall", 2, 6, ["random"], b"P")
    heard: list[tuple[int, int]] = []
    report = run_jobs(config, jobs, workers=2, batch=6, game_progress=lambda *a: heard.append(a))
    assert report.played == 6
    counts: dict[int, int] = {}
    for worker, count in heard:
        assert count == counts.get(worker, 0) + 1  # each worker counts its games one by one
        counts[worker] = count
    assert set(counts) <= {0, 1} and sum(counts.values()) == 6
    again = StoreConfig(kind="sqlite", path=str(tmp_path / "q.db"))
    seen: list[tuple[int, int]] = []
    run_jobs(again, jobs, workers=0, batch=4, game_progress=lambda *a: seen.append(a))
    assert seen == [(0, n) for n in range(1, 7)]
    first, second = EventStore(config), EventStore(again)
    try:
        for job in jobs:
            assert _hashes(first, job.game_id) == _hashes(second, job.game_id)
    finally:
        first.close()
        second.close()


def test_a_store_simulated_with_kind_names_is_resumed(tmp_path: Path) -> None:
    """Games stored before seat names got their ``#seat`` suffix (named by their kind) keep
    their ids: re-running the simulation over that store skips them, writes nothing, and
    the per-kind table still groups them by kind."""
    from dataclasses import replace

    config = StoreConfig(kind="sqlite", path=str(tmp_path / "old.db"))
    jobs = simulation_jobs("riseandfall", 2, 3, ["random", "greedy"], b"old")
    old = [replace(j, seat_names=j.bots) for j in jobs]
    run_jobs(config, old, workers=0)
    store = EventStore(config)
    try:
        before = store.max_notification_id()
        report = run_jobs(config, jobs, workers=0)
        assert {r.status for r in report.results} == {"skipped"}
        assert store.max_notification_id() == before
    finally:
        store.close()
    assert sorted(s.kind for s in kind_stats(report.results)) == ["greedy", "random"]
