"""A scripted terminal session — ``annales play`` on an 80-column pseudo-terminal
(tests/clients/terminal.py) plays a few moves of each game against ``annales bots``, takes
back its own move, and the screen is checked: the game's view, the prompt, the undo aimed at
the version of *its* last move, no traceback."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.clients.conftest import ROOT, ServerProcess
from tests.clients.terminal import Terminal

#: game -> text its view shows
TITLES = {"riseandfall": "Rise & Fall", "tapestry": "Tapestry", "imperium": "Imperium"}
PROMPT = r"\(version (\d+)\)"
#: games whose first moves reveal hidden cards (Imperium draws): no undo can reach past them,
#: and ``u`` must say why instead
REVEALING = {"imperium"}
ASK = r"actions\] NUMBER play it"


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "annales_cli.main", *args]


@pytest.mark.parametrize("game", sorted(TITLES))
def test_play_a_few_moves_and_undo_my_own(
    annales_server: ServerProcess, tmp_path: Path, game: str
) -> None:
    """Three moves, then ``u``: the undo takes back my move (at once, or by asking the
    other seat to go back to the version my move was chosen at)."""
    env = {**os.environ, "ANNALES_TOKENS": str(tmp_path / "tokens.json")}
    env["ANNALES_SERVER"] = annales_server.target
    created = subprocess.run(
        _cli("new", game, "--players", "2", "--seed", f"terminal-{game}", "--names", "me,bot"),
        env=env, cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert created.returncode == 0, created.stderr
    game_id = re.search(r"game (\w+) created", created.stdout)
    assert game_id, created.stdout
    bots = subprocess.Popen(
        _cli("bots", game_id.group(1), "--seats", "1", "--seed", "terminal"),
        env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    terminal = Terminal(_cli("play", game_id.group(1)[:8], "--seat", "0"), env, str(ROOT))
    try:
        terminal.expect(re.escape(TITLES[game]))
        version = 0
        for _ in range(3):
            version = int(terminal.expect(PROMPT).group(1))
            terminal.expect(ASK)
            terminal.send("1")
        terminal.expect(PROMPT)
        terminal.expect(ASK)
        terminal.send("u")
        undone = terminal.expect(
            r"your last move is taken back|back to\s+version\s+(\d+)|nothing of yours to undo"
        )
        if undone.group(0).startswith("back to"):
            assert int(undone.group(1)) == version, terminal.screen[-2000:]
            terminal.expect(r"send the request\? \[y/n\]")
            terminal.send("n")
            terminal.expect("no request sent")
        elif game in REVEALING:
            pass  # the explanation is the right answer: my moves revealed cards
        else:
            assert "nothing of yours" not in undone.group(0), terminal.screen[-2000:]
        terminal.expect(ASK)
        terminal.send("q")
        terminal.expect("bye")
        assert terminal.close() == 0
    finally:
        terminal.close() if terminal.process.poll() is None else None
        bots.terminate()
        bots.wait(timeout=10)
    assert "Traceback" not in terminal.screen
    cut = [line for line in terminal.screen.splitlines() if "…│" in line or "…┃" in line]
    assert not cut, cut[:3]  # no table cell cut short at 80 columns


def test_play_a_solo_tapestry_game_against_the_automa(
    annales_server: ServerProcess, tmp_path: Path
) -> None:
    """``annales new tapestry --players 1 --automa-level 3`` then ``annales play``: the screen
    shows the Automa's board, the bots' turns happen inside my commands (no other process),
    and a few moves go through without a traceback."""
    env = {**os.environ, "ANNALES_TOKENS": str(tmp_path / "tokens.json")}
    env["ANNALES_SERVER"] = annales_server.target
    created = subprocess.run(
        _cli("new", "tapestry", "--players", "1", "--automa-level", "3", "--seed",
             "terminal-solo", "--names", "me"),
        env=env, cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert created.returncode == 0, created.stderr
    game_id = re.search(r"game (\w+) created", created.stdout)
    assert game_id, created.stdout
    terminal = Terminal(_cli("play", game_id.group(1)[:8], "--seat", "0"), env, str(ROOT))
    try:
        terminal.expect("Automa")
        versions = []
        for _ in range(4):
            versions.append(int(terminal.expect(PROMPT).group(1)))
            terminal.expect(ASK)
            terminal.send("1")
        versions.append(int(terminal.expect(PROMPT).group(1)))
        assert versions == sorted(versions) and versions[-1] > versions[0]
        terminal.expect(ASK)
        terminal.send("q")
        terminal.expect("bye")
        assert terminal.close() == 0
    finally:
        terminal.close() if terminal.process.poll() is None else None
    assert "Traceback" not in terminal.screen
