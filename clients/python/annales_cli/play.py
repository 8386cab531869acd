"""Interactive commands: ``play`` (a seat over the network), ``join`` (play with a seat token)
and ``replay`` (time travel).

They read plain lines from standard input, so they can be scripted (``printf '1\\n2\\n' |
annales play GAME --seat 0``); end of input quits cleanly.

Two behaviours a player relies on:

* **Undo takes back my own move** (:func:`undo_mine`): when the server allows an immediate
  undo it undoes my last command; otherwise the version just before *my* last command is found
  among the server's undo boundaries (the first event after each boundary names the seat that
  acted), the reason is said, and the other seats are asked to approve going back there.
* **A choice still legal is never dropped** (:func:`submit_rebased`): when another seat's
  move lands between listing and submitting (simultaneous decisions: card choices, setup
  choices), the same action is sent again at the new version if the server still lists it.
"""

from __future__ import annotations

import os
import select
import sys
from pathlib import Path

import grpc
import typer
from annales.v1 import annales_pb2 as pb
from annales_client import AnnalesClient, AnnalesError, Seat, view_data

from annales_cli.actions import ActionMenu
from annales_cli.common import (
    SavedGame,
    api_errors,
    connect,
    console,
    fail,
    find_game,
    need_game,
    resolve_game_id,
    save_game,
)
from annales_cli.remote import GameIdArgument, ServerOption, TokensOption
from annales_cli.render import describe_event, render_view, seat_name
from annales_cli.replay import replay

__all__ = ["join", "play", "replay", "submit_rebased", "undo_mine"]


_typed_ahead: list[str] = []  # lines typed while waiting for another seat, answered next
_input_ended = False  # standard input reached its end while waiting


def _ask(prompt: str) -> str | None:
    """One line from stdin (``None`` at end of input); a line typed while waiting comes
    first."""
    if _typed_ahead:
        line = _typed_ahead.pop(0)
        console.print(f"{prompt}{line}", highlight=False, markup=False)
        return line
    try:
        return input(prompt).strip()
    except EOFError:
        return None


def _typed_while_waiting() -> str | None:
    """``"q"`` or ``"u"`` when the player typed it while waiting for another seat (leave, or
    take back their last move), else ``None``. Another line typed meanwhile is kept for the
    next prompt; the end of input (a script) changes nothing here: the wait goes on and the
    next prompt quits."""
    global _input_ended
    if os.name != "posix" or _input_ended:
        return None
    try:
        ready, _, _ = select.select([sys.stdin], [], [], 0)
    except (OSError, ValueError):  # no selectable standard input
        return None
    if not ready:
        return None
    line = sys.stdin.readline()
    if not line:
        _input_ended = True
        return None
    if line.strip().lower() in ("q", "u"):
        return line.strip().lower()
    _typed_ahead.append(line.strip())
    return None


def _show_events(events: list[pb.GameEvent], names: list[str]) -> None:
    for event in events:
        console.print(describe_event(event, names), highlight=False, soft_wrap=True)


def _final(client: AnnalesClient, seat: Seat, names: list[str]) -> None:
    response = client.get_view(seat)
    console.print(render_view(response.view, names, response.game))


def _wait_turn(
    client: AnnalesClient, seat: Seat, version: int, names: list[str], pending: pb.Pending
) -> str | None:
    """Print the other seats' moves until something new happened after ``version``.

    Returns ``"q"`` when the player typed ``q`` to leave instead of waiting, ``"u"`` when they
    typed ``u`` to take back their last move (checked every second), else ``None``."""
    waiting = ", ".join(seat_name(names, s) for s in pending.seats) or "the server"
    console.print(
        f"[dim]waiting for {waiting} ({pending.decision})… type u to take back your last move, "
        "q to leave[/]"
    )
    polls = 0
    while True:
        typed = _typed_while_waiting()
        if typed is not None:
            return typed
        events = client.next_events(seat.game_id, version, seat, timeout=1.0)
        if events:
            _show_events(events, names)
            return None
        polls += 1
        if polls % 10 == 0:  # a missed event (server restarted): the summary says so
            summary = client.get_game(seat.game_id).game
            if summary.head_version > version or summary.status == pb.GAME_STATUS_FINISHED:
                return None


def submit_rebased(
    client: AnnalesClient, seat: Seat, action: pb.Action, version: int, attempts: int = 5
) -> tuple[pb.SubmitActionResponse | None, str]:
    """Submit ``action`` listed at ``version``; when the game moved on meanwhile, send it
    again at the new version if it is still legal there.

    Returns the response (``None`` when the action is no longer legal) and a note for the
    player ("" when it went through at once).
    """
    wanted = action.SerializeToString(deterministic=True)
    note = ""
    for _ in range(attempts):
        try:
            return client.submit_action(seat, action, expected_version=version), note
        except AnnalesError as error:
            if error.code != grpc.StatusCode.ABORTED:
                raise
        listed = client.list_legal_actions(seat)
        still = [a for a in listed.actions if a.SerializeToString(deterministic=True) == wanted]
        if not still:
            return None, (
                f"the game moved on (version {version} → {listed.version}) and your choice "
                "is no longer legal; here is the game again"
            )
        note = f"the game moved on (version {version} → {listed.version}); your choice is "
        note += "still legal and was sent again"
        version = listed.version
    return None, "the game keeps moving; here it is again"


def my_undo_target(client: AnnalesClient, seat: Seat, boundaries: list[int]) -> int | None:
    """The version just before the seat's own last undoable command (``None``: none left).

    ``boundaries`` are the server's undo versions; the first event after each one is the
    first event of that command and names the seat that sent it.
    """
    if not boundaries:
        return None
    first = min(boundaries)
    acting: dict[int, int] = {}
    for page in client.history_pages(seat.game_id, seat, page_size=1000):
        for event in page.events:
            if event.seq > first:
                acting[event.seq] = event.seat
    mine = [v for v in boundaries if acting.get(v + 1) == seat.seat]
    return max(mine) if mine else None


def undo_mine(
    client: AnnalesClient, seat: Seat, listed: pb.ListLegalActionsResponse, names: list[str]
) -> None:
    """Take back the seat's own last command (see the module docstring)."""
    if listed.can_undo:
        response = client.undo(seat, expected_version=listed.version)
        console.print("[green]your last move is taken back[/]")
        _show_events(list(response.events), names)
        return
    target = my_undo_target(client, seat, list(listed.undo_versions))
    if target is None:
        console.print(
            "[yellow]nothing of yours to undo: your last move is behind revealed information "
            "(or you have not moved yet)[/]"
        )
        return
    others = ", ".join(seat_name(names, s) for s in range(len(names)) if s != seat.seat)
    console.print(
        f"other seats moved after your last move, so undoing it takes the game back to "
        f"version {target} (their moves since are undone too): asking {others or 'the others'} "
        "to approve",
        soft_wrap=True,
    )
    answer = _ask("send the request? [y/n] ")
    if answer is None or not answer.lower().startswith("y"):
        console.print("no request sent")
        return
    _show_events(list(client.request_undo(seat, target).events), names)


HELP_LINE = "NUMBER play it, text filter, ? list all, u undo, v view, q quit"


def play_loop(client: AnnalesClient, me: Seat, names: list[str]) -> None:
    """The interactive loop of one seat (see :func:`play`)."""
    shown_version = -1
    menu: ActionMenu | None = None
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
            typed = _wait_turn(client, me, listed.version, names, listed.pending)
            if typed == "q":
                console.print("bye")
                return
            if typed == "u":
                undo_mine(client, me, listed, names)
            continue
        if shown_version != listed.version or menu is None:
            view_response = client.get_view(me)
            console.print(render_view(view_response.view, names, view_response.game))
            shown_version = listed.version
            view = view_data(view_response.view)
            menu = ActionMenu(list(listed.actions), view, names)
            console.print(
                f"[bold]{listed.pending.prompt or listed.pending.decision}[/] "
                f"(version {listed.version})"
            )
            console.print(menu.overview(), highlight=False)
        answer = _ask(f"[{len(listed.actions)} actions] {HELP_LINE}: ")
        if answer is None or answer.lower() == "q":
            console.print("bye")
            return
        choice = answer.lower()
        if choice == "v":
            shown_version = -1
            continue
        if choice in ("?", "l", "list"):
            console.print(menu.listing(), highlight=False)
            continue
        if choice == "u":
            undo_mine(client, me, listed, names)
            shown_version = -1
            continue
        if not answer.isdigit():
            if not answer:
                console.print(f"[yellow]{HELP_LINE}[/]")
                continue
            console.print(menu.filtered(answer), highlight=False)
            continue
        if not 1 <= int(answer) <= len(listed.actions):
            console.print(f"[yellow]no action {answer}: type 1-{len(listed.actions)}[/]")
            continue
        response, note = submit_rebased(client, me, listed.actions[int(answer) - 1], listed.version)
        if note:
            console.print(f"[yellow]{note}[/]")
        if response is not None:
            _show_events(list(response.events), names)
        else:
            shown_version = -1


@api_errors
def play(
    game_id: str = GameIdArgument,
    seat: int | None = typer.Option(None, help="Your seat number (its token from the file)."),
    token: str | None = typer.Option(
        None, help="A seat token (instead of --seat): any game, e.g. a tournament's."
    ),
    server: str | None = ServerOption,
    tokens: Path | None = TokensOption,
) -> None:
    """Play a seat interactively: see your view, pick a numbered action, watch the others.

    At your turn the legal actions are listed with numbers (long lists are grouped: type text
    to filter them, ? to list them all): type a number to play it, u to take back your last
    move (or ask the others to approve it), v to redraw the view, q to quit. Between your
    turns the other seats' moves are printed as they happen. End of input quits.

    \b
    Examples:
      annales play 3f2a --seat 0
      annales play 3f2a --token 3f2a….1.XyZ…
    """
    if token is not None:
        _play_token(token, server, tokens, game_id)
        return
    if seat is None:
        fail("give --seat N (a seat of the tokens file) or --token TOKEN")
    saved = find_game(game_id, tokens)
    if saved is None:
        with connect(server) as client:
            full = resolve_game_id(game_id, tokens, client)[0]
        saved = need_game(full, tokens)
    me = saved.seat(seat)
    with connect(server, saved) as client:
        names = list(client.get_game(me.game_id).game.seat_names) or saved.names
        play_loop(client, me, names)


def parse_token(token: str) -> tuple[str, int]:
    """The game id and seat a token reads (``<game id>.<seat>.<secret>``); exits when it is
    not a seat token.

    >>> parse_token("g1.2.secret")
    ('g1', 2)
    """
    parts = token.strip().split(".", 2)
    if len(parts) != 3 or not parts[0] or not parts[1].isdigit() or not parts[2]:
        fail("this is not a seat token (they read GAME.SEAT.SECRET, as `new`/`tournament` print)")
    return parts[0], int(parts[1])


def _play_token(token: str, server: str | None, tokens: Path | None, game: str | None) -> None:
    game_id, number = parse_token(token)
    if game and not game_id.startswith(game):
        fail(f"this token is a seat of game {game_id}, not of {game}")
    with connect(server) as client:
        summary = client.get_game(game_id).game
        me = Seat(game_id, number, token.strip())
        client.list_legal_actions(me)  # the server checks the token
        names = list(summary.seat_names)
        saved = SavedGame(
            game_id,
            "",
            client.target,
            [
                {
                    "seat": number,
                    "name": names[number] if number < len(names) else "",
                    "token": me.token,
                }
            ],
        )
        from annales_client.games import api_game

        saved.game = api_game(summary.game_type).name
        known = find_game(game_id, tokens)
        if known is not None:
            saved.seats = [s for s in known.seats if int(s["seat"]) != number] + saved.seats
        path = save_game(tokens, saved)
        console.print(
            f"joined game {game_id} as {seat_name(names, number)} (token saved to {path})",
            soft_wrap=True,
        )
        play_loop(client, me, names)


@api_errors
def join(
    token: str = typer.Argument(..., help="Your seat token (GAME.SEAT.SECRET)."),
    server: str | None = ServerOption,
    tokens: Path | None = TokensOption,
) -> None:
    """Join any game with a seat token (e.g. one printed by `tournament start`), save it to
    the tokens file, and play that seat.

    Example: annales join 3f2a….1.XyZ…
    """
    _play_token(token, server, tokens, None)
