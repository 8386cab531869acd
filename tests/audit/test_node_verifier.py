"""The record format is a specification a stranger can implement: the
Node.js verifier ``clients/node/src/verify.js``, written from ``docs/record-format.md`` with no
dependency and no server, recomputes every hash of a record and checks the seed commitment."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import msgspec
import pytest

from service.app.application import GameService
from service.audit.format import canonical
from service.audit.records import judge_record
from tests.audit.helpers import export, play

NODE = shutil.which("node") or "/usr/bin/node"
SCRIPT = Path(__file__).parents[2] / "clients" / "node" / "src" / "verify.js"
FIXTURES = Path(__file__).parent / "fixtures"

pytestmark = pytest.mark.skipif(not Path(NODE).exists(), reason="node is not installed")


def _node(path: Path) -> tuple[int, dict[str, object]]:
    done = subprocess.run([NODE, str(SCRIPT), str(path)], capture_output=True, text=True,
                          check=False, timeout=120)  # fmt: skip
    return done.returncode, json.loads(done.stdout)


def test_node_verifies_a_finished_record_offline(service: GameService, tmp_path: Path) -> None:
    """Every link recomputed (keys hidden: their digests are hashed), salted commitment
    matched from the revealed seed and nonce."""
    lines = export(service, play(service, b"node-finished"), None)
    path = tmp_path / "finished.jsonl"
    path.write_bytes(b"\n".join(lines))
    code, report = _node(path)
    assert code == 0, report
    assert report["uncheckedLinks"] == 0 and report["checkedLinks"] == report["events"]
    assert (report["scheme"], report["commitment"]) == ("sha256-nonce-seed", "matches")


def test_node_verifies_a_judge_record_and_an_old_one(service: GameService, tmp_path: Path) -> None:
    """A judge's record of an unfinished game (seed and nonce in the header) and an old
    record of format 1 (its commitment unsalted)."""
    game_id = play(service, b"node-open", commands=30)
    path = tmp_path / "judge.jsonl"
    path.write_bytes(b"\n".join(judge_record(service, game_id)))
    code, report = _node(path)
    assert code == 0 and report["commitment"] == "matches" and not report["seedRevealed"]
    assert report["uncheckedLinks"] == 0
    code, report = _node(FIXTURES / "tapestry-finished-spectator.jsonl")
    assert code == 0 and (report["scheme"], report["commitment"]) == ("sha256-seed", "matches")


@pytest.mark.parametrize("change", ["payload", "key digest", "nonce", "seq"])
def test_node_catches_tampering(service: GameService, tmp_path: Path, change: str) -> None:
    """A changed payload, key digest, revealed nonce or sequence number fails (exit 1)."""
    lines = export(service, play(service, b"node-tamper"), 0)
    items = [msgspec.json.decode(line) for line in lines if line]
    if change == "payload":
        item = next(i for i in items[3:] if i.get("type") == "event" and i["payload"])
        item["payload"] = "AA" + item["payload"][2:]
    elif change == "key digest":
        item = next(i for i in items if i.get("idempotency_key_digest"))
        item["idempotency_key_digest"] = "0" * 64
    elif change == "nonce":
        judge = [
            msgspec.json.decode(line) for line in judge_record(service, items[0]["game_id"], 40)
        ]
        judge[0]["nonce"] = "11" * 32
        items = judge
    else:
        item = next(i for i in items[3:] if i.get("type") == "event")
        item["seq"] += 1
    path = tmp_path / "tampered.jsonl"
    path.write_bytes(b"\n".join(canonical(item) for item in items))
    code, report = _node(path)
    assert code == 1 and report["ok"] is False and report["reason"], report


def _first_item(items: list[dict], kind: str, key: str) -> dict:
    return next(i for i in items[3:] if i.get("type") == kind and isinstance(i.get(key), dict))


@pytest.mark.parametrize(
    ("change", "outcome"),
    [("readable event", "tampered"), ("readable command", "tampered"),
     ("readable nonce", "tampered"), ("header options", "tampered"),
     ("unknown key", "malformed"), ("missing key", "malformed"), ("viewer", "malformed"),
     ("hidden marker", "malformed")],
)  # fmt: skip
def test_node_checks_what_a_stranger_found_unchecked(
    service: GameService, tmp_path: Path, change: str, outcome: str
) -> None:
    """A stranger's comparison of verifiers (2026-12-07) found edits the Node verifier
    accepted and ``annales verify`` refused: the readable event, command or revealed nonce
    against its payload, the header against GameCreated, unknown or missing keys, the viewer
    and the hidden marker. Each is now refused, with the same outcome as ours."""
    from service.audit.records import verify_record

    lines = export(service, play(service, b"node-readable"), None)
    items = [msgspec.json.decode(line) for line in lines if line]
    if change == "readable event":
        event = _first_item(items, "event", "event")["event"]
        key = next(k for k, v in event.items() if isinstance(v, int))
        event[key] += 1
    elif change == "readable command":
        command = next(i for i in items if i.get("command_payload"))["command"]
        key = next(k for k, v in command.items() if isinstance(v, int))
        command[key] += 1
    elif change == "readable nonce":
        items[-1]["event"]["nonce"] = "11" * 32
    elif change == "header options":
        items[0]["options"] = {**items[0]["options"], "trophies": 99}
    elif change == "unknown key":
        items[5]["colour"] = "red"
    elif change == "missing key":
        del _first_item(items, "event", "event")["redacted"]
    elif change == "viewer":
        items[0]["viewer"] = "seat 9"
    else:
        next(i for i in items if i.get("command"))["hidden"] = ["command"]
    edited = [canonical(item) for item in items]
    path = tmp_path / "edited.jsonl"
    path.write_bytes(b"\n".join(edited))
    code, report = _node(path)
    assert code == 1 and report["outcome"] == outcome, report
    assert verify_record(edited).outcome.value == outcome


def test_node_verifier_through_a_link_and_without_a_file(tmp_path: Path) -> None:
    """Run through a symbolic link (an npm bin) it still verifies (it printed nothing and
    exited 0, whatever the record); no argument or a missing file: exit 2, no stack trace."""
    link = tmp_path / "verify.js"
    link.symlink_to(SCRIPT)
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text('{"garbage":')
    done = subprocess.run([NODE, str(link), str(garbage)], capture_output=True, text=True,
                          check=False, timeout=120)  # fmt: skip
    assert done.returncode == 1 and json.loads(done.stdout)["outcome"] == "malformed"
    for arguments in ([], [str(tmp_path / "missing.jsonl")]):
        done = subprocess.run([NODE, str(SCRIPT), *arguments], capture_output=True, text=True,
                              check=False, timeout=120)  # fmt: skip
        assert done.returncode == 2 and "at " not in done.stderr and done.stderr.strip()
