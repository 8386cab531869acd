"""``annales campaign`` — Imperium solo campaigns against the C.I.V., on a local store
(``--db``).

Examples::

    annales campaign new Ann arthurians --db c.db            # first game at Chef de clan
    annales campaign next campaign-… --civ romans            # create the next game (token)
    annales play GAME_ID --seat 0 --token …                  # play it like any game
    annales campaign record campaign-… --add 1UNC10          # after a win: add a card
    annales campaign record campaign-… --remove ART7         #   … or remove one
    annales campaign record campaign-…                       # after a loss
    annales campaign log campaign-…                          # the campaign log
    annales campaign export campaign-… -o campaign.jsonl
    annales campaign verify campaign.jsonl                   # offline
"""

from __future__ import annotations

from pathlib import Path

import typer
from rich.table import Table

from annales_cli.common import console, describe_exception, fail
from domain.campaign.engine import CampaignState
from service.app.application import GameService
from service.app.errors import ServiceError
from service.campaigns.service import CampaignService, verify_record
from service.store.config import StoreConfig
from service.store.eventstore import EventStore

campaign_app = typer.Typer(help="Imperium solo campaigns (MODE CAMPAGNE).", no_args_is_help=True)

DB_HELP = "SQLite event-store file (default: $ANNALES_STORE / $ANNALES_DB, data/annales.db)."


def register(app: typer.Typer) -> None:
    """Add ``annales campaign …`` to the main CLI."""
    app.add_typer(campaign_app, name="campaign")


def _service(db: str | None) -> CampaignService:
    config = StoreConfig.from_env()
    if db is not None:
        config = StoreConfig(kind="sqlite", path=db, snapshot_every=config.snapshot_every)
    return CampaignService(GameService(EventStore(config)))


def log_table(state: CampaignState) -> Table:
    """The campaign log ("journal de campagne") as a rich table."""
    info = state.info
    status = "won" if state.ended and state.ended.won else "lost" if state.ended else "playing"
    title = (f"{info.campaign_id} — {info.player}, {info.nation} ({info.mode}"
             f"{', bonus' if info.bonus else ''}): {state.wins} won, {state.losses} lost, "
             f"{status}")  # fmt: skip
    table = Table(title=title)
    for name in ("#", "date", "C.I.V.", "level", "score", "C.I.V. score", "result", "deck"):
        table.add_column(name)
    for game in state.games:
        result = state.results[game.number - 1] if game.number <= len(state.results) else None
        deck = ""
        if result and result.change == "add":
            deck = f"+ {result.card}"
        elif result and result.change == "remove":
            deck = f"({result.card})"
        table.add_row(
            str(game.number), result.date if result else "", game.civ_nation, game.level,
            str(result.score) if result else "", str(result.civ_score) if result else "",
            ("[green]won[/]" if result.won else "[red]lost[/]") if result else "playing",
            deck,
        )  # fmt: skip
    return table


@campaign_app.command("new")
def new(player: str, nation: str, supreme: bool = typer.Option(False, help="Maître suprême"),
        side: str = "B", box: str = "", after: str = typer.Option("", help="previous campaign"),
        db: str | None = typer.Option(None, help=DB_HELP)) -> None:  # fmt: skip
    """Start a campaign."""
    try:
        state = _service(db).create(player, nation, "supreme" if supreme else "standard",
                                    side, box, after)  # fmt: skip
    except ServiceError as error:
        fail(describe_exception(error))
    console.print(log_table(state))


@campaign_app.command("next")
def next_game(campaign_id: str, civ: str = typer.Option("", help="the C.I.V.'s nation"),
              db: str | None = typer.Option(None, help=DB_HELP)) -> None:  # fmt: skip
    """Create the campaign's next game; prints its id and seat token."""
    try:
        started = _service(db).start_next(campaign_id, civ)
    except ServiceError as error:
        fail(describe_exception(error))
    console.print(f"game {started.game_id}: {started.level} against {started.civ_nation}")
    console.print(f"seat token: {started.token}")


@campaign_app.command("record")
def record(campaign_id: str, add: str = "", remove: str = "",
           db: str | None = typer.Option(None, help=DB_HELP)) -> None:  # fmt: skip
    """Record the finished game's result (after a win: --add CARD or --remove CARD)."""
    change, card = ("add", add) if add else ("remove", remove) if remove else ("", "")
    try:
        state = _service(db).record(campaign_id, change, card)
    except ServiceError as error:
        fail(describe_exception(error))
    console.print(log_table(state))


@campaign_app.command("log")
def log(campaign_id: str, db: str | None = typer.Option(None, help=DB_HELP)) -> None:
    """Show the campaign log."""
    try:
        console.print(log_table(_service(db).state(campaign_id)))
    except ServiceError as error:
        fail(describe_exception(error))


@campaign_app.command("export")
def export(campaign_id: str, output: Path = typer.Option(..., "-o"),
           db: str | None = typer.Option(None, help=DB_HELP)) -> None:  # fmt: skip
    """Write the campaign record (JSON lines)."""
    try:
        lines = _service(db).export(campaign_id)
    except ServiceError as error:
        fail(describe_exception(error))
    output.write_bytes(b"\n".join(lines) + b"\n")
    console.print(f"{len(lines) - 1} events written to {output}")


@campaign_app.command("verify")
def verify(record_file: Path) -> None:
    """Check a campaign record offline (exit 1 when it is not intact)."""
    try:
        lines = record_file.read_bytes().splitlines()
    except OSError as error:
        console.print(f"[red]cannot read {record_file}: {error.strerror}[/]")
        raise typer.Exit(2) from None
    ok, problems, state = verify_record(lines)
    if state is not None:
        console.print(log_table(state))
    for problem in problems:
        console.print(f"[red]{problem}[/]")
    console.print("[green]record verified[/]" if ok else "[red]record NOT verified[/]")
    if not ok:
        raise typer.Exit(1)
