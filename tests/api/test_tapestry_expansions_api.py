"""``TapestryOptions.expansions`` through the real gRPC server.

"PREMIÈRE MISE EN PLACE": « Combinez les plateaux et les cartes du jeu de base et des extensions
avec lesquelles vous souhaitez jouer »: any combination of the three boxes, the base game when
none. An unknown box or a box named twice is INVALID_ARGUMENT / INVALID_FIELD naming it;
``tapestry/1`` has no such option. GetGame reports the boxes in its typed options.
"""

from __future__ import annotations

import grpc
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc
from annales.v1 import tapestry_pb2 as tp

from tests.api.helpers import expect_error


def _create(
    stub: annales_pb2_grpc.GameServiceStub,
    boxes: list[str],
    ruleset: str = "",
    seats: int = 3,
) -> pb.CreateGameResponse:
    return stub.CreateGame(
        pb.CreateGameRequest(
            game_type=pb.GAME_TYPE_TAPESTRY,
            seat_names=[f"p{i}" for i in range(seats)],
            seed="boxes",
            ruleset=ruleset,
            options=pb.GameOptions(tapestry=tp.TapestryOptions(expansions=boxes)),
        )
    )


def test_expansions_are_recorded_and_reported(stub: annales_pb2_grpc.GameServiceStub) -> None:
    """Every box combination creates a game of the newest ruleset (``tapestry/4``) whose
    options name the boxes."""
    for boxes in (
        ["plans_and_ploys"],
        ["arts_and_architecture"],
        ["fantasies_and_futures"],
        ["fantasies_and_futures", "plans_and_ploys", "arts_and_architecture"],
    ):
        created = _create(stub, boxes)
        game = stub.GetGame(pb.GetGameRequest(game_id=created.game_id)).game
        assert game.ruleset == "tapestry/4"
        assert list(game.options.tapestry.expansions) == boxes
        assert '"expansions"' in game.options_json


def test_base_game_options_do_not_mention_expansions(
    stub: annales_pb2_grpc.GameServiceStub,
) -> None:
    """No box: the creation event records no ``expansions`` key (older games' creation
    events stay byte-identical)."""
    created = _create(stub, [])
    game = stub.GetGame(pb.GetGameRequest(game_id=created.game_id)).game
    assert "expansions" not in game.options_json
    assert list(game.options.tapestry.expansions) == []


def test_unknown_box_is_named(stub: annales_pb2_grpc.GameServiceStub) -> None:
    """An unknown box: INVALID_ARGUMENT, reason INVALID_FIELD, the value named."""
    seen = expect_error(_create, stub, ["plans_and_ploys", "cthulhu"])
    assert seen.code == grpc.StatusCode.INVALID_ARGUMENT
    assert seen.reason == "INVALID_FIELD"
    assert "'cthulhu'" in seen.message and "expansions" in seen.message
    assert "plans_and_ploys, arts_and_architecture, fantasies_and_futures" in seen.message
    assert seen.metadata["field"].startswith("options.tapestry")


def test_box_named_twice_is_refused(stub: annales_pb2_grpc.GameServiceStub) -> None:
    """A box twice: INVALID_FIELD naming it."""
    seen = expect_error(_create, stub, ["plans_and_ploys", "plans_and_ploys"])
    assert seen.code == grpc.StatusCode.INVALID_ARGUMENT
    assert seen.reason == "INVALID_FIELD"
    assert "'plans_and_ploys' twice" in seen.message


def test_tapestry_1_has_no_expansions(stub: annales_pb2_grpc.GameServiceStub) -> None:
    """``tapestry/1`` refuses the option, naming it and its value."""
    seen = expect_error(_create, stub, ["plans_and_ploys"], "tapestry/1")
    assert seen.code == grpc.StatusCode.INVALID_ARGUMENT
    assert "'expansions'" in seen.message and "plans_and_ploys" in seen.message


def test_solo_plays_every_box(stub: annales_pb2_grpc.GameServiceStub) -> None:
    """Solo (1 seat, against the Automa) with each box and the three together: the game is
    created; with Plans & Ploys its notes name the landmark cards the aid's solo setup would
    deal ("Extension : Piochez 2 cartes Monuments…"), in none of our sources."""
    for boxes in (
        ["plans_and_ploys"],
        ["arts_and_architecture"],
        ["fantasies_and_futures"],
        ["plans_and_ploys", "arts_and_architecture", "fantasies_and_futures"],
    ):
        created = _create(stub, boxes, "", 1)
        game = stub.GetGame(pb.GetGameRequest(game_id=created.game_id)).game
        solo_notes = [n for n in game.notes if "(solo)" in n]
        assert len(solo_notes) == ("plans_and_ploys" in boxes), game.notes


def test_solo_refuses_a_civilization_not_allowed_solo(
    stub: annales_pb2_grpc.GameServiceStub,
) -> None:
    """A solo game may not start with a mat the facts folder marks ``solo_allowed`` false
    (Fantasies & Futures' Genies): INVALID_ARGUMENT naming it."""

    def create() -> pb.CreateGameResponse:
        options = tp.TapestryOptions(
            expansions=["fantasies_and_futures"], starting_civilizations=["genies"]
        )
        return stub.CreateGame(
            pb.CreateGameRequest(
                game_type=pb.GAME_TYPE_TAPESTRY,
                seat_names=["solo"],
                seed="boxes",
                options=pb.GameOptions(tapestry=options),
            )
        )

    seen = expect_error(create)
    assert seen.code == grpc.StatusCode.INVALID_ARGUMENT
    assert "genies" in seen.message and "solo" in seen.message


def test_get_game_notes_name_the_components_left_out(
    stub: annales_pb2_grpc.GameServiceStub,
) -> None:
    """GetGame's notes say, per box in play, which components no source gives (left out of
    the game, e.g. the smaller tapestry deck); a base game has no notes."""
    created = _create(stub, ["plans_and_ploys"])
    game = stub.GetGame(pb.GetGameRequest(game_id=created.game_id)).game
    (note,) = game.notes
    assert note.startswith("plans_and_ploys: not in our sources")
    assert "15 Cartes Fresque" in note
    base = _create(stub, [])
    assert list(stub.GetGame(pb.GetGameRequest(game_id=base.game_id)).game.notes) == []
