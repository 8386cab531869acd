"""``annales tournament …``: the organiser's CLI end to end on a real SQLite store.

A bot tournament is created, filled, run (in this process, and with 2 worker processes:
byte-identical records), its standings printed and its record exported; ``annales tournament
verify`` then runs in a fresh process and accepts the record, and rejects a changed one
naming the round, table and sequence number.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import msgspec
from annales_cli.main import app
from typer.testing import CliRunner

from service.store.config import StoreConfig
from service.store.eventstore import EventStore
from tests.tournament.helpers import fast_dir

ROOT = Path(__file__).resolve().parents[2]


def _cli(*args: str) -> str:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return result.output


def _bot_tournament(db: Path, workers: int) -> bytes:
    tid = "tournament-cli"
    common = ["--db", str(db)]
    out = _cli("tournament", "new", "tapestry", "--format", "swiss", "--rounds", "2",
               "--seed", "cli-seed", "--id", tid, "--name", "CLI cup", *common)  # fmt: skip
    assert tid in out and "commitment" in out
    _cli("tournament", "add", tid, "R1", "R2", "R3", "--bot", "random", *common)
    _cli("tournament", "add", tid, "G1", "--bot", "greedy", *common)
    out = _cli("tournament", "run", tid, "--workers", str(workers), *common)
    assert "After round 1" in out and "master seed revealed" in out
    out = _cli("tournament", "standings", tid, *common)
    assert "CLI cup" in out and "Buchholz" in out and "final" in out
    record = db.parent / f"record-{workers}.jsonl"
    _cli("tournament", "export", tid, "-o", str(record), *common)
    return record.read_bytes()


def _verify_in_fresh_process(record: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200"}
    command = [sys.executable, "-m", "annales_cli.main", "tournament", "verify", str(record)]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)


def test_cli_bot_tournament_inline_and_with_workers_verifies(tmp_path: Path) -> None:
    """Same seed, in-process or 2 workers: the same bytes; verify passes, then catches a change."""
    with fast_dir(tmp_path) as base:
        inline = _bot_tournament(base / "inline.db", workers=0)
        parallel = _bot_tournament(base / "parallel.db", workers=2)
    assert inline == parallel
    record = tmp_path / "record.jsonl"
    record.write_bytes(inline)
    checked = _verify_in_fresh_process(record)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "verified" in checked.stdout

    lines = inline.splitlines()
    index = next(
        i
        for i, line in enumerate(lines)
        if b'"type":"game"' in line and b'"round":2' in line and b'"table":0' in line
    )
    event_index = next(i for i in range(index + 1, len(lines)) if b'"type":"event"' in lines[i])
    item = msgspec.json.decode(lines[event_index])
    item["hash"] = "0" * 64
    lines[event_index] = msgspec.json.encode(item)
    record.write_bytes(b"\n".join(lines) + b"\n")
    checked = _verify_in_fresh_process(record)
    assert checked.returncode == 1
    assert f"round 2, table 0, game tournament-cli-r2-t0, seq {item['seq']}" in checked.stdout


def test_cli_people_get_their_seat_tokens(tmp_path: Path) -> None:
    """``start`` and ``round`` print each person's token; nothing to report yet."""
    db = ["--db", str(tmp_path / "people.db")]
    _cli("tournament", "new", "imperium", "--id", "tournament-people", "--seed", "s", *db)
    _cli("tournament", "add", "tournament-people", "Ann", "Bob", *db)
    started = _cli("tournament", "start", "tournament-people", *db)
    again = _cli("tournament", "round", "tournament-people", *db)
    tokens = {}
    for line in started.splitlines():
        if ": tournament-people-r1-t0." in line:
            tokens[line.partition(" (")[0]] = line.rsplit(": ", 1)[1]
    assert sorted(tokens) == ["Ann", "Bob"]
    assert all(token in again for token in tokens.values())  # shown again, unchanged
    store = EventStore(StoreConfig(kind="sqlite", path=db[1]))
    try:
        hashes = store.load_token_hashes("tournament-people-r1-t0")
    finally:
        store.close()
    for token in tokens.values():
        seat = int(token.split(".")[1])
        assert hashlib.sha256(token.encode()).hexdigest() == hashes[seat]
    assert "nothing new to report" in _cli("tournament", "report", "tournament-people", *db)
    refused = CliRunner().invoke(app, ["tournament", "add", "tournament-people", "Cy", *db])
    assert refused.exit_code == 1 and "error: ALREADY_STARTED" in refused.output
