"""The Node.js client plays Tapestry with the expansion boxes through the public gRPC API.

``node src/play.js --tapestry --expansions all --civilizations …`` creates a 4-seat game
with every box and the Plans & Ploys civilizations the Node client had no wording for
(Treasure Hunters, Spies, Tinkerers, Utilitarians), plays it to the end with seeded random
choices, watches, exports and verifies it; ``--solo-tapestry 3 --expansions all`` does the
same for a solo game. The summary must name what the boxes bring: the server's notes
(``GameSummary.notes``, compared with a Python GetGame of the same game), each seat's
civilizations (ids) and counters (``civ_tokens`` keys), the box decisions answered, with the
server's sentence for each on stderr (``--prompts``).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import grpc
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc

from domain.tapestry import content as C
from domain.tapestry.prompts import PROMPTS
from tests.clients.test_node_client import NODE_DIR, PLAY_TIMEOUT, node, node_server

__all__ = ["node", "node_server"]

BOXES = ["plans_and_ploys", "arts_and_architecture", "fantasies_and_futures"]
CIVS = ["treasure_hunters", "spies", "tinkerers", "utilitarians"]


def _play(node: str, target: str, log: Path, *args: str) -> tuple[dict[str, Any], str]:
    """Run play.js against ``target``; its JSON summary and its stderr."""
    command = [node, "src/play.js", "--target", target, *args]
    done = subprocess.run(
        command, cwd=NODE_DIR, capture_output=True, text=True, timeout=PLAY_TIMEOUT, check=False
    )
    report = (
        f"stdout:\n{done.stdout}\nstderr:\n{done.stderr[-3000:]}\nlog:\n{log.read_text()[-2000:]}"
    )
    assert done.returncode == 0, report
    summary: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    assert summary["verified"] is True and summary["watched"] == summary["events"], report
    return summary, done.stderr


def _server_notes(target: str, game_id: str) -> list[str]:
    """GameSummary.notes of ``game_id`` as the Python gRPC stub reads them."""
    with grpc.insecure_channel(target) as channel:
        stub = annales_pb2_grpc.GameServiceStub(channel)
        answer = stub.GetGame(pb.GetGameRequest(game_id=game_id), timeout=10)
    return list(answer.game.notes)


def _civ_id(key: str) -> int:
    (found,) = [c for c, civ in C.CIVILIZATIONS.items() if civ.key == key]
    return found


def test_node_client_plays_tapestry_with_every_box(
    node: str, node_server: tuple[str, Path]
) -> None:
    target, log = node_server
    summary, stderr = _play(
        node,
        target,
        log,
        *("--tapestry", "--players", "4", "--seed", "3", "--expansions", "all"),
        *("--civilizations", ",".join(CIVS), "--prompts"),
    )
    assert summary["expansions"] == BOXES
    assert len(summary["scores"]) == 4 and summary["winners"]
    # the boxes' components left out of play, one note per box, as GetGame says them
    assert summary["notes"] == _server_notes(target, summary["game_id"])
    assert [note.split(":")[0] for note in summary["notes"]] == BOXES
    # each seat starts with the civilization asked for; its counters are keyed by its key
    seats = summary["seats"]
    assert [seat["seat"] for seat in seats] == [0, 1, 2, 3]
    for seat, key in zip(seats, CIVS, strict=True):
        assert seat["civilizations"][0] == _civ_id(key)
        assert key in seat["civ_tokens"], seat
    assert [seat["vp"] for seat in seats] == summary["scores"]
    # the civilizations' own decisions were answered, each shown with the server's sentence
    for decision in ("treasure_hunters", "spies", "tinkerers", "utilitarians_move"):
        assert summary["decisions"][decision] > 0, summary["decisions"]
        prompt = PROMPTS[decision][1]
        assert any(
            line.split(" ", 3)[3] == f"{decision}: {prompt}" for line in stderr.splitlines()
        ), decision
    assert sum(summary["decisions"].values()) == summary["commands"]
    assert summary["event_kinds"]["CivTokensSet"] > 0
    assert sum(summary["event_kinds"].values()) == summary["events"]


def test_node_client_plays_solo_tapestry_with_every_box(
    node: str, node_server: tuple[str, Path]
) -> None:
    target, log = node_server
    summary, _ = _play(
        node, target, log, "--solo-tapestry", "3", "--seed", "5", "--expansions", "all"
    )
    assert summary["expansions"] == BOXES and summary["players"] == 1
    (party,) = summary["parties"]
    assert party["name"] == "Automa"
    notes = summary["notes"]
    assert notes == _server_notes(target, summary["game_id"])
    # one note per box, then the solo rules' Plans & Ploys change that cannot be played
    assert [note.split(":")[0] for note in notes[:3]] == BOXES
    assert notes[3].startswith("plans_and_ploys (solo):")
    (seat,) = summary["seats"]
    assert len(seat["civilizations"]) >= 1 and seat["vp"] == summary["scores"][0]


def test_node_client_refuses_bad_expansion_arguments(node: str) -> None:
    """Bad arguments exit 2 with the usage, before any call to a server."""
    for args, message in (
        (["--tapestry", "--expansions", "spies"], 'unknown box "spies"'),
        (["--tapestry", "--expansions", "plans_and_ploys,plans_and_ploys"], "named twice"),
        (["--expansions", "plans_and_ploys"], "need --tapestry or --solo-tapestry"),
        (["--tapestry", "--players", "2", "--civilizations", "a,b,c"], "more civilizations"),
        (["--tapestry", "--players", "6"], "--players must be 2 to 5"),
    ):
        done = subprocess.run(
            [node, "src/play.js", "--target", "127.0.0.1:1", *args],
            cwd=NODE_DIR,
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        assert done.returncode == 2, (args, done.stderr)
        assert message in done.stderr and "usage: node src/play.js" in done.stderr
        assert done.stdout == ""
