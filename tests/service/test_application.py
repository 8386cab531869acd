"""The application layer on a real SQLite file: versions, idempotency, time travel, undo.

Issue "Foundation", item 4 (store and application) and item 5 (undo through the service).
"""

from __future__ import annotations

import msgspec
import pytest

from domain.bots import make_bot
from domain.core import Undo
from service.app.application import GameService
from service.app.autoplay import play_with_bots
from service.app.errors import (
    GameNotFound,
    IdempotencyKeyReused,
    InvalidArgument,
    RuleRejected,
    VersionConflict,
)
from service.store.eventstore import EventStore
from tests.harness import state_bytes


def _new(service: GameService, seats: int = 3, seed: bytes = b"app") -> str:
    return service.create_game("riseandfall", {}, [f"p{i}" for i in range(seats)], seed).game_id


def _first_legal(service: GameService, game_id: str) -> tuple[int, object]:
    match = service.head(game_id)
    seat = match.game.pending(match.state).seats[0]
    return seat, match.game.legal_actions(match.state, seat)[0]


def test_stale_version_is_a_conflict_and_changes_nothing(service: GameService) -> None:
    """A stale expected version is rejected as a conflict, never applied."""
    game_id = _new(service)
    version = service.head(game_id).version
    seat, command = _first_legal(service, game_id)
    with pytest.raises(VersionConflict) as err:
        service.submit(game_id, seat, command, expected_version=version - 1)  # type: ignore[arg-type]
    assert err.value.current_version == version
    assert service.store.last_seq(game_id) == version
    result = service.submit(game_id, seat, command, expected_version=version)  # type: ignore[arg-type]
    assert result.version > version


def test_idempotent_retry_returns_first_result(service: GameService) -> None:
    """A retried idempotency key appends nothing and returns the first result."""
    game_id = _new(service)
    seat, command = _first_legal(service, game_id)
    first = service.submit(game_id, seat, command, idempotency_key="k1")  # type: ignore[arg-type]
    stored = service.store.last_seq(game_id)
    again = service.submit(game_id, seat, command, idempotency_key="k1")  # type: ignore[arg-type]
    assert again.duplicate and again.version == first.version
    assert [e.hash for e in again.envelopes] == [e.hash for e in first.envelopes]
    assert service.store.last_seq(game_id) == stored
    # a fresh application (empty cache) on the same file knows the key too
    fresh = GameService(service.store)
    third = fresh.submit(game_id, seat, command, idempotency_key="k1")  # type: ignore[arg-type]
    assert third.duplicate and [e.hash for e in third.envelopes] == [
        e.hash for e in first.envelopes
    ]
    other_seat, other = _first_legal(service, game_id)
    if msgspec.msgpack.encode(other) != msgspec.msgpack.encode(command):
        with pytest.raises(IdempotencyKeyReused):
            service.submit(game_id, other_seat, other, idempotency_key="k1")  # type: ignore[arg-type]


def test_bad_input_is_typed_and_changes_nothing(service: GameService) -> None:
    """Unknown command types, wrong seat, out-of-turn and malformed payloads are rejected."""
    game_id = _new(service)
    version = service.store.last_seq(game_id)
    with pytest.raises(InvalidArgument):
        service.parse_command(game_id, {"type": "LaunchRocket"})
    with pytest.raises(InvalidArgument):
        service.parse_command(game_id, {"type": "Undo", "unexpected": [1, 2]})
    with pytest.raises(InvalidArgument):
        service.parse_command(game_id, "not a command")
    _seat, command = _first_legal(service, game_id)
    with pytest.raises(InvalidArgument):
        service.submit(game_id, 9, command)  # type: ignore[arg-type]
    match = service.head(game_id)
    waiting = [s for s in range(3) if s not in match.game.pending(match.state).seats]
    if waiting:
        with pytest.raises(RuleRejected):
            service.submit(game_id, waiting[0], command)  # type: ignore[arg-type]
    with pytest.raises(GameNotFound):
        service.submit("no-such-game", 0, command)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument):
        service.create_game("chess", {}, ["a", "b"])
    with pytest.raises(InvalidArgument):
        service.create_game("riseandfall", {}, ["only one"])
    with pytest.raises(InvalidArgument):
        service.create_game("riseandfall", {"trophies": "many"}, ["a", "b"])
    assert service.store.last_seq(game_id) == version


def _finished_game(service: GameService, seed: bytes = b"full") -> str:
    game_id = _new(service, seats=3, seed=seed)
    bots = {i: make_bot("random", seed + bytes([i])) for i in range(3)}
    play_with_bots(service, game_id, bots)
    assert service.head(game_id).game.is_over(service.head(game_id).state)
    return game_id


def test_any_version_materialises_like_a_fresh_fold(
    service: GameService, store: EventStore
) -> None:
    """Reading any past version equals folding the events up to it; snapshots are a cache."""
    game_id = _finished_game(service)
    head = service.head(game_id)
    game = head.game
    last = head.version
    versions = sorted({1, 2, last // 3, last // 2, last - 1, last})
    with_snapshots = {
        v: state_bytes(game, service.materialise(game_id, v).match.state) for v in versions
    }
    assert with_snapshots[last] == state_bytes(game, head.state)
    store.delete_snapshots()
    cold = GameService(store)
    for version in versions:
        assert (
            state_bytes(game, cold.materialise(game_id, version).match.state)
            == with_snapshots[version]
        )


def test_undo_through_the_service_restores_the_earlier_state(service: GameService) -> None:
    """Undo is an appended event; the state equals the state at the target version."""
    game_id = _new(service, seats=2, seed=b"undo")
    bots = {i: make_bot("random", b"u" + bytes([i])) for i in range(2)}
    undone = 0
    for _ in range(400):
        match = service.head(game_id)
        game = match.game
        if game.is_over(match.state):
            break
        seat = game.pending(match.state).seats[0]
        before = state_bytes(game, match.state)
        version = match.version
        service.submit(game_id, seat, bots[seat].choose(game, match.state, seat))
        try:
            result = service.submit(game_id, seat, Undo())
        except RuleRejected:
            continue
        undone += 1
        assert state_bytes(game, service.head(game_id).state) == before
        assert result.version > version  # appended, never deleted
        assert service.store.read(game_id, after=version, upto=version + 1)
    assert undone > 0
