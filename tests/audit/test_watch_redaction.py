"""Redaction as of each event's own version.

A watcher that lags receives a batch of events after the sealed choices in it were revealed;
each event is still redacted as of its own version (the state right after it), so the batch
is byte-for-byte what GetHistory answers — at any time, for any page size — and what a live
watcher got when the events were new.
"""

from __future__ import annotations

import threading

from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc

from tests.api.helpers import Driver, advance_to, create_game, history


def _stream(stub: annales_pb2_grpc.GameServiceStub, game_id: str, upto: list[int],
            into: list[pb.GameEvent]) -> None:  # fmt: skip
    for answer in stub.WatchGame(pb.WatchGameRequest(game_id=game_id, after_version=0)):
        into.extend(answer.events)
        if answer.version >= upto[0]:
            return


def test_lagging_watcher_gets_events_redacted_as_of_their_own_version(
    stub: annales_pb2_grpc.GameServiceStub,
) -> None:
    """Sealed choices of a round, then their reveal: a spectator watching from version 0 only
    now gets the choices still hidden (their own version), equal to GetHistory's bytes
    before and after, and to what a watcher saw live."""
    game = create_game(stub, 3)
    driver = Driver(stub, game, bot_seed=b"lag")
    live: list[pb.GameEvent] = []
    advance_to(driver, "choose_card")
    target = driver.version
    before = history(stub, game.game_id)  # the choices are not made yet
    until = [10**9]
    watcher = threading.Thread(target=_stream, args=(stub, game.game_id, until, live))
    watcher.start()  # live: receives the choices as they are made
    # every seat chooses: sealed, then revealed together
    while True:
        legal = stub.ListLegalActions(
            pb.ListLegalActionsRequest(game_id=game.game_id), metadata=game.md(0)
        )
        if legal.pending.decision != "choose_card":
            break
        assert driver.play_one()
    revealed_at = driver.version
    lagging: list[pb.GameEvent] = []
    _stream(stub, game.game_id, [revealed_at], lagging)  # one batch, long after the fact
    sealed = [e for e in lagging[target:] if e.redacted]
    assert sealed, "a spectator never sees another seat's sealed choice at its own version"
    page_by_page = history(stub, game.game_id, page_size=3)
    assert [e.SerializeToString() for e in lagging] == [
        e.SerializeToString() for e in page_by_page[: len(lagging)]
    ]
    # the same request later, after more play, yields the same bytes for the same events
    until[0] = revealed_at
    driver.play(max_steps=5)
    watcher.join(60)
    assert not watcher.is_alive()
    assert [e.SerializeToString() for e in live[: len(lagging)]] == [
        e.SerializeToString() for e in lagging
    ]
    again = history(stub, game.game_id)
    assert [e.SerializeToString() for e in again[: len(before)]] == [
        e.SerializeToString() for e in before
    ]
    assert [e.SerializeToString() for e in again[: len(lagging)]] == [
        e.SerializeToString() for e in lagging
    ]
