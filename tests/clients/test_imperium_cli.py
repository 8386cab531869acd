"""``annales new imperium`` with the options of both boxes, against a real server ("Combiner
les jeux Antique et Légendes": any of the 16 nations, the common cards of either box)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from annales_cli.main import app
from annales_client import AnnalesClient
from typer.testing import CliRunner

from domain.imperium import content as C
from tests.clients.conftest import ServerProcess

runner = CliRunner()


def test_new_imperium_game_with_nations_and_box(
    annales_server: ServerProcess, tmp_path: Path
) -> None:
    """``--nations`` fixes each seat's nation (both boxes mixed) and ``--box`` the common
    cards; the server's game carries both options and its view shows the nations."""
    nations = [C.LEGENDS_NATIONS[0], "romans"]
    tokens = tmp_path / "tokens.json"
    result = runner.invoke(
        app,
        [
            "new",
            "imperium",
            "--players",
            "2",
            "--seed",
            "imperium-cli",
            "--nations",
            ",".join(nations),
            "--box",
            "legends",
            "--server",
            annales_server.target,
            "--tokens",
            str(tokens),
        ],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    found = re.search(r"game (\w+) created", result.output)
    assert found, result.output
    with AnnalesClient(annales_server.target) as client:
        game = client.get_game(found.group(1))
    options = json.loads(game.game.options_json)
    assert options["nations"] == nations and options["box"] == "legends"
    assert [s.nation for s in game.view.imperium.seats] == nations


def test_imperium_options_are_refused_for_another_game(annales_server: ServerProcess) -> None:
    """Each game's own options are refused for another game (``--box`` is Imperium's)."""
    result = runner.invoke(
        app, ["new", "tapestry", "--box", "legends", "--server", annales_server.target]
    )
    assert result.exit_code != 0 and "imperium" in result.output


def test_a_bad_box_is_a_clear_error(annales_server: ServerProcess, tmp_path: Path) -> None:
    """An unknown box is refused by the server with the rule's message; nothing is saved."""
    tokens = tmp_path / "tokens.json"
    result = runner.invoke(
        app,
        [
            "new",
            "imperium",
            "--players",
            "2",
            "--box",
            "horizons",
            "--server",
            annales_server.target,
            "--tokens",
            str(tokens),
        ],
    )
    assert result.exit_code != 0 and "horizons" in result.output
    assert not tokens.exists()
