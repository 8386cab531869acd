"""Shared machinery of the bad-input tests (``test_bad_input_*.py``): the game under test, the
request builders and the check every bad request must pass.

Issue "Public gRPC API, seat security, live streams" — requirements: errors are typed gRPC
statuses carrying a ``google.rpc.ErrorInfo`` (domain ``annales.v1``) with a machine-readable
reason — INVALID_ARGUMENT (malformed), FAILED_PRECONDITION (illegal move: which rule),
ABORTED (version conflict), NOT_FOUND, UNAUTHENTICATED, PERMISSION_DENIED,
RESOURCE_EXHAUSTED (oversized); seat tokens authorise acting for a seat; bad input never
changes state and never stops the server.

Every case runs against one game in its deployment phase (a sequential step, so that a seat
acting out of turn is meaningful); after each case the game's version and history are
unchanged and the health check answers SERVING (:func:`assert_refused_cleanly`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import grpc
import pytest
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc
from annales.v1 import riseandfall_pb2 as rf
from grpc_health.v1 import health_pb2, health_pb2_grpc

from service.api.server import MAX_RECEIVE
from tests.api.conftest import ServerProcess
from tests.api.helpers import Failure, Game, auth, create_game, failure, history

BIG = MAX_RECEIVE + 1024 * 1024  # over the server's receive limit (64 MiB)


@dataclass
class World:
    """What the cases need: a stub, the game under test, another game, the pending seat."""

    stub: annales_pb2_grpc.GameServiceStub
    channel: grpc.Channel
    game: Game
    other: Game
    pending: int
    idle: int  # a seat that is not pending
    legal: pb.ListLegalActionsResponse  # the pending seat's legal actions

    def md(self, seat: int) -> Any:
        """Metadata acting for ``seat`` of the game under test."""
        return self.game.md(seat)


def open_world(server: ServerProcess) -> Iterator[World]:
    """Create the game under test (3 seats, deployment phase) and another game; yield the
    :class:`World`, then close its channel (the body of each test module's ``world`` fixture)."""
    channel = server.channel()
    stub = annales_pb2_grpc.GameServiceStub(channel)
    game = create_game(stub, 3)
    other = create_game(stub, 3)
    head = stub.GetGame(pb.GetGameRequest(game_id=game.game_id)).game
    assert head.pending.decision == "deploy", head.pending
    pending = head.pending.seats[0]
    idle = (pending + 1) % 3
    legal = stub.ListLegalActions(
        pb.ListLegalActionsRequest(game_id=game.game_id), metadata=game.md(pending)
    )
    assert legal.actions and legal.actions[0].rise_and_fall.HasField("deploy")
    yield World(stub, channel, game, other, pending, idle, legal)
    channel.close()


def rf_action(**command: Any) -> pb.Action:
    """A Rise & Fall action with ``command`` as its oneof (none: an empty command)."""
    return pb.Action(rise_and_fall=rf.RiseAndFallAction(**command))


def rf_deploy(piece: int, cell: int) -> pb.Action:
    """A Rise & Fall deploy action of ``piece`` to ``cell``."""
    return rf_action(deploy=rf.RiseAndFallDeploy(piece=piece, cell=cell))


def submit(
    w: World,
    action: pb.Action | None,
    seat: int | None = None,
    expected: int | None = None,
    key: str = "",
    md: Any = "seat",
    game_id: str | None = None,
) -> Any:
    """SubmitAction on the game under test (or ``game_id``), acting for ``seat`` (default: the
    pending seat) unless ``md`` gives other metadata."""
    request = pb.SubmitActionRequest(
        game_id=game_id if game_id is not None else w.game.game_id, idempotency_key=key
    )
    if action is not None:
        request.action.CopyFrom(action)
    if expected is not None:
        request.expected_version = expected
    metadata = w.md(w.pending if seat is None else seat) if md == "seat" else md
    return w.stub.SubmitAction(request, metadata=metadata)


def raw_call(w: World, method: str, payload: bytes, md: Any = None) -> Any:
    """Call ``method`` with raw request bytes (wrong wire types, unknown fields)."""
    call = w.channel.unary_unary(
        f"/annales.v1.GameService/{method}", request_serializer=None, response_deserializer=None
    )
    return call(payload, timeout=10, metadata=md)


def watch_all(w: World, request: pb.WatchGameRequest, md: Any = None) -> Any:
    """Every message of a WatchGame stream (it raises the stream's error status)."""
    return list(w.stub.WatchGame(request, metadata=md, timeout=10))


def forged_token(w: World) -> Any:
    """Metadata with seat 0's token of the game under test, its secret altered."""
    token = w.game.tokens[0]
    return auth(token[:-4] + ("AAAA" if not token.endswith("AAAA") else "BBBB"))


INVALID = grpc.StatusCode.INVALID_ARGUMENT
NOT_FOUND = grpc.StatusCode.NOT_FOUND
UNAUTH = grpc.StatusCode.UNAUTHENTICATED
DENIED = grpc.StatusCode.PERMISSION_DENIED
PRECONDITION = grpc.StatusCode.FAILED_PRECONDITION
ABORTED = grpc.StatusCode.ABORTED
TOO_BIG = grpc.StatusCode.RESOURCE_EXHAUSTED

#: (case id, call, expected code, expected ErrorInfo reason or None for "any non-empty").
Case = tuple[str, Callable[[World], Any], grpc.StatusCode, str | None]


def game_state(w: World) -> tuple[int, list[str]]:
    """The game under test's head version and the hashes of its history."""
    head = w.stub.GetGame(pb.GetGameRequest(game_id=w.game.game_id)).game.head_version
    return head, [e.hash for e in history(w.stub, w.game.game_id)]


def assert_refused_cleanly(
    world: World,
    server: ServerProcess,
    case: str,
    call: Callable[[World], Any],
    code: grpc.StatusCode,
    reason: str | None,
) -> None:
    """Each bad request gets its typed status and a google.rpc.ErrorInfo (domain annales.v1)
    naming the reason; the game's version and history are unchanged; the server still answers
    SERVING. (Requests over the 64 MiB limit are refused by gRPC itself before any handler
    runs: they get RESOURCE_EXHAUSTED without ErrorInfo.)"""
    before = game_state(world)
    try:
        call(world)
    except grpc.RpcError as error:
        got: Failure = failure(error)
    else:
        pytest.fail(f"{case}: the call succeeded")
    assert got.code == code, f"{case}: {got.code} {got.reason} {got.message!r}"
    over_limit = "over-limit" in case
    if not over_limit:
        assert got.domain == "annales.v1", f"{case}: no ErrorInfo ({got.code} {got.message!r})"
        assert got.reason, f"{case}: empty reason"
        if reason is not None:
            assert got.reason == reason, f"{case}: {got.reason} {got.message!r}"
        assert got.message, f"{case}: empty message"
        assert "Traceback" not in got.message
    if code == PRECONDITION:
        assert got.reason not in ("", "RULE_VIOLATION", "INTERNAL"), got  # names the rule
    assert game_state(world) == before, f"{case} changed the game"
    with grpc.insecure_channel(server.target) as channel:
        health = health_pb2_grpc.HealthStub(channel).Check(
            health_pb2.HealthCheckRequest(), timeout=5
        )
    assert health.status == health_pb2.HealthCheckResponse.SERVING
