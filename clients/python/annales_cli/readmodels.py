"""Read-model commands of the ``annales`` CLI: projections, games, leaderboards, statistics.

Examples::

    annales projections run --db data/annales.db          # follow the log (Ctrl-C to stop)
    annales projections rebuild --db data/annales.db      # drop and rebuild, with progress
    annales games --status finished --player Ann
    annales leaderboard --game riseandfall
    annales stats --game riseandfall --players 3 --plot stats.png
    annales scores GAME_ID --plot scores.png

The reading commands use the read-model file directly (``--readmodels``, default
``readmodels.db`` next to the event store, or ``$ANNALES_READMODELS``) or a server
(``--server host:port``) through ``annales.v1.ReadModelService`` / ``ListGames``.
"""

from __future__ import annotations

import os
import signal
import threading
from dataclasses import dataclass
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
from rich.table import Table

from projections import queries
from projections.plots import WinRateBar, plot_score_timeline, plot_win_rates
from projections.runner import ReadModelRunner, default_path, rebuild
from projections.schema import connect
from service.store.config import StoreConfig
from service.store.eventstore import EventStore

console = Console()
projections_app = typer.Typer(help="Read models that follow the event log.", no_args_is_help=True)

READMODELS_HELP = "Read-model SQLite file (default: readmodels.db next to the event store)."


def _store(db: str | None) -> EventStore:
    config = StoreConfig.from_env()
    if db is not None:
        config = StoreConfig(kind="sqlite", path=db, snapshot_every=config.snapshot_every)
    return EventStore(config)


def _readmodels_path(readmodels: str | None, db: str | None) -> str:
    if readmodels:
        return readmodels
    if db:
        return default_path(db)
    config = StoreConfig.from_env()
    return default_path(config.path if config.kind == "sqlite" else "data/x")


@projections_app.command("run")
def projections_run(
    db: str | None = typer.Option(None, help="SQLite event store (default $ANNALES_DB)."),
    readmodels: str | None = typer.Option(None, envvar="ANNALES_READMODELS", help=READMODELS_HELP),
    batch: int = typer.Option(500, help="Notifications per transaction."),
    poll: float = typer.Option(0.05, help="Seconds between polls of the log."),
    once: bool = typer.Option(False, "--once", help="Catch up, then exit."),
) -> None:
    """Follow the event log and keep the read models up to date (standalone runner).

    Example: ``annales projections run --db data/annales.db``
    """
    store = _store(db)
    path = _readmodels_path(readmodels, db)
    runner = ReadModelRunner(store, path, batch_size=batch, poll_interval=poll)
    if once:
        applied = runner.catch_up()
        console.print(f"{applied} notifications applied; position {runner.position}")
        runner.db.close()
        return
    stopping = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopping.set())
    signal.signal(signal.SIGINT, lambda *_: stopping.set())
    console.print(f"following the log into {path} (position {runner.position})")
    runner.start()
    stopping.wait()
    runner.stop()
    console.print(f"stopped at position {runner.position}")


@projections_app.command("rebuild")
def projections_rebuild(
    db: str | None = typer.Option(None, help="SQLite event store (default $ANNALES_DB)."),
    readmodels: str | None = typer.Option(None, envvar="ANNALES_READMODELS", help=READMODELS_HELP),
) -> None:
    """Drop every read model and rebuild it from the whole event log.

    Example: ``annales projections rebuild --db data/annales.db``
    """
    store = _store(db)
    path = _readmodels_path(readmodels, db)
    total = store.max_notification_id()
    columns = (*Progress.get_default_columns()[:-1], MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, BarColumn(bar_width=0), console=console) as progress:
        task = progress.add_task("rebuilding read models", total=total or 1)

        def advance(position: int, target: int) -> None:
            progress.update(task, completed=position, total=max(target, 1))

        applied = rebuild(store, path, advance)
    console.print(f"rebuilt {path} from {applied} notifications")


# -- sources: the read-model file, or a server -----------------------------------------------
@dataclass(frozen=True)
class Timeline:
    """A score timeline as the CLI shows it."""

    seat_names: tuple[str, ...]
    versions: list[int]
    scores: list[tuple[int, ...]]


class Source:
    """Where the reading commands get their data."""

    def __init__(self, server: str | None, readmodels: str | None, db: str | None) -> None:
        self.server = server
        self.path = _readmodels_path(readmodels, db)
        if server is None and not os.path.exists(self.path):
            console.print(f"[red]no read models at {self.path}[/] (run annales projections run)")
            raise typer.Exit(1)

    def _stubs(self) -> tuple[Any, Any, Any]:
        import grpc
        from annales.v1 import annales_pb2_grpc, readmodels_pb2_grpc

        assert self.server is not None
        channel = grpc.insecure_channel(self.server)
        games: Any = annales_pb2_grpc.GameServiceStub
        reads: Any = readmodels_pb2_grpc.ReadModelServiceStub
        return channel, games(channel), reads(channel)

    def games(
        self, game: str | None, status: str | None, player: str | None, limit: int
    ) -> list[tuple[str, str, str, tuple[str, ...], int, tuple[int, ...], tuple[int, ...]]]:
        """``(id, type, status, seat names, version, scores, winners)`` newest first."""
        if self.server is None:
            rows, _ = queries.list_games(
                connect(self.path), game_type=game, status=status, player=player, limit=limit
            )
            return [
                (r.game_id, r.game_type, r.status, r.seat_names, r.version, r.scores, r.winners)
                for r in rows
            ]
        from annales.v1 import annales_pb2 as pb

        from service.api.games import BY_NAME, BY_TYPE
        from service.api.readmodels import STATUS_NAMES, STATUS_VALUES

        channel, stub, _ = self._stubs()
        with channel:
            answer = stub.ListGames(
                pb.ListGamesRequest(
                    page_size=min(limit, 500),
                    game_type=BY_NAME[game].game_type if game else pb.GAME_TYPE_UNSPECIFIED,
                    status=STATUS_VALUES[status] if status else pb.GAME_STATUS_UNSPECIFIED,
                    player=player or "",
                )
            )
        return [
            (g.game_id, BY_TYPE[g.game_type].name if g.game_type in BY_TYPE else "?",
             STATUS_NAMES.get(g.status, "?"), tuple(g.seat_names), g.version, tuple(g.scores),
             tuple(g.winners))
            for g in answer.games
        ]  # fmt: skip

    def leaderboard(self, game: str, limit: int) -> list[queries.LeaderboardEntry]:
        """Players of ``game`` by wins."""
        if self.server is None:
            return queries.leaderboard(connect(self.path), game, limit=limit)[0]
        from annales.v1 import readmodels_pb2 as rpb

        from service.api.games import BY_NAME

        channel, _, stub = self._stubs()
        with channel:
            answer = stub.GetLeaderboard(
                rpb.GetLeaderboardRequest(game_type=BY_NAME[game].game_type, page_size=limit)
            )
        return [
            queries.LeaderboardEntry(e.player, game, e.games, e.wins, e.average_score, e.best_score)
            for e in answer.entries
        ]

    def balance(self, game: str, players: int) -> list[queries.BalanceRow]:
        """Balance statistics of ``game`` (``players=0``: every player count)."""
        if self.server is None:
            return queries.balance_stats(connect(self.path), game, players)
        from annales.v1 import readmodels_pb2 as rpb

        from service.api.games import BY_NAME

        channel, _, stub = self._stubs()
        with channel:
            answer = stub.GetBalanceStats(
                rpb.GetBalanceStatsRequest(
                    game_type=BY_NAME[game].game_type, player_count=players, page_size=1000
                )
            )
        return [
            queries.BalanceRow(
                s.balance_key, s.player_count, s.games, s.wins, s.average_score, s.average_rank
            )
            for s in answer.stats
        ]

    def timeline(self, game_id: str) -> Timeline:
        """The game's score timeline."""
        if self.server is None:
            db = connect(self.path)
            row = queries.get_game(db, game_id)
            if row is None:
                console.print(f"[red]no game {game_id} in the read models[/]")
                raise typer.Exit(1)
            points, _ = queries.score_timeline(db, game_id)
            return Timeline(row.seat_names, [p.version for p in points], [p.scores for p in points])
        from annales.v1 import readmodels_pb2 as rpb

        channel, _, stub = self._stubs()
        versions: list[int] = []
        scores: list[tuple[int, ...]] = []
        token = ""
        with channel:
            while True:
                answer = stub.GetScoreTimeline(
                    rpb.GetScoreTimelineRequest(game_id=game_id, page_size=10000, page_token=token)
                )
                versions += [p.version for p in answer.points]
                scores += [tuple(p.scores) for p in answer.points]
                token = answer.next_page_token
                if not token:
                    return Timeline(tuple(answer.seat_names), versions, scores)


# -- reading commands --------------------------------------------------------------------------
SERVER_HELP = "Read over gRPC from this server (host:port) instead of the file."
DB_HELP = "SQLite event store whose read models to read (locates the default file)."


def games(
    game: str | None = typer.Option(None, help="Only this game type, e.g. riseandfall."),
    status: str | None = typer.Option(None, help="setup, running, finished or abandoned."),
    player: str | None = typer.Option(None, help="Only games with a seat of this name."),
    limit: int = typer.Option(50, help="At most this many games."),
    readmodels: str | None = typer.Option(None, envvar="ANNALES_READMODELS", help=READMODELS_HELP),
    db: str | None = typer.Option(None, help=DB_HELP),
    server: str | None = typer.Option(None, help=SERVER_HELP),
) -> None:
    """List games, newest first.

    Example: ``annales games --status finished --player Ann``
    """
    if status is not None and status not in queries.STATUSES:
        raise typer.BadParameter(f"status must be one of {', '.join(queries.STATUSES)}")
    table = Table(title="Games (newest first)")
    for column in ("game", "type", "status", "seats", "version", "scores", "winners"):
        table.add_column(column)
    for gid, gtype, gstatus, names, version, scores, winners in Source(
        server, readmodels, db
    ).games(game, status, player, limit):
        table.add_row(
            gid, gtype, gstatus, ", ".join(names), str(version), " ".join(map(str, scores)),
            ", ".join(names[w] for w in winners if 0 <= w < len(names)),
        )  # fmt: skip
    console.print(table)


def leaderboard(
    game: str = typer.Option("riseandfall", help="Game type."),
    limit: int = typer.Option(20, help="At most this many players."),
    readmodels: str | None = typer.Option(None, envvar="ANNALES_READMODELS", help=READMODELS_HELP),
    db: str | None = typer.Option(None, help=DB_HELP),
    server: str | None = typer.Option(None, help=SERVER_HELP),
) -> None:
    """Players ranked by wins in finished games.

    Example: ``annales leaderboard --game riseandfall``
    """
    table = Table(title=f"Leaderboard — {game}")
    for column in ("#", "player", "games", "wins", "win rate", "avg score", "best"):
        table.add_column(column, justify="right" if column != "player" else "left")
    for rank, e in enumerate(Source(server, readmodels, db).leaderboard(game, limit), 1):
        table.add_row(
            str(rank), e.player, str(e.games), str(e.wins), f"{e.win_rate:.0%}",
            f"{e.average_score:.1f}", str(e.best_score),
        )  # fmt: skip
    console.print(table)


def stats(
    game: str = typer.Option("riseandfall", help="Game type."),
    players: int = typer.Option(0, help="Only games with this many players (0: all)."),
    plot: str | None = typer.Option(None, help="Also draw a win-rate bar chart (PNG)."),
    readmodels: str | None = typer.Option(None, envvar="ANNALES_READMODELS", help=READMODELS_HELP),
    db: str | None = typer.Option(None, help=DB_HELP),
    server: str | None = typer.Option(None, help=SERVER_HELP),
) -> None:
    """Balance statistics per civilisation / nation / seat position (finished games only).

    Example: ``annales stats --game riseandfall --plot stats.png``
    """
    rows = Source(server, readmodels, db).balance(game, players)
    table = Table(title=f"Balance — {game} ({players or 'all'} players)")
    for column in ("key", "games", "wins", "win rate", "95% CI", "avg score", "avg rank"):
        table.add_column(column, justify="left" if column == "key" else "right")
    for r in rows:
        low, high = r.interval
        table.add_row(
            r.balance_key, str(r.games), str(r.wins), f"{r.win_rate:.0%}",
            f"{low:.0%}–{high:.0%}", f"{r.average_score:.1f}", f"{r.average_rank:.2f}",
        )  # fmt: skip
    console.print(table)
    if plot:
        plot_win_rates(balance_bars(rows), plot, f"{game}: win rate by balance key")
        console.print(f"chart written to {plot}")


def balance_bars(rows: list[queries.BalanceRow]) -> list[WinRateBar]:
    """The bars of the balance chart."""
    return [WinRateBar(r.balance_key, r.games, r.win_rate, *r.interval) for r in rows]


def scores(
    game_id: str,
    plot: str | None = typer.Option(None, help="Also draw the timeline (PNG)."),
    readmodels: str | None = typer.Option(None, envvar="ANNALES_READMODELS", help=READMODELS_HELP),
    db: str | None = typer.Option(None, help=DB_HELP),
    server: str | None = typer.Option(None, help=SERVER_HELP),
) -> None:
    """A game's score timeline: each seat's score after every turn.

    Example: ``annales scores 3f2a... --plot scores.png``
    """
    timeline = Source(server, readmodels, db).timeline(game_id)
    table = Table(title=f"Scores — {game_id}")
    table.add_column("version", justify="right")
    for name in timeline.seat_names:
        table.add_column(name, justify="right")
    step = max(1, len(timeline.versions) // 40)  # at most ~40 rows on screen
    for index in range(0, len(timeline.versions), step):
        table.add_row(str(timeline.versions[index]), *map(str, timeline.scores[index]))
    if timeline.versions and (len(timeline.versions) - 1) % step:
        table.add_row(str(timeline.versions[-1]), *map(str, timeline.scores[-1]))
    console.print(table)
    if plot:
        plot_score_timeline(
            timeline.seat_names, timeline.versions, timeline.scores, plot, f"Scores — {game_id}"
        )
        console.print(f"chart written to {plot}")


def register(app: typer.Typer) -> None:
    """Add the read-model commands to the ``annales`` app."""
    app.add_typer(projections_app, name="projections")
    for command in (games, leaderboard, stats, scores):
        app.command()(command)
