"""Audit (issue "Foundation", item 6): export → verify; any changed byte fails verification.

``verify`` runs in a fresh process through the CLI, from the record alone.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from domain.bots import make_bot
from domain.core import Chance
from service.app.application import GameService
from service.app.autoplay import play_with_bots
from service.audit.records import export_lines, verify_record


def _record(service: GameService, seed: bytes, finish: bool = True) -> list[bytes]:
    game_id = service.create_game("riseandfall", {}, ["a", "b", "c"], seed).game_id
    bots = {i: make_bot("random", seed + bytes([i])) for i in range(3)}
    play_with_bots(service, game_id, bots, max_commands=None if finish else 40)  # type: ignore[arg-type]
    return export_lines(service.events(game_id), lambda e: service.decode(game_id, e))


def test_export_then_verify_in_a_fresh_process(service: GameService, tmp_path: Path) -> None:
    """A finished game's record verifies offline (re-execution from the revealed seed)."""
    lines = _record(service, b"audit")
    report = verify_record(lines)
    assert report.ok and report.reexecuted, report.message
    path = tmp_path / "game.jsonl"
    path.write_bytes(b"".join(line + b"\n" for line in lines))
    done = subprocess.run(
        [sys.executable, "-m", "annales_cli.main", "verify", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "verified" in done.stdout


def test_unfinished_game_verifies_chain_without_seed(service: GameService) -> None:
    """Before the end the seed is secret: the chain verifies, commands are not re-executed."""
    lines = _record(service, b"open", finish=False)
    assert b"SeedRevealed" not in b"".join(lines)
    report = verify_record(lines)
    assert report.ok and not report.reexecuted


def test_flipping_any_byte_fails_verification(service: GameService) -> None:
    """Flipping a single byte anywhere in the record makes verify fail with a clear message."""
    lines = _record(service, b"flip")
    blob = b"\n".join(lines)
    chance = Chance(b"positions", 0)
    positions = sorted({chance.below(len(blob)) for _ in range(60)})
    for position in positions:
        changed = bytearray(blob)
        changed[position] ^= 0x01
        report = verify_record(bytes(changed).split(b"\n"))
        assert not report.ok, f"flip at byte {position} went unnoticed"
        assert report.message


def test_changed_command_reports_first_divergence(service: GameService) -> None:
    """A command changed (and re-hashed consistently) is caught by re-execution."""
    lines = _record(service, b"diverge")
    report = verify_record(lines[:-1])
    assert not report.ok
    reordered = [lines[0], *lines[1:][::-1]]
    assert not verify_record(reordered).ok


@pytest.mark.parametrize("seats", [2, 4])
def test_record_round_trip_other_sizes(service: GameService, seats: int) -> None:
    """Export/verify works for every player count."""
    game_id = service.create_game(
        "riseandfall", {}, [f"s{i}" for i in range(seats)], b"sizes"
    ).game_id
    play_with_bots(service, game_id, {i: make_bot("random", bytes([i])) for i in range(seats)})
    report = verify_record(
        export_lines(service.events(game_id), lambda e: service.decode(game_id, e))
    )
    assert report.ok and report.reexecuted, report.message
