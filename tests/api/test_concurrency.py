"""Concurrent commands on one game: optimistic concurrency and idempotency over gRPC.

Issue "Public gRPC API, seat security, live streams" — requirements: optimistic concurrency
on (game, sequence) — a stale ``expected_version`` is ABORTED with reason VERSION_CONFLICT and
the ``current_version``; idempotency keys — a retried command appends nothing and returns the
first result; versions stay contiguous with no duplicate events.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import grpc
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc

from tests.api.conftest import ServerProcess
from tests.api.helpers import Driver, Failure, create_game, expect_error, failure, history

CLIENTS = 16
ROUNDS = 6


def _race(
    server: ServerProcess, count: int, call: Callable[[annales_pb2_grpc.GameServiceStub, int], Any]
) -> list[Any]:
    """Run ``call(stub, i)`` in ``count`` threads, each on its own channel, released together;
    the answers (or ``Failure``s), by thread."""
    channels = [server.channel() for _ in range(count)]
    stubs = [annales_pb2_grpc.GameServiceStub(c) for c in channels]
    for channel in channels:  # connect first, so that the race is on the server
        grpc.channel_ready_future(channel).result(timeout=10)
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count

    def run(index: int) -> None:
        barrier.wait()
        try:
            results[index] = call(stubs[index], index)
        except grpc.RpcError as error:
            results[index] = failure(error)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    for channel in channels:
        channel.close()
    return results


def test_racing_submits_one_winner_per_version(
    stub: annales_pb2_grpc.GameServiceStub, server: ServerProcess
) -> None:
    """16 clients (own channels) race SubmitAction with the same legal action at the same
    expected version and different idempotency keys: exactly one succeeds per version, the
    others are ABORTED / VERSION_CONFLICT with ``current_version`` = the winner's version;
    repeated over several versions; the log stays contiguous without duplicates; a retried key
    returns the first result (duplicate, same events, version unchanged)."""
    game = create_game(stub, 3)
    winners: list[tuple[str, pb.SubmitActionRequest, pb.SubmitActionResponse, int]] = []
    for round_index in range(ROUNDS):
        head = stub.GetGame(pb.GetGameRequest(game_id=game.game_id)).game
        seat = head.pending.seats[0]
        legal = stub.ListLegalActions(
            pb.ListLegalActionsRequest(game_id=game.game_id), metadata=game.md(seat)
        )
        assert legal.version == head.version
        action = legal.actions[0]

        def submit(
            client: annales_pb2_grpc.GameServiceStub,
            index: int,
            version: int = legal.version,
            seat: int = seat,
            action: pb.Action = action,
            tag: int = round_index,
        ) -> Any:
            request = pb.SubmitActionRequest(
                game_id=game.game_id,
                action=action,
                expected_version=version,
                idempotency_key=f"race-{tag}-{index}",
            )
            return request, client.SubmitAction(request, metadata=game.md(seat))

        results = _race(server, CLIENTS, submit)
        successes = [(i, r) for i, r in enumerate(results) if not isinstance(r, Failure)]
        failures = [r for r in results if isinstance(r, Failure)]
        assert len(successes) == 1, [r for r in results if isinstance(r, Failure)][:3]
        _index, (request, answer) = successes[0]
        assert not answer.duplicate
        assert answer.version > legal.version
        for lost in failures:
            assert lost.code == grpc.StatusCode.ABORTED, lost
            assert lost.reason == "VERSION_CONFLICT", lost
            assert lost.domain == "annales.v1"
            assert lost.metadata.get("current_version") == str(answer.version), lost
        winners.append((request.idempotency_key, request, answer, seat))

    # the log: contiguous, no duplicates, exactly the winners' events after setup
    events = history(stub, game.game_id)
    seqs = [e.seq for e in events]
    assert seqs == list(range(1, len(events) + 1))
    assert len({e.hash for e in events}) == len(events)
    won = [e.seq for _, _, answer, _ in winners for e in answer.events]
    assert won == list(range(game.version + 1, len(events) + 1))
    head = stub.GetGame(pb.GetGameRequest(game_id=game.game_id)).game.head_version
    assert head == len(events)

    # retries of winning keys (even at their now stale expected version) replay the first result
    for _key, request, answer, seat in winners:
        again = stub.SubmitAction(request, metadata=game.md(seat))
        assert again.duplicate
        assert again.version == answer.version
        assert [(e.seq, e.hash) for e in again.events] == [(e.seq, e.hash) for e in answer.events]
    assert stub.GetGame(pb.GetGameRequest(game_id=game.game_id)).game.head_version == head
    assert len(history(stub, game.game_id)) == len(events)

    # a losing key was never applied: retrying it now conflicts again, nothing is appended
    _, request, _, seat = winners[-1]
    loser = pb.SubmitActionRequest()
    loser.CopyFrom(request)
    loser.idempotency_key = request.idempotency_key + "-never-won"
    lost = expect_error(stub.SubmitAction, loser, metadata=game.md(seat))
    assert lost.code == grpc.StatusCode.ABORTED and lost.reason == "VERSION_CONFLICT"
    # the same key with a different command is refused
    other = stub.ListLegalActions(
        pb.ListLegalActionsRequest(game_id=game.game_id), metadata=game.md(seat)
    )
    if other.actions:
        reuse = pb.SubmitActionRequest(
            game_id=game.game_id, action=other.actions[-1], idempotency_key=winners[0][0]
        )
        if reuse.action != winners[0][1].action:
            refused = expect_error(stub.SubmitAction, reuse, metadata=game.md(seat))
            assert refused.code == grpc.StatusCode.INVALID_ARGUMENT
            assert refused.reason == "IDEMPOTENCY_KEY_REUSED"
    assert stub.GetGame(pb.GetGameRequest(game_id=game.game_id)).game.head_version == head


def test_racing_same_key_applies_once(
    stub: annales_pb2_grpc.GameServiceStub, server: ServerProcess
) -> None:
    """16 clients retry the *same* request (same idempotency key) at once: the command is
    applied once; every answer carries the same events and version (one first result, the
    rest duplicates)."""
    game = create_game(stub, 3)
    head = stub.GetGame(pb.GetGameRequest(game_id=game.game_id)).game
    seat = head.pending.seats[0]
    legal = stub.ListLegalActions(
        pb.ListLegalActionsRequest(game_id=game.game_id), metadata=game.md(seat)
    )
    request = pb.SubmitActionRequest(
        game_id=game.game_id,
        action=legal.actions[0],
        expected_version=legal.version,
        idempotency_key="same-key-for-everyone",
    )

    def submit(client: annales_pb2_grpc.GameServiceStub, index: int) -> Any:
        return client.SubmitAction(request, metadata=game.md(seat))

    results = _race(server, CLIENTS, submit)
    assert not [r for r in results if isinstance(r, Failure)]
    assert sum(not r.duplicate for r in results) == 1
    first = next(r for r in results if not r.duplicate)
    for answer in results:
        assert answer.version == first.version
        assert [e.hash for e in answer.events] == [e.hash for e in first.events]
    assert len(history(stub, game.game_id)) == first.version


def test_concurrent_games_progress_independently(
    stub: annales_pb2_grpc.GameServiceStub, server: ServerProcess
) -> None:
    """Several games played at once by their own threads (own channels) all advance with
    contiguous logs: the per-game lock serialises commands of one game only."""
    games = [create_game(stub, 2) for _ in range(4)]
    steps = 40

    def play(client: annales_pb2_grpc.GameServiceStub, index: int) -> Any:
        driver = Driver(client, games[index], f"parallel-{index}".encode())
        return driver.play(max_steps=steps)

    results = _race(server, len(games), play)
    assert results == [steps] * len(games)
    for game in games:
        events = history(stub, game.game_id)
        assert [e.seq for e in events] == list(range(1, len(events) + 1))
