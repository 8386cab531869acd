"""What a newcomer's hour with the CLI found, each through the real ``annales`` command in a
subprocess against a real server: bad option values refused with a plain message, the bots'
summary naming seats by the game (not by the tokens file), whole ids in ``games``, store
commands failing with ``error:`` and exit 1, a closed pipe ending quietly, revealed seeds shown
with their text."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.clients.conftest import ROOT, ServerProcess
from tests.clients.test_first_hour import _new, annales, failed


@pytest.fixture()
def tokens(tmp_path: Path) -> dict[str, str]:
    """A private tokens file for the test."""
    return {"ANNALES_TOKENS": str(tmp_path / "tokens.json")}


def test_bad_world_and_seat_count_are_plain_errors(
    annales_server: ServerProcess, tokens: dict[str, str]
) -> None:
    """``--world bogus`` names the valid modes (it was an unexpected ProtoMismatch) and
    ``--players 0`` is refused (it created a 3-seat game)."""
    target = annales_server.target
    failed(annales("new", "riseandfall", "--world", "bogus", "--server", target, env=tokens),
           "--world: random or players, not 'bogus'")  # fmt: skip
    for count in ("0", "-1"):
        failed(annales("new", "tapestry", "--players", count, "--server", target, env=tokens),
               f"--players: a game has at least one seat, not {count}")  # fmt: skip


def test_bots_summary_names_seats_by_the_game(
    annales_server: ServerProcess, tokens: dict[str, str], tmp_path: Path
) -> None:
    """With a tokens file holding seat 1 only (``annales join``), the bots' final line names
    each seat as the game does (it labelled scores by their position in the tokens file)."""
    target = annales_server.target
    game_id = _new(annales_server, tokens, "riseandfall", "--players", "2",
                   "--names", "ann,bob", "--seed", "newcomer-summary")  # fmt: skip
    saved = json.loads(Path(tokens["ANNALES_TOKENS"]).read_text())[game_id]
    only_bob = [seat for seat in saved["seats"] if seat["seat"] == 1]
    joined = {"ANNALES_TOKENS": str(tmp_path / "joined.json")}  # as `annales join` saves it
    Path(joined["ANNALES_TOKENS"]).write_text(json.dumps({game_id: {**saved, "seats": only_bob}}))
    played = annales("bots", game_id, "--seats", "0,1", "--server", target, env=tokens)
    assert played.returncode == 0, played.stderr
    summary = annales("bots", game_id, "--seats", "1", "--server", target, env=joined)
    assert summary.returncode == 0, summary.stderr
    line = summary.stdout.strip().splitlines()[-1]
    assert line.startswith("scores ann#0 ") and ", bob#1 " in line, line
    assert "?#" not in line


def test_games_prints_whole_ids(annales_server: ServerProcess, tokens: dict[str, str]) -> None:
    """``annales games`` never cuts an id short, even piped on 80 columns."""
    game_id = _new(annales_server, tokens, "riseandfall", "--players", "2")
    listed = annales("games", "--server", annales_server.target, env=tokens)
    assert listed.returncode == 0, listed.stderr
    assert game_id in listed.stdout


def test_store_commands_fail_with_error_and_exit_1(tmp_path: Path) -> None:
    """A refused tournament or campaign command prints ``error: REASON: …`` and exits 1 (the
    command failed), like every other command (it exited 2, the code of bad usage)."""
    db = ("--db", str(tmp_path / "store.db"))
    failed(annales("tournament", "standings", "tournament-nope", *db),
           "error: TOURNAMENT_NOT_FOUND")  # fmt: skip
    failed(annales("campaign", "new", "Alice", "martians", *db), "error: NATION")


def test_a_closed_pipe_ends_quietly(annales_server: ServerProcess, tokens: dict[str, str]) -> None:
    """``annales history … --json | head -2``: no ``error: Broken pipe`` on standard error."""
    game_id = _new(annales_server, tokens, "riseandfall", "--players", "2")
    command = [sys.executable, "-m", "annales_cli.main", "history", game_id, "--json",
               "--server", annales_server.target]  # fmt: skip
    with subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          env={**__import__("os").environ, **tokens}) as process:  # fmt: skip
        assert process.stdout is not None and process.stderr is not None
        first = process.stdout.readline()
        process.stdout.close()  # the reader goes away, as `head` does
        errors = process.stderr.read().decode()
        process.wait(timeout=60)
    assert first.startswith(b"{")
    assert "Broken pipe" not in errors and "Traceback" not in errors, errors


def test_revealed_seed_shows_its_text(
    annales_server: ServerProcess, tokens: dict[str, str]
) -> None:
    """``watch`` of a finished game shows the revealed seed in hex with the text it was given
    as (``--seed s1`` is revealed as ``7331``)."""
    target = annales_server.target
    game_id = _new(annales_server, tokens, "riseandfall", "--players", "2", "--seed", "s1-text")
    assert annales("bots", game_id, "--seats", "0,1", "--server", target,
                   env=tokens).returncode == 0  # fmt: skip
    watched = annales("watch", game_id, "--server", target, env=tokens)
    assert watched.returncode == 0, watched.stderr
    revealed = next(line for line in watched.stdout.splitlines() if "SeedRevealed" in line)
    assert re.search(r'seed 73312d74657874 \(text "s1-text"\)', revealed), revealed


def test_new_prints_the_judge_token(annales_server: ServerProcess, tokens: dict[str, str]) -> None:
    """``annales new`` shows the judge token CreateGame returns (it was dropped), not saved."""
    created = annales("new", "riseandfall", "--players", "2", "--server", annales_server.target,
                      env=tokens)  # fmt: skip
    assert created.returncode == 0, created.stderr
    game_id = re.search(r"game (\w+) created", created.stdout).group(1)  # type: ignore[union-attr]
    assert re.search(rf"judge: {game_id}\.judge\.\S+ \(not saved\)", created.stdout)
    assert ".judge." not in Path(tokens["ANNALES_TOKENS"]).read_text()
