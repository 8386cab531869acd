"""Network commands: ``new``, ``watch``, ``bots``, ``history``, ``export`` and ``verify``."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import typer
from annales.v1 import annales_pb2 as pb
from annales.v1 import riseandfall_pb2
from annales_client import AnnalesClient, make_api_bot, play_seats, view_data
from annales_client.games import API_GAMES, api_game
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from annales_cli.common import (
    SERVER_HELP,
    TOKENS_HELP,
    SavedGame,
    api_errors,
    comma_ints,
    comma_names,
    connect,
    console,
    fail,
    flatten,
    need_game,
    resolve_game_id,
    save_game,
)
from annales_cli.render import STATUS, describe_event, seat_name


def outcome_text(summary: pb.GameSummary) -> str:
    """``scores ann#0 12, bob#1 9; winners: ann#0`` for a finished game's summary, seats named
    by the game itself, then the parties that hold no seat (the Automa, the C.I.V.)."""
    names = list(summary.seat_names)
    scores = [f"{seat_name(names, i)} {s}" for i, s in enumerate(summary.scores)]
    scores += [f"{party.name} {party.score}" for party in summary.parties]
    winners = [seat_name(names, w) for w in summary.winners]
    winners += [party.name for party in summary.parties if party.winner]
    return f"scores {', '.join(scores)}; winners: {', '.join(winners) or 'nobody'}"


#: Rise & Fall's world modes (``--world``), from the proto's enum.
WORLD_MODES = tuple(
    value.name.removeprefix("RISE_AND_FALL_WORLD_MODE_").lower()
    for value in riseandfall_pb2.RiseAndFallWorldMode.DESCRIPTOR.values
    if value.number != 0
)

#: short names accepted besides each game's own names (only for games the API serves).
SHORT_ALIASES = {"rf": "riseandfall", "tap": "tapestry"}


def _aliases() -> dict[str, str]:
    """Every accepted spelling of each game the API serves (``API_GAMES``, which mirrors
    ``domain/registry.py``): its registry name, its oneof field (``rise_and_fall``), that
    field with dashes, its message prefix in lower case, and :data:`SHORT_ALIASES`."""
    found: dict[str, str] = {}
    for api in API_GAMES:
        for alias in (api.name, api.field, api.field.replace("_", "-"), api.prefix.lower()):
            found[alias] = api.name
    found.update({k: v for k, v in SHORT_ALIASES.items() if v in found.values()})
    return found


GAME_ALIASES = _aliases()
KNOWN_GAMES = ", ".join(api.name for api in API_GAMES)


def _game_help() -> str:
    """The ``game`` argument's help: each game of the API's list with its aliases."""
    entries = []
    for api in API_GAMES:
        others = sorted(a for a, n in GAME_ALIASES.items() if n == api.name and a != api.name)
        entries.append(f"{api.name} (or {', '.join(others)})" if others else api.name)
    return "Game: " + "; ".join(entries) + "."


GAME_HELP = _game_help()


def game_name(text: str) -> str:
    """The registry name of a game typed on the command line (exits when unknown).

    >>> game_name("Rise-and-Fall"), game_name("tap")
    ('riseandfall', 'tapestry')
    """
    name = GAME_ALIASES.get(text.lower())
    if name is None:
        fail(f"unknown game {text!r}; known: {KNOWN_GAMES}")
    return name


#: command-line options of ``annales new`` -> (game, domain option name).
GAME_OPTIONS = {
    "--trophies": ("riseandfall", "trophies"),
    "--world": ("riseandfall", "world"),
    "--civilizations": ("tapestry", "civilizations_dealt"),
    "--nations": ("imperium", "nations"),
    "--box": ("imperium", "box"),
    "--automa-level": ("tapestry", "automa_level"),
    "--shadow-empire": ("tapestry", "shadow_empire"),
    "--expansions": ("tapestry", "expansions"),
    "--civilization-box": ("tapestry", "civilization_box"),
    "--difficulty": ("imperium", "difficulty"),
    "--civ-nation": ("imperium", "civ_nation"),
}
ServerOption = typer.Option(None, "--server", envvar="ANNALES_SERVER", help=SERVER_HELP)
TokensOption = typer.Option(None, "--tokens", help=TOKENS_HELP)
JsonOption = typer.Option(False, "--json", help="Print JSON (one object per line) instead.")
GameIdArgument = typer.Argument(..., help="Game id, or a unique prefix of one.")


def check_writable(path: Path) -> None:
    """Exit with a message unless ``path`` can be written (tried before any work is done:
    opened for appending, and removed again when it did not exist)."""
    if path.is_dir():
        fail(f"{path} is a folder: give a file name (-o FILE)")
    existed = path.exists()
    try:
        with path.open("ab"):
            pass
    except OSError as error:
        fail(f"cannot write {path}: {error.strerror or error}")
    if not existed:
        path.unlink()


def print_json(item: Any) -> None:
    """One JSON object on its own line (``--json`` output)."""
    sys.stdout.write(json.dumps(item, ensure_ascii=False, sort_keys=True) + "\n")


def check_nations(nations: list[str]) -> None:
    """Exit with the list of valid nations when one of ``nations`` is unknown."""
    from domain.imperium import content as imperium_content

    unknown = [n for n in nations if n not in imperium_content.NATIONS]
    if unknown:
        fail(
            f"unknown nation(s) {', '.join(unknown)}; valid: "
            + ", ".join(imperium_content.ALL_NATIONS)
        )


def check_expansions(boxes: list[str]) -> None:
    """Exit with the list of known boxes when one of ``boxes`` is unknown or named twice."""
    from domain.tapestry.state import EXPANSIONS

    unknown = [box for box in boxes if box not in EXPANSIONS]
    if unknown:
        fail(f"unknown expansion(s) {', '.join(unknown)}; known: {', '.join(EXPANSIONS)}")
    twice = sorted({box for box in boxes if boxes.count(box) > 1})
    if twice:
        fail(f"--expansions names {', '.join(twice)} twice")


def _names(client: AnnalesClient, game_id: str) -> list[str]:
    return list(client.get_game(game_id).game.seat_names)


@api_errors
def new(
    game: str = typer.Argument("riseandfall", help=GAME_HELP),
    players: int | None = typer.Option(
        None,
        "--players",
        "-n",
        help="Seats: 2-4 for riseandfall, 1-5 for tapestry (1: solo against the Automa; "
        "default 3).",
    ),
    seed: str = typer.Option("", help="Seed (text); random when empty, secret until the end."),
    names: list[str] = typer.Option(
        [],
        "--names",
        parser=comma_names,
        metavar="NAME,NAME…",
        help="Seat names, comma-separated, all different (default player1, ...).",
    ),
    trophies: int | None = typer.Option(
        None, help="riseandfall: trophies to end the game (4, 5 or 6)."
    ),
    world: str | None = typer.Option(None, help="riseandfall: world building, random or players."),
    civilizations: int | None = typer.Option(
        None, help="tapestry: civilizations dealt to each seat to keep one (1 or 2; default 2)."
    ),
    nations: list[str] = typer.Option(
        [],
        parser=comma_names,
        metavar="NATION,…",
        help="imperium: nation keys, comma-separated, seat 0 first (any of both boxes).",
    ),
    box: str | None = typer.Option(
        None, help="imperium: whose common cards are used, classics or legends."
    ),
    automa_level: int | None = typer.Option(
        None,
        "--automa-level",
        help="tapestry solo: the Automa's level, 1-6 (default 2; 5-6 the hard side).",
    ),
    shadow_empire: bool | None = typer.Option(
        None, "--shadow-empire", help="tapestry, 2 players: play with the Shadow Empire."
    ),
    expansions: list[str] = typer.Option(
        [],
        "--expansions",
        parser=comma_names,
        metavar="BOX,…",
        help="tapestry: expansion boxes in play, comma-separated: plans_and_ploys, "
        "arts_and_architecture, fantasies_and_futures (default: the base game).",
    ),
    civilization_box: str | None = typer.Option(
        None,
        "--civilization-box",
        help="tapestry variant: every civilization dealt or gained comes from this box (one "
        "of --expansions).",
    ),
    difficulty: str | None = typer.Option(
        None, help="imperium solo (1 player): chieftain, warlord, imperator, sovereign, overlord."
    ),
    civ_nation: str | None = typer.Option(
        None, help="imperium solo (--players 1): the C.I.V.'s nation (random when unset)."
    ),
    server: str | None = ServerOption,
    tokens: Path | None = TokensOption,
) -> None:
    """Create a game on the server; print its id and seat tokens and save them.

    The games (and their aliases) come from the API's game list; each game's own options
    are refused for another game.

    \b
    Examples:
      annales new riseandfall --players 3 --seed s1 --names ann,bob,cy
      annales new tapestry --players 4 --seed s2
      annales new tapestry --players 1 --automa-level 3      (solo against the Automa)
      annales new tapestry --players 3 --expansions plans_and_ploys
      annales new imperium --players 2 --nations romans,celts
    """
    name = game_name(game)
    seat_names = flatten(names)
    if seat_names and players is not None and len(seat_names) != players:
        fail(f"--names lists {len(seat_names)} names for {players} players")
    repeated = sorted({n for n in seat_names if seat_names.count(n) > 1})
    if repeated:
        fail(f"--names: each seat needs its own name; repeated: {', '.join(repeated)}")
    chosen_nations = flatten(nations)
    if chosen_nations and name == "imperium":
        check_nations(chosen_nations)
    chosen_boxes = flatten(expansions)
    if chosen_boxes and name == "tapestry":
        check_expansions(chosen_boxes)
    if players is not None and players < 1:
        fail(f"--players: a game has at least one seat, not {players}")
    if world is not None and world not in WORLD_MODES:
        fail(f"--world: {' or '.join(WORLD_MODES)}, not {world!r}")
    count = len(seat_names) if seat_names else players or 3
    seat_names = seat_names or [f"player{i + 1}" for i in range(count)]
    options: dict[str, object] = {}
    given: dict[str, object] = {
        "--trophies": trophies, "--world": world, "--civilizations": civilizations,
        "--nations": chosen_nations or None,
        "--box": box,
        "--automa-level": automa_level, "--shadow-empire": shadow_empire,
        "--expansions": chosen_boxes or None, "--civilization-box": civilization_box,
        "--difficulty": difficulty, "--civ-nation": civ_nation,
    }  # fmt: skip
    for flag, value in given.items():
        if value is None:
            continue
        owner, key = GAME_OPTIONS[flag]
        if owner != name:
            fail(f"{flag} is an option of {owner}, not of {name}")
        options[key] = value
    create_and_save(name, seat_names, seed, options, server, tokens)


def create_and_save(
    name: str,
    seat_names: list[str],
    seed: str,
    options: dict[str, object],
    server: str | None,
    tokens: Path | None,
    ruleset: str = "",
) -> None:
    """Create a game on the server, save its seat tokens and print how to play it."""
    with connect(server) as client:
        created = client.create_game(name, seat_names, seed=seed, options=options, ruleset=ruleset)
    saved = SavedGame(
        created.game_id,
        name,
        client.target,
        [{"seat": s.seat, "name": s.name, "token": s.token} for s in created.seats],
    )
    path = save_game(tokens, saved)
    console.print(
        f"game [bold]{created.game_id}[/] created on {client.target} (version {created.version})"
    )
    console.print(f"seed commitment {created.seed_commitment}")
    for seat in created.seats:
        console.print(f"  seat {seat.seat} {seat.name}: {seat.token}", soft_wrap=True)
    if created.judge_token:  # reads everything, never acts; kept by whoever referees
        console.print(f"  judge: {created.judge_token} (not saved)", soft_wrap=True)
    console.print(f"tokens saved to {path}")
    console.print(f"play with: annales play {created.game_id} --seat 0", soft_wrap=True)
    others = ",".join(str(s.seat) for s in created.seats[1:])
    if others:
        console.print(
            f"bots for the others: annales bots {created.game_id} --seats {others}",
            soft_wrap=True,
        )


@api_errors
def watch(
    game_id: str = GameIdArgument,
    after: int = typer.Option(0, help="Show events after this version (0: from the start)."),
    seat: int | None = typer.Option(None, help="Watch as this seat (its token from the file)."),
    server: str | None = ServerOption,
    tokens: Path | None = TokensOption,
) -> None:
    """Print the game's events live, one readable line each, until the game ends.

    Reconnects by itself if the server restarts, without missing or repeating an event.

    Example: annales watch 3f2a --after 100
    """
    saved = resolve_game_id(game_id, tokens)[1]
    with connect(server, saved) as client:
        game_id, saved = resolve_game_id(game_id, tokens, client)
        who = need_game(game_id, tokens).seat(seat) if seat is not None else None
        names = _names(client, game_id)
        try:
            for event in client.watch(game_id, after, who):
                console.print(describe_event(event, names), highlight=False, soft_wrap=True)
        except KeyboardInterrupt:
            return
        summary = client.get_game(game_id).game
        console.print(f"[bold]game over[/]: {outcome_text(summary)}")


@dataclass(frozen=True)
class Milestones:
    """How ``annales bots`` measures a game's progress: ``count(view)`` of ``total(view)``
    ``unit``, re-read after events of ``kinds`` (and every 50 actions)."""

    unit: str
    kinds: frozenset[str]
    count: Callable[[dict[str, Any]], int]
    total: Callable[[dict[str, Any]], int]


MILESTONES = {
    "riseandfall": Milestones(
        "trophies",
        frozenset({"TrophyWon"}),
        lambda view: int(view.get("trophies_taken", 0)),
        lambda view: int(view.get("trophy_target", 4)),
    ),
    "tapestry": Milestones(
        "income turns",
        frozenset({"IncomeTurnStarted"}),
        lambda view: sum(int(s.get("income_turns", 0)) for s in view.get("seats", [])),
        lambda view: 5 * len(view.get("seats", [])),
    ),
}
ACTIONS = Milestones("actions", frozenset(), lambda view: 0, lambda view: 0)


@api_errors
def bots(
    game_id: str = typer.Argument(..., help="Game id (or a unique prefix of a saved game)."),
    seats: list[str] = typer.Option(
        ..., parser=comma_ints, metavar="N,N…", help="Seats to play, comma-separated, e.g. 1,2."
    ),
    bot: str = typer.Option(
        "random",
        help="Bot: random (uniform over the listed actions) or greedy (a one-ply heuristic "
        "on the seat's view; Rise & Fall: building and income first; Tapestry: the advance, "
        "benefit or bonus whose immediate gain — VP, resources, buildings, landmarks — is "
        "largest, income when nothing better; seeded ties, one choice in four random). "
        "(A server's tournament bots also include `tapestry`, which reads the whole game "
        "state and so cannot play through the API.)",
    ),
    seed: str = typer.Option("bots", help="Seed of the bots' own choices."),
    max_actions: int | None = typer.Option(None, help="Stop after this many actions."),
    server: str | None = ServerOption,
    tokens: Path | None = TokensOption,
) -> None:
    """Fill seats with bots that play through the API until the game ends (any game).

    The bots only send back actions the server listed; other seats (humans, other bot
    processes) play at their own pace — the bots wait for them on the game's stream. The
    progress bar counts trophies (Rise & Fall) or income turns (Tapestry).

    Example: annales bots 3f2a --seats 1,2 --bot greedy
    """
    saved = need_game(game_id, tokens)
    numbers = flatten(seats)
    if not numbers:
        fail("--seats: name at least one seat, e.g. --seats 1,2")
    try:
        players = {saved.seat(n): make_api_bot(bot, f"{seed}/{n}".encode()) for n in numbers}
    except ValueError as error:
        fail(str(error))
    with connect(server, saved) as client:
        first = client.get_game(saved.game_id)
        milestones = MILESTONES.get(api_game(first.game.game_type).name, ACTIONS)
        view = view_data(first.view) if first.HasField("view") else {}
        target = milestones.total(view)
        fraction = TextColumn(f"{{task.completed}}/{{task.total}} {milestones.unit}")
        columns = (
            SpinnerColumn(),
            TextColumn("{task.description}"),
            BarColumn(),
            *((fraction,) if target else ()),  # no milestone (Imperium): the count of actions
            TimeElapsedColumn(),
        )
        with Progress(*columns, console=console) as progress:
            task = progress.add_task("bots playing", total=target or None)
            count = [0]

            def on_submit(seat: int, response: pb.SubmitActionResponse) -> None:
                count[0] += 1
                reached = any(e.kind in milestones.kinds for e in response.events)
                if target and (reached or count[0] % 50 == 0):
                    game = client.get_game(saved.game_id)
                    done = milestones.count(view_data(game.view))
                    progress.update(task, completed=min(done, target))
                progress.update(task, description=f"{count[0]} actions, version {response.version}")

            result = play_seats(client, players, on_submit=on_submit, max_actions=max_actions)
            if result.finished and target:
                progress.update(task, completed=target)
        summary = client.get_game(saved.game_id).game
    console.print(
        f"{result.submitted} actions submitted ({result.conflicts} version conflicts "
        f"retried); game {STATUS.get(summary.status, '?')} at version "
        f"{summary.head_version}"
    )
    if summary.status == pb.GAME_STATUS_FINISHED:
        console.print(outcome_text(summary))


@api_errors
def history(
    game_id: str = GameIdArgument,
    page_size: int = typer.Option(100, min=1, help="Events per page requested from the server."),
    seat: int | None = typer.Option(None, help="Read as this seat (sees its sealed choices)."),
    limit: int | None = typer.Option(None, min=0, help="Print at most this many events."),
    as_json: bool = JsonOption,
    server: str | None = ServerOption,
    tokens: Path | None = TokensOption,
) -> None:
    """Print the game's history, fetched page by page, one readable line per event.

    Example: annales history 3f2a --page-size 200 --limit 50
    """
    from google.protobuf.json_format import MessageToDict

    saved = resolve_game_id(game_id, tokens)[1]
    with connect(server, saved) as client:
        game_id, saved = resolve_game_id(game_id, tokens, client)
        who = need_game(game_id, tokens).seat(seat) if seat is not None else None
        names = _names(client, game_id)
        printed = 0
        for number, page in enumerate(client.history_pages(game_id, who, page_size), 1):
            if not as_json:
                console.print(f"[dim]— page {number} —[/]")
            for event in page.events:
                if limit is not None and printed >= limit:
                    return
                if as_json:
                    print_json(MessageToDict(event, preserving_proto_field_name=True))
                else:
                    console.print(describe_event(event, names), highlight=False, soft_wrap=True)
                printed += 1


def export_remote(
    game_id: str, output: Path | None, seat: int | None, server: str | None, tokens: Path | None
) -> None:
    """``annales export`` against a server (see ``main.export``)."""
    saved = resolve_game_id(game_id, tokens)[1]
    with connect(server, saved) as client:
        game_id, saved = resolve_game_id(game_id, tokens, client)
        who = need_game(game_id, tokens).seat(seat) if seat is not None else None
        with console.status("exporting…"):
            response = client.export_record(game_id, who)
    if output is None:
        sys.stdout.buffer.write(response.record)
        sys.stdout.buffer.flush()
        return
    output.write_bytes(response.record)
    lines = response.record.count(b"\n")
    state = "complete" if response.complete else "unfinished game, redacted for the caller"
    console.print(f"{lines} lines written to {output} ({state})")


def verify_remote(record: Path, server: str | None) -> bool:
    """Ask a server to verify ``record``; prints the report and returns ``ok``."""
    with connect(server) as client, console.status("verifying on the server…"):
        report = client.verify_record(record.read_bytes())
    colour = "green" if report.ok else "red"
    # the same first line as the offline check: the outcome's name in lower case
    outcome = pb.VerificationOutcome.Name(report.outcome).removeprefix("VERIFICATION_OUTCOME_")
    console.print(f"outcome: {outcome.lower()}", markup=False)
    console.print(f"[{colour}]{report.message}[/] (server {client.target})")
    if report.divergence_seq:
        console.print(
            f"divergence at seq {report.divergence_seq}: expected {report.expected}, "
            f"found {report.found}"
        )
    return bool(report.ok)
