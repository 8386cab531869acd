"""``annales tournament`` — the organiser's commands, on a local store (``--db``).

Examples::

    annales tournament new riseandfall --format swiss --rounds 3 --seed "secret" --db t.db
    annales tournament add tournament-… Ann Bob                      # people (seat tokens)
    annales tournament add tournament-… R1 R2 --bot greedy           # bots
    annales tournament start tournament-…                            # pairs round 1, tokens
    annales tournament round tournament-…                            # the tokens again
    annales tournament report tournament-… GAME_ID                   # a finished game
    annales tournament run tournament-… --workers 2                  # play a bot tournament
    annales tournament standings tournament-…
    annales tournament export tournament-… -o tournament.jsonl
    annales tournament verify tournament.jsonl                       # offline, fresh process

The store comes from ``--db`` (a SQLite file), else ``ANNALES_STORE`` / ``ANNALES_DB`` /
``ANNALES_PG_*`` as for ``annales serve``. People play their games through a server on the
same store with the seat token printed by ``start`` / ``round``: ``annales join TOKEN``.
``verify`` needs nothing but the record file.
"""

from __future__ import annotations

import sys
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from annales_cli.common import console, describe_exception, fail
from annales_cli.render_common import seed_with_text
from domain.tournament.events import StandingRow
from service.app.application import GameService
from service.app.errors import ServiceError
from service.store.config import StoreConfig
from service.store.eventstore import EventStore
from service.tournaments.record import verify_tournament
from service.tournaments.service import RoundStart, Standings, TournamentService

tournament_app = typer.Typer(help="Seeded tournaments (organiser commands).", no_args_is_help=True)

DB_HELP = "SQLite event-store file (default: $ANNALES_STORE / $ANNALES_DB, data/annales.db)."


def register(app: typer.Typer) -> None:
    """Add ``annales tournament …`` to the main CLI."""
    app.add_typer(tournament_app, name="tournament")


def _config(db: str | None) -> StoreConfig:
    config = StoreConfig.from_env()
    if db is not None:
        config = StoreConfig(kind="sqlite", path=db, snapshot_every=config.snapshot_every)
    return config


def _service(db: str | None) -> TournamentService:
    return TournamentService(GameService(EventStore(_config(db))))


def standings_table(standings: Standings | tuple[StandingRow, ...], title: str = "") -> Table:
    """A rich table of standings (rank, entrant, points and every tiebreak)."""
    rows = standings.rows if isinstance(standings, Standings) else standings
    if isinstance(standings, Standings) and not title:
        state = "final" if standings.ended else f"after round {standings.rounds_completed}"
        title = (
            f"{standings.name} — {standings.game_type}, {standings.format}, "
            f"{standings.rounds} rounds ({state})"
        )
    table = Table(title=title or "Standings")
    for name, justify in [
        ("#", "right"),
        ("entrant", "left"),
        ("points", "right"),
        ("score", "right"),
        ("Buchholz", "right"),
        ("wins", "right"),
        ("games", "right"),
        ("byes", "right"),
    ]:
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for row in rows:
        style = "bold" if row.rank == 1 else None
        table.add_row(
            str(row.rank),
            row.name,
            str(row.points),
            str(row.score),
            str(row.buchholz),
            str(row.wins),
            str(row.games),
            str(row.byes),
            style=style,
        )
    table.caption = "order: points, score, Buchholz, then the seed-derived lot"
    return table


def _print_round(round_start: RoundStart, names: list[str] | None = None) -> None:
    table = Table(title=f"Round {round_start.round}")
    table.add_column("table", justify="right")
    table.add_column("game", overflow="fold")
    table.add_column("seats (seat: entrant)")
    for game in round_start.games:
        seats = ", ".join(f"{s.seat}: {s.name}" for s in game.seats)
        table.add_row(str(game.table), game.game_id, seats)
    console.print(table)
    tokens = [(game, s) for game in round_start.games for s in game.seats if s.token]
    if tokens:
        console.print(
            "seat tokens (secret: give each person their own; they play with "
            "`annales join TOKEN` against a server on this store):"
        )
    for game, seat in tokens:  # plain lines, never wrapped or cut: they are copied
        console.print(
            f"{seat.name} (game {game.game_id}, seat {seat.seat}): {seat.token}",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )
    if round_start.byes:
        who = [
            names[b] if names is not None and 0 <= b < len(names) else f"entrant {b}"
            for b in round_start.byes
        ]
        console.print(f"bye this round: {', '.join(who)}")


def _names(service: TournamentService, tournament_id: str) -> list[str]:
    return service.state(tournament_id).names()


@tournament_app.command("new")
def new(
    game: str = typer.Argument(..., help="Game type: riseandfall, tapestry or imperium."),
    format: str = typer.Option("swiss", "--format", help="swiss, round_robin or duplicate."),
    rounds: int = typer.Option(0, help="Rounds (0: full round robin / ⌈log2 entrants⌉)."),
    table_size: int = typer.Option(2, help="Seats per table."),
    name: str = typer.Option("", help="Tournament name."),
    seed: str | None = typer.Option(None, help="Master seed (text; default: random, secret)."),
    tournament_id: str | None = typer.Option(None, "--id", help="Id (tournament-…)."),
    db: str | None = typer.Option(None, help=DB_HELP),
) -> None:
    """Create a tournament and print its id and the SHA-256 commitment of its master seed.

    Example: annales tournament new riseandfall --format duplicate --rounds 2
    """
    try:
        created = _service(db).create(
            game,
            format=format,
            rounds=rounds,
            table_size=table_size,
            name=name,
            master_seed=seed.encode() if seed is not None else None,
            tournament_id=tournament_id,
        )
    except ServiceError as error:
        fail(describe_exception(error))
    console.print(f"tournament [bold]{created.tournament_id}[/]")
    console.print(f"master seed commitment (publish it): {created.seed_commitment}")


@tournament_app.command("add")
def add(
    tournament_id: str,
    names: list[str] = typer.Argument(..., help="Entrant names."),
    bot: str | None = typer.Option(None, help="Register bots of this kind (random, greedy…)."),
    db: str | None = typer.Option(None, help=DB_HELP),
) -> None:
    """Register entrants: people (default) or bots (--bot KIND).

    Example: annales tournament add tournament-x Ann Bob (or … R1 R2 --bot random)
    """
    service = _service(db)
    try:
        for entrant_name in names:
            entrant = service.register(
                tournament_id, entrant_name, kind="bot" if bot else "person", bot=bot
            )
            what = f"bot ({entrant.bot})" if entrant.bot else "person"
            console.print(f"entrant {entrant.entrant}: {entrant.name} — {what}")
    except ServiceError as error:
        fail(describe_exception(error))


@tournament_app.command("start")
def start(tournament_id: str, db: str | None = typer.Option(None, help=DB_HELP)) -> None:
    """Close registration, pair round 1 and print its tables with the people's seat tokens."""
    service = _service(db)
    try:
        _print_round(service.start(tournament_id), _names(service, tournament_id))
    except ServiceError as error:
        fail(describe_exception(error))


@tournament_app.command("round")
def show_round(
    tournament_id: str,
    number: int | None = typer.Option(None, "--round", help="Round (default: current)."),
    db: str | None = typer.Option(None, help=DB_HELP),
) -> None:
    """Print a round's tables and the people's seat tokens (again)."""
    service = _service(db)
    try:
        _print_round(service.round(tournament_id, number), _names(service, tournament_id))
    except ServiceError as error:
        fail(describe_exception(error))


@tournament_app.command("report")
def report(
    tournament_id: str,
    game_id: str | None = typer.Argument(None, help="Game (default: every finished game)."),
    db: str | None = typer.Option(None, help=DB_HELP),
) -> None:
    """Record finished games' results (read from the games); pairs the next round when due."""
    service = _service(db)
    try:
        service.play_bots(tournament_id)
        reports = (
            [service.report(tournament_id, game_id)]
            if game_id
            else service.report_finished(tournament_id)
        )
    except ServiceError as error:
        fail(describe_exception(error))
    names = _names(service, tournament_id)
    for item in reports:
        console.print(f"result recorded: {item.game_id}")
        if item.next_round is not None:
            _print_round(item.next_round, names)
        if item.ended:
            console.print("[green]the tournament has ended[/]")
    if not reports:
        state = service.state(tournament_id)
        if state.ended is not None:
            console.print("the tournament has ended: every result is recorded")
            return
        games = state.round_games(state.current_round) if state.started else []
        recorded = sum(1 for g in games if g.game_id in state.results)
        console.print(
            f"nothing new to report: round {state.current_round} has {recorded} of "
            f"{len(games)} results recorded; the others are still being played"
        )


@tournament_app.command("run")
def run(
    tournament_id: str,
    workers: int = typer.Option(0, help="Worker processes for the bot games (0: here)."),
    db: str | None = typer.Option(None, help=DB_HELP),
) -> None:
    """Play a bot tournament to its end (starting it if needed), a standings table per round.

    Example: annales tournament run tournament-x --workers 2
    """
    service = _service(db)
    runner: Any = None
    context: Any = nullcontext()
    if workers > 0:
        from service.simulation.runner import ParallelRunner

        runner = context = ParallelRunner(_config(db), workers=workers)

    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    state = service.state(tournament_id)
    total = state.rounds or state.info.rounds or None
    columns = (
        TextColumn("[bold]rounds"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        TextColumn("left"), TimeRemainingColumn(),
    )  # fmt: skip
    with Progress(*columns, console=console) as progress:
        task = progress.add_task("rounds", total=total, completed=len(state.completed))

        def on_round(number: int, standings: Standings) -> None:
            completed = service.state(tournament_id).completed.get(number)
            rows = completed.standings if completed is not None else standings.rows
            progress.console.print(standings_table(rows, f"After round {number}"))
            progress.update(task, completed=number, total=standings.rounds or total)

        try:
            with context:
                service.run(tournament_id, runner, on_round)
        except ServiceError as error:
            fail(describe_exception(error))
    final = service.standings(tournament_id)
    console.print(standings_table(final))
    console.print(f"master seed revealed: {seed_with_text(final.master_seed)}")


@tournament_app.command("standings")
def standings(
    tournament_id: str,
    db: str | None = typer.Option(None, help=DB_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print JSON (one row per line)."),
) -> None:
    """Print the standings (final, with the revealed master seed, once ended)."""
    service = _service(db)
    try:
        current = service.standings(tournament_id)
    except ServiceError as error:
        fail(describe_exception(error))
    if as_json:
        import msgspec

        from annales_cli.remote import print_json

        for row in current.rows:
            print_json(msgspec.to_builtins(row))
        return
    completed = service.state(tournament_id).completed
    if not current.ended and completed:
        last = max(completed)
        console.print(standings_table(completed[last].standings, f"After round {last}"))
        return
    console.print(standings_table(current))
    if current.master_seed:
        console.print(f"master seed revealed: {seed_with_text(current.master_seed)}")


@tournament_app.command("export")
def export(
    tournament_id: str,
    output: Path | None = typer.Option(
        None, "-o", "--output", dir_okay=False, help="File (default stdout)."
    ),
    db: str | None = typer.Option(None, help=DB_HELP),
) -> None:
    """Write the record of an ended tournament (canonical JSON lines, one file)."""
    if output is not None:
        from annales_cli.remote import check_writable

        check_writable(output)
    try:
        lines = _service(db).export(tournament_id)
    except ServiceError as error:
        fail(describe_exception(error))
    data = b"".join(line + b"\n" for line in lines)
    if output is None:
        sys.stdout.buffer.write(data)
    else:
        output.write_bytes(data)
        console.print(f"{len(lines)} lines written to {output}")


@tournament_app.command("verify")
def verify(
    record: Path = typer.Argument(
        ..., exists=True, dir_okay=False, readable=True, help="The tournament record."
    ),
) -> None:
    """Re-run every game from the derived seeds, check every hash, recompute the standings.

    Offline: trusts nothing but the record and the rules. Exit status 1 on any difference,
    each reported with its round, table and sequence number.
    Example: annales tournament verify tournament.jsonl
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    with Progress(
        TextColumn("[bold]verifying games"), BarColumn(), MofNCompleteColumn(), console=console
    ) as bar:
        task = bar.add_task("verify", total=None)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        result = verify_tournament(record.read_bytes().splitlines(), advance)
    if result.ok:
        console.print(f"[green]{result.message}[/]")
        return
    console.print("[red]verification failed[/]")
    for problem in result.problems or []:
        console.print(f"- {problem}", style="red", markup=False, highlight=False, soft_wrap=True)
    if not result.problems:
        console.print(f"[red]{result.message}[/]")
    raise typer.Exit(1)
