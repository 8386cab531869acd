"""Rise & Fall rulesets over gRPC: new games are ``riseandfall/2`` (hexagonal world), old
``riseandfall/1`` games can still be created on request; each ruleset's options are its own.

The contract: "the ruleset is chosen at creation and stored; riseandfall/2 is the default
for new games".
"""

from __future__ import annotations

import grpc
import pytest
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc
from annales.v1 import riseandfall_pb2 as rf

from tests.api.helpers import auth, failure


def _create(
    stub: annales_pb2_grpc.GameServiceStub, ruleset: str, scoring: int = 0
) -> pb.CreateGameResponse:
    options = pb.GameOptions()
    if scoring:
        options.rise_and_fall.scoring = scoring  # type: ignore[assignment]
    return stub.CreateGame(
        pb.CreateGameRequest(
            game_type=pb.GAME_TYPE_RISE_AND_FALL,
            seat_names=["ann", "bob"],
            seed="rf-rulesets",
            ruleset=ruleset,
            options=options,
        )
    )


def test_new_games_are_riseandfall_2_on_hexes(stub: annales_pb2_grpc.GameServiceStub) -> None:
    """GetGame of a game created without a ruleset reports ``riseandfall/2``; its view's
    world is on the ``hex`` grid, and a ``riseandfall/1`` game's on the ``square`` grid."""
    for ruleset, expected, grid in (
        ("", "riseandfall/2", "hex"),
        ("riseandfall/1", "riseandfall/1", "square"),
    ):
        created = _create(stub, ruleset)
        game = stub.GetGame(pb.GetGameRequest(game_id=created.game_id)).game
        assert game.ruleset == expected
        token = created.seat_tokens[0].token
        request = pb.GetViewRequest(game_id=created.game_id)
        view = stub.GetView(request, metadata=auth(token)).view
        assert view.rise_and_fall.world.grid == grid


def test_quick_scoring_is_an_option_of_riseandfall_2_only(
    stub: annales_pb2_grpc.GameServiceStub,
) -> None:
    """VARIANTE : DÉCOMPTE RAPIDE is accepted under ``riseandfall/2`` and refused (clear
    INVALID_ARGUMENT naming the option) under ``riseandfall/1``."""
    created = _create(stub, "riseandfall/2", rf.RISE_AND_FALL_SCORING_QUICK)
    assert stub.GetGame(pb.GetGameRequest(game_id=created.game_id)).game.ruleset
    with pytest.raises(grpc.RpcError) as error:
        _create(stub, "riseandfall/1", rf.RISE_AND_FALL_SCORING_QUICK)
    seen = failure(error.value)
    assert seen.code == grpc.StatusCode.INVALID_ARGUMENT
    assert "scoring" in seen.message
