"""``annales variant``: a Tapestry game with the rulebook's variants ("VARIANTES"), or under a
chosen ruleset, created against a real server (subprocess, gRPC on loopback)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from annales.v1 import annales_pb2 as pb
from annales_cli.main import app
from annales_client import AnnalesClient
from typer.testing import CliRunner

from tests.clients.conftest import ServerProcess

runner = CliRunner()


def _game(server: ServerProcess, output: str) -> pb.GameSummary:
    found = re.search(r"game (\w+) created", output)
    assert found, output
    with AnnalesClient(server.target) as client:
        return client.get_game(found.group(1)).game


def test_variant_creates_a_tapestry_game_of_the_newest_ruleset_with_the_variants(
    annales_server: ServerProcess, tmp_path: Path
) -> None:
    """``annales variant tapestry -v draw-two-tapestry --remove-tech radio``: the newest
    ruleset (``tapestry/4``), the variant and the removed card stored in the game's options."""
    result = runner.invoke(
        app,
        [
            "variant", "tapestry", "-v", "draw-two-tapestry", "-v", "nanotechnology-two-cards",
            "-v", "island-start", "--remove-tech", "radio", "--players", "2",
            "--seed", "cli-variant",
            "--server", annales_server.target, "--tokens", str(tmp_path / "tokens.json"),
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    game = _game(annales_server, result.output)
    options = json.loads(game.options_json)
    assert game.ruleset == "tapestry/4"
    assert options["draw_two_tapestry"] and options["nanotechnology_two_cards"]
    assert options["island_start"]
    assert options["removed_tech_cards"] == ["radio"]


def test_variant_under_tapestry_1_is_refused_naming_the_option(
    annales_server: ServerProcess, tmp_path: Path
) -> None:
    """``tapestry/1`` has no variants: a clear message, no traceback, exit code 1."""
    result = runner.invoke(
        app,
        [
            "variant", "tapestry", "--ruleset", "tapestry/1", "-v", "draw-two-tapestry",
            "--server", annales_server.target, "--tokens", str(tmp_path / "tokens.json"),
        ],
    )  # fmt: skip
    assert result.exit_code != 0
    assert "draw_two_tapestry" in result.output and "Traceback" not in result.output


def test_plain_ruleset_choice_and_unknown_variant(
    annales_server: ServerProcess, tmp_path: Path
) -> None:
    """No variant, ``--ruleset tapestry/1``: an old-rules game; an unknown variant is named
    with the known ones before anything is sent."""
    result = runner.invoke(
        app,
        [
            "variant", "tap", "--ruleset", "tapestry/1", "--players", "2",
            "--server", annales_server.target, "--tokens", str(tmp_path / "tokens.json"),
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert _game(annales_server, result.output).ruleset == "tapestry/1"
    bad = runner.invoke(app, ["variant", "tapestry", "-v", "science-die"])
    assert bad.exit_code == 1 and "unknown variant 'science-die'" in bad.output
    assert "draw-two-tapestry" in bad.output and "island-start" in bad.output
