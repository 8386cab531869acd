"""Group commit on PostgreSQL (``service/store/groupcommit.py``): the appends of several games in
flight share transactions, and each command still succeeds or fails on its own."""

from __future__ import annotations

import dataclasses
import threading
import time

import pytest

from domain.bots import make_bot
from service.app.application import GameService
from service.app.errors import RuleRejected, VersionConflict
from service.store.config import StoreConfig
from service.store.eventstore import EventStore
from tests.harness import state_bytes
from tests.pg import pg_config

__all__ = ["pg_config"]

pytestmark = pytest.mark.postgres


def test_concurrent_games_share_transactions_and_conflicts_stay_their_own(
    pg_config: StoreConfig,
) -> None:
    """Twelve threads play twelve games through one application (one process, one group
    committer) while a second application races on four of those games: batches carry several
    commands, every acknowledged command is stored once, a conflict fails only its own command,
    and every game's log is contiguous and replays to the head."""
    main = GameService(EventStore(pg_config))
    rival = GameService(EventStore(pg_config))
    group = main.store.group
    assert group is not None
    try:
        games = [
            main.create_game("riseandfall", {}, ["a", "b"], f"group-{i}".encode()).game_id
            for i in range(12)
        ]
        acked: dict[str, list[tuple[int, int]]] = {g: [] for g in games}
        failures: list[BaseException] = []
        conflicts = [0]

        def play(index: int, service: GameService, steps: int) -> None:
            game_id = games[index]
            bot = make_bot("random", f"bot-{index}-{id(service)}".encode())
            for _ in range(steps):
                try:
                    with service.lock(game_id):
                        match = service.head(game_id)
                        seat = match.game.pending(match.state).seats[0]
                        command = bot.choose(match.game, match.state, seat)
                        version = match.version
                    result = service.submit(game_id, seat, command, version)
                except (VersionConflict, RuleRejected):
                    conflicts[0] += 1
                    continue
                except BaseException as error:  # reported below
                    failures.append(error)
                    return
                if service is main:
                    acked[game_id].append((result.envelopes[0].seq, result.version))

        threads = [threading.Thread(target=play, args=(i, main, 25)) for i in range(12)]
        threads += [threading.Thread(target=play, args=(i, rival, 10)) for i in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert not failures, failures
        assert group.requests > group.transactions > 0  # some transactions were shared
        for game_id in games:
            events = main.store.read(game_id)
            assert [e.seq for e in events] == list(range(1, len(events) + 1))
            starts = {e.seq for e in events if e.command is not None}
            assert all(first in starts for first, _ in acked[game_id])
            fresh = GameService(EventStore(pg_config))
            try:
                replayed = fresh.materialise(game_id).match
            finally:
                fresh.store.close()
            head = main.head(game_id)
            assert state_bytes(head.game, head.state) == state_bytes(replayed.game, replayed.state)
        assert sum(len(a) for a in acked.values()) >= 12 * 20
    finally:
        main.store.close()
        rival.store.close()


def test_a_conflict_inside_a_shared_batch_fails_only_its_own_request(
    pg_config: StoreConfig,
) -> None:
    """A batch of two requests, one of which repeats a sequence number already stored: the
    batch commits nothing, then each request is inserted alone — the good one is stored, the
    other gets the store's IntegrityError. (The first insert is held at a gate, on the real
    recorder, so that the next two requests queue into one batch.)"""
    from eventsourcing.persistence import IntegrityError
    from eventsourcing.persistence import StoredEvent as RecordedEvent

    from service.store.groupcommit import GroupCommit

    store = EventStore(dataclasses.replace(pg_config, group_commit=False))
    gate = threading.Event()
    sizes: list[int] = []

    def insert(records: list[RecordedEvent]) -> object:
        sizes.append(len(records))
        if len(sizes) == 1:
            gate.wait(10)
        return store.events.insert_events(records)

    group = GroupCommit(insert)
    results: dict[str, object] = {}

    def run(name: str, records: list[RecordedEvent]) -> None:
        try:
            results[name] = group.insert(records)
        except IntegrityError as error:
            results[name] = error

    def record(game: str, seq: int) -> RecordedEvent:
        return RecordedEvent(game, seq, "annales:Test", b"x")

    try:
        first = threading.Thread(target=run, args=("first", [record("x", 1)]))
        first.start()
        while not sizes:
            time.sleep(0.01)
        good = threading.Thread(target=run, args=("good", [record("y", 1), record("y", 2)]))
        clash = threading.Thread(target=run, args=("clash", [record("x", 1)]))
        good.start()
        time.sleep(0.2)
        clash.start()
        time.sleep(0.2)
        gate.set()
        for thread in (first, good, clash):
            thread.join(10)
        assert sizes == [1, 3, 2, 1]  # first; good+clash together; then each alone
        assert isinstance(results["clash"], IntegrityError)
        assert isinstance(results["first"], list) and len(results["first"]) == 1
        assert isinstance(results["good"], list) and len(results["good"]) == 2
        assert group.splits == 1
        assert [r.originator_version for r in store.events.select_events("y")] == [1, 2]
        assert len(store.events.select_events("x")) == 1
    finally:
        gate.set()
        store.close()
