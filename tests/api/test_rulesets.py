"""Rulesets: a game is created under one ruleset of its game, stored with it, and reported.

Contract (``domain/registry.py``): every ruleset ever released stays registered; a new game
gets its game's newest ruleset unless ``CreateGameRequest.ruleset`` names another of the same
game; an unknown ruleset, or one of another game, is INVALID_ARGUMENT on the field ``ruleset``
.
"""

from __future__ import annotations

import grpc
import pytest
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc

from domain.registry import GAMES, RULESETS, get_ruleset, resolve_ruleset, rulesets_of
from tests.api.helpers import failure


def _create(stub: annales_pb2_grpc.GameServiceStub, ruleset: str) -> pb.CreateGameResponse:
    return stub.CreateGame(
        pb.CreateGameRequest(
            game_type=pb.GAME_TYPE_RISE_AND_FALL,
            seat_names=["ann", "bob"],
            seed="rulesets",
            ruleset=ruleset,
        )
    )


def test_every_game_default_is_its_newest_registered_ruleset() -> None:
    """The default ruleset of each game is the last one registered for it."""
    for name, game in GAMES.items():
        names = rulesets_of(name)
        assert names and names[-1] == game.ruleset_version
        for ruleset in names:
            assert get_ruleset(ruleset).name == name
    assert set(RULESETS) == {r for name in GAMES for r in rulesets_of(name)}


def test_resolve_refuses_a_ruleset_of_another_game() -> None:
    """A Tapestry ruleset cannot create a Rise & Fall game."""
    from domain.core.errors import MalformedCommand

    with pytest.raises(MalformedCommand) as error:
        resolve_ruleset("riseandfall", GAMES["tapestry"].ruleset_version)
    assert error.value.code == "UNKNOWN_RULESET"
    with pytest.raises(MalformedCommand):
        get_ruleset("riseandfall/0")


def test_default_and_explicit_rulesets_are_reported_by_get_game(
    stub: annales_pb2_grpc.GameServiceStub,
) -> None:
    """GetGame reports the ruleset chosen at creation (default: the newest)."""
    default = _create(stub, "")
    game = stub.GetGame(pb.GetGameRequest(game_id=default.game_id)).game
    assert game.ruleset == GAMES["riseandfall"].ruleset_version
    for ruleset in rulesets_of("riseandfall"):
        created = _create(stub, ruleset)
        assert stub.GetGame(pb.GetGameRequest(game_id=created.game_id)).game.ruleset == ruleset


@pytest.mark.parametrize("ruleset", ["riseandfall/0", "tapestry/1", "x" * 65])
def test_unknown_ruleset_is_invalid_field(
    stub: annales_pb2_grpc.GameServiceStub, ruleset: str
) -> None:
    """An unknown (or oversized) ruleset is refused naming the field."""
    with pytest.raises(grpc.RpcError) as error:
        _create(stub, ruleset)
    seen = failure(error.value)
    assert seen.code in (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.RESOURCE_EXHAUSTED)
    assert seen.metadata.get("field") == "ruleset"


def test_an_unknown_option_key_is_refused_by_every_ruleset() -> None:
    """Options are checked at creation: a key the ruleset does not know is INVALID_OPTION,
    naming the key and its value (never silently ignored)."""
    from domain.core.errors import MalformedCommand

    for ruleset in RULESETS.values():
        with pytest.raises(MalformedCommand) as error:
            ruleset.decode_options({"no_such_option": 3})
        assert error.value.code == "INVALID_OPTION"
        assert "no_such_option" in error.value.message
