"""The Node.js client plays a solo Tapestry game (against the Automa) through the public
gRPC API: ``node src/play.js --solo-tapestry 6`` creates a 1-seat game at Automa level 6,
plays it to the end with seeded random choices, watches, exports and verifies it; its summary
lists the Automa as a non-seat party."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.clients.test_node_client import NODE_DIR, PLAY_TIMEOUT, node, node_server

__all__ = ["node", "node_server"]


def test_node_client_plays_a_solo_game(node: str, node_server: tuple[str, Path]) -> None:
    target, log = node_server
    command = [node, "src/play.js", "--target", target, "--solo-tapestry", "6", "--seed", "5"]
    done = subprocess.run(
        command, cwd=NODE_DIR, capture_output=True, text=True, timeout=PLAY_TIMEOUT, check=False
    )
    report = f"stdout:\n{done.stdout}\nstderr:\n{done.stderr}\nlog:\n{log.read_text()[-2000:]}"
    assert done.returncode == 0, report
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert summary["verified"] is True and summary["players"] == 1, report
    assert len(summary["scores"]) == 1, report
    (party,) = summary["parties"]
    assert party["name"] == "Automa" and party["score"] > 0, report
    human_won = summary["winners"] == [0]
    assert bool(party.get("winner", False)) == (not human_won), report
