"""The Python client library and the ``annales`` network commands against a real server.

Every test talks to a server subprocess (see ``conftest.py``) over gRPC on loopback:

* a whole Rise & Fall game played by API bots to the end, then history, export and
  verification (on the server and offline);
* typed errors (code + ErrorInfo reason + metadata);
* ``annales new`` + ``annales bots`` + ``annales export --server`` + ``annales verify``;
* ``annales play`` driven through stdin, ``watch``, ``history`` and ``replay --to/--step``;
* ``watch`` surviving a server restart: every event exactly once, in order.
"""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path
from typing import Any

import grpc
import pytest
from annales.v1 import annales_pb2 as pb
from annales_cli.main import app
from annales_client import (
    AnnalesClient,
    AnnalesError,
    IllegalAction,
    NotFound,
    PermissionDenied,
    Seat,
    Unauthenticated,
    VersionConflict,
    WatchStats,
    action_to_command,
    command_to_action,
    make_api_bot,
    play_seats,
)
from typer.testing import CliRunner

from service.audit.records import verify_record
from tests.clients.conftest import ServerProcess

runner = CliRunner()


def cli(*args: str, input: str | None = None) -> Any:
    """Run ``annales`` in-process; fails the test with its output on a non-zero exit."""
    result = runner.invoke(app, list(args), input=input, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture(scope="module")
def client(annales_server: ServerProcess) -> Any:
    with AnnalesClient(annales_server.target) as connected:
        yield connected


def test_a_whole_game_played_by_api_bots(client: AnnalesClient) -> None:
    game = client.create_game("riseandfall", ["ann", "bob", "cy"], seed="api-bots")
    assert [s.seat for s in game.seats] == [0, 1, 2] and game.version > 0
    bots = {seat: make_api_bot("random", f"r{seat.seat}".encode()) for seat in game.seats}
    result = play_seats(client, bots)
    assert result.finished and result.submitted > 100
    summary = client.get_game(game.game_id).game
    assert summary.status == pb.GAME_STATUS_FINISHED and summary.seed
    assert len(summary.scores) == 3 and summary.winners
    events = list(client.history(game.game_id, page_size=200))
    assert [e.seq for e in events] == list(range(1, summary.head_version + 1))
    assert events[-1].kind == "SeedRevealed"
    record = client.export_record(game.game_id)
    assert record.complete
    remote = client.verify_record(record.record)
    assert remote.ok and remote.reexecuted, remote.message
    assert verify_record(record.record.splitlines()).ok
    assert game.game_id in {g.game_id for g in client.list_games(page_size=1)}


def test_greedy_api_bot_plays_listed_actions(client: AnnalesClient) -> None:
    game = client.create_game("riseandfall", ["a", "b"], seed="greedy")
    bots = {seat: make_api_bot("greedy", b"g") for seat in game.seats}
    result = play_seats(client, bots, max_actions=40)
    assert result.submitted == 40
    assert client.get_game(game.game_id).game.head_version > game.version


def test_actions_convert_to_domain_commands_and_back(client: AnnalesClient) -> None:
    game = client.create_game("riseandfall", ["a", "b"], seed="convert")
    listed = next(answer for answer in map(client.list_legal_actions, game.seats) if answer.actions)
    for action in listed.actions:
        assert command_to_action("riseandfall", action_to_command(action)) == action


def test_typed_errors(client: AnnalesClient) -> None:
    game = client.create_game("riseandfall", ["a", "b"], seed="errors")
    other = client.create_game("riseandfall", ["c", "d"], seed="errors-2")
    mover = next(s for s in game.seats if client.list_legal_actions(s).actions)
    listed = client.list_legal_actions(mover)
    with pytest.raises(VersionConflict) as conflict:
        client.submit_action(mover, listed.actions[0], expected_version=listed.version - 1)
    assert conflict.value.code == grpc.StatusCode.ABORTED
    assert conflict.value.reason == "VERSION_CONFLICT"
    assert conflict.value.current_version == listed.version
    with pytest.raises(NotFound) as missing:
        client.get_game("no-such-game")
    assert missing.value.reason == "GAME_NOT_FOUND"
    spectator = Seat(game.game_id, 0, "")
    with pytest.raises(Unauthenticated):
        client.list_legal_actions(Seat(game.game_id, 0, f"{game.game_id}.0.forged"))
    with pytest.raises(AnnalesError):
        client.list_legal_actions(spectator)
    with pytest.raises(PermissionDenied):
        client.list_legal_actions(Seat(game.game_id, 0, other.seats[0].token))
    waiting = next(s for s in game.seats if s != mover)
    with pytest.raises(IllegalAction) as illegal:
        client.submit_action(waiting, listed.actions[0])
    assert illegal.value.reason and illegal.value.code == grpc.StatusCode.FAILED_PRECONDITION


# -- the CLI ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def cli_game(annales_server: ServerProcess, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A 2-seat game created with ``annales new`` and played to the end by ``annales bots``."""
    tokens = tmp_path_factory.mktemp("cli") / "tokens.json"
    server = annales_server.target
    created = cli(
        "new",
        "riseandfall",
        "--players",
        "2",
        "--seed",
        "cli",
        "--names",
        "ann,bob",
        "--server",
        server,
        "--tokens",
        str(tokens),
    )
    game_id = re.search(r"game (\w+) created", created.output)
    assert game_id, created.output
    saved = json.loads(tokens.read_text())[game_id.group(1)]
    assert [s["name"] for s in saved["seats"]] == ["ann", "bob"]
    assert saved["server"] == server
    played = cli(
        "bots", game_id.group(1)[:10], "--seats", "0,1", "--bot", "random", "--tokens", str(tokens)
    )
    assert "scores" in played.output, played.output
    return {"id": game_id.group(1), "tokens": str(tokens), "server": server}


def test_cli_new_bots_export_verify(cli_game: dict[str, str], tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    exported = cli("export", cli_game["id"], "-o", str(record), "--server", cli_game["server"])
    assert "complete" in exported.output
    assert "verified" in cli("verify", str(record)).output
    assert "verified" in cli("verify", str(record), "--server", cli_game["server"]).output
    tampered = tmp_path / "bad.jsonl"
    lines = record.read_bytes().splitlines()
    del lines[10]  # a missing event breaks the hash chain
    tampered.write_bytes(b"\n".join(lines) + b"\n")
    assert runner.invoke(app, ["verify", str(tampered)]).exit_code == 1


def test_cli_watch_history_replay(cli_game: dict[str, str]) -> None:
    tokens = ("--tokens", cli_game["tokens"])
    watched = cli("watch", cli_game["id"], "--after", "3", *tokens)
    assert re.search(r"^\s+4 ", watched.output, re.M) and "game over" in watched.output
    assert not re.search(r"^\s+3 ", watched.output, re.M)
    history = cli("history", cli_game["id"], "--page-size", "7", "--limit", "20", *tokens)
    assert "page 3" in history.output and "GameCreated" in history.output
    replayed = cli("replay", cli_game["id"], "--to", "60", *tokens)
    assert "version 60/" in replayed.output and "Seats" in replayed.output
    stepped = cli("replay", cli_game["id"], "--to", "60", "--step", *tokens, input="n\np\np\nq\n")
    assert [int(v) for v in re.findall(r"version (\d+)/\d+ \(", stepped.output)] == [60, 61, 60, 59]


def test_cli_play_from_stdin(annales_server: ServerProcess, tmp_path: Path) -> None:
    tokens = tmp_path / "tokens.json"
    server = annales_server.target
    created = cli(
        "new", "--players", "2", "--seed", "play", "--server", server, "--tokens", str(tokens)
    )
    game_id = re.search(r"game (\w+) created", created.output)
    assert game_id
    entry = json.loads(tokens.read_text())[game_id.group(1)]
    seats = [Seat(game_id.group(1), s["seat"], s["token"]) for s in entry["seats"]]
    with AnnalesClient(server) as client:
        me = next(s for s in seats if client.list_legal_actions(s).actions)
        other = next(s for s in seats if s != me)
        stop = threading.Event()
        opponent = threading.Thread(
            target=play_seats,
            args=(client, {other: make_api_bot("random", b"opp")}),
            kwargs={"should_stop": stop.is_set, "wait_seconds": 0.5},
        )
        opponent.start()
        try:
            played = cli(
                "play",
                game_id.group(1),
                "--seat",
                str(me.seat),
                "--tokens",
                str(tokens),
                input="1\nx\n2\nv\n1\n",
            )
        finally:
            stop.set()
            opponent.join(timeout=30)
        # "x" is not a number: it filters the actions (none matches), nothing is played
        assert "deploy a" in played.output and "no action matches 'x'" in played.output
        assert "PieceDeployed" in played.output
        mine = [
            e
            for e in client.history(game_id.group(1))
            if e.kind == "PieceDeployed" and e.seat == me.seat
        ]
        assert len(mine) == 3


def test_watch_resumes_across_a_server_restart(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "restart.db", tmp_path / "server.log")
    server.start()
    try:
        with AnnalesClient(server.target, timeout=10) as client:
            game = client.create_game("riseandfall", ["a", "b"], seed="restart")
            stats = WatchStats()
            seen: list[int] = []
            failure: list[BaseException] = []
            until = [1 << 62]

            def follow() -> None:
                try:
                    for event in client.watch(game.game_id, 0, stats=stats, reconnect_for=60):
                        seen.append(event.seq)
                        if event.seq >= until[0]:
                            return
                except BaseException as error:  # reported by the main thread
                    failure.append(error)

            watcher = threading.Thread(target=follow)
            watcher.start()
            bots = {s: make_api_bot("random", f"w{s.seat}".encode()) for s in game.seats}
            play_seats(client, bots, max_actions=60)
            server.stop()  # the stream ends mid-game; the watcher retries while it is down
            server.start()
            play_seats(client, bots, max_actions=60)
            until[0] = client.get_game(game.game_id).game.head_version
            play_seats(client, bots, max_actions=1)  # wakes a watcher already caught up
            watcher.join(timeout=60)
            state = (failure, stats, seen[-3:], until)
            assert not watcher.is_alive() and not failure, state
            assert seen == list(range(1, seen[-1] + 1)) and seen[-1] >= until[0]
            assert stats.reconnects >= 1
    finally:
        server.stop()


def test_watch_from_a_version_of_a_finished_game(cli_game: dict[str, str]) -> None:
    with AnnalesClient(cli_game["server"]) as client:
        head = client.get_game(cli_game["id"]).game.head_version
        tail = [e.seq for e in client.watch(cli_game["id"], head - 5)]
        assert tail == list(range(head - 4, head + 1))
        assert list(client.watch(cli_game["id"], head)) == []
