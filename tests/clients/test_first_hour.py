"""The first hour of a newcomer, a player, an organiser and a judge: a CLI test per item,
through the real ``annales`` command in a subprocess (exit codes, messages on standard
error, never a traceback) against a real server, or a stopped one."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import grpc
import pytest
from annales_client import AnnalesClient, AnnalesError

from tests.clients.conftest import ROOT, ServerProcess, free_port


def annales(
    *args: str, env: dict[str, str] | None = None, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    """Run ``annales ARGS`` (a fresh process, as a user would)."""
    return subprocess.run(
        [sys.executable, "-m", "annales_cli.main", *args],
        cwd=ROOT, env={**os.environ, "COLUMNS": "80", **(env or {})}, input=stdin,
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def failed(result: subprocess.CompletedProcess[str], *needles: str, code: int = 1) -> str:
    """Assert a clean failure: exit ``code``, every needle in the output, no traceback."""
    text = result.stdout + result.stderr
    assert result.returncode == code, text
    assert "Traceback" not in text and 'File "' not in text, text
    for needle in needles:
        assert needle in text, (needle, text)
    assert len(text.strip().splitlines()) <= 4, text
    return text


@pytest.fixture()
def tokens(tmp_path: Path) -> dict[str, str]:
    """A private tokens file for the test."""
    return {"ANNALES_TOKENS": str(tmp_path / "tokens.json")}


def _new(server: ServerProcess, env: dict[str, str], *args: str) -> str:
    result = annales("new", *args, "--server", server.target, env=env)
    assert result.returncode == 0, result.stderr
    found = re.search(r"game (\w+) created", result.stdout)
    assert found, result.stdout
    return found.group(1)


def test_item1_serve_prints_the_next_commands(tmp_path: Path) -> None:
    """``make run`` (``annales serve``) prints the commands to type next, with the CLI's path."""
    port = free_port()
    process = subprocess.Popen(
        [str(ROOT / ".venv" / "bin" / "annales"), "serve", "--port", str(port),
         "--db", str(tmp_path / "a.db")],
        cwd=ROOT, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    try:
        assert process.stderr is not None
        lines = [process.stderr.readline() for _ in range(5)]
    finally:
        process.terminate()
        process.wait(timeout=15)
    text = "".join(lines)
    assert ".venv/bin/annales new riseandfall" in text, text
    assert "play GAME --seat 0" in text and "source .venv/bin/activate" in text, text


@pytest.mark.parametrize(
    "args",
    [
        ("games",),
        ("history", "abc"),
        ("new", "riseandfall"),
        ("play", "abc", "--seat", "0"),
        ("scores", "abc"),
        ("stats",),
    ],
)
def test_item2_a_stopped_server_is_named_at_once(args: tuple[str, ...]) -> None:
    """Against a stopped server every network command says so and exits 1; the command
    itself (run in this process, the interpreter's start-up left out) fails in under 3 s."""
    from annales_cli.main import app
    from typer.testing import CliRunner

    target = f"127.0.0.1:{free_port()}"
    failed(annales(*args, "--server", target), f"no server at {target}", "make run")
    started = time.monotonic()
    result = CliRunner().invoke(app, [*args, "--server", target])
    elapsed = time.monotonic() - started
    assert (result.exit_code == 1 and result.exception is None) or isinstance(
        result.exception, SystemExit
    ), result.output
    assert elapsed < 3.0, elapsed


def test_item2_bad_paths_and_lists_are_usage_errors(
    annales_server: ServerProcess, tokens: dict[str, str]
) -> None:
    """Missing records, unwritable outputs and malformed lists: a message, no traceback."""
    failed(annales("verify", "/nonexistent.jsonl"), "does not exist", code=2)
    failed(annales("tournament", "verify", "nonexist.jsonl"), "does not exist", code=2)
    game = _new(annales_server, tokens, "riseandfall", "--seed", "paths")
    failed(
        annales("export", game, "-o", "/proc/nope.jsonl", "--server", annales_server.target,
                env=tokens),
        "cannot write /proc/nope.jsonl",
    )  # fmt: skip
    failed(annales("bots", game, "--seats", "a", env=tokens), "not a seat number", code=2)


def test_item3_unknown_ids_and_names_are_errors(annales_server: ServerProcess) -> None:
    """``scores UNKNOWN`` and ``leaderboard --game chess`` fail (they exited 0)."""
    failed(annales("scores", "UNKNOWN", "--server", annales_server.target), "no game 'UNKNOWN'")
    failed(
        annales("leaderboard", "--game", "chess", "--server", annales_server.target),
        "unknown game 'chess'",
        "riseandfall",
    )


def test_item4_unknown_nations_are_listed(annales_server: ServerProcess) -> None:
    """``--nations foo,bar`` says the nations are unknown and lists the valid ones — the
    CLI's check and the server's own answer (the game's setup)."""
    failed(
        annales("new", "imperium", "--nations", "foo,bar", "--server", annales_server.target),
        "unknown nation(s) foo, bar",
        "romans",
    )
    with AnnalesClient(annales_server.target) as client, pytest.raises(AnnalesError) as caught:
        client.create_game("imperium", ["a", "b", "c"], options={"nations": ["foo", "bar"]})
    message = caught.value.message.lower()
    assert "unknown nation" in message and "foo" in message and "romans" in message


def test_item9_prefixes_resolve_through_the_server_and_listings_speak_json(
    annales_server: ServerProcess, tokens: dict[str, str], tmp_path: Path
) -> None:
    """``games`` shows whole ids (and ``--json``); ``history PREFIX`` resolves through the
    server even without the game in the tokens file."""
    game = _new(annales_server, tokens, "tapestry", "--players", "2", "--seed", "ids")
    listed = annales("games", "--json", "--server", annales_server.target)
    assert listed.returncode == 0, listed.stderr
    rows = [json.loads(line) for line in listed.stdout.splitlines()]
    assert game in {r["game_id"] for r in rows}
    table = annales("games", "--server", annales_server.target)
    assert game in table.stdout, table.stdout
    other = {"ANNALES_TOKENS": str(tmp_path / "empty.json")}
    history = annales(
        "history", game[:10], "--limit", "2", "--json", "--server", annales_server.target,
        env=other,
    )  # fmt: skip
    assert history.returncode == 0, history.stderr
    assert json.loads(history.stdout.splitlines()[0])["kind"] == "GameCreated"
    for command in ("leaderboard", "stats"):
        result = annales(command, "--json", "--server", annales_server.target)
        assert result.returncode == 0, result.stderr


def test_item10_a_read_model_file_of_another_store_is_refused(tmp_path: Path) -> None:
    """The default read-model file is named after its store; another store's file is
    refused with a message (it was silently rebuilt): READ_MODELS_OF_ANOTHER_STORE."""
    from projections.runner import default_path

    first, second = tmp_path / "annales.db", tmp_path / "sim.db"
    assert default_path(str(first)) == str(tmp_path / "annales.readmodels.db")
    for store in (first, second):
        built = annales("projections", "rebuild", "--db", str(store))
        assert built.returncode == 0, built.stderr
    assert Path(default_path(str(second))).exists()
    failed(
        annales("stats", "--db", str(second), "--readmodels", default_path(str(first))),
        "follow",
        str(first),
    )


def test_item12_seat_names_are_unique(annales_server: ServerProcess) -> None:
    """``--names ann,ann`` is refused by the CLI, and by the server naming the field."""
    failed(
        annales("new", "--names", "ann,ann", "--server", annales_server.target),
        "repeated: ann",
    )
    with AnnalesClient(annales_server.target) as client, pytest.raises(AnnalesError) as caught:
        client.create_game("riseandfall", ["ann", "ann"])
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert "seat_names" in caught.value.message


def test_item13_join_with_a_token(annales_server: ServerProcess, tokens: dict[str, str],
                                  tmp_path: Path) -> None:  # fmt: skip
    """A printed seat token is enough to play: ``annales join TOKEN`` (any tokens file)."""
    created = annales(
        "new", "riseandfall", "--names", "ann,bob", "--server", annales_server.target, env=tokens
    )
    token = re.search(r"seat 1 bob: (\S+)", created.stdout)
    assert token, created.stdout
    other = {"ANNALES_TOKENS": str(tmp_path / "elsewhere.json")}
    joined = annales("join", token.group(1), "--server", annales_server.target, env=other,
                     stdin="q\n")  # fmt: skip
    assert joined.returncode == 0, joined.stdout + joined.stderr
    assert "joined game" in joined.stdout and "bob#1" in joined.stdout
    saved = json.loads((tmp_path / "elsewhere.json").read_text())
    assert [s["seat"] for g in saved.values() for s in g["seats"]] == [1]
    failed(annales("join", "not-a-token", "--server", annales_server.target), "not a seat token")


def test_item13_tournament_byes_named_and_report_explains(tmp_path: Path) -> None:
    """Byes name their entrant; ``report`` after the results explains instead of saying
    there was nothing."""
    db = str(tmp_path / "t.db")
    made = annales("tournament", "new", "riseandfall", "--rounds", "1", "--seed", "t",
                   "--id", "tournament-fh", "--db", db)  # fmt: skip
    assert made.returncode == 0, made.stdout
    added = annales("tournament", "add", "tournament-fh", "Ann", "Bob", "Cy", "--bot", "random",
                    "--db", db)  # fmt: skip
    assert added.returncode == 0, added.stdout
    started = annales("tournament", "start", "tournament-fh", "--db", db)
    assert re.search(r"bye this round: (Ann|Bob|Cy)", started.stdout), started.stdout
    ran = annales("tournament", "run", "tournament-fh", "--db", db)
    assert ran.returncode == 0, ran.stdout
    report = annales("tournament", "report", "tournament-fh", "--db", db)
    assert "every result is recorded" in report.stdout, report.stdout
    record = str(tmp_path / "t.jsonl")
    exported = annales("tournament", "export", "tournament-fh", "-o", record, "--db", db)
    assert exported.returncode == 0, exported.stdout + exported.stderr
    verified = annales("tournament", "verify", record)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    games = len(re.findall(r'"type": ?"game"', Path(record).read_text()))
    assert games >= 1  # a progress bar over the games, not a spinner
    assert re.search(rf"verifying games.*{games}/{games}", verified.stdout), verified.stdout


def test_item11_12_simulate_shows_workers_and_names_seats_uniquely(tmp_path: Path) -> None:
    """``simulate`` shows one bar per worker and the total with the time left; the seats of
    a simulated game (three of one bot kind) have three different names, while the per-kind
    table still groups them under their kind."""
    from service.app.application import GameService
    from service.store.config import StoreConfig
    from service.store.eventstore import EventStore

    db = tmp_path / "sim.db"
    done = annales("simulate", "--game", "riseandfall", "--players", "3", "--games", "2",
                   "--bots", "random", "--workers", "2", "--seed", "fh", "--db", str(db),
                   "--no-projections", env={"COLUMNS": "160"})  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "worker 1" in done.stdout and "riseandfall 3p total" in done.stdout, done.stdout
    assert "left" in done.stdout and "2/2" in done.stdout
    assert re.search(r"│ random\s+│\s+6 │", done.stdout), done.stdout  # 2 games x 3 seats
    store = EventStore(StoreConfig(kind="sqlite", path=str(db)))
    try:
        service = GameService(store)
        ids = store.game_ids()
        assert len(ids) == 2
        for game_id in ids:
            names = tuple(service.materialise(game_id).match.kernel.header.seat_names)
            assert names == ("random#0", "random#1", "random#2")
    finally:
        store.close()


def test_item14_help_has_no_rst_and_seeds_read_as_text() -> None:
    """No reStructuredText double backticks in any help; a text seed is shown as text."""
    import typer
    from annales_cli.main import app
    from annales_cli.render_common import seed_text

    def walk(command: object, name: str) -> list[tuple[str, object]]:
        found = [(name, command)]
        for child, sub in sorted(getattr(command, "commands", {}).items()):
            found += walk(sub, f"{name} {child}")
        return found

    root = typer.main.get_command(app)
    for name, command in walk(root, "annales"):
        help_text = getattr(command, "help", "") or ""
        assert "``" not in help_text, name
    assert seed_text("7331") == "s1" and seed_text("00ff") == "00ff"
