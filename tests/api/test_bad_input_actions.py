"""Bad commands: SubmitAction, Undo, RequestUndo and RespondUndo refused with typed statuses and
a machine reason, no state change, no outage.

Missing or bad seat tokens, unknown games, empty or malformed actions, out-of-turn and
wrong-phase commands (FAILED_PRECONDITION naming the rule), stale or future expected versions
(ABORTED), out-of-range values and over-long idempotency keys. Each case is judged by
:func:`~tests.api.bad_input_helpers.assert_refused_cleanly`: its status and ErrorInfo reason,
the game under test unchanged, the server still SERVING.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import grpc
import pytest
from annales.v1 import annales_pb2 as pb
from annales.v1 import riseandfall_pb2 as rf

from tests.api.bad_input_helpers import (
    ABORTED,
    BIG,
    DENIED,
    INVALID,
    NOT_FOUND,
    PRECONDITION,
    TOO_BIG,
    UNAUTH,
    Case,
    World,
    assert_refused_cleanly,
    forged_token,
    open_world,
    raw_call,
    rf_action,
    rf_deploy,
    submit,
)
from tests.api.conftest import ServerProcess


@pytest.fixture(scope="module")
def world(server: ServerProcess) -> Iterator[World]:
    """The game under test of this module's cases (see :func:`open_world`)."""
    yield from open_world(server)


CASES: list[Case] = [
    # -- SubmitAction -----------------------------------------------------------------------
    (
        "submit/no-token",
        lambda w: submit(w, w.legal.actions[0], md=None),
        UNAUTH,
        "TOKEN_REQUIRED",
    ),
    (
        "submit/other-game-token",
        lambda w: submit(w, w.legal.actions[0], md=w.other.md(0)),
        DENIED,
        "WRONG_GAME_TOKEN",
    ),
    (
        "submit/forged-token",
        lambda w: submit(w, w.legal.actions[0], md=forged_token(w)),
        UNAUTH,
        "BAD_TOKEN",
    ),
    (
        "submit/unknown-id",
        lambda w: submit(w, w.legal.actions[0], game_id="nope"),
        NOT_FOUND,
        "GAME_NOT_FOUND",
    ),
    ("submit/no-action", lambda w: submit(w, None), INVALID, "INVALID_FIELD"),
    ("submit/empty-game-oneof", lambda w: submit(w, pb.Action()), INVALID, "INVALID_FIELD"),
    ("submit/empty-command-oneof", lambda w: submit(w, rf_action()), INVALID, "MALFORMED_ACTION"),
    (
        "submit/unknown-action-field",
        lambda w: raw_call(
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
        lambda w: submit(w, w.legal.actions[0], seat=w.idle),
        PRECONDITION,
        None,
    ),
    (
        "submit/out-of-turn-current-version",
        lambda w: submit(w, w.legal.actions[0], seat=w.idle, expected=w.legal.version),
        PRECONDITION,
        None,
    ),
    (
        "submit/wrong-phase-command",
        lambda w: submit(
            w, rf_action(choose_card=rf.RiseAndFallChooseCard(card=rf.RISE_AND_FALL_PIECE_CITY))
        ),
        PRECONDITION,
        None,
    ),
    (
        "submit/stale-version",
        lambda w: submit(w, w.legal.actions[0], expected=w.legal.version - 1),
        ABORTED,
        "VERSION_CONFLICT",
    ),
    (
        "submit/future-version",
        lambda w: submit(w, w.legal.actions[0], expected=w.legal.version + 5),
        ABORTED,
        "VERSION_CONFLICT",
    ),
    (
        "submit/negative-version",
        lambda w: submit(w, w.legal.actions[0], expected=-1),
        INVALID,
        None,
    ),
    (
        "submit/cell-out-of-range",
        lambda w: submit(w, rf_deploy(w.legal.actions[0].rise_and_fall.deploy.piece, 1600)),
        INVALID,
        None,
    ),
    (
        "submit/cell-huge",
        lambda w: submit(w, rf_deploy(w.legal.actions[0].rise_and_fall.deploy.piece, 2**31 - 1)),
        INVALID,
        None,
    ),
    (
        "submit/cell-negative",
        lambda w: submit(w, rf_deploy(w.legal.actions[0].rise_and_fall.deploy.piece, -7)),
        INVALID,
        None,
    ),
    ("submit/piece-unspecified", lambda w: submit(w, rf_deploy(0, 0)), INVALID, "MALFORMED_ACTION"),
    (
        "submit/piece-unknown-enum",
        lambda w: submit(w, rf_deploy(77, 0)),
        INVALID,
        "MALFORMED_ACTION",
    ),
    (
        "submit/activate-negative-target",
        lambda w: submit(
            w, rf_action(activate=rf.RiseAndFallActivate(cell=-5, action=1, target=-9))
        ),
        INVALID,
        None,
    ),
    (
        "submit/long-key",
        lambda w: submit(w, w.legal.actions[0], key="k" * 129),
        TOO_BIG,
        "TOO_LARGE",
    ),
    (
        "submit/over-limit-key",
        lambda w: submit(w, w.legal.actions[0], key="k" * BIG),
        TOO_BIG,
        None,
    ),
    (
        "submit/long-game-id",
        lambda w: submit(w, w.legal.actions[0], game_id="g" * 200),
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
            pb.RequestUndoRequest(game_id=w.game.game_id, to_version=1), metadata=forged_token(w)
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
