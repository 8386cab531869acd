"""Creation options are validated: an unknown option key, an option the
chosen ruleset lacks, or an unknown nation is INVALID_ARGUMENT naming the option and the
value (the valid nations listed); nothing is created. Creation-time only: stored games keep
the options they were recorded with.

Through the real gRPC server (typed proto options) and through the application (plain data,
as the CLI's local commands and the tournament runner give them).
"""

from __future__ import annotations

import grpc
import pytest
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc
from annales.v1 import imperium_pb2 as ip
from annales.v1 import tapestry_pb2 as tp

from domain.imperium import content as IC
from service.app.application import GameService
from service.app.errors import InvalidArgument
from tests.api.helpers import expect_error


def _tapestry(
    stub: annales_pb2_grpc.GameServiceStub, ruleset: str, options: tp.TapestryOptions
) -> pb.CreateGameResponse:
    return stub.CreateGame(
        pb.CreateGameRequest(
            game_type=pb.GAME_TYPE_TAPESTRY,
            seat_names=["ann", "bob"],
            seed="options",
            ruleset=ruleset,
            options=pb.GameOptions(tapestry=options),
        )
    )


def test_a_variant_is_refused_under_tapestry_1(stub: annales_pb2_grpc.GameServiceStub) -> None:
    """``tapestry/1`` has no variants: asking for one names the option and its value."""
    seen = expect_error(_tapestry, stub, "tapestry/1", tp.TapestryOptions(draw_two_tapestry=True))
    assert seen.code == grpc.StatusCode.INVALID_ARGUMENT
    assert "'draw_two_tapestry' (value True)" in seen.message


def test_unset_variants_create_a_tapestry_1_game(stub: annales_pb2_grpc.GameServiceStub) -> None:
    """Proto3 sends empty lists for unset repeated fields: they are unset, not unknown keys."""
    created = _tapestry(stub, "tapestry/1", tp.TapestryOptions(civilizations_dealt=1))
    game = stub.GetGame(pb.GetGameRequest(game_id=created.game_id)).game
    assert game.ruleset == "tapestry/1"


def test_variants_create_a_game_of_the_newest_ruleset(
    stub: annales_pb2_grpc.GameServiceStub,
) -> None:
    """The default ruleset (``tapestry/4``) takes the variants; an unknown card to remove is
    named."""
    options = tp.TapestryOptions(draw_two_tapestry=True, removed_tech_cards=["radio"])
    created = _tapestry(stub, "", options)
    game = stub.GetGame(pb.GetGameRequest(game_id=created.game_id)).game
    assert game.ruleset == "tapestry/4"
    bad = tp.TapestryOptions(removed_tech_cards=["warp drive"])
    seen = expect_error(_tapestry, stub, "", bad)
    assert seen.code == grpc.StatusCode.INVALID_ARGUMENT
    assert "removed_tech_cards" in seen.message and "'warp drive'" in seen.message


def test_unknown_nation_is_named_with_the_valid_ones(
    stub: annales_pb2_grpc.GameServiceStub,
) -> None:
    """``--nations foo,romans``: the unknown nation is named and the valid ones listed (it
    used to answer "give one different nation per seat")."""
    request = pb.CreateGameRequest(
        game_type=pb.GAME_TYPE_IMPERIUM,
        seat_names=["ann", "bob"],
        options=pb.GameOptions(imperium=ip.ImperiumOptions(nations=["foo", "romans"])),
    )
    seen = expect_error(stub.CreateGame, request)
    assert seen.code == grpc.StatusCode.INVALID_ARGUMENT
    assert "nations: unknown nation 'foo'" in seen.message
    assert all(nation in seen.message for nation in IC.ALL_NATIONS)


@pytest.mark.parametrize(
    ("game", "options", "named"),
    [
        ("riseandfall", {"trophy": 5}, "'trophy' (value 5)"),
        ("tapestry", {"civilisations_dealt": 1}, "'civilisations_dealt' (value 1)"),
        ("imperium", {"nation": ["romans"]}, "'nation' (value ['romans'])"),
    ],
)
def test_unknown_option_keys_are_refused_for_every_game(
    service: GameService, game: str, options: dict[str, object], named: str
) -> None:
    """Unknown keys were silently ignored; now every game refuses them, naming key and value
    and listing the known options; nothing is stored."""
    with pytest.raises(InvalidArgument) as error:
        service.create_game(game, options, ["ann", "bob"], b"seed", game_id="refused")
    assert named in str(error.value) and "known options" in str(error.value)
    assert service.store.last_seq("refused") == 0


def test_automa_level_accepts_one_to_six(stub: annales_pb2_grpc.GameServiceStub) -> None:
    """Solo Tapestry: ``automa_level`` 1-6 (5-6 the hard side of the Automa board); 7 is
    INVALID_FIELD naming the option, and nothing is created."""

    def solo(level: int) -> pb.CreateGameResponse:
        return stub.CreateGame(
            pb.CreateGameRequest(
                game_type=pb.GAME_TYPE_TAPESTRY,
                seat_names=["ann"],
                seed=f"level-{level}",
                options=pb.GameOptions(tapestry=tp.TapestryOptions(automa_level=level)),
            )
        )

    created = solo(6)
    response = stub.GetGame(pb.GetGameRequest(game_id=created.game_id))
    assert response.view.tapestry.solo.level == 6
    assert len(response.view.tapestry.solo.extra_civilizations) == 1
    seen = expect_error(solo, 7)
    assert seen.code == grpc.StatusCode.INVALID_ARGUMENT and seen.reason == "INVALID_FIELD"
    assert "automa_level" in seen.message
