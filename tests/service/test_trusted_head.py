"""A command decided on a cached head that was not read back first (``trust_cached_head``).

Two applications on one fresh PostgreSQL database, as two servers: ``stale`` caches a game,
``rival`` plays on, then ``stale`` trusts its cached head (no read of the store, as a
SubmitAction does when no newer commit was heard of) and submits. The append is the check: the
store refuses the sequence number ``rival`` took, and the command is judged again on the stored
head. Each test ends with one contiguous log whose fold equals a fresh replay.
"""

from __future__ import annotations

import pytest

from domain.bots import make_bot
from service.app.application import GameService
from service.app.errors import VersionConflict
from service.store.config import StoreConfig
from service.store.eventstore import EventStore
from tests.harness import state_bytes
from tests.pg import pg_config

__all__ = ["pg_config"]

pytestmark = pytest.mark.postgres


def _play(service: GameService, game_id: str, commands: int, name: str) -> None:
    """``commands`` random-bot commands through ``service`` (reading its head first)."""
    bot = make_bot("random", name.encode())
    for _ in range(commands):
        match = service.head(game_id)
        seat = match.game.pending(match.state).seats[0]
        service.submit(game_id, seat, bot.choose(match.game, match.state, seat), match.version)


def _next(service: GameService, game_id: str) -> tuple[int, object, int]:
    """A legal next command on the stored head (read through ``service``)."""
    match = service.head(game_id)
    seat = match.game.pending(match.state).seats[0]
    command = make_bot("random", b"next").choose(match.game, match.state, seat)
    return seat, command, match.version


def _check_log(pg_config: StoreConfig, game_id: str) -> None:
    """One contiguous log, and the fold of a fresh application equals a full replay."""
    fresh = GameService(EventStore(pg_config))
    try:
        envelopes = fresh.events(game_id)
        assert [e.seq for e in envelopes] == list(range(1, len(envelopes) + 1))
        head = fresh.head(game_id)
        replayed = fresh.materialise(game_id, head.version).match
        assert state_bytes(head.game, head.state) == state_bytes(head.game, replayed.state)
    finally:
        fresh.store.close()


@pytest.mark.parametrize("expected", ["stale", "current", "none"])
def test_a_trusted_stale_head_never_stores_a_command_decided_on_it(
    pg_config: StoreConfig, expected: str
) -> None:
    """Expected version as cached (stale): VersionConflict naming the stored version, nothing
    stored; the stored version: accepted right after it; none: re-decided on the stored head
    and stored right after it."""
    stale = GameService(EventStore(pg_config))
    rival = GameService(EventStore(pg_config))
    try:
        game_id = stale.create_game("riseandfall", {}, ["a", "b", "c"], b"trusted").game_id
        _play(stale, game_id, 4, "first")
        cached = stale.head(game_id).version
        rival.head(game_id)
        _play(rival, game_id, 3, "rival")
        seat, command, stored = _next(rival, game_id)
        assert stored > cached

        with stale.request_scope():
            stale.trust_cached_head(game_id, 0)  # nothing heard: the cached head is taken
            assert stale.head(game_id).version == cached  # not read back
            if expected == "stale":
                with pytest.raises(VersionConflict) as refused:
                    stale.submit(game_id, seat, command, cached)  # type: ignore[arg-type]
                assert refused.value.current_version == stored
                assert stale.store.last_seq(game_id) == stored
            else:
                version = stored if expected == "current" else None
                result = stale.submit(game_id, seat, command, version)  # type: ignore[arg-type]
                assert result.envelopes[0].seq == stored + 1
                assert stale.head(game_id).version == result.version
        _check_log(pg_config, game_id)
    finally:
        stale.store.close()
        rival.store.close()


def test_a_game_seen_moving_elsewhere_is_never_taken_on_trust(pg_config: StoreConfig) -> None:
    """Once a catch-up found another process's events for a game (here: the conflict of a
    trusted append), the next command's head is read back first even with nothing heard."""
    stale = GameService(EventStore(pg_config))
    rival = GameService(EventStore(pg_config))
    try:
        game_id = stale.create_game("riseandfall", {}, ["a", "b"], b"elsewhere").game_id
        rival.head(game_id)
        _play(rival, game_id, 1, "rival-1")
        seat, command, stored = _next(rival, game_id)
        with stale.request_scope():
            stale.trust_cached_head(game_id, 0)
            stale.submit(game_id, seat, command, stored)  # type: ignore[arg-type]
        _play(rival, game_id, 2, "rival-2")
        stored = rival.head(game_id).version
        with stale.request_scope():
            stale.trust_cached_head(game_id, 0)
            assert stale.head(game_id).version == stored  # read back, not trusted
        _check_log(pg_config, game_id)
    finally:
        stale.store.close()
        rival.store.close()


def test_a_newer_commit_heard_of_means_the_head_is_read_back(pg_config: StoreConfig) -> None:
    """When the newest version heard of is past the cached head, the head is not trusted:
    the request's first read catches it up (the command then appends without a conflict)."""
    stale = GameService(EventStore(pg_config))
    rival = GameService(EventStore(pg_config))
    try:
        game_id = stale.create_game("riseandfall", {}, ["a", "b"], b"heard").game_id
        cached = stale.head(game_id).version
        rival.head(game_id)
        _play(rival, game_id, 2, "rival")
        stored = rival.head(game_id).version
        with stale.request_scope():
            stale.trust_cached_head(game_id, stored)
            assert stale.head(game_id).version == stored > cached
        _check_log(pg_config, game_id)
    finally:
        stale.store.close()
        rival.store.close()
