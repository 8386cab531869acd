"""Group commit on SQLite (``service/store/groupcommit.py``): the appends of several games in
flight share one transaction and one fsync, no request is answered before its batch's commit
has returned, and a SIGKILL of a real server while groups are in flight loses no
acknowledged command."""

from __future__ import annotations

import dataclasses
import sqlite3
import threading
import time
from pathlib import Path

from eventsourcing.persistence import StoredEvent as RecordedEvent

from domain.bots import make_bot
from service.app.application import GameService
from service.store.config import StoreConfig
from service.store.eventstore import EventStore
from service.store.groupcommit import GroupCommit
from tests.harness import state_bytes
from tests.reliability.cluster import sqlite_store
from tests.reliability.crash import CrashPlan, run_crash
from tests.reliability.test_crash import _assert_clean


def _committed(path: Path, game: str) -> list[int]:
    """Sequence numbers of ``game`` that an independent connection sees (committed rows)."""
    with sqlite3.connect(path) as db:
        rows = db.execute(
            "SELECT originator_version FROM stored_events WHERE originator_id = ?"
            " ORDER BY originator_version",
            (game,),
        ).fetchall()
    return [int(r[0]) for r in rows]


def test_the_sqlite_store_groups_commits_by_default(tmp_path: Path) -> None:
    """SQLite stores get a group committer unless ``ANNALES_GROUP_COMMIT=0``, and it commits
    with ``synchronous=FULL`` in WAL mode (every commit fsyncs)."""
    config = StoreConfig(kind="sqlite", path=str(tmp_path / "g.db"))
    store = EventStore(config)
    alone = EventStore(dataclasses.replace(config, group_commit=False))
    try:
        assert store.group is not None
        assert alone.group is None
        assert store.durability() == {"journal_mode": "wal", "synchronous": "2"}
    finally:
        store.close()
        alone.close()


def test_no_request_is_answered_before_its_batch_is_committed(tmp_path: Path) -> None:
    """A first insert is held at a gate on the real recorder while six more requests queue
    up: none of them returns while the batch before theirs is held; the six are then committed
    in one transaction, and each request, when it returns, is already visible to an
    independent connection of the file (committed, so fsynced under ``synchronous=FULL``)."""
    path = tmp_path / "gate.db"
    store = EventStore(StoreConfig(kind="sqlite", path=str(path), group_commit=False))
    gate = threading.Event()
    sizes: list[int] = []

    def insert(records: list[RecordedEvent]) -> object:
        sizes.append(len(records))
        if len(sizes) == 1:
            gate.wait(10)
        return store.events.insert_events(records)

    group = GroupCommit(insert)
    returned: list[str] = []
    seen: dict[str, list[int]] = {}
    errors: list[BaseException] = []

    def run(game: str, count: int) -> None:
        try:
            group.insert([RecordedEvent(game, i, "annales:T", b"x") for i in range(1, count + 1)])
            seen[game] = _committed(path, game)  # at the moment of the answer
            returned.append(game)
        except BaseException as error:  # reported below
            errors.append(error)

    try:
        first = threading.Thread(target=run, args=("first", 1))
        first.start()
        while not sizes:
            time.sleep(0.01)
        others = [threading.Thread(target=run, args=(f"g{i}", 2)) for i in range(6)]
        for thread in others:
            thread.start()
        deadline = time.monotonic() + 10
        while len(group._pending) < 6 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(group._pending) == 6
        time.sleep(0.1)
        assert returned == []  # the held batch is not committed: nobody was answered
        assert _committed(path, "first") == []
        gate.set()
        for thread in (first, *others):
            thread.join(10)
        assert not errors, errors
        assert sizes == [1, 12]  # the six waiting requests shared one transaction
        assert group.transactions == 2 and group.requests == 7
        assert seen == {"first": [1], **{f"g{i}": [1, 2] for i in range(6)}}
    finally:
        gate.set()
        store.close()


def test_concurrent_games_share_sqlite_transactions(tmp_path: Path) -> None:
    """Twelve threads play twelve games through one application on SQLite: transactions carry
    several commands, every acknowledged command is stored once, and every game's log is
    contiguous and replays to the head in a fresh application."""
    config = StoreConfig(kind="sqlite", path=str(tmp_path / "play.db"))
    main = GameService(EventStore(config))
    group = main.store.group
    assert group is not None
    try:
        games = [
            main.create_game("riseandfall", {}, ["a", "b"], f"group-{i}".encode()).game_id
            for i in range(12)
        ]
        acked: dict[str, list[int]] = {g: [] for g in games}
        failures: list[BaseException] = []

        def play(index: int) -> None:
            game_id = games[index]
            bot = make_bot("random", f"bot-{index}".encode())
            try:
                for _ in range(25):
                    with main.lock(game_id):
                        match = main.head(game_id)
                        seat = match.game.pending(match.state).seats[0]
                        command = bot.choose(match.game, match.state, seat)
                        version = match.version
                    result = main.submit(game_id, seat, command, version, f"k{version}")
                    acked[game_id].append(result.envelopes[0].seq)
            except BaseException as error:  # reported below
                failures.append(error)

        threads = [threading.Thread(target=play, args=(i,)) for i in range(12)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert not failures, failures
        assert group.requests > group.transactions > 0  # some transactions were shared
        fresh = GameService(EventStore(dataclasses.replace(config, group_commit=False)))
        try:
            for game_id in games:
                events = main.store.read(game_id)
                assert [e.seq for e in events] == list(range(1, len(events) + 1))
                starts = [e.seq for e in events if e.command is not None]
                assert starts == acked[game_id]
                replayed = fresh.materialise(game_id).match
                head = main.head(game_id)
                assert state_bytes(head.game, head.state) == state_bytes(
                    replayed.game, replayed.state
                )
        finally:
            fresh.store.close()
    finally:
        main.store.close()


#: more clients than the crash suite's normal plan, so that kills land inside shared batches
GROUP_PLAN = CrashPlan(kills=10, runner_kills=2, clients=8, games_per_client=2, seed=23)


def test_sqlite_server_killed_inside_groups_loses_no_acknowledged_command(
    tmp_path: Path,
) -> None:
    """A real server on SQLite with group commit (the default), eight clients writing at once
    (their appends share transactions), SIGKILLed ten times under that load: every
    acknowledged command is in the store, no gap, every chain verifies
    (:mod:`tests.reliability.crash`)."""
    config = sqlite_store(tmp_path)
    assert config.group_commit
    _assert_clean(run_crash(config, tmp_path, GROUP_PLAN), GROUP_PLAN)
