"""Interactive commands: ``play`` (a seat over the network) and ``replay`` (time travel).

Both read plain lines from standard input, so they can be scripted (``printf '1\\n2\\n' |
annales play GAME --seat 0``); end of input quits cleanly.
"""

from __future__ import annotations

from pathlib import Path

import grpc
import typer
from annales.v1 import annales_pb2 as pb
from annales_client import AnnalesClient, AnnalesError, Seat, view_data
from rich.progress import BarColumn, Progress, TextColumn

from annales_cli.common import api_errors, connect, console, need_game, resolve_game_id
from annales_cli.remote import ServerOption, TokensOption
from annales_cli.render import describe_action, describe_event, render_view, seat_name


def _ask(prompt: str) -> str | None:
    """One line from stdin (``None`` at end of input)."""
    try:
        return input(prompt).strip()
    except EOFError:
        return None


def _show_events(events: list[pb.GameEvent], names: list[str]) -> None:
    for event in events:
        console.print(describe_event(event, names), highlight=False, soft_wrap=True)


def _final(client: AnnalesClient, seat: Seat, names: list[str]) -> None:
    response = client.get_view(seat)
    console.print(render_view(response.view, names, response.game))


def _wait_turn(
    client: AnnalesClient, seat: Seat, version: int, names: list[str], pending: pb.Pending
) -> None:
    """Print the other seats' moves until something new happened after ``version``."""
    waiting = ", ".join(seat_name(names, s) for s in pending.seats) or "the server"
    console.print(f"[dim]waiting for {waiting} ({pending.decision})…[/]")
    while True:
        events = client.next_events(seat.game_id, version, seat, timeout=10.0)
        if events:
            _show_events(events, names)
            return
        summary = client.get_game(seat.game_id).game
        if summary.head_version > version or summary.status == pb.GAME_STATUS_FINISHED:
            return


def _undo(
    client: AnnalesClient, seat: Seat, listed: pb.ListLegalActionsResponse, names: list[str]
) -> None:
    if not listed.can_undo:
        if listed.undo_versions:
            target = max(listed.undo_versions)
            console.print(
                f"undo needs the other seats' approval: asking to go back to version {target}"
            )
            _show_events(list(client.request_undo(seat, target).events), names)
        else:
            console.print("[yellow]nothing to undo now[/]")
        return
    response = client.undo(seat, expected_version=listed.version)
    _show_events(list(response.events), names)


@api_errors
def play(
    game_id: str = typer.Argument(..., help="Game id (or a unique prefix of a saved game)."),
    seat: int = typer.Option(..., help="Your seat number (its token comes from the file)."),
    server: str | None = ServerOption,
    tokens: Path | None = TokensOption,
) -> None:
    """Play a seat interactively: see your view, pick a numbered action, watch the others.

    At your turn the legal actions are listed with numbers: type a number to play it, ``u``
    to undo your last action (or ask the others to approve an undo), ``v`` to redraw the
    view, ``q`` to quit. Between your turns the other seats' moves are printed as they
    happen. End of input quits.

    Example: ``annales play 3f2a --seat 0``
    """
    saved = need_game(game_id, tokens)
    me = saved.seat(seat)
    names = saved.names
    with connect(server, saved) as client:
        shown_version = -1
        while True:
            listed = client.list_legal_actions(me)
            if listed.undo_answer_expected:
                answer = _ask("another seat asks to undo: approve? [y/n] ")
                if answer is None or answer.lower() == "q":
                    return
                _show_events(
                    list(client.respond_undo(me, answer.lower().startswith("y")).events), names
                )
                continue
            if not listed.actions:
                summary = client.get_game(me.game_id).game
                if summary.status == pb.GAME_STATUS_FINISHED:
                    _final(client, me, names)
                    return
                _wait_turn(client, me, listed.version, names, listed.pending)
                continue
            view_response = client.get_view(me)
            view = view_data(view_response.view)
            if shown_version != listed.version:
                console.print(render_view(view_response.view, names, view_response.game))
                shown_version = listed.version
            console.print(
                f"[bold]{listed.pending.prompt or listed.pending.decision}[/] "
                f"(version {listed.version})"
            )
            for number, action in enumerate(listed.actions, 1):
                console.print(
                    f"  {number:>3}. {describe_action(action, view, names)}", highlight=False
                )
            extra = "u undo, " if listed.can_undo or listed.undo_versions else ""
            answer = _ask(f"choose 1-{len(listed.actions)} ({extra}v view, q quit): ")
            if answer is None or answer.lower() == "q":
                console.print("bye")
                return
            if answer.lower() == "v":
                shown_version = -1
                continue
            if answer.lower() == "u":
                _undo(client, me, listed, names)
                continue
            if not answer.isdigit() or not 1 <= int(answer) <= len(listed.actions):
                console.print(f"[yellow]type a number between 1 and {len(listed.actions)}[/]")
                continue
            try:
                response = client.submit_action(
                    me, listed.actions[int(answer) - 1], expected_version=listed.version
                )
            except AnnalesError as error:
                if error.code != grpc.StatusCode.ABORTED:
                    raise
                console.print("[yellow]the game moved on meanwhile; here it is again[/]")
                continue
            _show_events(list(response.events), names)


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
    game_id: str = typer.Argument(..., help="Game id (or a unique prefix of a saved game)."),
    to: int | None = typer.Option(None, "--to", help="Version to show (default: the head)."),
    step: bool = typer.Option(False, help="Step through versions: n next, p previous, q quit."),
    server: str | None = ServerOption,
    tokens: Path | None = TokensOption,
) -> None:
    """Show the game at a past version (time travel), optionally stepping through versions.

    Uses the spectator view (``GetGame(version=…)``): nothing secret is shown. With
    ``--step``, type ``n`` (next), ``p`` (previous), a version number, or ``q``.

    Example: ``annales replay 3f2a --to 120 --step``
    """
    game_id, saved = resolve_game_id(game_id, tokens)
    with connect(server, saved) as client:
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
