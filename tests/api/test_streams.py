"""WatchGame: live, resumable, batched streams that end with the game.

Issue "Public gRPC API, seat security, live streams" — requirements: watchers get every event
exactly once and in order, resuming after a disconnect from the last seq received; the events
committed together (one command) arrive in one message; the stream ends after the game's
final event; events are announced only once durable (a streamed event is in the history).
"""

from __future__ import annotations

import queue
import threading
from typing import Any

import grpc
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc

from tests.api.helpers import Driver, create_game, expect_error, failure, history

TIMEOUT = 30.0


class Reader:
    """Reads a WatchGame call in a thread; ``items`` receives messages, then ``None`` (ended
    cleanly) or a ``Failure``."""

    def __init__(self, call: Any) -> None:
        self.call = call
        self.items: queue.Queue[Any] = queue.Queue()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            for message in self.call:
                self.items.put(message)
            self.items.put(None)
        except grpc.RpcError as error:
            self.items.put(failure(error))

    def until(self, version: int) -> list[pb.WatchGameResponse]:
        """Messages until one reaches ``version``."""
        got: list[pb.WatchGameResponse] = []
        while not got or got[-1].version < version:
            item = self.items.get(timeout=TIMEOUT)
            assert isinstance(item, pb.WatchGameResponse), item
            got.append(item)
        return got

    def rest(self) -> tuple[list[pb.WatchGameResponse], Any]:
        """Every remaining message and how the stream ended."""
        got: list[pb.WatchGameResponse] = []
        while True:
            item = self.items.get(timeout=TIMEOUT)
            if not isinstance(item, pb.WatchGameResponse):
                return got, item
            got.append(item)


def test_watch_resume_batches_and_end(stub: annales_pb2_grpc.GameServiceStub) -> None:
    """A spectator and a seat watch a whole game; the spectator disconnects mid-game
    (cancels) and resumes from its last seq. Every event arrives exactly once, in order, seq
    contiguous; each command's events arrive together in one message; messages carry the
    version after their events; the stream ends cleanly after the final event (SeedRevealed).
    A watcher arriving after the end gets the whole game and the end; from the final version,
    just the end."""
    game = create_game(stub, 2)
    spectator = Reader(stub.WatchGame(pb.WatchGameRequest(game_id=game.game_id)))
    seat_watch = Reader(
        stub.WatchGame(pb.WatchGameRequest(game_id=game.game_id), metadata=game.md(1))
    )
    driver = Driver(stub, game, b"stream-bots")
    boundaries = {game.version}
    received: list[pb.WatchGameResponse] = spectator.until(game.version)

    def step(d: Driver) -> None:
        boundaries.add(d.version)
        received.extend(spectator.until(d.version))  # in lock-step: one message per command

    driver.play(max_steps=120, after=step)
    # disconnect mid-game, let the game go on, resume from the last seq received
    spectator.call.cancel()
    _, how = spectator.rest()
    assert getattr(how, "code", None) == grpc.StatusCode.CANCELLED, how
    last = received[-1].events[-1].seq
    driver.play(max_steps=150, after=lambda d: boundaries.add(d.version))
    resumed = Reader(stub.WatchGame(pb.WatchGameRequest(game_id=game.game_id, after_version=last)))
    driver.play(after=lambda d: boundaries.add(d.version))
    tail, how = resumed.rest()
    assert how is None, f"the stream must end cleanly after the final event, not {how}"
    seat_messages, seat_how = seat_watch.rest()
    assert seat_how is None

    final = history(stub, game.game_id)
    everything = [e for m in received + tail for e in m.events]
    assert [e.seq for e in everything] == list(range(1, len(final) + 1)), "once, in order"
    assert [e.hash for e in everything] == [e.hash for e in final]
    assert everything[-1].kind == "SeedRevealed"
    for message in received + tail + seat_messages:
        assert message.events, "no empty messages"
        assert message.version == message.events[-1].seq
        assert message.events[-1].seq in boundaries, (
            f"message ending at {message.events[-1].seq} splits a command's events"
        )
    # in lock-step, every message is exactly one command's batch (several events together)
    sizes = [len(m.events) for m in received]
    assert max(sizes) > 1
    batches = sorted(boundaries)
    expected = [b - a for a, b in zip([0, *batches], batches, strict=False)]
    assert sizes == expected[: len(sizes)]
    seat_events = [e for m in seat_messages for e in m.events]
    assert [e.seq for e in seat_events] == list(range(1, len(final) + 1))

    # after the end: from 0, the whole game then the end; from the final version, the end
    late = list(stub.WatchGame(pb.WatchGameRequest(game_id=game.game_id), timeout=TIMEOUT))
    assert [e.hash for m in late for e in m.events] == [e.hash for e in final]
    assert (
        list(
            stub.WatchGame(
                pb.WatchGameRequest(game_id=game.game_id, after_version=len(final)), timeout=TIMEOUT
            )
        )
        == []
    )


def test_watch_bad_requests(stub: annales_pb2_grpc.GameServiceStub) -> None:
    """An unknown game is NOT_FOUND and a negative ``after_version`` INVALID_ARGUMENT, both
    with an ErrorInfo reason (the stream fails before sending anything)."""
    game = create_game(stub, 2)
    missing = expect_error(
        lambda: list(stub.WatchGame(pb.WatchGameRequest(game_id="no-such-game"), timeout=TIMEOUT))
    )
    assert (missing.code, missing.reason) == (grpc.StatusCode.NOT_FOUND, "GAME_NOT_FOUND")
    negative = expect_error(
        lambda: list(
            stub.WatchGame(
                pb.WatchGameRequest(game_id=game.game_id, after_version=-1), timeout=TIMEOUT
            )
        )
    )
    assert (negative.code, negative.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_FIELD")
