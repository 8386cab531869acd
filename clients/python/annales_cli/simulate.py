"""``annales simulate`` — bot games at scale into the local store, then balance statistics.

Example::

    annales simulate --game riseandfall --players 3 --games 1000 --bots random,greedy \\
        --workers 2 --seed S --db data/sim.db

Games are played by :func:`service.simulation.runner.run_jobs` in worker processes and committed in
batches; their seeds, ids and seat bots derive from ``--seed`` (see
:mod:`service.simulation.runner`),
so the same command stores the same games again (and an interrupted run resumes: stored games
are skipped). Afterwards the read models catch up (unless ``--no-projections``) and the balance
statistics of the game are printed.
"""

from __future__ import annotations

import json

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from annales_cli.common import comma_names, flatten
from service.app.errors import ServiceError
from service.simulation.jobs import DEFAULT_BATCH, SimulationReport, kind_stats, simulation_jobs
from service.simulation.names import bot_kind
from service.simulation.runner import run_jobs
from service.store.config import StoreConfig

console = Console()


class GamesPerSecond(ProgressColumn):
    """Completed games per second of elapsed time."""

    def render(self, task: Task) -> Text:
        """``12.3 games/s``."""
        elapsed = task.elapsed or 0.0
        rate = task.completed / elapsed if elapsed > 0 else 0.0
        return Text(f"{rate:,.1f} games/s", style="cyan")


def store_config(db: str | None) -> StoreConfig:
    """The store of ``--db`` (SQLite), else the one of ``ANNALES_*``."""
    config = StoreConfig.from_env()
    if db is not None:
        config = StoreConfig(kind="sqlite", path=db, snapshot_every=config.snapshot_every)
    return config


def simulate(
    game: str = typer.Option("riseandfall", help="Game (riseandfall, tapestry, imperium)."),
    players: int = typer.Option(3, help="Seats per game."),
    games: int = typer.Option(100, help="Number of games."),
    bots: list[str] = typer.Option(
        ["random", "greedy"],
        parser=comma_names,
        metavar="KIND,…",
        help="Bot kinds, comma-separated, rotated over seats.",
    ),
    workers: int = typer.Option(2, help="Worker processes (0: play in this process)."),
    seed: str = typer.Option("sim", help="Master seed: every game seed derives from it."),
    db: str | None = typer.Option(None, help="SQLite event store (default $ANNALES_DB)."),
    batch: int | None = typer.Option(
        None,
        min=1,
        help=f"Games per commit (default: small enough that progress shows early, at most "
        f"{DEFAULT_BATCH}).",
    ),
    options: str = typer.Option("{}", help="Game options as JSON, e.g. '{\"trophies\": 5}'."),
    projections: bool = typer.Option(
        True, "--projections/--no-projections", help="Bring the read models up to date after."
    ),
    readmodels: str | None = typer.Option(
        None,
        envvar="ANNALES_READMODELS",
        help="Read-model file (default: named after the store, e.g. data/sim.readmodels.db).",
    ),
) -> None:
    """Play bot games in parallel worker processes straight into the store.

    \b
    Example (40 three-player Rise & Fall games take about 2 minutes on 2 cores):
      annales simulate --game riseandfall --players 3 --games 40 --workers 2 --seed S \\
          --db data/sim.db
    """
    from annales_cli.remote import game_name

    name = game_name(game)
    try:
        parsed = json.loads(options)
    except json.JSONDecodeError as error:
        console.print(f"[red]--options is not JSON: {error}[/]")
        raise typer.Exit(2) from None
    if not isinstance(parsed, dict):
        console.print("[red]--options must be a JSON object[/]")
        raise typer.Exit(2)
    kinds = flatten(bots)
    if batch is None:  # a few games per commit first: the bar moves within the first games
        batch = max(1, min(DEFAULT_BATCH, games // (8 * max(workers, 1))))
    config = store_config(db)
    try:
        jobs = simulation_jobs(name, players, games, kinds, seed.encode(), parsed)
    except ServiceError as error:
        console.print(f"[red]{error.message}[/]")
        raise typer.Exit(2) from None
    columns = (
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        GamesPerSecond(), TextColumn("{task.fields[events]}"), TimeElapsedColumn(),
        TextColumn("{task.fields[left]}"), TimeRemainingColumn(),
    )  # fmt: skip
    console.print(
        f"{len(jobs)} games on {workers or 'no'} worker process(es), {batch} game(s) per commit; "
        "one bar per worker moves as each game ends, the total counts them too"
    )
    with Progress(*columns, console=console) as progress:
        total = progress.add_task(
            f"{name} {players}p total", total=len(jobs), events="0 events committed", left="left"
        )
        bars: dict[int, TaskID] = {}
        share = -(-len(jobs) // max(workers, 1))  # a worker's expected share of the games
        played: dict[int, int] = {}
        committed = 0

        def show_total() -> None:
            progress.update(total, completed=max(committed, sum(played.values())))

        def game_done(worker: int, count: int) -> None:
            if worker not in bars:
                bars[worker] = progress.add_task(
                    f"worker {worker + 1}", total=share, events="", left=""
                )
            played[worker] = count
            progress.update(bars[worker], completed=min(count, share))
            show_total()

        def advance(done: int, all_games: int, events: int) -> None:
            nonlocal committed
            committed = done
            progress.update(total, events=f"{events:,} events committed")
            show_total()

        try:
            report = run_jobs(
                config, jobs, workers=workers, batch=batch, progress=advance,
                game_progress=game_done,
            )  # fmt: skip
        except ServiceError as error:
            console.print(f"[red]{error.message}[/]")
            raise typer.Exit(1) from None
    _summary(report)
    if projections:
        _project(config, readmodels, name, players)


def _summary(report: SimulationReport) -> None:
    skipped = sum(1 for r in report.results if r.status == "skipped")
    console.print(
        f"{report.played} games played ({skipped} already stored), {report.events:,} events in "
        f"{report.seconds:.1f} s = {report.games_per_second:.2f} games/s, "
        f"{report.events / report.seconds if report.seconds else 0:,.0f} events/s "
        f"({report.workers} workers, {report.batch} games per commit)"
    )
    if report.commit_seconds > 0:
        console.print(
            f"store: {report.events / report.commit_seconds:,.0f} events/s while committing "
            f"({report.commit_seconds:.2f} s of commits, lock waits included)"
        )
    from projections.queries import wilson

    table = Table(title="Per bot kind (this run)")
    for column in ("bot", "seats", "wins", "win rate", "95% interval", "avg score"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for stats in kind_stats(report.results):
        low, high = wilson(stats.wins, stats.seats)
        table.add_row(stats.kind, str(stats.seats), str(stats.wins), f"{stats.win_rate:.1%}",
                      f"{low:.1%}–{high:.1%}", f"{stats.average_score:.1f}")  # fmt: skip
    console.print(table)
    console.print(seat_table(report))


def seat_table(report: SimulationReport) -> Table:
    """Win rates per seat (seat 0 first) with 95 % Wilson intervals, and which bot kinds sat
    there: kinds rotate over seats, so read it with the per-kind table."""
    from projections.queries import wilson

    seats: dict[int, list[int]] = {}
    kinds: dict[int, set[str]] = {}
    for result in report.results:
        for seat, name in enumerate(result.seat_names):
            entry = seats.setdefault(seat, [0, 0, 0])
            entry[0] += 1
            entry[1] += int(seat in result.winners)
            entry[2] += result.scores[seat] if seat < len(result.scores) else 0
            kinds.setdefault(seat, set()).add(bot_kind(name))
    table = Table(title="Per seat (this run)")
    for column in ("seat", "games", "wins", "win rate", "95% interval", "avg score", "bots"):
        table.add_column(column, justify="left" if column in ("seat", "bots") else "right")
    for seat in sorted(seats):
        games, wins, total = seats[seat]
        low, high = wilson(wins, games)
        table.add_row(f"seat {seat}", str(games), str(wins), f"{wins / games:.1%}",
                      f"{low:.1%}–{high:.1%}", f"{total / games:.1f}",
                      ", ".join(sorted(kinds[seat])))  # fmt: skip
    return table


def _project(config: StoreConfig, readmodels: str | None, game: str, players: int) -> None:
    from projections import queries
    from projections.runner import ReadModelRunner, check_owner, path_for
    from service.store.eventstore import EventStore

    path = readmodels or path_for(config)
    store = EventStore(config)
    check_owner(path, store)
    runner = ReadModelRunner(store, path, batch_size=2000)
    try:
        target = store.max_notification_id()
        with Progress(
            TextColumn("[bold]read models"), BarColumn(), MofNCompleteColumn(),
            TimeElapsedColumn(), console=console,
        ) as progress:  # fmt: skip
            start = runner.position[1]  # notification ids: a measure of progress
            task = progress.add_task("catch up", total=max(target - start, 1))

            def advance(position: int, last: int) -> None:
                progress.update(task, completed=position - start)

            runner.catch_up(advance)
        rows = queries.balance_stats(runner.db, game, players)
    finally:
        runner.close()
        store.close()
    table = Table(title=f"Balance statistics: {game}, {players} players (every game in the store)")
    for column in ("key", "games", "wins", "win rate", "95% interval", "avg score", "avg rank"):
        table.add_column(column, justify="left" if column == "key" else "right")
    for row in rows:
        low, high = row.interval
        table.add_row(row.balance_key, str(row.games), str(row.wins), f"{row.win_rate:.1%}",
                      f"{low:.1%}–{high:.1%}", f"{row.average_score:.1f}",
                      f"{row.average_rank:.2f}")  # fmt: skip
    console.print(table)
