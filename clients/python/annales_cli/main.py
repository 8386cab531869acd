"""``annales`` — the command-line interface.

Local commands (the SQLite store, no server)::

    annales serve --port 50051 --db data/annales.db   # run the gRPC server
    annales demo --players 3 --seed demo               # a seeded bot game on the SQLite store
    annales demo --game tapestry --players 4           # the same for Tapestry
    annales export GAME_ID --db data/annales.db -o game.jsonl
    annales verify game.jsonl                          # re-executes the record offline
    annales content report                             # every assumed content fact
    annales tournament new|add|start|round|report|run|standings|export|verify
    annales simulate --game riseandfall --players 3 --games 1000 --bots random,greedy \
        --workers 2 --seed S                           # bot games at scale + balance stats

Network commands (``--server HOST:PORT``, default ``$ANNALES_SERVER`` or 127.0.0.1:50051)::

    annales new riseandfall --players 3 --seed s1      # prints and saves the seat tokens
    annales new tapestry --players 4 --seed s2         # any game the API serves
    annales play GAME --seat 0                         # interactive play of one seat
    annales bots GAME --seats 1,2 --bot greedy         # fill seats with bots
    annales watch GAME                                 # live events
    annales history GAME                               # paged history
    annales replay GAME --to 120 --step                # time travel, n/p/q
    annales export GAME -o game.jsonl                  # the record, from the server
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from annales_cli import play as play_commands
from annales_cli import readmodels as readmodel_commands
from annales_cli import remote
from annales_cli import simulate as simulate_commands
from annales_cli import tournament as tournament_commands
from annales_cli.common import SERVER_HELP, TOKENS_HELP, console
from domain.bots import make_bot
from domain.core.errors import RuleViolation
from domain.registry import get_game
from service.app.application import GameService
from service.app.autoplay import play_with_bots
from service.audit.records import export_lines, verify_record
from service.store.config import StoreConfig
from service.store.eventstore import EventStore

app = typer.Typer(help="Annales: event-sourced game-state service.", no_args_is_help=True)
content_app = typer.Typer(help="Game content files.", no_args_is_help=True)
app.add_typer(content_app, name="content")

app.command()(remote.new)
app.command()(play_commands.play)
app.command()(remote.watch)
app.command()(remote.bots)
app.command()(remote.history)
app.command()(play_commands.replay)
readmodel_commands.register(app)  # projections run/rebuild, games, leaderboard, stats, scores
app.command()(simulate_commands.simulate)  # bot games at scale (worker processes)
tournament_commands.register(app)  # annales tournament new|add|start|…|verify


def _service(db: str | None) -> GameService:
    config = StoreConfig.from_env()
    if db is not None:
        config = StoreConfig(kind="sqlite", path=db, snapshot_every=config.snapshot_every)
    return GameService(EventStore(config))


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", envvar="ANNALES_HOST", help="Address to listen on."),
    port: int = typer.Option(50051, envvar="ANNALES_PORT", help="Port (0: any free port)."),
    db: str | None = typer.Option(
        None, help="SQLite file (default $ANNALES_DB or data/annales.db)."
    ),
    projections: bool = typer.Option(
        True, "--projections/--no-projections", help="Keep the read models up to date."
    ),
    readmodels: str | None = typer.Option(
        None, envvar="ANNALES_READMODELS", help=readmodel_commands.READMODELS_HELP
    ),
    store: str | None = typer.Option(
        None, help="sqlite or postgres (default $ANNALES_STORE or sqlite)."
    ),
    pg_dbname: str | None = typer.Option(None, help="PostgreSQL database ($ANNALES_PG_DBNAME)."),
    pg_host: str | None = typer.Option(None, help="PostgreSQL host ($ANNALES_PG_HOST)."),
    pg_port: int | None = typer.Option(None, help="PostgreSQL port ($ANNALES_PG_PORT)."),
    pg_user: str | None = typer.Option(None, help="PostgreSQL user ($ANNALES_PG_USER)."),
) -> None:
    """Run the gRPC server until SIGTERM / Ctrl-C (graceful shutdown).

    The store comes from ANNALES_STORE / ANNALES_DB / ANNALES_PG_* (see README); the flags
    override them (the PostgreSQL password only ever comes from ANNALES_PG_PASSWORD).

    Examples: ``annales serve --port 50051 --db data/annales.db``;
    ``annales serve --port 50052 --store postgres --pg-dbname annales``
    """
    import dataclasses

    from service.api.server import serve as run_server

    config = StoreConfig.from_env()
    if db is not None:
        config = StoreConfig(kind="sqlite", path=db, snapshot_every=config.snapshot_every)
    overrides: dict[str, Any] = {
        "kind": store,
        "pg_dbname": pg_dbname,
        "pg_host": pg_host,
        "pg_port": pg_port,
        "pg_user": pg_user,
    }
    config = dataclasses.replace(config, **{k: v for k, v in overrides.items() if v is not None})
    if config.kind not in ("sqlite", "postgres"):
        raise typer.BadParameter(f"--store must be sqlite or postgres, not {config.kind!r}")
    run_server(config, host, port, projections=projections, readmodels=readmodels)


def _demo_progress(game: str) -> Callable[[GameService, str], None]:
    """A line per Rise & Fall round, or per Tapestry era (the latest era any seat reached)."""
    last = [-1]

    def progress(svc: GameService, game_id: str) -> None:
        match = svc.head(game_id)
        if game == "tapestry":
            seats = getattr(match.state, "seats", [])
            era = max((int(getattr(s, "income_turns", 0)) for s in seats), default=0)
            if era != last[0]:
                last[0] = era
                console.print(
                    f"era {era}  turn {getattr(match.state, 'turn', 0):>4}  "
                    f"version {match.version:>5}  scores {list(match.game.scores(match.state))}"
                )
            return
        round_number = getattr(match.state, "round", 0)
        if round_number != last[0]:
            last[0] = round_number
            scores = match.game.scores(match.state)
            trophies = getattr(match.state, "trophies_taken", "?")
            console.print(
                f"round {round_number:>3}  version {match.version:>5}  "
                f"trophies {trophies}  scores {list(scores)}"
            )

    return progress


@app.command()
def demo(
    players: int = typer.Option(3, help="Number of seats (riseandfall 2-4, tapestry 2-5)."),
    seed: str = typer.Option("demo", help="Game seed (text)."),
    bot: str = typer.Option("greedy", help="Bot kind for every seat: random or greedy."),
    db: str = typer.Option("data/annales.db", help="SQLite event-store file."),
    game: str = typer.Option("riseandfall", help="Game: riseandfall or tapestry (or an alias)."),
) -> None:
    """Play a seeded game between bots through the application layer (default Rise & Fall).

    Prints a line per round (Rise & Fall) or era (Tapestry) and the final score sheet.

    Example: ``annales demo --players 4 --seed 42 --bot random`` or
    ``annales demo --game tapestry --players 3``
    """
    name = remote.game_name(game)
    service = _service(db)
    names = [f"{bot}-{i + 1}" for i in range(players)]
    created = service.create_game(name, {}, names, seed=seed.encode())
    console.print(f"game [bold]{created.game_id}[/] seed commitment {created.seed_commitment}")
    bots = {i: make_bot(bot, f"{seed}/bot/{i}".encode()) for i in range(players)}
    progress = _demo_progress(name)

    commands = play_with_bots(service, created.game_id, bots, progress)
    match = service.head(created.game_id)
    outcome = match.game.outcome(match.state)
    console.print(f"{commands} commands, {match.version} events")
    if outcome is None:
        console.print("[red]the game did not finish[/]")
        raise typer.Exit(1)
    table = Table(title="Final score sheet")
    table.add_column("seat")
    keys = sorted({k for d in outcome.details for k in d})
    for key in keys:
        table.add_column(key, justify="right")
    table.add_column("total", justify="right")
    for seat, total in enumerate(outcome.scores):
        details = outcome.details[seat] if outcome.details else {}
        mark = " *" if seat in outcome.winners else ""
        table.add_row(names[seat] + mark, *(str(details.get(k, "")) for k in keys), str(total))
    console.print(table)
    console.print(f"seed revealed: {match.kernel.seed}")
    console.print(f"export with: annales export {created.game_id} --db {db}")


@app.command()
def export(
    game_id: str,
    db: str | None = typer.Option(None, help="Read the local SQLite store instead of a server."),
    output: Path | None = typer.Option(None, "-o", "--output", help="File (default stdout)."),
    seat: int | None = typer.Option(None, help="Server mode: export as this seat."),
    server: str | None = typer.Option(None, "--server", envvar="ANNALES_SERVER", help=SERVER_HELP),
    tokens: Path | None = typer.Option(None, "--tokens", help=TOKENS_HELP),
) -> None:
    """Export a game as a portable JSON-lines record, from a server or a local store.

    Without ``--db`` the record comes from the server (redacted for the caller until the
    game has ended); with ``--db`` it is read from the SQLite file directly.

    Example: ``annales export 3f2a... -o game.jsonl`` or ``annales export 3f2a... --db x.db``
    """
    if db is None:
        remote.export_remote(game_id, output, seat, server, tokens)
        return
    service = _service(db)
    envelopes = service.events(game_id)
    lines = export_lines(envelopes, lambda e: service.decode(game_id, e))
    data = b"".join(line + b"\n" for line in lines)
    if output is None:
        sys.stdout.buffer.write(data)
    else:
        output.write_bytes(data)
        console.print(f"{len(lines)} lines written to {output}")


@app.command()
def verify(
    record: Path,
    server: str | None = typer.Option(None, "--server", help="Ask this server to verify."),
    remote_check: bool = typer.Option(
        False,
        "--remote",
        help="Ask $ANNALES_SERVER (or 127.0.0.1:50051) to verify instead of checking locally.",
    ),
) -> None:
    """Verify a record: hash chain, seed commitment, re-execution of every command.

    By default the check runs offline, here, trusting no server; ``--server`` / ``--remote``
    ask a server's VerifyRecord instead.

    Example: ``annales verify game.jsonl`` or ``annales verify game.jsonl --remote``
    """
    if server is not None or remote_check:
        import os

        ok = remote.verify_remote(record, server or os.environ.get("ANNALES_SERVER"))
        if not ok:
            raise typer.Exit(1)
        return
    try:
        data = record.read_bytes()
    except OSError as error:
        console.print(f"cannot read {record}: {error.strerror}", style="red", markup=False)
        raise typer.Exit(2) from None
    with console.status("verifying…"):
        report = verify_record(data.split(b"\n"))  # never raises: see service/audit/verify.py
    # outcome first (verified / intact_as_far_as_visible / tampered / malformed / unsupported)
    console.print(f"outcome: {report.outcome.value}", markup=False)
    console.print(report.message, style="green" if report.ok else "red", markup=False)
    if not report.ok:
        raise typer.Exit(1)


@content_app.command("report")
def content_report(game: str = typer.Option("riseandfall", help="Game name.")) -> None:
    """List every content fact marked ``assumed`` (no source gives it).

    Any registered game: its rules' ``Game.assumptions()``.
    Example: ``annales content report --game tapestry``
    """
    try:
        rules = get_game(game)
    except RuleViolation as error:
        console.print(f"[red]{error.message}[/]")
        raise typer.Exit(2) from None
    for line in rules.assumptions():
        console.print(f"- {line}", markup=False, highlight=False, soft_wrap=True)


if __name__ == "__main__":
    app()
