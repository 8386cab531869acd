"""``annales`` — the command-line interface (every command: ``docs/cli.md``).

Local commands work on a store file (``serve``, ``demo``, ``simulate``, ``tournament``,
``export --db``, ``verify``, ``content report``); network commands talk to a server
(``--server HOST:PORT``, default ``$ANNALES_SERVER`` or 127.0.0.1:50051): ``new``, ``join``,
``play``, ``bots``, ``watch``, ``history``, ``replay``, ``export``, ``games``, ``scores``,
``leaderboard``, ``stats``. Every error is a message and a non-zero exit status
(:class:`~annales_cli.common.SafeGroup`), never a traceback.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from annales_cli import campaign as campaign_commands
from annales_cli import play as play_commands
from annales_cli import readmodels as readmodel_commands
from annales_cli import remote, variants
from annales_cli import simulate as simulate_commands
from annales_cli import tournament as tournament_commands
from annales_cli.common import SERVER_HELP, TOKENS_HELP, SafeGroup, console, fail
from annales_cli.render_common import seed_text
from domain.bots import make_bot
from domain.core.errors import RuleViolation
from domain.registry import get_game
from service.app.application import GameService
from service.app.autoplay import play_with_bots
from service.audit.records import export_lines, verify_record
from service.store.config import StoreConfig
from service.store.eventstore import EventStore

app = typer.Typer(
    cls=SafeGroup,
    help="Annales: event-sourced game-state service — play, record and verify board games.",
    no_args_is_help=True,
    rich_markup_mode=None,
)
content_app = typer.Typer(help="Game content files.", no_args_is_help=True)
app.add_typer(content_app, name="content")

app.command()(remote.new)
app.command()(play_commands.join)
app.command()(play_commands.play)
app.command()(remote.watch)
app.command()(remote.bots)
app.command()(remote.history)
app.command()(play_commands.replay)
readmodel_commands.register(app)  # projections run/rebuild, games, leaderboard, stats, scores
app.command()(simulate_commands.simulate)  # bot games at scale (worker processes)
tournament_commands.register(app)  # annales tournament new|add|start|…|verify
app.command()(variants.variant)  # a game with the rulebook's variants, under a chosen ruleset
campaign_commands.register(app)  # annales campaign new|next|record|log|export|verify


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
    web_port: int | None = typer.Option(
        None,
        envvar="ANNALES_WEB_PORT",
        help="Also serve the API over Connect and the web app "
        "on this port (0: any free port; docs/web.md).",
    ),
    web_origin: list[str] = typer.Option(
        [], help="Another origin whose pages may call the web port (repeatable; '*': any)."
    ),
) -> None:
    """Run the gRPC server until SIGTERM / Ctrl-C (graceful shutdown).

    The store comes from ANNALES_STORE / ANNALES_DB / ANNALES_PG_* (docs/operations.md); the
    flags override them (the PostgreSQL password only ever comes from ANNALES_PG_PASSWORD).

    \b
    Examples:
      annales serve --port 50051 --db data/annales.db
      annales serve --port 50052 --store postgres --pg-dbname annales
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
    _next_steps(host, port)
    run_server(config, host, port, projections=projections, readmodels=readmodels,
               web_port=web_port, web_origins=tuple(web_origin))  # fmt: skip


def cli_path() -> str:
    """How to type the CLI in another terminal: ``annales`` when it is on the PATH, else the
    path of this executable (``.venv/bin/annales``) relative to the current directory."""
    found = shutil.which("annales")
    here = os.path.abspath(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    if found and (not here or os.path.samefile(found, here)):
        return "annales"
    if here and os.path.basename(here) == "annales":
        relative = os.path.relpath(here)
        return relative if not relative.startswith("..") else here
    return ".venv/bin/annales"


def _next_steps(host: str, port: int) -> None:
    """What to type next, printed when the server starts (on standard error)."""
    cli = cli_path()
    server = "" if (host, port) == ("127.0.0.1", 50051) else f" --server {host}:{port}"
    lines = [
        f"Annales is starting on {host}:{port} (Ctrl-C stops it). In another terminal:",
        f"  {cli} new riseandfall --players 3 --seed s1{server}   # create a game",
        f"  {cli} bots GAME --seats 1,2{server}                   # bots for seats 1 and 2",
        f"  {cli} play GAME --seat 0{server}                      # you play seat 0",
    ]
    if cli != "annales":
        lines.append("  (or `source .venv/bin/activate` once, then type `annales …`)")
    for line in lines:
        print(line, file=sys.stderr, flush=True)


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
            trophies = getattr(match.state, "trophies_taken", None)
            extra = f"trophies {trophies}  " if trophies is not None else ""
            console.print(
                f"round {round_number:>3}  version {match.version:>5}  {extra}scores {list(scores)}"
            )

    return progress


@app.command()
def demo(
    players: int = typer.Option(3, help="Number of seats (riseandfall 2-4, tapestry 1-5)."),
    seed: str = typer.Option("demo", help="Game seed (text)."),
    bot: str = typer.Option("greedy", help="Bot kind for every seat: random or greedy."),
    db: str | None = typer.Option(
        None,
        help="SQLite event-store file (default: $ANNALES_STORE / $ANNALES_DB, data/annales.db).",
    ),
    game: str = typer.Option("riseandfall", help="Game: riseandfall, tapestry or imperium."),
) -> None:
    """Play a seeded game between bots through the application layer (default Rise & Fall).

    Prints a line per round (Rise & Fall, Imperium) or era (Tapestry) and the final score
    sheet.

    \b
    Examples:
      annales demo --players 4 --seed 42 --bot random
      annales demo --game tapestry --players 3
    """
    name = remote.game_name(game)
    try:
        make_bot(bot, b"check")
    except ValueError as error:
        fail(str(error))
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
    keys = sorted({k for d in outcome.details for k in d} - {"total"})
    for key in keys:
        table.add_column(key, justify="right")
    table.add_column("total", justify="right")
    for seat, total in enumerate(outcome.scores):
        details = outcome.details[seat] if outcome.details else {}
        mark = " *" if seat in outcome.winners else ""
        table.add_row(names[seat] + mark, *(str(details.get(k, "")) for k in keys), str(total))
    for party in match.game.parties(match.state):  # automated opponents (Tapestry's Automa)
        table.add_row(
            party.name + (" *" if party.winner else ""), *("" for _ in keys), str(party.score)
        )
    console.print(table)
    console.print(f"seed revealed: {seed_text(match.kernel.seed)}")
    console.print(f"export with: annales export {created.game_id} --db {db}", soft_wrap=True)


@app.command()
def export(
    game_id: str,
    db: Path | None = typer.Option(
        None, exists=True, dir_okay=False, help="Read this SQLite store instead of a server."
    ),
    output: Path | None = typer.Option(
        None, "-o", "--output", dir_okay=False, help="File (default stdout)."
    ),
    seat: int | None = typer.Option(None, help="Server mode: export as this seat."),
    server: str | None = typer.Option(None, "--server", envvar="ANNALES_SERVER", help=SERVER_HELP),
    tokens: Path | None = typer.Option(None, "--tokens", help=TOKENS_HELP),
) -> None:
    """Export a game as a portable JSON-lines record, from a server or a local store.

    Without --db the record comes from the server (redacted for the caller until the game
    has ended); with --db it is read from the SQLite file directly.

    \b
    Examples:
      annales export 3f2a -o game.jsonl
      annales export 3f2a… --db data/annales.db -o game.jsonl
    """
    if output is not None:
        remote.check_writable(output)
    if db is None:
        remote.export_remote(game_id, output, seat, server, tokens)
        return
    service = _service(str(db))
    envelopes = service.events(game_id)
    if not envelopes:
        fail(f"no game {game_id!r} in {db}")
    lines = export_lines(envelopes, lambda e: service.decode(game_id, e))
    data = b"".join(line + b"\n" for line in lines)
    if output is None:
        sys.stdout.buffer.write(data)
    else:
        output.write_bytes(data)
        console.print(f"{len(lines)} lines written to {output}")


@app.command()
def verify(
    record: Path = typer.Argument(
        ..., exists=True, dir_okay=False, readable=True, help="The record (JSON lines)."
    ),
    server: str | None = typer.Option(None, "--server", help="Ask this server to verify."),
    remote_check: bool = typer.Option(
        False,
        "--remote",
        help="Ask $ANNALES_SERVER (or 127.0.0.1:50051) to verify instead of checking locally.",
    ),
) -> None:
    """Verify a record: hash chain, seed commitment, re-execution of every command.

    By default the check runs offline, here, trusting no server; --server / --remote ask a
    server's VerifyRecord instead.

    \b
    Examples:
      annales verify game.jsonl
      annales verify game.jsonl --remote
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
    """List every content fact marked "assumed" (no source gives it), then the components
    left out because none of our sources gives their facts ("not in our sources").

    Any registered game: its rules' assumptions, one line each.
    Example: annales content report --game tapestry
    """
    try:
        rules = get_game(game)
    except RuleViolation as error:
        console.print(f"[red]{error.message}[/]")
        raise typer.Exit(2) from None
    for line in rules.assumptions():
        console.print(f"- {line}", markup=False, highlight=False, soft_wrap=True)
    missing = rules.missing_content()
    if missing:
        console.print("not in our sources:", markup=False, highlight=False)
        for line in missing:
            console.print(f"- {line}", markup=False, highlight=False, soft_wrap=True)


if __name__ == "__main__":
    app()
