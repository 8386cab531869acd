"""The application on the real PostgreSQL server (issue "Foundation", item 4: PostgreSQL
selected by configuration). Each test creates its own database and drops it.

When PostgreSQL is unreachable these tests are skipped with a clear message on a developer
machine, and fail when ``ANNALES_REQUIRE_POSTGRES=1`` (set by ``.ci/run``).
"""

from __future__ import annotations

import pytest

from domain.bots import make_bot
from service.app.application import GameService
from service.app.autoplay import play_with_bots
from service.app.errors import VersionConflict
from service.store.config import StoreConfig
from service.store.eventstore import EventStore
from tests.harness import state_bytes

pytestmark = pytest.mark.postgres


def test_full_game_on_postgres(pg_config: StoreConfig) -> None:
    """A whole seeded bot game through the application on PostgreSQL; replay equals head."""
    store = EventStore(pg_config)
    try:
        service = GameService(store)
        game_id = service.create_game("riseandfall", {}, ["a", "b"], b"postgres-seed").game_id
        bots = {i: make_bot("random", bytes([i])) for i in range(2)}
        play_with_bots(service, game_id, bots)
        head = service.head(game_id)
        assert head.game.is_over(head.state)
        cold = GameService(EventStore(pg_config))
        assert state_bytes(head.game, cold.materialise(game_id).match.state) == state_bytes(
            head.game, head.state
        )
        assert store.game_ids() == [game_id]
    finally:
        store.close()


def test_conflict_across_two_applications_on_postgres(pg_config: StoreConfig) -> None:
    """Two applications sharing one database: the second writer of a version gets a conflict
    naming the true current version, although its cached head was stale."""
    first = GameService(EventStore(pg_config))
    second = GameService(EventStore(pg_config))
    game_id = first.create_game("riseandfall", {}, ["a", "b"], b"pg-conflict").game_id
    match = second.head(game_id)
    version = match.version
    seat = match.game.pending(match.state).seats[0]
    command = match.game.legal_actions(match.state, seat)[0]
    first.submit(game_id, seat, command, expected_version=version)
    with pytest.raises(VersionConflict) as conflict:
        second.submit(game_id, seat, command, expected_version=version)
    assert conflict.value.current_version == first.head(game_id).version
    assert second.store.last_seq(game_id) == first.head(game_id).version
    assert second.head(game_id).version == first.head(game_id).version
