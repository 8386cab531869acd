"""The Node.js client plays a solo Imperium game against the C.I.V. on a real server and shows
the C.I.V.'s PartyScore (``GameSummary.parties``).

``node src/solo.js`` against a real ``annales serve`` subprocess (the fixtures of
``test_node_client``: skipped without ``node``/``npm``, failing when ``CI`` is set): one seat,
a seeded random human, the C.I.V.'s score public from the start, the final outcome consistent
with it (a tie goes to the C.I.V.), and the record verified by the server.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.clients.test_node_client import NODE_DIR, PLAY_TIMEOUT, node, node_server

__all__ = ["node", "node_server"]  # the fixtures, used by name below


@pytest.mark.parametrize(("seed", "human", "civ"), [("3", "romans", "celts")])
def test_node_client_plays_a_solo_game_and_shows_the_civ_score(
    node: str, node_server: tuple[str, Path], seed: str, human: str, civ: str
) -> None:
    target, log = node_server
    command = [node, "src/solo.js", "--target", target, "--seed", seed,
               "--nation", human, "--civ-nation", civ, "--difficulty", "chieftain"]  # fmt: skip
    done = subprocess.run(
        command, cwd=NODE_DIR, capture_output=True, text=True, timeout=PLAY_TIMEOUT, check=False
    )
    report = f"stdout:\n{done.stdout}\nstderr:\n{done.stderr}\nserver:\n{log.read_text()[-3000:]}"
    assert done.returncode == 0, report
    summary = json.loads(done.stdout.strip().splitlines()[-1])

    assert summary["verified"] is True and summary["commands"] > 0, report
    assert summary["civ_at_start"] == {"name": "C.I.V.", "score": 0, "winner": False}, report
    civ_score = summary["civ"]
    assert civ_score["name"] == "C.I.V." and civ_score["score"] >= 0, report
    # winners: [0] when the human beat the C.I.V.; [] when the C.I.V. won (ties included)
    human_won = summary["winners"] == [0]
    assert civ_score["winner"] is (not human_won), report
    if human_won:
        assert summary["human_score"] > civ_score["score"], report


def test_node_solo_refuses_an_unknown_level(node: str) -> None:
    """A bad ``--difficulty`` is a usage error (exit 2) naming the levels, no traceback."""
    done = subprocess.run(
        [node, "src/solo.js", "--difficulty", "emperor"], cwd=NODE_DIR, capture_output=True,
        text=True, timeout=30, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert "chieftain, warlord, imperator, sovereign, overlord" in done.stderr
    assert "at " not in done.stderr.splitlines()[0]
