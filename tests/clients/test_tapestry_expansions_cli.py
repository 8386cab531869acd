"""``annales new tapestry --expansions BOX,…`` on a real server (see ``conftest.py``): the
boxes reach the game's options; an unknown box is refused before anything is created, naming
it and listing the known boxes; ``--expansions`` is refused for another game."""

from __future__ import annotations

from pathlib import Path

from annales_cli.main import app
from annales_client import AnnalesClient
from typer.testing import CliRunner

from tests.clients.conftest import ServerProcess
from tests.clients.test_tapestry_cli import cli, created_id


def test_new_tapestry_with_expansions(annales_server: ServerProcess, tmp_path: Path) -> None:
    """A comma list and a repeated flag both reach ``TapestryOptions.expansions``."""
    tokens = tmp_path / "tokens.json"
    created = cli(
        "new", "tapestry", "--players", "3", "--seed", "boxes-cli",
        "--expansions", "plans_and_ploys,arts_and_architecture",
        "--expansions", "fantasies_and_futures",
        "--server", annales_server.target, "--tokens", str(tokens),
    )  # fmt: skip
    game_id = created_id(created.output)
    with AnnalesClient(annales_server.target) as client:
        game = client.get_game(game_id).game
    assert list(game.options.tapestry.expansions) == [
        "plans_and_ploys",
        "arts_and_architecture",
        "fantasies_and_futures",
    ]


def test_new_tapestry_with_civilizations_of_one_box(
    annales_server: ServerProcess, tmp_path: Path
) -> None:
    """``--civilization-box`` (VARIANTES « piocher les civilisations dans la même extension »)
    reaches ``TapestryOptions.civilization_box``: every seat is dealt that box's mats; a box
    not in ``--expansions`` is refused by the server, naming the option, with no traceback."""
    tokens = tmp_path / "tokens.json"
    created = cli(
        "new", "tapestry", "--players", "3", "--seed", "one-box-cli",
        "--expansions", "plans_and_ploys,fantasies_and_futures",
        "--civilization-box", "fantasies_and_futures",
        "--server", annales_server.target, "--tokens", str(tokens),
    )  # fmt: skip
    game_id = created_id(created.output)
    with AnnalesClient(annales_server.target) as client:
        game = client.get_game(game_id).game
    assert game.options.tapestry.civilization_box == "fantasies_and_futures"
    refused = CliRunner().invoke(
        app,
        [
            "new",
            "tapestry",
            "--players",
            "2",
            "--expansions",
            "plans_and_ploys",
            "--civilization-box",
            "fantasies_and_futures",
            "--server",
            annales_server.target,
            "--tokens",
            str(tmp_path / "other.json"),
        ],
    )
    assert refused.exit_code != 0 and "civilization_box" in refused.output, refused.output
    assert "Traceback" not in refused.output


def test_solo_tapestry_with_the_boxes(annales_server: ServerProcess, tmp_path: Path) -> None:
    """``annales new tapestry --players 1 --expansions …``: a solo game with the three boxes
    is created and played to the end by ``annales bots``; its notes name the Plans & Ploys
    landmark cards the solo rules would deal, and ``replay`` shows the favourite's 2 tokens."""
    tokens = tmp_path / "tokens.json"
    created = cli(
        "new", "tapestry", "--players", "1", "--automa-level", "3", "--seed", "solo-boxes-cli",
        "--expansions", "plans_and_ploys,arts_and_architecture,fantasies_and_futures",
        "--server", annales_server.target, "--tokens", str(tokens),
    )  # fmt: skip
    game_id = created_id(created.output)
    played = cli("bots", game_id, "--seats", "0", "--bot", "random", "--tokens", str(tokens))
    assert "game finished" in played.output, played.output
    with AnnalesClient(annales_server.target) as client:
        game = client.get_game(game_id).game
    assert game.parties and game.parties[0].name == "Automa"
    assert any(n.startswith("plans_and_ploys (solo):") for n in game.notes)
    final = cli("replay", game_id, "--tokens", str(tokens))
    assert "(2 tokens)" in final.output and "Traceback" not in final.output


def test_unknown_expansion_refused_clearly(annales_server: ServerProcess, tmp_path: Path) -> None:
    """An unknown box or a box twice: a message naming it, no traceback, a non-zero exit."""
    runner = CliRunner()
    for boxes, expected in (
        ("plans_and_ploys,atlantis", "atlantis"),
        ("plans_and_ploys,plans_and_ploys", "twice"),
    ):
        result = runner.invoke(
            app,
            ["new", "tapestry", "--expansions", boxes, "--server", annales_server.target,
             "--tokens", str(tmp_path / "t.json")],
        )  # fmt: skip
        assert result.exit_code != 0
        assert expected in result.output and "Traceback" not in result.output
    refused = runner.invoke(
        app,
        ["new", "riseandfall", "--expansions", "plans_and_ploys", "--server",
         annales_server.target, "--tokens", str(tmp_path / "t.json")],
    )  # fmt: skip
    assert refused.exit_code != 0 and "--expansions is an option of tapestry" in refused.output


def test_terminal_describes_the_treasure_hunters() -> None:
    """The terminal names a treasure claim (terrain, hex), a kept treasure die and a die thrown
    alone (``DieRolled``, its face's benefit)."""
    from annales.v1 import annales_pb2 as pb
    from annales.v1 import tapestry_pb2 as tp
    from annales_cli.render import describe_action, describe_event
    from annales_client.games import command_to_action

    from domain.tapestry.commands import Choose

    view = {
        "frame": {"kind": "treasure_hunters", "ints": []},
        "hexes": [{"q": 0, "r": 0}] * 24 + [{"q": 2, "r": -1}],
    }
    claim = command_to_action("tapestry", Choose(index=3 * 100 + 24))
    assert describe_action(claim, view, ["ann", "bob"]) == (
        "claim the forest treasure with a token at (2,-1)"
    )
    die_view = {"frame": {"kind": "treasure_die", "ints": [24, 0, 0, 3]}}
    kept = describe_action(command_to_action("tapestry", Choose(index=0)), die_view, ["a", "b"])
    assert kept == "keep the red die: 5 VP"
    event = pb.GameEvent(
        seq=7,
        seat=0,
        kind="DieRolled",
        tapestry=tp.TapestryEvent(die_rolled=tp.TapestryDieRolled(seat=0, die="red", face=0)),
    )
    line = describe_event(event, ["ann", "bob"])
    assert "DieRolled" in line and "5 VP" in line and "die red" in line


def test_terminal_shows_the_collectors_and_urban_planners_mats() -> None:
    """The terminal shows what lies on a Collectors mat (face-down ones as such) and the
    landmarks parked by the Urban Planners, and names their answers."""
    from annales_cli.render import describe_action
    from annales_cli.render_tapestry import civ_mats
    from annales_client.games import command_to_action

    from domain.tapestry.commands import Choose

    seat = {"civ_tokens": {"collectors": {"values": [1, 0, 2, -1, 0, 0, 5]}}}
    assert (
        civ_mats(seat) == "collected: outpost, landmark Apothecary (#2), tapestry card (face down)"
    )
    assert civ_mats({"civ_tokens": {"urban_planners": [6]}}) == "parked: Barracks (#6)"
    assert civ_mats({"civ_tokens": {}}) == ""
    names = ["ann", "bob"]
    park = command_to_action("tapestry", Choose(index=200))
    assert "Urban Planners mat" in describe_action(park, {"frame": {"kind": "build"}}, names)
    shelve = command_to_action("tapestry", Choose(index=100))
    assert describe_action(shelve, {"frame": {"kind": "conquer"}}, names) == (
        "put the outpost on the Collectors mat for its reward"
    )
    build = command_to_action("tapestry", Choose(index=6))
    assert "Barracks" in describe_action(build, {"frame": {"kind": "turn"}}, names)
    merfolk = {  # the Merfolk's card turns after their fifth income turn: a Choose is a card
        "frame": {"kind": "turn", "seat": 0},
        "seats": [{"civ_tokens": {"_plays_on": {"values": [2]}}}],
    }
    assert describe_action(build, merfolk, names).startswith("discard ")
    card = command_to_action("tapestry", Choose(index=31))
    tile = describe_action(card, {"frame": {"kind": "collectors", "ints": [4, 31]}}, names)
    assert tile == "put the territory tile #31 on the Collectors mat"


def test_terminal_describes_the_plans_and_ploys_mats() -> None:
    """The terminal names the Aliens', Infiltrators', Islanders' and Advisors' choices, shows
    what their mats hold, and describes a card handed over (``TapestryGiven``) and a tile put
    on the island (``IslandTileExplored``)."""
    from annales.v1 import annales_pb2 as pb
    from annales.v1 import tapestry_pb2 as tp
    from annales_cli.render import describe_action, describe_event
    from annales_cli.render_tapestry_pp import mat_parts
    from annales_client.games import command_to_action

    from domain.tapestry.commands import Choose

    names = ["ann", "bob", "cy"]

    def said(kind: str, index: int) -> str:
        action = command_to_action("tapestry", Choose(index=index))
        return describe_action(action, {"frame": {"kind": kind, "ints": []}}, names)

    assert said("aliens", 105) == (
        "throw the mat's space tile away, then explore space tile #5 onto the mat paying a resource"
    )
    assert said("aliens", 0) == "gain a resource of choice"
    assert said("infiltrators", 1002) == "mark cy#2's capital"
    assert said("infiltrators", 12) == "put an outpost beside the lone outpost at hex 12"
    assert said("islanders", 10023) == "territory tile #2 turned 3 on the island's hex 1"
    assert said("explore", 20071) == "territory tile #7 turned 1 on the island's hex 2"
    assert said("islanders_gained", 1) == "give them back and draw another"
    assert said("advisors_gift", 72).endswith("to cy#2 (5 VP)")
    seat = {
        "civ_tokens": {
            "aliens": [5],
            "islanders": [2, 0, 0, 0, 7, 3, 0, 0, 0, 0, 0, 0],
            "infiltrators": [0, 2, 1],
        }
    }
    assert mat_parts(seat, names) == [
        "Aliens' mat: space 5",
        "island 1:#2/0, 3:#7/3",
        "marks bob#1 2, cy#2 1",
    ]
    island = pb.GameEvent(
        seq=9,
        seat=0,
        kind="IslandTileExplored",
        tapestry=tp.TapestryEvent(
            island_tile_explored=tp.TapestryIslandTileExplored(seat=0, hex=3, tile=21, rotation=5)
        ),
    )
    assert "the island's hex 3" in describe_event(island, names)
    given = pb.GameEvent(
        seq=10,
        seat=0,
        kind="TapestryGiven",
        tapestry=tp.TapestryEvent(tapestry_given=tp.TapestryTapestryGiven(seat=0, to=1, card=7)),
    )
    line = describe_event(given, names)
    assert "TapestryGiven" in line and "to bob#1" in line


def test_terminal_describes_the_spies_tinkerers_and_utilitarians() -> None:
    """The terminal names a Spy's copy (neighbour and what is copied), a Tinkerer's option
    (option, track, token) and the Utilitarians' token decisions (the landmark)."""
    from annales_cli.render import describe_action
    from annales_client.games import command_to_action

    from domain.tapestry.commands import Choose

    names = ["ann", "bob"]

    def said(kind: str, index: int) -> str:
        view = {"frame": {"kind": kind, "ints": []}}
        return describe_action(command_to_action("tapestry", Choose(index=index)), view, names)

    assert said("spies", 1 * 10_000 + 1 * 1_000 + 1) == "copy bob#1's territory tile #1"
    assert said("spies", 2 * 10_000 + 1 * 1_000 + 1) == "copy bob#1's science space"
    assert said("tinkerers", 3 * 100 + 0 * 10) == "jump to the next bonus on exploration (token 0)"
    assert said("utilitarians_place", 10) == "a token on Forge (#10)"
    assert said("utilitarians_move", 3).startswith("move the token from Academy")


def test_terminal_shows_the_plans_and_ploys_mats_tokens() -> None:
    """The seats' tables and "You" name the Spies' and Tinkerers' options used and the landmarks
    holding the Utilitarians' tokens (``civ_tokens``, as a list or an ``IntList``)."""
    from annales_cli.render_tapestry import civ_mats, mat_tokens_text

    seat = {"civ_tokens": {"spies": {"values": [1, 3]}, "tinkerers": [0, 3]}}
    assert mat_tokens_text(seat) == (
        "spies options used: tile, tech card; tinkerers options used: refund, jump"
    )
    assert civ_mats({"civ_tokens": {"utilitarians": [10, 3]}}) == (
        "utilitarian tokens on: Forge (#10), Academy (#3)"
    )
    assert mat_tokens_text({"civ_tokens": {}}) == ""
