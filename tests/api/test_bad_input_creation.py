"""Bad CreateGame requests: typed statuses with a machine reason, no state change, no outage.

Unknown or missing game types, seat counts out of range, empty or over-long seat names and
seeds, invalid options, and requests over the 64 MiB receive limit. Each case is judged by
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
    BIG,
    INVALID,
    TOO_BIG,
    Case,
    World,
    assert_refused_cleanly,
    open_world,
)
from tests.api.conftest import ServerProcess


@pytest.fixture(scope="module")
def world(server: ServerProcess) -> Iterator[World]:
    """The game under test of this module's cases (see :func:`open_world`)."""
    yield from open_world(server)


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
