"""The ``annales`` CLI and the Python client play Tapestry against a real server.

Every test talks to a server subprocess (see ``conftest.py``) over gRPC on loopback:

* ``annales new tapestry`` (and its aliases; another game's options are refused), then
  ``annales bots`` with greedy bots on every seat until the game ends;
* ``replay --to`` / ``--step``, ``watch`` and ``history`` of the finished game;
* ``annales play`` driven through stdin for one seat while a random bot plays the others;
* a seat's view rendered to text: its resources, VP, hand, the pending prompt and options;
* ``annales demo --game tapestry`` on a local SQLite store.
"""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path
from typing import Any

import pytest
from annales.v1 import annales_pb2 as pb
from annales_cli.main import app
from annales_cli.render import describe_action, render_view
from annales_cli.render_tapestry import resources_text
from annales_cli.render_tapestry_boxes import box_choose_text, income_mat_notes, own_notes
from annales_client import AnnalesClient, Seat, make_api_bot, play_seats, view_data
from rich.console import Console
from typer.testing import CliRunner

from tests.clients.conftest import ServerProcess

runner = CliRunner()


def cli(*args: str, input: str | None = None) -> Any:
    """Run ``annales`` in-process; fails the test with its output on a non-zero exit."""
    result = runner.invoke(app, list(args), input=input, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


def created_id(output: str) -> str:
    """The game id printed by ``annales new``."""
    found = re.search(r"game (\w+) created", output)
    assert found, output
    return found.group(1)


@pytest.fixture(scope="module")
def tapestry_game(annales_server: ServerProcess, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A 3-seat Tapestry game created with ``annales new`` and finished by ``annales bots``."""
    tokens = tmp_path_factory.mktemp("tapestry-cli") / "tokens.json"
    server = annales_server.target
    created = cli(
        "new",
        "tapestry",
        "--players",
        "3",
        "--seed",
        "tapestry-cli",
        "--names",
        "ann,bob,cy",
        "--civilizations",
        "2",
        "--server",
        server,
        "--tokens",
        str(tokens),
    )
    game_id = created_id(created.output)
    saved = json.loads(tokens.read_text())[game_id]
    assert saved["game"] == "tapestry" and [s["name"] for s in saved["seats"]] == [
        "ann",
        "bob",
        "cy",
    ]
    played = cli(
        "bots", game_id[:10], "--seats", "0,1,2", "--bot", "greedy", "--tokens", str(tokens)
    )
    assert "game finished" in played.output and "winners" in played.output, played.output
    return {"id": game_id, "tokens": str(tokens), "server": server}


def test_new_accepts_aliases_and_refuses_other_games_options(
    annales_server: ServerProcess, tmp_path: Path
) -> None:
    tokens = ("--server", annales_server.target, "--tokens", str(tmp_path / "t.json"))
    game_id = created_id(cli("new", "tap", "-n", "2", *tokens).output)
    with AnnalesClient(annales_server.target) as client:
        summary = client.get_game(game_id).game
    assert summary.game_type == pb.GAME_TYPE_TAPESTRY and len(summary.seat_names) == 2
    wrong = runner.invoke(app, ["new", "tapestry", "--trophies", "5", *tokens])
    assert wrong.exit_code == 1 and "--trophies is an option of riseandfall" in wrong.output
    unknown = runner.invoke(app, ["new", "chess", *tokens])
    assert unknown.exit_code == 1 and "known: riseandfall, tapestry" in unknown.output


def test_bots_finish_the_game(tapestry_game: dict[str, str]) -> None:
    with AnnalesClient(tapestry_game["server"]) as client:
        response = client.get_game(tapestry_game["id"])
    summary = response.game
    assert summary.status == pb.GAME_STATUS_FINISHED and summary.seed
    assert len(summary.scores) == 3 and summary.winners
    view = view_data(response.view)
    assert view["phase"] == "over" and all(s["income_turns"] == 5 for s in view["seats"])


def test_replay_watch_history(tapestry_game: dict[str, str]) -> None:
    tokens = ("--tokens", tapestry_game["tokens"])
    replayed = cli("replay", tapestry_game["id"], "--to", "120", *tokens)
    assert "Tapestry — " in replayed.output and "version 120/" in replayed.output
    assert "Seats" in replayed.output and "last event:   120 " in replayed.output
    stepped = cli(
        "replay", tapestry_game["id"], "--to", "120", "--step", *tokens, input="n\np\np\nq\n"
    )
    assert [int(v) for v in re.findall(r"version (\d+)/\d+ \(", stepped.output)] == [
        120,
        121,
        120,
        119,
    ]
    final = cli("replay", tapestry_game["id"], *tokens)
    assert "Game over — final scores" in final.output and "winner(s)" in final.output
    with AnnalesClient(tapestry_game["server"]) as client:
        head = client.get_game(tapestry_game["id"]).game.head_version
    watched = cli("watch", tapestry_game["id"], "--after", str(head - 5), *tokens)
    assert "GameEnded" in watched.output and "game over" in watched.output
    assert "SeedRevealed" in watched.output
    history = cli("history", tapestry_game["id"], "--page-size", "10", "--limit", "40", *tokens)
    assert "page 4" in history.output and "GameCreated" in history.output
    assert re.search(r"CapitalChosen: capital \w+ \(#\d+\); home \(-?\d+,-?\d+\)", history.output)
    assert not re.search(r"Traceback|Error", history.output)


def test_render_a_seat_view_to_text(annales_server: ServerProcess) -> None:
    """Mid-game, the seat to act sees its resources, VP, hand, the prompt and the options."""
    with AnnalesClient(annales_server.target) as client:
        game = client.create_game("tapestry", ["ann", "bob"], seed="render")
        bots = {seat: make_api_bot("random", f"r{seat.seat}".encode()) for seat in game.seats}
        play_seats(client, bots, max_actions=25)
        seat = next(s for s in game.seats if client.list_legal_actions(s).actions)
        listed = client.list_legal_actions(seat)
        response = client.get_view(seat)
    view = view_data(response.view)
    me = view["seats"][seat.seat]
    console = Console(record=True, width=160, color_system=None)
    console.print(render_view(response.view, ["ann", "bob"], response.game))
    text = console.export_text()
    assert f"You ({['ann', 'bob'][seat.seat]}#{seat.seat}): {me['vp']} VP" in text
    assert f"resources: {resources_text(me['resources'])}" in text
    assert view["prompt"] and view["prompt"] in text
    assert f"decision: {view['decision']}" in text
    assert "Map: " in text and "Cards and tiles" in text
    for action in listed.actions:
        described = describe_action(action, view, ["ann", "bob"])
        assert described and "{" not in described, described


def test_play_from_stdin(annales_server: ServerProcess, tmp_path: Path) -> None:
    """Seat 0 keeps a capital and a civilization, then answers its next decisions (its
    civilization's start resources, its first income turn...) with their first option."""
    tokens = tmp_path / "tokens.json"
    server = annales_server.target
    created = cli(
        "new", "tapestry", "-n", "2", "--seed", "play", "--server", server, "--tokens", str(tokens)
    )
    game_id = created_id(created.output)
    entry = json.loads(tokens.read_text())[game_id]
    seats = [Seat(game_id, s["seat"], s["token"]) for s in entry["seats"]]
    with AnnalesClient(server) as client:
        stop = threading.Event()
        opponent = threading.Thread(
            target=play_seats,
            args=(client, {seats[1]: make_api_bot("random", b"opp")}),
            kwargs={"should_stop": stop.is_set, "wait_seconds": 0.5},
        )
        opponent.start()
        try:
            played = cli(
                "play", game_id, "--seat", "0", "--tokens", str(tokens), input="1\n" * 8 + "q\n"
            )
        finally:
            stop.set()
            opponent.join(timeout=30)
        assert "keep capital" in played.output and "keep civilization" in played.output
        assert "Keep one capital and one civilization." in played.output
        assert "take an income turn" in played.output
        mine = [e.kind for e in client.history(game_id) if e.seat == 0]
        assert {"CapitalChosen", "CivilizationChosen", "IncomeTurnStarted"} <= set(mine)


def test_demo_plays_tapestry_locally(tmp_path: Path) -> None:
    db = tmp_path / "demo.db"
    result = cli("demo", "--game", "tapestry", "--players", "2", "--seed", "d", "--db", str(db))
    assert "era 5" in result.output and "Final score sheet" in result.output


def test_income_mat_notes_show_the_artificers_gaps() -> None:
    """The seats table's buildings column notes an income mat with gaps (the Artificers'
    slides) and the buildings set aside; a standard mat adds nothing."""
    seat = {"income_covered": {"farm": [2, 4, 5]}, "buildings_aside": {"house": 1}}
    assert income_mat_notes(seat) == " (farm covers 2,4,5; aside house 1)"
    assert income_mat_notes({"income_covered": {"farm": {"values": [1, 3]}}}) == (
        " (farm covers 1,3)"
    )
    assert income_mat_notes({}) == ""


def test_expansion_decisions_read_as_text() -> None:
    """The Psionics', Artificers' and Merfolk's choices are worded, not numbered; other
    decisions are left to the base texts."""
    assert box_choose_text("dice_pick", 23, (), "").startswith("keep red ")
    assert box_choose_text("artificers_move", 21, (), "") == (
        "slide one space left the leftmost farm"
    )
    assert box_choose_text("artificers_final", 0, (), "") == (
        "1 VP per income building in your capital"
    )
    assert box_choose_text("options_keep", 7, (), "territory") == "keep territory tile #7"
    assert box_choose_text("research_pick", 2, (1, 0, 3, 2), "") == "keep the roll: technology"
    assert box_choose_text("research_pick", 1, (1, 0, 3), "") is None
    assert box_choose_text("alchemy_pick", 0, (3, 1), "") == "keep the roll: military"
    assert box_choose_text("choose", 0, (), "") is None


def test_own_notes_show_sunk_cards_and_a_pending_draw() -> None:
    """The viewer's own panel lists the Merfolk's cards under the mat and a Psionics draw
    waiting for its keeps (the view gives them to their seat only)."""
    me = {"civ_tokens": {"merfolk_sunk": {"values": [1]}, "psionics_offer": [1, 2, 0, 7, 9]}}
    lines = own_notes(me)
    assert lines[0].startswith("under the mat: ")
    assert lines[1] == "drawn, one kept per 2: territory tile #7, territory tile #9"
    assert own_notes({}) == []
