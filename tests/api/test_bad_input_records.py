"""Bad input to ExportRecord and VerifyRecord: typed statuses with a machine reason, and
garbage records reported as not ok rather than crashing, with no state change and no outage.
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
    Case,
    World,
    assert_refused_cleanly,
    game_state,
    open_world,
)
from tests.api.conftest import ServerProcess
from tests.api.helpers import failure


@pytest.fixture(scope="module")
def world(server: ServerProcess) -> Iterator[World]:
    """The game under test of this module's cases (see :func:`open_world`)."""
    yield from open_world(server)


CASES: list[Case] = [
    # -- ExportRecord / VerifyRecord --------------------------------------------------------
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


def test_large_garbage_record_is_answered_not_ok(world: World) -> None:
    """A 5 MiB record of garbage is under the 64 MiB receive limit (raised so that exported
    tournament records can travel back whole): VerifyRecord reads it and answers ``ok=False``
    with a message; nothing changes."""
    before = game_state(world)
    answer = world.stub.VerifyRecord(pb.VerifyRecordRequest(record=b"x" * (5 * 1024 * 1024)))
    assert not answer.ok and answer.message
    assert game_state(world) == before
