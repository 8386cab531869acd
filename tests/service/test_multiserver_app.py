"""Several application processes on one store (issue "Scale-out", item 2), in process.

Each :class:`~service.app.application.GameService` below has its own store connection and its
own head cache, exactly like one ``annales serve`` process: the tests prove that a cached head
that another process made stale never gives a wrong answer — reads catch up, a stale
``expected_version`` is a conflict naming the true version, idempotency keys are honoured
whichever process stored them, and undo works on events another process appended.

They run on PostgreSQL (the deployment this is for; a fresh database per test) and on one
SQLite file with ``ANNALES_SHARED=1`` semantics (``StoreConfig(shared=True)``), which runs the
same code paths without a database server. Real-server tests are in ``test_multiserver.py``.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from domain.bots import make_bot
from domain.core import Undo
from domain.core.game import Command
from service.app.application import GameService
from service.app.errors import IdempotencyKeyReused, RuleRejected, VersionConflict
from service.audit.records import export_lines, verify_record
from service.store.config import StoreConfig
from service.store.eventstore import EventStore
from tests.harness import state_bytes
from tests.pg import pg_config

__all__ = ["pg_config"]


@pytest.fixture(params=[pytest.param("postgres", marks=pytest.mark.postgres), "sqlite-shared"])
def shared_config(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StoreConfig]:
    """A store several processes share: a fresh PostgreSQL database, or an SQLite file with
    ``shared=True``."""
    if request.param == "postgres":
        config: StoreConfig = request.getfixturevalue("pg_config")
        yield config
    else:
        yield StoreConfig(kind="sqlite", path=str(tmp_path / "shared.db"), shared=True)


@pytest.fixture
def services(shared_config: StoreConfig) -> Iterator[list[GameService]]:
    """Three applications ("servers") on one store, each with its own connection and cache."""
    opened = [GameService(EventStore(shared_config)) for _ in range(3)]
    yield opened
    for service in opened:
        service.store.close()


def _next(service: GameService, game_id: str, bot_seed: bytes) -> tuple[int, Command, int]:
    """``(seat, command, version)`` a random bot would play now (read through ``service``)."""
    match = service.head(game_id)
    game = match.game
    seat = game.pending(match.state).seats[0]
    return seat, make_bot("random", bot_seed).choose(game, match.state, seat), match.version


def test_reads_catch_up_with_writes_made_elsewhere(services: list[GameService]) -> None:
    """A server whose cache is stale reads the head another server moved on (and within one
    request scope checks the store once)."""
    a, b, _ = services
    game_id = a.create_game("riseandfall", {}, ["a", "b"], b"catch-up").game_id
    assert b.head(game_id).version == a.head(game_id).version  # b caches it now
    for step in range(5):
        seat, command, version = _next(a, game_id, bytes([step]))
        a.submit(game_id, seat, command, expected_version=version)
    fresh = a.head(game_id)
    seen = b.head(game_id)
    assert seen.version == fresh.version
    assert state_bytes(seen.game, seen.state) == state_bytes(fresh.game, fresh.state)
    with b.request_scope():
        before = b.head(game_id).version
        seat, command, version = _next(a, game_id, b"scoped")
        a.submit(game_id, seat, command, expected_version=version)
        assert b.head(game_id).version == before  # checked once per scope
        b.reach(game_id, before + 1)  # ... unless asked to reach a version it has not seen
        assert b.head(game_id).version == a.head(game_id).version


def test_stale_expected_version_conflicts_with_the_true_version(
    services: list[GameService],
) -> None:
    """Commands for one game through different servers serialise: the loser of a race gets a
    conflict naming the current version and nothing is applied; the right version succeeds
    even on a server whose cache was stale."""
    a, b, c = services
    game_id = a.create_game("riseandfall", {}, ["a", "b", "c"], b"serialise").game_id
    for service in services:
        service.head(game_id)
    seat, command, version = _next(a, game_id, b"1")
    a.submit(game_id, seat, command, expected_version=version)
    with pytest.raises(VersionConflict) as conflict:
        b.submit(game_id, seat, command, expected_version=version)
    current = a.head(game_id).version
    assert conflict.value.current_version == current
    assert b.store.last_seq(game_id) == current
    # c never saw the new version, but the client's version is right: accepted
    seat, command, version = _next(a, game_id, b"2")
    result = c.submit(game_id, seat, command, expected_version=version)
    assert result.envelopes[0].seq == version + 1
    events = a.events(game_id)
    assert [e.seq for e in events] == list(range(1, len(events) + 1))


def test_command_without_version_is_redecided_on_the_fresh_head(
    services: list[GameService],
) -> None:
    """Without ``expected_version`` a command applies to whatever is current: a stale server
    re-decides it on the head another server stored, and appends contiguously."""
    a, b, _ = services
    game_id = a.create_game("riseandfall", {}, ["a", "b"], b"redecide").game_id
    b.head(game_id)
    seat, command, _ = _next(a, game_id, b"x")
    a.submit(game_id, seat, command)
    seat, command, version = _next(a, game_id, b"y")
    result = b.submit(game_id, seat, command)  # b was stale
    assert result.envelopes[0].seq == version + 1
    assert b.head(game_id).version == a.store.last_seq(game_id)


def test_idempotency_keys_are_honoured_across_servers(services: list[GameService]) -> None:
    """A retry through another server returns the first result and appends nothing; the same
    key with another command is refused (IdempotencyKeyReused), on a stale cache too."""
    a, b, c = services
    game_id = a.create_game("riseandfall", {}, ["a", "b"], b"idem").game_id
    b.head(game_id)
    c.head(game_id)
    seat, command, version = _next(a, game_id, b"k")
    first = a.submit(game_id, seat, command, version, "key-1")
    last = a.store.last_seq(game_id)
    again = b.submit(game_id, seat, command, version, "key-1")
    assert again.duplicate and again.version == first.version
    assert [e.hash for e in again.envelopes] == [e.hash for e in first.envelopes]
    again = c.submit(game_id, seat, command, None, "key-1")
    assert again.duplicate and again.version == first.version
    with pytest.raises(IdempotencyKeyReused):  # the same command, but for the other seat
        c.submit(game_id, 1 - seat, command, None, "key-1")
    assert a.store.last_seq(game_id) == last
    match = a.head(game_id)
    other_seat = match.game.pending(match.state).seats[0]
    other_version = match.version
    other = next(c for c in match.game.legal_actions(match.state, other_seat) if c != command)
    fresh = GameService(EventStore(a.store.config))
    try:
        for service in (b, fresh):
            with pytest.raises(IdempotencyKeyReused):
                service.submit(game_id, other_seat, other, other_version, "key-1")
    finally:
        fresh.store.close()
    assert a.store.last_seq(game_id) == last


def _alternate(services: list[GameService], max_commands: int) -> None:
    """Play a seeded game, each command through the next server (stale caches everywhere),
    with undos through yet another; then check contiguous versions, every head equal to a
    fresh replay, and the exported record (hash chain; re-execution once the game is over)."""
    game_id = services[0].create_game("riseandfall", {}, ["a", "b"], b"alternate").game_id
    bots = {i: make_bot("random", b"alt" + bytes([i])) for i in range(2)}
    undos = 0
    for step in range(max_commands):
        service = services[step % 3]
        match = service.head(game_id)
        game = match.game
        if game.is_over(match.state):
            break
        seat = game.pending(match.state).seats[0]
        command = bots[seat].choose(game, match.state, seat)
        service.submit(game_id, seat, command, match.version, f"k{step}")
        if step % 7 == 3:  # undo through another, stale, server
            undoer = services[(step + 1) % 3]
            try:
                undoer.submit(game_id, seat, Undo(), None, f"u{step}")
                undos += 1
            except RuleRejected:
                pass
    assert undos > 0
    events = services[0].events(game_id)
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    cold = GameService(EventStore(dataclasses.replace(services[0].store.config)))
    try:
        replayed = cold.materialise(game_id).match
    finally:
        cold.store.close()
    for service in services:
        head = service.head(game_id)
        assert head.version == replayed.version
        assert state_bytes(head.game, head.state) == state_bytes(replayed.game, replayed.state)
    lines = export_lines(events, lambda e: services[1].decode(game_id, e))
    report = verify_record(line + b"\n" for line in lines)
    assert report.ok, report.message
    over = replayed.game.is_over(replayed.state)
    assert report.reexecuted == over


def test_a_game_played_through_alternating_servers(services: list[GameService]) -> None:
    """200 commands of a game, each through the next server, undos through another."""
    _alternate(services, 200)


@pytest.mark.long
def test_a_whole_game_played_through_alternating_servers(services: list[GameService]) -> None:
    """A whole game through alternating servers; its record re-executes from the seed."""
    _alternate(services, 100_000)


def test_concurrent_writers_on_one_game(shared_config: StoreConfig) -> None:
    """Six threads, two per "server", race on one game with versions they just read: every
    acknowledged command is stored exactly once, versions stay contiguous, and every failure
    is a typed conflict or a rule refusal of a now-stale choice."""
    servers = [GameService(EventStore(shared_config)) for _ in range(3)]
    try:
        game_id = servers[0].create_game("riseandfall", {}, ["a", "b", "c"], b"race").game_id
        acked: list[tuple[str, int, int]] = []
        failures: list[BaseException] = []
        guard = threading.Lock()

        def worker(index: int) -> None:
            service = servers[index % 3]
            bot = make_bot("random", b"race" + bytes([index]))
            for step in range(25):
                key = f"w{index}-{step}"
                try:
                    match = service.head(game_id)
                    with service.lock(game_id):
                        game = match.game
                        if game.is_over(match.state):
                            return
                        seat = game.pending(match.state).seats[0]
                        command = bot.choose(game, match.state, seat)
                        version = match.version
                    result = service.submit(game_id, seat, command, version, key)
                except (VersionConflict, RuleRejected):
                    continue
                except BaseException as error:  # reported below
                    with guard:
                        failures.append(error)
                    return
                with guard:
                    acked.append((key, result.envelopes[0].seq, result.version))

        threads = [threading.Thread(target=worker, args=(i,)) for i in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert not failures, failures
        assert len(acked) > 10
        events = servers[0].events(game_id)
        assert [e.seq for e in events] == list(range(1, len(events) + 1))
        by_seq = {e.seq: e for e in events}
        for key, first, last in acked:
            assert by_seq[first].idempotency_key == key
            assert all(
                by_seq[s].command_id == by_seq[first].command_id for s in range(first, last + 1)
            )
        keys = [e.idempotency_key for e in events if e.idempotency_key is not None]
        assert len(keys) == len(set(keys)) == len(acked)
    finally:
        for service in servers:
            service.store.close()
