"""The ``annales`` CLI and the Python client play solo Tapestry (against the Automa and the
Shadow Empire) on a real server (see ``conftest.py``):

* ``annales new tapestry --players 1 --automa-level 6`` then ``annales bots`` on the one seat
  until the game ends; the summary lists the Automa as a non-seat party with its score;
* ``replay`` and ``watch`` of the finished game show the bots' boards and events;
* a bad option (``--shadow-empire`` with 1 seat, ``--automa-level 7``) is refused with a clear
  message and no traceback.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from annales.v1 import annales_pb2 as pb
from annales_cli.main import app
from annales_client import AnnalesClient, view_data
from typer.testing import CliRunner

from tests.clients.conftest import ServerProcess
from tests.clients.test_tapestry_cli import cli, created_id


def test_solo_game_through_the_cli(annales_server: ServerProcess, tmp_path: Path) -> None:
    tokens = tmp_path / "tokens.json"
    server = annales_server.target
    created = cli(
        "new", "tapestry", "--players", "1", "--automa-level", "6", "--seed", "solo-cli",
        "--server", server, "--tokens", str(tokens),
    )  # fmt: skip
    game_id = created_id(created.output)
    assert len(json.loads(tokens.read_text())[game_id]["seats"]) == 1
    played = cli("bots", game_id, "--seats", "0", "--bot", "greedy", "--tokens", str(tokens))
    assert "game finished" in played.output, played.output
    with AnnalesClient(server) as client:
        response = client.get_game(game_id)
    summary = response.game
    assert summary.status == pb.GAME_STATUS_FINISHED and len(summary.scores) == 1
    (party,) = summary.parties
    view = view_data(response.view)
    assert party.name == "Automa" and party.score == view["solo"]["vp"]
    assert party.winner == (not summary.winners)
    assert view["solo"]["level"] == 6 and view["solo"]["finished"]
    assert len(view["solo"]["extra_civilizations"]) == 1  # level 6: a second card
    final = cli("replay", game_id, "--tokens", str(tokens))
    assert "Bots — Automa level 6" in final.output and "Shadow Empire:" in final.output
    assert " + " in final.output.split("Automa level 6", 1)[1].split(":", 1)[0]
    assert "Game over — final scores" in final.output
    head = summary.head_version
    watched = cli("watch", game_id, "--after", str(max(0, head - 40)), "--tokens", str(tokens))
    assert re.search(r"Automa\w+", watched.output) and "GameEnded" in watched.output
    assert "Traceback" not in watched.output + final.output


def test_solo_options_refused_clearly(annales_server: ServerProcess, tmp_path: Path) -> None:
    runner = CliRunner()
    for extra in (["--shadow-empire"], ["--automa-level", "7"]):
        result = runner.invoke(
            app,
            ["new", "tapestry", "--players", "1", *extra, "--server", annales_server.target,
             "--tokens", str(tmp_path / "t.json")],
        )  # fmt: skip
        assert result.exit_code != 0
        assert "Traceback" not in result.output
        field = "shadow_empire" if "--shadow-empire" in extra else "automa_level"
        assert field in result.output, result.output
