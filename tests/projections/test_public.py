"""No hidden information in read models or their RPCs; the RPCs and plots show the models."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import grpc
import msgspec
import pytest
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc as pb_grpc
from annales.v1 import readmodels_pb2 as rpb
from annales.v1 import readmodels_pb2_grpc as rpb_grpc

from domain.bots import make_bot
from domain.riseandfall.events import CardChosen
from projections import queries
from projections.plots import plot_score_timeline, plot_win_rates
from projections.runner import ReadModelRunner
from projections.schema import connect, table_rows
from service.api.server import RunningServer, start
from service.app.application import GameService
from service.app.autoplay import play_with_bots
from service.store.config import StoreConfig
from service.store.eventstore import EventStore
from tests.projections.conftest import Played, scratch_dir

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def server(played: Played) -> Iterator[RunningServer]:
    """An in-process server on the session's store, with its own read-model file."""
    config = StoreConfig(kind="sqlite", path=str(played.directory / "events.db"))
    running = start(config, port=0, readmodels=str(played.directory / "served.db"))
    assert running.projections is not None  # a fresh file: wait for the first catch-up
    assert running.projections.wait_for(played.store.feed_head(), timeout=180)
    yield running
    running.stop(1.0)


def _channel(running: RunningServer) -> grpc.Channel:
    return grpc.insecure_channel(f"127.0.0.1:{running.port}")


def test_public_log_is_the_spectator_history(played: Played) -> None:
    """Requirement 3: the public event log is redacted exactly as a spectator sees it now."""
    db = connect(str(played.readmodels))
    for game_id in played.game_ids:
        match = played.service.head(game_id)
        rows = queries.public_events(db, game_id)
        envelopes = played.service.events(game_id)
        assert [r["seq"] for r in rows] == [e.seq for e in envelopes]
        for row, envelope in zip(rows, envelopes, strict=True):
            event = played.service.decode(game_id, envelope)
            if type(event).__module__ != "domain.core.kernel_events":
                event = match.game.redact_event(match.state, event, None)
            assert json.loads(str(row["event"])) == json.loads(msgspec.json.encode(event))


def test_sealed_choice_and_seed_never_exposed() -> None:
    """No hidden information: a sealed CardChosen card is in no read-model table and no RPC
    answer before CardsRevealed; the seed appears nowhere before the game ends."""
    directory = scratch_dir()
    config = StoreConfig(kind="sqlite", path=str(directory / "events.db"))
    store = EventStore(config)
    service = GameService(store)
    seed = b"a-long-secret-seed-for-the-oracle-0042"
    created = service.create_game("riseandfall", {}, ["Ann", "Bob"], seed=seed)
    game_id = created.game_id
    bots = {s: make_bot("random", f"oracle-{s}".encode()) for s in range(2)}
    while service.head(game_id).game.pending(service.head(game_id).state).decision != "choose_card":
        play_with_bots(service, game_id, bots, max_commands=1)
    play_with_bots(service, game_id, {0: bots[0]}, max_commands=1)  # seat 0 chooses, sealed
    last = service.events(game_id)[-1]
    chosen = service.decode(game_id, last)
    assert isinstance(chosen, CardChosen) and chosen.card
    secrets = [seed, seed.hex().encode()]
    running = start(config, port=0, readmodels=str(directory / "readmodels.db"))
    try:
        with _channel(running) as channel:
            answers = [
                pb_grpc.GameServiceStub(channel).ListGames(pb.ListGamesRequest()),
                rpb_grpc.ReadModelServiceStub(channel).GetScoreTimeline(
                    rpb.GetScoreTimelineRequest(game_id=game_id)
                ),
                rpb_grpc.ReadModelServiceStub(channel).GetLeaderboard(
                    rpb.GetLeaderboardRequest(game_type=pb.GAME_TYPE_RISE_AND_FALL)
                ),
                rpb_grpc.ReadModelServiceStub(channel).GetBalanceStats(
                    rpb.GetBalanceStatsRequest(game_type=pb.GAME_TYPE_RISE_AND_FALL)
                ),
            ]
        assert answers[0].games[0].game_id == game_id and not answers[0].games[0].seed
        assert len(answers[1].points) > 0
        for answer in answers:
            blob = answer.SerializeToString()
            assert not any(secret in blob for secret in secrets)
    finally:
        running.stop(1.0)
    db = connect(str(directory / "readmodels.db"))
    dump = json.dumps(table_rows(db)).encode()
    assert not any(secret in dump for secret in secrets)
    row = db.execute(
        "SELECT redacted, event FROM public_events WHERE game_id = ? AND seq = ?",
        [game_id, last.seq],
    ).fetchone()
    assert row[0] == 1 and json.loads(row[1])["card"] == ""
    sealed_json = json.dumps(msgspec.to_builtins(chosen), separators=(",", ":"))
    assert sealed_json.encode() not in dump
    # seat 1 chooses: the cards are revealed, the row becomes public; then play to the end
    runner = ReadModelRunner(store, str(directory / "readmodels.db"))
    play_with_bots(service, game_id, bots, max_commands=1)
    runner.catch_up()
    row = db.execute(
        "SELECT redacted, event FROM public_events WHERE game_id = ? AND seq = ?",
        [game_id, last.seq],
    ).fetchone()
    assert row[0] == 0 and json.loads(row[1])["card"] == chosen.card
    play_with_bots(service, game_id, bots)
    runner.catch_up()
    assert queries.get_game(db, game_id).seed == seed.hex()  # type: ignore[union-attr]
    runner.stop()
    store.close()
    shutil.rmtree(directory, ignore_errors=True)


def test_rpcs_serve_the_read_models(played: Played, server: RunningServer) -> None:
    """Requirement 4: ListGames filters (status, player; newest first, paged) and the
    ReadModelService answers equal the read models; a listed summary carries the same
    options and pending decision (with its prompt) as the live GetGame."""
    db = connect(str(played.readmodels))
    with _channel(server) as channel:
        games = pb_grpc.GameServiceStub(channel)
        reads = rpb_grpc.ReadModelServiceStub(channel)
        summaries: list[pb.GameSummary] = []
        token = ""
        while True:
            page = games.ListGames(pb.ListGamesRequest(page_size=7, page_token=token))
            summaries += page.games
            token = page.next_page_token
            if not token:
                break
        listed = [g.game_id for g in summaries]
        assert listed == list(reversed(played.game_ids))
        for listed_game in summaries[:6]:
            live = games.GetGame(pb.GetGameRequest(game_id=listed_game.game_id)).game
            assert listed_game.options_json == live.options_json != ""
            assert listed_game.pending == live.pending
            assert listed_game.version == live.version
        assert any(g.pending.prompt for g in summaries)
        finished = games.ListGames(
            pb.ListGamesRequest(status=pb.GAME_STATUS_FINISHED, player="player-1")
        ).games
        expected, _ = queries.list_games(db, status="finished", player="player-1")
        assert [g.game_id for g in finished] == [r.game_id for r in expected]
        assert all(g.seed and "player-1" in g.seat_names for g in finished)
        game_id = expected[0].game_id
        timeline = reads.GetScoreTimeline(rpb.GetScoreTimelineRequest(game_id=game_id))
        points, _ = queries.score_timeline(db, game_id)
        assert [tuple(p.scores) for p in timeline.points] == [p.scores for p in points]
        assert tuple(timeline.points[-1].scores) == expected[0].final_scores
        board = reads.GetLeaderboard(
            rpb.GetLeaderboardRequest(game_type=pb.GAME_TYPE_RISE_AND_FALL, page_size=3)
        )
        entries, _ = queries.leaderboard(db, "riseandfall", limit=3)
        assert [(e.player, e.wins) for e in board.entries] == [(e.player, e.wins) for e in entries]
        stats = reads.GetBalanceStats(
            rpb.GetBalanceStatsRequest(game_type=pb.GAME_TYPE_RISE_AND_FALL, player_count=3)
        )
        rows = queries.balance_stats(db, "riseandfall", 3)
        assert [(s.balance_key, s.games, s.wins) for s in stats.stats] == [
            (r.balance_key, r.games, r.wins) for r in rows
        ]
        assert all(s.win_rate_low <= s.win_rate <= s.win_rate_high for s in stats.stats)
        with pytest.raises(grpc.RpcError) as error:
            reads.GetLeaderboard(rpb.GetLeaderboardRequest())
        assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT


def test_plots_are_png_with_the_expected_series(played: Played, tmp_path: Path) -> None:
    """Requirement 5: the stats and scores charts are valid PNG files of the right data."""
    from annales_cli.readmodels import balance_bars

    db = connect(str(played.readmodels))
    rows = queries.balance_stats(db, "riseandfall")
    bars = plot_win_rates(balance_bars(rows), str(tmp_path / "stats.png"), "balance")
    assert (tmp_path / "stats.png").read_bytes()[:8] == PNG
    assert [b.key for b in bars] == ["seat 0", "seat 1", "seat 2", "seat 3"]
    for bar, row in zip(bars, rows, strict=True):
        assert bar.win_rate == row.wins / row.games
        assert (bar.low, bar.high) == queries.wilson(row.wins, row.games)
        assert bar.low <= bar.win_rate <= bar.high
    finished, _ = queries.list_games(db, status="finished", limit=1)
    game = finished[0]
    points, _ = queries.score_timeline(db, game.game_id)
    series = plot_score_timeline(
        game.seat_names, [p.version for p in points], [p.scores for p in points],
        str(tmp_path / "scores.png"), "scores",
    )  # fmt: skip
    assert (tmp_path / "scores.png").read_bytes()[:8] == PNG
    keys = [f"{name}#{seat}" for seat, name in enumerate(game.seat_names)]
    assert list(series) == keys  # one line per seat, even for seats sharing a name
    for seat, key in enumerate(keys):
        assert series[key][-1] == (game.version, game.final_scores[seat])
        assert [v for v, _ in series[key]] == sorted(v for v, _ in series[key])


def test_cli_commands(played: Played, tmp_path: Path) -> None:
    """Requirement 5: `annales games / leaderboard / stats --plot / scores --plot` work on
    the read-model file."""
    from annales_cli.main import app
    from typer.testing import CliRunner

    runner = CliRunner()
    rm = str(played.readmodels)
    result = runner.invoke(app, ["games", "--readmodels", rm, "--status", "finished"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["leaderboard", "--readmodels", rm, "--game", "riseandfall"])
    assert result.exit_code == 0 and "player-" in result.output, result.output
    plot = tmp_path / "s.png"
    result = runner.invoke(app, ["stats", "--readmodels", rm, "--plot", str(plot)])
    assert result.exit_code == 0 and "seat 0" in result.output, result.output
    assert plot.read_bytes()[:8] == PNG
    plot = tmp_path / "t.png"
    result = runner.invoke(
        app, ["scores", played.game_ids[0], "--readmodels", rm, "--plot", str(plot)]
    )
    assert result.exit_code == 0, result.output
    assert plot.read_bytes()[:8] == PNG
