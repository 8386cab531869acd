"""Read-model commands of the ``annales`` CLI: projections, games, leaderboards, statistics.

Examples::

    annales projections run --db data/annales.db          # follow the log (Ctrl-C to stop)
    annales projections rebuild --db data/annales.db      # drop and rebuild, with progress
    annales games --status finished --player Ann
    annales leaderboard --game riseandfall
    annales stats --game riseandfall --players 3 --plot stats.png
    annales scores GAME_ID --plot scores.png

The reading commands ask the server by default (``--server HOST:PORT``, else
``$ANNALES_SERVER``, else 127.0.0.1:50051) through ``annales.v1.ReadModelService`` /
``ListGames``, so they show what the server holds. ``--readmodels FILE`` (or ``--db STORE``,
whose read-model file is named after it: ``data/sim.readmodels.db`` for ``data/sim.db``)
reads a file instead, offline; a file that follows another store is refused with a message.
Unknown game names and ids are errors. ``--json`` prints one JSON object per line.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass
from typing import Any

import typer
from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
from rich.table import Table

from annales_cli.common import fail
from projections import queries
from projections.plots import WinRateBar, plot_score_timeline, plot_win_rates
from projections.runner import ReadModelRunner, check_owner, default_path, path_for, rebuild
from projections.schema import connect
from service.api.signals import stop_on_signals, wait_for_stop
from service.store.config import StoreConfig
from service.store.eventstore import EventStore

console = Console()
projections_app = typer.Typer(help="Read models that follow the event log.", no_args_is_help=True)

READMODELS_HELP = (
    "Read-model SQLite file (default: named after the event store, e.g. "
    "data/annales.readmodels.db for data/annales.db)."
)


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
    if config.kind == "postgres":  # no default: each server has its own file
        fail(
            "on PostgreSQL each server keeps its own read-model file, "
            f"data/{config.pg_dbname}.<port>.readmodels.db: name it with --readmodels FILE"
        )
    return path_for(config)


def _shown(position: tuple[int, int]) -> str:
    """A feed position for people: the notification id (and, on PostgreSQL, the transaction
    that wrote it)."""
    xact, notification = position
    return str(notification) if xact == 0 else f"{notification} (transaction {xact})"


@projections_app.command("run")
def projections_run(
    db: str | None = typer.Option(None, help="SQLite event store (default $ANNALES_DB)."),
    readmodels: str | None = typer.Option(None, envvar="ANNALES_READMODELS", help=READMODELS_HELP),
    batch: int = typer.Option(500, help="Notifications per transaction."),
    poll: float = typer.Option(0.05, help="Seconds between polls of the log."),
    once: bool = typer.Option(False, "--once", help="Catch up, then exit."),
) -> None:
    """Follow the event log and keep the read models up to date (standalone runner).

    Example: annales projections run --db data/annales.db
    """
    path = _readmodels_path(readmodels, db)  # before connecting: it may refuse at once
    store = _store(db)
    check_owner(path, store)
    runner = ReadModelRunner(store, path, batch_size=batch, poll_interval=poll)
    if once:
        applied = runner.catch_up()
        console.print(f"{applied} notifications applied; position {_shown(runner.position)}")
        runner.close()
        return
    stopping = stop_on_signals()
    console.print(f"following the log into {path} (position {_shown(runner.position)})")
    runner.start()
    wait_for_stop(stopping)
    runner.stop()
    console.print(f"stopped at position {_shown(runner.position)}")


@projections_app.command("rebuild")
def projections_rebuild(
    db: str | None = typer.Option(None, help="SQLite event store (default $ANNALES_DB)."),
    readmodels: str | None = typer.Option(None, envvar="ANNALES_READMODELS", help=READMODELS_HELP),
) -> None:
    """Drop every read model and rebuild it from the whole event log.

    Example: annales projections rebuild --db data/annales.db
    """
    path = _readmodels_path(readmodels, db)  # before connecting: it may refuse at once
    store = _store(db)
    check_owner(path, store)
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
    """Where the reading commands get their data: the server (default), or a read-model file
    when ``--readmodels`` or ``--db`` is given."""

    def __init__(self, server: str | None, readmodels: str | None, db: str | None) -> None:
        self.offline = bool(readmodels or db)
        self.server = server
        self.path = _readmodels_path(readmodels, db)
        self.client: Any = None
        if self.offline:
            if not os.path.exists(self.path):
                fail(f"no read models at {self.path} (run `annales projections rebuild"
                     f"{' --db ' + db if db else ''}`)")  # fmt: skip
            if db:
                check_owner(self.path, _store(db))
        else:
            from annales_cli.common import connect as connect_server

            self.client = connect_server(server or os.environ.get("ANNALES_SERVER"))

    def _reads(self) -> Any:
        from annales.v1 import readmodels_pb2_grpc

        stub: Any = readmodels_pb2_grpc.ReadModelServiceStub
        return stub(self.client.channel)

    def _call(self, method: Any, request: Any) -> Any:
        import grpc
        from annales_client import AnnalesError

        try:
            return method(request, timeout=30.0)
        except grpc.RpcError as error:
            raise AnnalesError.from_rpc_error(error) from None

    def games(
        self, game: str | None, status: str | None, player: str | None, limit: int
    ) -> list[tuple[str, str, str, tuple[str, ...], int, tuple[int, ...], tuple[int, ...]]]:
        """``(id, type, status, seat names, version, scores, winners)`` newest first."""
        if self.offline:
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

        answer = self._call(
            self.client.stub.ListGames,
            pb.ListGamesRequest(
                page_size=min(limit, 500),
                game_type=BY_NAME[game].game_type if game else pb.GAME_TYPE_UNSPECIFIED,
                status=STATUS_VALUES[status] if status else pb.GAME_STATUS_UNSPECIFIED,
                player=player or "",
            ),
        )
        return [
            (g.game_id, BY_TYPE[g.game_type].name if g.game_type in BY_TYPE else "?",
             STATUS_NAMES.get(g.status, "?"), tuple(g.seat_names), g.version, tuple(g.scores),
             tuple(g.winners))
            for g in answer.games
        ]  # fmt: skip

    def leaderboard(self, game: str, limit: int) -> list[queries.LeaderboardEntry]:
        """Players of ``game`` by wins."""
        if self.offline:
            return queries.leaderboard(connect(self.path), game, limit=limit)[0]
        from annales.v1 import readmodels_pb2 as rpb

        from service.api.games import BY_NAME

        answer = self._call(
            self._reads().GetLeaderboard,
            rpb.GetLeaderboardRequest(game_type=BY_NAME[game].game_type, page_size=limit),
        )
        return [
            queries.LeaderboardEntry(e.player, game, e.games, e.wins, e.average_score, e.best_score)
            for e in answer.entries
        ]

    def balance(self, game: str, players: int) -> list[queries.BalanceRow]:
        """Balance statistics of ``game`` (``players=0``: every player count)."""
        if self.offline:
            return queries.balance_stats(connect(self.path), game, players)
        from annales.v1 import readmodels_pb2 as rpb

        from service.api.games import BY_NAME

        answer = self._call(
            self._reads().GetBalanceStats,
            rpb.GetBalanceStatsRequest(
                game_type=BY_NAME[game].game_type, player_count=players, page_size=1000
            ),
        )
        return [
            queries.BalanceRow(
                s.balance_key, s.player_count, s.games, s.wins, s.average_score, s.average_rank
            )
            for s in answer.stats
        ]

    def resolve(self, game_id: str) -> str:
        """The whole id of a game given by id or unique prefix (exits when unknown)."""
        if self.offline:
            db = connect(self.path)
            rows = db.execute(
                "SELECT game_id FROM games WHERE substr(game_id, 1, ?) = ? ORDER BY game_id"
                " LIMIT 6",
                [len(game_id), game_id],
            ).fetchall()
            ids = [str(r[0]) for r in rows]
            if game_id in ids:
                return game_id
            if len(ids) > 1:
                fail(f"{game_id!r} matches several games: {', '.join(ids[:5])}")
            if not ids:
                fail(f"no game {game_id!r} in {self.path}")
            return ids[0]
        from annales_cli.common import resolve_game_id

        return resolve_game_id(game_id, None, self.client)[0]

    def timeline(self, game_id: str) -> Timeline:
        """The game's score timeline."""
        game_id = self.resolve(game_id)
        if self.offline:
            db = connect(self.path)
            row = queries.get_game(db, game_id)
            if row is None:
                fail(f"no game {game_id} in the read models {self.path}")
            points, _ = queries.score_timeline(db, game_id)
            return Timeline(row.seat_names, [p.version for p in points], [p.scores for p in points])
        from annales.v1 import readmodels_pb2 as rpb

        versions: list[int] = []
        scores: list[tuple[int, ...]] = []
        token = ""
        while True:
            answer = self._call(
                self._reads().GetScoreTimeline,
                rpb.GetScoreTimelineRequest(game_id=game_id, page_size=10000, page_token=token),
            )
            versions += [p.version for p in answer.points]
            scores += [tuple(p.scores) for p in answer.points]
            token = answer.next_page_token
            if not token:
                return Timeline(tuple(answer.seat_names), versions, scores)


def _game_type(game: str | None) -> str | None:
    """The registry name of ``--game`` (exits with the known games when unknown)."""
    if game is None:
        return None
    from annales_cli.remote import game_name

    return game_name(game)


def _print_json(rows: list[dict[str, Any]]) -> None:
    from annales_cli.remote import print_json

    for row in rows:
        print_json(row)


# -- reading commands --------------------------------------------------------------------------
SERVER_HELP = "Server HOST:PORT to ask (default $ANNALES_SERVER or 127.0.0.1:50051)."
DB_HELP = "Read the read-model file of this SQLite event store instead of asking a server."
FILE_HELP = "Read this read-model file instead of asking a server."
JSON_HELP = "Print JSON (one object per line) instead of a table."


def games(
    game: str | None = typer.Option(None, help="Only this game type, e.g. riseandfall."),
    status: str | None = typer.Option(None, help="setup, running, finished or abandoned."),
    player: str | None = typer.Option(None, help="Only games with a seat of this name."),
    limit: int = typer.Option(50, help="At most this many games."),
    readmodels: str | None = typer.Option(None, help=FILE_HELP),
    db: str | None = typer.Option(None, help=DB_HELP),
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
    server: str | None = typer.Option(None, envvar="ANNALES_SERVER", help=SERVER_HELP),
) -> None:
    """List games, newest first, with their whole ids.

    Example: annales games --status finished --player Ann
    """
    if status is not None and status not in queries.STATUSES:
        raise typer.BadParameter(f"status must be one of {', '.join(queries.STATUSES)}")
    found = Source(server, readmodels, db).games(_game_type(game), status, player, limit)
    if as_json:
        _print_json([
            {"game_id": gid, "game": gtype, "status": gstatus, "seat_names": list(names),
             "version": version, "scores": list(scores), "winners": list(winners)}
            for gid, gtype, gstatus, names, version, scores, winners in found
        ])  # fmt: skip
        return
    table = Table(title="Games (newest first)", box=box.SIMPLE_HEAD, pad_edge=False)
    whole = max((len(row[0]) for row in found), default=0)  # ids are never cut short
    table.add_column("game id", no_wrap=True, min_width=whole)
    table.add_column("game", no_wrap=True)
    table.add_column("status", no_wrap=True)
    table.add_column("seats and scores", ratio=1)
    table.caption = "* winner"
    for gid, gtype, gstatus, names, version, scores, winners in found:
        seats = ", ".join(
            f"{name}{'*' if seat in winners else ''}"
            + (f" {scores[seat]}" if seat < len(scores) else "")
            for seat, name in enumerate(names)
        )
        table.add_row(gid, gtype, f"{gstatus} v{version}", seats)
    console.print(table)
    if not found:
        console.print("no game yet: create one with `annales new riseandfall`")


def leaderboard(
    game: str = typer.Option("riseandfall", help="Game type."),
    limit: int = typer.Option(20, help="At most this many players."),
    readmodels: str | None = typer.Option(None, help=FILE_HELP),
    db: str | None = typer.Option(None, help=DB_HELP),
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
    server: str | None = typer.Option(None, envvar="ANNALES_SERVER", help=SERVER_HELP),
) -> None:
    """Players ranked by wins in finished games.

    Example: annales leaderboard --game riseandfall
    """
    game = _game_type(game) or game
    entries = Source(server, readmodels, db).leaderboard(game, limit)
    if as_json:
        _print_json(
            [
                {"rank": rank, **asdict(e), "win_rate": e.win_rate}
                for rank, e in enumerate(entries, 1)
            ]
        )
        return
    table = Table(title=f"Leaderboard — {game}")
    for column in ("#", "player", "games", "wins", "win rate", "avg score", "best"):
        table.add_column(column, justify="right" if column != "player" else "left")
    for rank, e in enumerate(entries, 1):
        table.add_row(
            str(rank), e.player, str(e.games), str(e.wins), f"{e.win_rate:.0%}",
            f"{e.average_score:.1f}", str(e.best_score),
        )  # fmt: skip
    console.print(table)


def stats(
    game: str = typer.Option("riseandfall", help="Game type."),
    players: int = typer.Option(0, help="Only games with this many players (0: all)."),
    plot: str | None = typer.Option(None, help="Also draw a win-rate bar chart (PNG)."),
    readmodels: str | None = typer.Option(None, help=FILE_HELP),
    db: str | None = typer.Option(None, help=DB_HELP),
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
    server: str | None = typer.Option(None, envvar="ANNALES_SERVER", help=SERVER_HELP),
) -> None:
    """Balance statistics per civilisation / nation / seat (finished games only).

    Example: annales stats --game riseandfall --plot stats.png
    """
    game = _game_type(game) or game
    rows = Source(server, readmodels, db).balance(game, players)
    if as_json:
        _print_json([
            {**asdict(r), "win_rate": r.win_rate, "interval": list(r.interval)} for r in rows
        ])  # fmt: skip
        return
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
    game_id: str = typer.Argument(..., help="Game id, or a unique prefix of one."),
    plot: str | None = typer.Option(None, help="Also draw the timeline (PNG)."),
    readmodels: str | None = typer.Option(None, help=FILE_HELP),
    db: str | None = typer.Option(None, help=DB_HELP),
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
    server: str | None = typer.Option(None, envvar="ANNALES_SERVER", help=SERVER_HELP),
) -> None:
    """A game's score timeline: each seat's score after every turn.

    Example: annales scores 3f2a --plot scores.png
    """
    timeline = Source(server, readmodels, db).timeline(game_id)
    if as_json:
        _print_json([
            {"version": v, "scores": list(s), "seat_names": list(timeline.seat_names)}
            for v, s in zip(timeline.versions, timeline.scores, strict=True)
        ])  # fmt: skip
        return
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
