"""Bad input for every RPC: typed statuses with a machine reason, no state change, no outage.

Issue "Public gRPC API, seat security, live streams" — requirements: errors are typed gRPC
statuses carrying a ``google.rpc.ErrorInfo`` (domain ``annales.v1``) with a machine-readable
reason — INVALID_ARGUMENT (malformed), FAILED_PRECONDITION (illegal move: which rule),
ABORTED (version conflict), NOT_FOUND, UNAUTHENTICATED, PERMISSION_DENIED,
RESOURCE_EXHAUSTED (oversized); seat tokens authorise acting for a seat; bad input never
changes state and never stops the server.

Every case runs against one game in its deployment phase (a sequential step, so that a seat
acting out of turn is meaningful); after each case the game's version and history are
unchanged and the health check answers SERVING.
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
G = "game_id"


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
        return self.game.md(seat)


@pytest.fixture(scope="module")
def world(server: ServerProcess) -> Iterator[World]:
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


def _action(**command: Any) -> pb.Action:
    return pb.Action(rise_and_fall=rf.RiseAndFallAction(**command))


def _deploy(piece: int, cell: int) -> pb.Action:
    return _action(deploy=rf.RiseAndFallDeploy(piece=piece, cell=cell))


def _submit(
    w: World,
    action: pb.Action | None,
    seat: int | None = None,
    expected: int | None = None,
    key: str = "",
    md: Any = "seat",
    game_id: str | None = None,
) -> Any:
    request = pb.SubmitActionRequest(
        game_id=game_id if game_id is not None else w.game.game_id, idempotency_key=key
    )
    if action is not None:
        request.action.CopyFrom(action)
    if expected is not None:
        request.expected_version = expected
    metadata = w.md(w.pending if seat is None else seat) if md == "seat" else md
    return w.stub.SubmitAction(request, metadata=metadata)


def _raw(w: World, method: str, payload: bytes, md: Any = None) -> Any:
    """Call ``method`` with raw request bytes (wrong wire types, unknown fields)."""
    call = w.channel.unary_unary(
        f"/annales.v1.GameService/{method}", request_serializer=None, response_deserializer=None
    )
    return call(payload, timeout=10, metadata=md)


def _stream(w: World, request: pb.WatchGameRequest, md: Any = None) -> Any:
    return list(w.stub.WatchGame(request, metadata=md, timeout=10))


def _forged(w: World) -> Any:
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
CASES: list[Case] = [
    # -- CreateGame -------------------------------------------------------------------------
    (
        "create/unspecified-type",
        lambda w: w.stub.CreateGame(pb.CreateGameRequest(seat_names=["a", "b"])),
        INVALID,
        "INVALID_FIELD",
    ),
    (
        "create/unknown-type",
        lambda w: w.stub.CreateGame(pb.CreateGameRequest(game_type=99, seat_names=["a", "b"])),
        INVALID,
        "INVALID_FIELD",
    ),
    (
        "create/one-seat",
        lambda w: w.stub.CreateGame(
            pb.CreateGameRequest(game_type=pb.GAME_TYPE_RISE_AND_FALL, seat_names=["a"])
        ),
        INVALID,
        None,
    ),
    (
        "create/five-seats",
        lambda w: w.stub.CreateGame(
            pb.CreateGameRequest(game_type=pb.GAME_TYPE_RISE_AND_FALL, seat_names=list("abcde"))
        ),
        INVALID,
        None,
    ),
    (
        "create/empty-name",
        lambda w: w.stub.CreateGame(
            pb.CreateGameRequest(game_type=pb.GAME_TYPE_RISE_AND_FALL, seat_names=["a", ""])
        ),
        INVALID,
        "INVALID_FIELD",
    ),
    (
        "create/long-name",
        lambda w: w.stub.CreateGame(
            pb.CreateGameRequest(game_type=pb.GAME_TYPE_RISE_AND_FALL, seat_names=["a", "b" * 65])
        ),
        TOO_BIG,
        "TOO_LARGE",
    ),
    (
        "create/long-seed",
        lambda w: w.stub.CreateGame(
            pb.CreateGameRequest(
                game_type=pb.GAME_TYPE_RISE_AND_FALL, seat_names=["a", "b"], seed="s" * 257
            )
        ),
        TOO_BIG,
        "TOO_LARGE",
    ),
    (
        "create/negative-trophies",
        lambda w: w.stub.CreateGame(
            pb.CreateGameRequest(
                game_type=pb.GAME_TYPE_RISE_AND_FALL,
                seat_names=["a", "b"],
                options=pb.GameOptions(rise_and_fall=rf.RiseAndFallOptions(trophies=-4)),
            )
        ),
        INVALID,
        None,
    ),
    (
        "create/unknown-world-enum",
        lambda w: w.stub.CreateGame(
            pb.CreateGameRequest(
                game_type=pb.GAME_TYPE_RISE_AND_FALL,
                seat_names=["a", "b"],
                options=pb.GameOptions(rise_and_fall=rf.RiseAndFallOptions(world=42)),
            )
        ),
        INVALID,
        None,
    ),
    (
        "create/over-limit",
        lambda w: w.stub.CreateGame(
            pb.CreateGameRequest(
                game_type=pb.GAME_TYPE_RISE_AND_FALL, seat_names=["a", "b"], seed="s" * BIG
            )
        ),
        TOO_BIG,
        None,
    ),
    # -- GetGame ----------------------------------------------------------------------------
    ("get/empty-id", lambda w: w.stub.GetGame(pb.GetGameRequest()), INVALID, "INVALID_FIELD"),
    (
        "get/unknown-id",
        lambda w: w.stub.GetGame(pb.GetGameRequest(game_id="nope")),
        NOT_FOUND,
        "GAME_NOT_FOUND",
    ),
    (
        "get/long-id",
        lambda w: w.stub.GetGame(pb.GetGameRequest(game_id="x" * 129)),
        TOO_BIG,
        "TOO_LARGE",
    ),
    (
        "get/over-limit-id",
        lambda w: w.stub.GetGame(pb.GetGameRequest(game_id="x" * BIG)),
        TOO_BIG,
        None,
    ),
    (
        "get/negative-version",
        lambda w: w.stub.GetGame(pb.GetGameRequest(game_id=w.game.game_id, version=-1)),
        INVALID,
        "INVALID_FIELD",
    ),
    (
        "get/version-zero",
        lambda w: w.stub.GetGame(pb.GetGameRequest(game_id=w.game.game_id, version=0)),
        INVALID,
        "INVALID_FIELD",
    ),
    (
        "get/future-version",
        lambda w: w.stub.GetGame(pb.GetGameRequest(game_id=w.game.game_id, version=10**9)),
        INVALID,
        "INVALID_FIELD",
    ),
    ("get/wrong-wire-type", lambda w: _raw(w, "GetGame", b"\x08\x01"), INVALID, None),
    ("get/truncated-message", lambda w: _raw(w, "GetGame", b"\x0a\x20abc"), INVALID, None),
    # -- GetView / auth ---------------------------------------------------------------------
    (
        "view/no-token",
        lambda w: w.stub.GetView(pb.GetViewRequest(game_id=w.game.game_id)),
        UNAUTH,
        "TOKEN_REQUIRED",
    ),
    (
        "view/basic-scheme",
        lambda w: w.stub.GetView(
            pb.GetViewRequest(game_id=w.game.game_id),
            metadata=(("authorization", "Basic dXNlcjpwdw=="),),
        ),
        UNAUTH,
        "BAD_AUTHORIZATION",
    ),
    (
        "view/empty-bearer",
        lambda w: w.stub.GetView(
            pb.GetViewRequest(game_id=w.game.game_id), metadata=(("authorization", "Bearer "),)
        ),
        UNAUTH,
        "BAD_AUTHORIZATION",
    ),
    (
        "view/other-game-token",
        lambda w: w.stub.GetView(pb.GetViewRequest(game_id=w.game.game_id), metadata=w.other.md(0)),
        DENIED,
        "WRONG_GAME_TOKEN",
    ),
    (
        "view/forged-token",
        lambda w: w.stub.GetView(pb.GetViewRequest(game_id=w.game.game_id), metadata=_forged(w)),
        UNAUTH,
        "BAD_TOKEN",
    ),
    (
        "view/seat-out-of-range",
        lambda w: w.stub.GetView(
            pb.GetViewRequest(game_id=w.game.game_id), metadata=auth(f"{w.game.game_id}.7.secret")
        ),
        UNAUTH,
        "BAD_TOKEN",
    ),
    (
        "view/other-seat-number",
        lambda w: w.stub.GetView(
            pb.GetViewRequest(game_id=w.game.game_id),
            metadata=auth(w.game.tokens[1].replace(".1.", ".2.", 1)),
        ),
        UNAUTH,
        "BAD_TOKEN",
    ),
    (
        "view/negative-version",
        lambda w: w.stub.GetView(
            pb.GetViewRequest(game_id=w.game.game_id, version=-3), metadata=w.md(0)
        ),
        INVALID,
        "INVALID_FIELD",
    ),
    (
        "view/unknown-id",
        lambda w: w.stub.GetView(pb.GetViewRequest(game_id="nope"), metadata=w.md(0)),
        NOT_FOUND,
        "GAME_NOT_FOUND",
    ),
    # -- ListLegalActions -------------------------------------------------------------------
    (
        "legal/no-token",
        lambda w: w.stub.ListLegalActions(pb.ListLegalActionsRequest(game_id=w.game.game_id)),
        UNAUTH,
        "TOKEN_REQUIRED",
    ),
    (
        "legal/other-game-token",
        lambda w: w.stub.ListLegalActions(
            pb.ListLegalActionsRequest(game_id=w.game.game_id), metadata=w.other.md(1)
        ),
        DENIED,
        "WRONG_GAME_TOKEN",
    ),
    (
        "legal/forged-token",
        lambda w: w.stub.ListLegalActions(
            pb.ListLegalActionsRequest(game_id=w.game.game_id), metadata=_forged(w)
        ),
        UNAUTH,
        "BAD_TOKEN",
    ),
    (
        "legal/unknown-id",
        lambda w: w.stub.ListLegalActions(
            pb.ListLegalActionsRequest(game_id="nope"), metadata=w.md(0)
        ),
        NOT_FOUND,
        "GAME_NOT_FOUND",
    ),
    # -- SubmitAction -----------------------------------------------------------------------
    (
        "submit/no-token",
        lambda w: _submit(w, w.legal.actions[0], md=None),
        UNAUTH,
        "TOKEN_REQUIRED",
    ),
    (
        "submit/other-game-token",
        lambda w: _submit(w, w.legal.actions[0], md=w.other.md(0)),
        DENIED,
        "WRONG_GAME_TOKEN",
    ),
    (
        "submit/forged-token",
        lambda w: _submit(w, w.legal.actions[0], md=_forged(w)),
        UNAUTH,
        "BAD_TOKEN",
    ),
    (
        "submit/unknown-id",
        lambda w: _submit(w, w.legal.actions[0], game_id="nope"),
        NOT_FOUND,
        "GAME_NOT_FOUND",
    ),
    ("submit/no-action", lambda w: _submit(w, None), INVALID, "INVALID_FIELD"),
    ("submit/empty-game-oneof", lambda w: _submit(w, pb.Action()), INVALID, "INVALID_FIELD"),
    ("submit/empty-command-oneof", lambda w: _submit(w, _action()), INVALID, "MALFORMED_ACTION"),
    (
        "submit/unknown-action-field",
        lambda w: _raw(
            w,
            "SubmitAction",
            pb.SubmitActionRequest(game_id=w.game.game_id).SerializeToString()
            + b"\x12\x04\x12\x02\x08\x01",
            w.md(w.pending),
        ),
        INVALID,
        "INVALID_FIELD",
    ),
    (
        "submit/out-of-turn",
        lambda w: _submit(w, w.legal.actions[0], seat=w.idle),
        PRECONDITION,
        None,
    ),
    (
        "submit/out-of-turn-current-version",
        lambda w: _submit(w, w.legal.actions[0], seat=w.idle, expected=w.legal.version),
        PRECONDITION,
        None,
    ),
    (
        "submit/wrong-phase-command",
        lambda w: _submit(
            w, _action(choose_card=rf.RiseAndFallChooseCard(card=rf.RISE_AND_FALL_PIECE_CITY))
        ),
        PRECONDITION,
        None,
    ),
    (
        "submit/stale-version",
        lambda w: _submit(w, w.legal.actions[0], expected=w.legal.version - 1),
        ABORTED,
        "VERSION_CONFLICT",
    ),
    (
        "submit/future-version",
        lambda w: _submit(w, w.legal.actions[0], expected=w.legal.version + 5),
        ABORTED,
        "VERSION_CONFLICT",
    ),
    (
        "submit/negative-version",
        lambda w: _submit(w, w.legal.actions[0], expected=-1),
        INVALID,
        None,
    ),
    (
        "submit/cell-out-of-range",
        lambda w: _submit(w, _deploy(w.legal.actions[0].rise_and_fall.deploy.piece, 1600)),
        INVALID,
        None,
    ),
    (
        "submit/cell-huge",
        lambda w: _submit(w, _deploy(w.legal.actions[0].rise_and_fall.deploy.piece, 2**31 - 1)),
        INVALID,
        None,
    ),
    (
        "submit/cell-negative",
        lambda w: _submit(w, _deploy(w.legal.actions[0].rise_and_fall.deploy.piece, -7)),
        INVALID,
        None,
    ),
    ("submit/piece-unspecified", lambda w: _submit(w, _deploy(0, 0)), INVALID, "MALFORMED_ACTION"),
    (
        "submit/piece-unknown-enum",
        lambda w: _submit(w, _deploy(77, 0)),
        INVALID,
        "MALFORMED_ACTION",
    ),
    (
        "submit/activate-negative-target",
        lambda w: _submit(
            w, _action(activate=rf.RiseAndFallActivate(cell=-5, action=1, target=-9))
        ),
        INVALID,
        None,
    ),
    (
        "submit/long-key",
        lambda w: _submit(w, w.legal.actions[0], key="k" * 129),
        TOO_BIG,
        "TOO_LARGE",
    ),
    (
        "submit/over-limit-key",
        lambda w: _submit(w, w.legal.actions[0], key="k" * BIG),
        TOO_BIG,
        None,
    ),
    (
        "submit/long-game-id",
        lambda w: _submit(w, w.legal.actions[0], game_id="g" * 200),
        TOO_BIG,
        "TOO_LARGE",
    ),
    # -- Undo / RequestUndo / RespondUndo --------------------------------------------------
    (
        "undo/no-token",
        lambda w: w.stub.Undo(pb.UndoRequest(game_id=w.game.game_id)),
        UNAUTH,
        "TOKEN_REQUIRED",
    ),
    (
        "undo/unknown-id",
        lambda w: w.stub.Undo(pb.UndoRequest(game_id="nope"), metadata=w.md(0)),
        NOT_FOUND,
        "GAME_NOT_FOUND",
    ),
    (
        "undo/nothing-to-undo",
        lambda w: w.stub.Undo(pb.UndoRequest(game_id=w.game.game_id), metadata=w.md(w.idle)),
        PRECONDITION,
        None,
    ),
    (
        "undo/stale-version",
        lambda w: w.stub.Undo(
            pb.UndoRequest(game_id=w.game.game_id, expected_version=1), metadata=w.md(w.pending)
        ),
        ABORTED,
        "VERSION_CONFLICT",
    ),
    (
        "undo/negative-version",
        lambda w: w.stub.Undo(
            pb.UndoRequest(game_id=w.game.game_id, expected_version=-1), metadata=w.md(w.pending)
        ),
        INVALID,
        None,
    ),
    (
        "undo/long-key",
        lambda w: w.stub.Undo(
            pb.UndoRequest(game_id=w.game.game_id, idempotency_key="u" * 129),
            metadata=w.md(w.pending),
        ),
        TOO_BIG,
        "TOO_LARGE",
    ),
    (
        "request-undo/no-token",
        lambda w: w.stub.RequestUndo(pb.RequestUndoRequest(game_id=w.game.game_id, to_version=1)),
        UNAUTH,
        "TOKEN_REQUIRED",
    ),
    (
        "request-undo/negative",
        lambda w: w.stub.RequestUndo(
            pb.RequestUndoRequest(game_id=w.game.game_id, to_version=-2), metadata=w.md(0)
        ),
        INVALID,
        "INVALID_FIELD",
    ),
    (
        "request-undo/future",
        lambda w: w.stub.RequestUndo(
            pb.RequestUndoRequest(game_id=w.game.game_id, to_version=10**6), metadata=w.md(0)
        ),
        PRECONDITION,
        None,
    ),
    (
        "request-undo/forged-token",
        lambda w: w.stub.RequestUndo(
            pb.RequestUndoRequest(game_id=w.game.game_id, to_version=1), metadata=_forged(w)
        ),
        UNAUTH,
        "BAD_TOKEN",
    ),
    (
        "respond-undo/no-request",
        lambda w: w.stub.RespondUndo(
            pb.RespondUndoRequest(game_id=w.game.game_id, approve=True), metadata=w.md(0)
        ),
        PRECONDITION,
        None,
    ),
    (
        "respond-undo/other-game-token",
        lambda w: w.stub.RespondUndo(
            pb.RespondUndoRequest(game_id=w.game.game_id, approve=True), metadata=w.other.md(0)
        ),
        DENIED,
        "WRONG_GAME_TOKEN",
    ),
    # -- WatchGame --------------------------------------------------------------------------
    (
        "watch/unknown-id",
        lambda w: _stream(w, pb.WatchGameRequest(game_id="nope")),
        NOT_FOUND,
        "GAME_NOT_FOUND",
    ),
    ("watch/empty-id", lambda w: _stream(w, pb.WatchGameRequest()), INVALID, "INVALID_FIELD"),
    (
        "watch/negative-after",
        lambda w: _stream(w, pb.WatchGameRequest(game_id=w.game.game_id, after_version=-1)),
        INVALID,
        "INVALID_FIELD",
    ),
    (
        "watch/forged-token",
        lambda w: _stream(w, pb.WatchGameRequest(game_id=w.game.game_id), md=_forged(w)),
        UNAUTH,
        "BAD_TOKEN",
    ),
    (
        "watch/other-game-token",
        lambda w: _stream(w, pb.WatchGameRequest(game_id=w.game.game_id), md=w.other.md(0)),
        DENIED,
        "WRONG_GAME_TOKEN",
    ),
    (
        "watch/malformed-bearer",
        lambda w: _stream(
            w, pb.WatchGameRequest(game_id=w.game.game_id), md=(("authorization", "Token abc"),)
        ),
        UNAUTH,
        "BAD_AUTHORIZATION",
    ),
    # -- GetHistory -------------------------------------------------------------------------
    (
        "history/unknown-id",
        lambda w: w.stub.GetHistory(pb.GetHistoryRequest(game_id="nope")),
        NOT_FOUND,
        "GAME_NOT_FOUND",
    ),
    (
        "history/negative-page-size",
        lambda w: w.stub.GetHistory(pb.GetHistoryRequest(game_id=w.game.game_id, page_size=-1)),
        INVALID,
        "INVALID_FIELD",
    ),
    (
        "history/bad-page-token",
        lambda w: w.stub.GetHistory(pb.GetHistoryRequest(game_id=w.game.game_id, page_token="abc")),
        INVALID,
        "INVALID_FIELD",
    ),
    (
        "history/negative-page-token",
        lambda w: w.stub.GetHistory(pb.GetHistoryRequest(game_id=w.game.game_id, page_token="-5")),
        INVALID,
        "INVALID_FIELD",
    ),
    (
        "history/long-page-token",
        lambda w: w.stub.GetHistory(
            pb.GetHistoryRequest(game_id=w.game.game_id, page_token="1" * 40)
        ),
        TOO_BIG,
        "TOO_LARGE",
    ),
    (
        "history/forged-token",
        lambda w: w.stub.GetHistory(
            pb.GetHistoryRequest(game_id=w.game.game_id), metadata=_forged(w)
        ),
        UNAUTH,
        "BAD_TOKEN",
    ),
    # -- ExportRecord / VerifyRecord / ListGames ------------------------------------------
    (
        "export/unknown-id",
        lambda w: w.stub.ExportRecord(pb.ExportRecordRequest(game_id="nope")),
        NOT_FOUND,
        "GAME_NOT_FOUND",
    ),
    (
        "export/empty-id",
        lambda w: w.stub.ExportRecord(pb.ExportRecordRequest()),
        INVALID,
        "INVALID_FIELD",
    ),
    (
        "export/other-game-token",
        lambda w: w.stub.ExportRecord(
            pb.ExportRecordRequest(game_id=w.game.game_id), metadata=w.other.md(2)
        ),
        DENIED,
        "WRONG_GAME_TOKEN",
    ),
    (
        "verify/empty",
        lambda w: w.stub.VerifyRecord(pb.VerifyRecordRequest()),
        INVALID,
        "INVALID_FIELD",
    ),
    (
        "verify/over-limit",
        lambda w: w.stub.VerifyRecord(pb.VerifyRecordRequest(record=b"x" * BIG)),
        TOO_BIG,
        None,
    ),
    (
        "list/negative-page-size",
        lambda w: w.stub.ListGames(pb.ListGamesRequest(page_size=-1)),
        INVALID,
        "INVALID_FIELD",
    ),
    (
        "list/bad-page-token",
        lambda w: w.stub.ListGames(pb.ListGamesRequest(page_token="x")),
        INVALID,
        "INVALID_FIELD",
    ),
    (
        "list/unknown-type",
        lambda w: w.stub.ListGames(pb.ListGamesRequest(game_type=42)),
        INVALID,
        "INVALID_FIELD",
    ),
]


def _state(w: World) -> tuple[int, list[str]]:
    head = w.stub.GetGame(pb.GetGameRequest(game_id=w.game.game_id)).game.head_version
    return head, [e.hash for e in history(w.stub, w.game.game_id)]


@pytest.mark.parametrize(("case", "call", "code", "reason"), CASES, ids=[c[0] for c in CASES])
def test_bad_input(
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
    before = _state(world)
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
    assert _state(world) == before, f"{case} changed the game"
    with grpc.insecure_channel(server.target) as channel:
        health = health_pb2_grpc.HealthStub(channel).Check(
            health_pb2.HealthCheckRequest(), timeout=5
        )
    assert health.status == health_pb2.HealthCheckResponse.SERVING


def test_garbage_record_is_reported_not_crashed(stub: annales_pb2_grpc.GameServiceStub) -> None:
    """VerifyRecord of garbage, or of a record with a flipped byte, answers ``ok=False`` with a
    message (or INVALID_ARGUMENT) — never an internal error."""
    for record in (b"not json at all\n", b'{"record": "annales.game/1"}\n', b"\xff\xfe\x00"):
        try:
            answer = stub.VerifyRecord(pb.VerifyRecordRequest(record=record))
        except grpc.RpcError as error:
            got = failure(error)
            assert got.code == INVALID, (record, got)
            assert got.reason
        else:
            assert not answer.ok and answer.message, record


def test_a_seat_token_acts_only_for_its_seat(stub: annales_pb2_grpc.GameServiceStub) -> None:
    """A seat's token lists that seat's actions only, and GetView answers for that seat."""
    game = create_game(stub, 3)
    head = stub.GetGame(pb.GetGameRequest(game_id=game.game_id)).game
    for seat in range(3):
        legal = stub.ListLegalActions(
            pb.ListLegalActionsRequest(game_id=game.game_id), metadata=game.md(seat)
        )
        assert legal.seat == seat
        assert bool(legal.actions) == (seat in head.pending.seats)
        view = stub.GetView(pb.GetViewRequest(game_id=game.game_id), metadata=game.md(seat))
        assert view.seat == seat and view.view.rise_and_fall.viewer == seat


def test_large_garbage_record_is_answered_not_ok(world: World) -> None:
    """A 5 MiB record of garbage is under the 64 MiB receive limit (raised so that exported
    tournament records can travel back whole): VerifyRecord reads it and answers ``ok=False``
    with a message; nothing changes."""
    before = _state(world)
    answer = world.stub.VerifyRecord(pb.VerifyRecordRequest(record=b"x" * (5 * 1024 * 1024)))
    assert not answer.ok and answer.message
    assert _state(world) == before
