"""``annales content report --game NAME``: every assumed content fact of any registered game."""

from __future__ import annotations

import pytest
from annales_cli.main import app
from typer.testing import CliRunner

from domain.registry import GAMES


@pytest.mark.parametrize("name", sorted(GAMES))
def test_content_report_lists_each_games_assumptions(name: str) -> None:
    """The report prints one ``- `` line per ``Game.assumptions()`` entry, unwrapped, then,
    when the game has any, the ``Game.missing_content()`` lines under "not in our sources"."""
    expected = GAMES[name].assumptions()
    assert expected, f"{name} lists no assumption"
    result = CliRunner().invoke(app, ["content", "report", "--game", name])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    missing = GAMES[name].missing_content()
    tail = ["not in our sources:", *(f"- {line}" for line in missing)] if missing else []
    assert lines == [f"- {line}" for line in expected] + tail


def test_tapestry_report_names_its_content_files() -> None:
    """Tapestry's lines are ``<file>#<record>: <note>`` from ``domain/tapestry/content``."""
    result = CliRunner().invoke(app, ["content", "report", "--game", "tapestry"])
    assert result.exit_code == 0
    assert any(line.startswith("- tracks.json#") for line in result.output.splitlines())
    assert any(line.startswith("- civilizations.json#") for line in result.output.splitlines())


def test_an_unknown_game_is_refused() -> None:
    result = CliRunner().invoke(app, ["content", "report", "--game", "chess"])
    assert result.exit_code == 2
    assert "riseandfall, tapestry" in result.output
