"""``annales replay``: a game at a past version (time travel), stepping through versions."""

from __future__ import annotations

from pathlib import Path

import typer
from annales.v1 import annales_pb2 as pb
from annales_client import AnnalesClient
from rich.progress import BarColumn, Progress, TextColumn

from annales_cli.common import api_errors, connect, console, resolve_game_id
from annales_cli.remote import GameIdArgument, ServerOption, TokensOption
from annales_cli.render import describe_event, render_view


def _ask(prompt: str) -> str | None:
    """One line from stdin (``None`` at end of input)."""
    try:
        return input(prompt).strip()
    except EOFError:
        return None


def _load_history(client: AnnalesClient, game_id: str, last: int) -> dict[int, pb.GameEvent]:
    """Every event of the game by seq, with a progress bar."""
    events: dict[int, pb.GameEvent] = {}
    with Progress(
        TextColumn("loading history"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total} events"),
        console=console,
        transient=True,
    ) as progress:
        task = progress.add_task("history", total=last)
        for page in client.history_pages(game_id, page_size=1000):
            events.update({e.seq: e for e in page.events})
            progress.update(task, completed=len(events))
    return events


@api_errors
def replay(
    game_id: str = GameIdArgument,
    to: int | None = typer.Option(
        None,
        "--to",
        help="Version to show (default: the head; one outside the game is brought to its "
        "first or last version).",
    ),
    step: bool = typer.Option(False, help="Step through versions: n next, p previous, q quit."),
    server: str | None = ServerOption,
    tokens: Path | None = TokensOption,
) -> None:
    """Show the game at a past version (time travel), optionally stepping through versions.

    Uses the spectator view (the game at a version): nothing secret is shown. With --step,
    type n (next), p (previous), a version number, or q.

    Example: annales replay 3f2a --to 120 --step
    """
    saved = resolve_game_id(game_id, tokens)[1]
    with connect(server, saved) as client:
        game_id, saved = resolve_game_id(game_id, tokens, client)
        head = client.get_game(game_id)
        names = list(head.game.seat_names)
        last = int(head.game.head_version)
        version = min(max(to if to is not None else last, 1), last)
        events = _load_history(client, game_id, last)
        while True:
            response = client.get_game(game_id, version)
            console.print(render_view(response.view, names, response.game))
            if version in events:
                console.print(
                    "last event: " + describe_event(events[version], names),
                    highlight=False,
                    soft_wrap=True,
                )
            if not step:
                return
            answer = _ask(f"version {version}/{last} — n next, p previous, NUMBER, q quit: ")
            if answer is None or answer.lower() == "q":
                return
            if answer.lower() in ("n", ""):
                version = min(version + 1, last)
            elif answer.lower() == "p":
                version = max(version - 1, 1)
            elif answer.isdigit():
                version = min(max(int(answer), 1), last)
