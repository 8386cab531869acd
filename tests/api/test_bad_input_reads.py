"""Bad input to the reading RPCs: typed statuses with a machine reason, no state change, no
outage.

GetGame, GetView, ListLegalActions, WatchGame, GetHistory and ListGames with empty, unknown or
over-long ids, bad versions and page tokens, malformed wire bytes, and missing, malformed,
forged or other games' seat tokens; and a seat token reads for its own seat only. Each bad
case is judged by :func:`~tests.api.bad_input_helpers.assert_refused_cleanly`: its status and
ErrorInfo reason, the game under test unchanged, the server still SERVING.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import grpc
import pytest
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc

from tests.api.bad_input_helpers import (
    BIG,
    DENIED,
    INVALID,
    NOT_FOUND,
    TOO_BIG,
    UNAUTH,
    Case,
    World,
    assert_refused_cleanly,
    forged_token,
    open_world,
    raw_call,
    watch_all,
)
from tests.api.conftest import ServerProcess
from tests.api.helpers import auth, create_game


@pytest.fixture(scope="module")
def world(server: ServerProcess) -> Iterator[World]:
    """The game under test of this module's cases (see :func:`open_world`)."""
    yield from open_world(server)


CASES: list[Case] = [
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
    ("get/wrong-wire-type", lambda w: raw_call(w, "GetGame", b"\x08\x01"), INVALID, None),
    ("get/truncated-message", lambda w: raw_call(w, "GetGame", b"\x0a\x20abc"), INVALID, None),
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
        lambda w: w.stub.GetView(
            pb.GetViewRequest(game_id=w.game.game_id), metadata=forged_token(w)
        ),
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
            pb.ListLegalActionsRequest(game_id=w.game.game_id), metadata=forged_token(w)
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
    # -- WatchGame --------------------------------------------------------------------------
    (
        "watch/unknown-id",
        lambda w: watch_all(w, pb.WatchGameRequest(game_id="nope")),
        NOT_FOUND,
        "GAME_NOT_FOUND",
    ),
    ("watch/empty-id", lambda w: watch_all(w, pb.WatchGameRequest()), INVALID, "INVALID_FIELD"),
    (
        "watch/negative-after",
        lambda w: watch_all(w, pb.WatchGameRequest(game_id=w.game.game_id, after_version=-1)),
        INVALID,
        "INVALID_FIELD",
    ),
    (
        "watch/forged-token",
        lambda w: watch_all(w, pb.WatchGameRequest(game_id=w.game.game_id), md=forged_token(w)),
        UNAUTH,
        "BAD_TOKEN",
    ),
    (
        "watch/other-game-token",
        lambda w: watch_all(w, pb.WatchGameRequest(game_id=w.game.game_id), md=w.other.md(0)),
        DENIED,
        "WRONG_GAME_TOKEN",
    ),
    (
        "watch/malformed-bearer",
        lambda w: watch_all(
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
            pb.GetHistoryRequest(game_id=w.game.game_id), metadata=forged_token(w)
        ),
        UNAUTH,
        "BAD_TOKEN",
    ),
    # -- ListGames --------------------------------------------------------------------------
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


@pytest.mark.parametrize(("case", "call", "code", "reason"), CASES, ids=[c[0] for c in CASES])
def test_bad_input(
    world: World,
    server: ServerProcess,
    case: str,
    call: Callable[[World], Any],
    code: grpc.StatusCode,
    reason: str | None,
) -> None:
    """Each case of this module is refused cleanly (see ``assert_refused_cleanly``)."""
    assert_refused_cleanly(world, server, case, call, code, reason)


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
