"""GetView of a seat without its token, once the game is over (``GetViewRequest.seat``).

A finished game's record and seed are public, so every seat's view at every version is too:
a replay may show the game "as seat N" without N's token. Before the end the same request is
FAILED_PRECONDITION ``GAME_NOT_FINISHED``; a token may only name its own seat.
"""

from __future__ import annotations

import grpc
import pytest
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc

from tests.api.helpers import auth, failure


def _solo_game(stub: annales_pb2_grpc.GameServiceStub) -> tuple[str, str]:
    """A 1-seat Tapestry game against the Automa: its id and the seat's token."""
    created = stub.CreateGame(
        pb.CreateGameRequest(
            game_type=pb.GAME_TYPE_TAPESTRY, seat_names=["ann"], seed="finished-views"
        )
    )
    return created.game_id, created.seat_tokens[0].token


def test_a_seat_view_without_token_only_after_the_end(
    stub: annales_pb2_grpc.GameServiceStub,
) -> None:
    """Refused while the game runs; once over, equal to what the seat's token reads."""
    game_id, token = _solo_game(stub)
    with pytest.raises(grpc.RpcError) as early:
        stub.GetView(pb.GetViewRequest(game_id=game_id, seat=0))
    assert failure(early.value).reason == "GAME_NOT_FINISHED"
    with pytest.raises(grpc.RpcError) as other:
        stub.GetView(pb.GetViewRequest(game_id=game_id, seat=1), metadata=auth(token))
    assert failure(other.value).metadata.get("field") == "seat"
    for _ in range(2000):  # the first legal action each time, to the end
        listed = stub.ListLegalActions(
            pb.ListLegalActionsRequest(game_id=game_id), metadata=auth(token)
        )
        if not listed.actions:
            break
        stub.SubmitAction(
            pb.SubmitActionRequest(
                game_id=game_id, action=listed.actions[0], expected_version=listed.version
            ),
            metadata=auth(token),
        )
    summary = stub.GetGame(pb.GetGameRequest(game_id=game_id)).game
    assert summary.status == pb.GAME_STATUS_FINISHED
    for version in (summary.head_version // 2, summary.head_version):
        public = stub.GetView(pb.GetViewRequest(game_id=game_id, version=version, seat=0))
        mine = stub.GetView(
            pb.GetViewRequest(game_id=game_id, version=version), metadata=auth(token)
        )
        assert public.seat == 0 and public.view == mine.view
    with pytest.raises(grpc.RpcError) as missing:
        stub.GetView(pb.GetViewRequest(game_id=game_id, seat=3))
    assert failure(missing.value).metadata.get("field") == "seat"
