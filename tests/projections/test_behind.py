"""Read-model answers say when they are stale (``behind``), found by a client written from the
protos alone: after a burst of commits (a bot tournament's round) ListGames and the leaderboard
answered from read models seconds behind, with nothing to tell.

A real server (gRPC on a loopback port, a SQLite store, the read-model runner in its child
process) with ``ANNALES_READ_FRESHNESS=0``: a call does not wait at all, so a read right after a
commit finds the runner still applying it.
"""

from __future__ import annotations

import time
from pathlib import Path

import grpc
import pytest
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc, readmodels_pb2_grpc
from annales.v1 import readmodels_pb2 as rpb

from service.api.server import start
from service.store.config import StoreConfig
from tests.api.helpers import Driver, create_game


def _caught_up(games: annales_pb2_grpc.GameServiceStub) -> pb.ListGamesResponse:
    """ListGames once it is no longer behind (the runner applied every commit)."""
    deadline = time.monotonic() + 30
    while True:
        listed: pb.ListGamesResponse = games.ListGames(pb.ListGamesRequest())
        if not listed.behind and listed.games:
            return listed
        assert time.monotonic() < deadline, "the runner never caught up"
        time.sleep(0.05)


def test_a_read_before_the_runner_applied_the_commits_is_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Right after commits the answers come with ``behind`` true; once the runner has caught
    up, ``behind`` is false and the answer is the game as stored."""
    monkeypatch.setenv("ANNALES_READ_FRESHNESS", "0")
    running = start(StoreConfig(kind="sqlite", path=str(tmp_path / "events.db")), port=0)
    try:
        with grpc.insecure_channel(f"127.0.0.1:{running.port}") as chan:
            games = annales_pb2_grpc.GameServiceStub(chan)  # type: ignore[no-untyped-call]
            readmodels = readmodels_pb2_grpc.ReadModelServiceStub(chan)  # type: ignore[no-untyped-call]
            game = create_game(games, seats=2)
            driver = Driver(games, game, b"behind")
            _caught_up(games)  # the game is in the read models (its timeline exists)
            seen = []
            for _ in range(40):
                driver.play_one()
                seen.append(games.ListGames(pb.ListGamesRequest()).behind)
                seen.append(
                    readmodels.GetScoreTimeline(
                        rpb.GetScoreTimelineRequest(game_id=game.game_id)
                    ).behind
                )
            assert any(seen), "no read found the runner behind a commit"
            head = games.GetGame(pb.GetGameRequest(game_id=game.game_id)).game.head_version
            listed = _caught_up(games)
            assert [(g.game_id, g.head_version) for g in listed.games] == [(game.game_id, head)]
            for answer in (
                readmodels.GetLeaderboard(
                    rpb.GetLeaderboardRequest(game_type=pb.GAME_TYPE_RISE_AND_FALL)
                ),
                readmodels.GetBalanceStats(
                    rpb.GetBalanceStatsRequest(game_type=pb.GAME_TYPE_RISE_AND_FALL)
                ),
            ):
                assert not answer.behind
    finally:
        running.stop()
