"""Readable terminal rendering of games: views, actions and events (rich), by game.

:func:`render_view`, :func:`describe_action` and :func:`describe_event` dispatch on the game
of the message: Tapestry to :mod:`annales_cli.render_tapestry`, Rise & Fall here; a game with
no renderer falls back to its raw data (:func:`~annales_cli.render_common.describe_fields`).

Rise & Fall cells are shown as ``(x,y)`` (cell id ``y * 40 + x``): column and row on the
square grid of ruleset ``riseandfall/1``, axial ``(q,r)`` on the hexagonal grid of
``riseandfall/2`` (the view's ``world.grid`` says which). The world is cropped to the cells in
use; each cell is two characters on its terrain's colour: a piece letter and its seat number
(``C*`` is a city with a merchant on it). Hexes are drawn in offset rows ("odd-r": row ``r``,
column ``q + (r - (r & 1)) // 2``, odd rows shifted right by half a cell), so each hex touches
the two hexes above it, the two below and one on each side.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from annales.v1 import annales_pb2 as pb
from annales_client.games import action_data, event_data, game_of_action, view_data
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from annales_cli.render_common import (
    SEAT_STYLE,
    STATUS,
    describe_fields,
    seat_name,
    seed_with_text,
    terrain_style,
)
from annales_cli.render_imperium import (
    describe_imperium_action,
    describe_imperium_event,
    render_imperium_view,
)
from annales_cli.render_tapestry import describe_tapestry_event, render_tapestry_view
from annales_cli.render_tapestry_actions import describe_tapestry_action

__all__ = [
    "STATUS",
    "cell_name",
    "describe_action",
    "describe_event",
    "render_view",
    "render_world",
    "seat_name",
]

GRID = 40
TERRAIN_NAMES = {0: "sea", 1: "plain", 2: "forest", 3: "mountain", 4: "glacier"}
TERRAIN_STYLE = {value: terrain_style(name) for value, name in TERRAIN_NAMES.items()}
PIECE_LETTER = {
    "nomad": "N",
    "city": "C",
    "ship": "S",
    "mountaineer": "M",
    "merchant": "$",
    "temple": "T",
}
CELL_FIELDS = {"cell", "origin", "target", "city", "temple"}


def cell_name(cell: int) -> str:
    """``(x,y)`` of a cell id (``-`` for -1).

    >>> cell_name(83), cell_name(-1)
    ('(3,2)', '-')
    """
    if cell < 0:
        return "-"
    return f"({cell % GRID},{cell // GRID})"


# -- the world --------------------------------------------------------------------------
def drawn_at(cell: int, hexes: bool) -> tuple[int, int]:
    """Where a cell is drawn: ``(column, row)``; hexes in odd-r offset rows.

    >>> drawn_at(83, False), drawn_at(3 * 40 + 3, True)
    ((3, 2), (4, 3))
    """
    x, y = cell % GRID, cell // GRID
    if hexes:
        return x + (y - (y & 1)) // 2, y
    return x, y


def render_world(view: dict[str, Any]) -> Text:
    """The world grid, cropped to the cells in use, terrain colours and pieces (hexes in
    offset rows when the world's grid is ``"hex"``)."""
    world = view.get("world", {})
    hexes = world.get("grid") == "hex"
    terrain: list[int] = list(world.get("terrain", []))
    pieces: dict[int, list[dict[str, Any]]] = {}
    for piece in view.get("pieces", []):
        pieces.setdefault(int(piece.get("cell", 0)), []).append(piece)
    used = [c for c, t in enumerate(terrain) if t >= 0] + list(pieces)
    text = Text()
    if not used:
        return Text("(the world is empty)")
    at = {drawn_at(c, hexes): c for c in range(len(terrain))} if hexes else {}
    spots = [drawn_at(c, hexes) for c in used]
    xs = [x for x, _ in spots]
    ys = [y for _, y in spots]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    if not hexes:
        text.append(
            "    "
            + "".join(f"{x % 100:<2d}" if x % 5 == 0 else "  " for x in range(x0, x1 + 1))
            + "\n"
        )
    activated = set(view.get("activated", []))
    for y in range(y0, y1 + 1):
        text.append(f"{y:>3} ")
        if hexes:
            text.append(" " if y % 2 else "")
        for x in range(x0, x1 + 1):
            cell = at.get((x, y), -1) if hexes else y * GRID + x
            ground = terrain[cell] if 0 <= cell < len(terrain) else -1
            style = TERRAIN_STYLE.get(ground, "")
            here = pieces.get(cell, [])
            if not here:
                text.append("  " if ground >= 0 else " .", style=style or "dim")
                continue
            main = next((p for p in here if p.get("piece") != "merchant"), here[0])
            owner = int(main.get("seat", 0))
            letter = PIECE_LETTER.get(str(main.get("piece", "")), "?")
            mark = "*" if len(here) > 1 else str(owner)
            seat_style = SEAT_STYLE[owner % len(SEAT_STYLE)]
            if cell in activated:
                seat_style += " underline"
            background = style.split(" on ")[-1] if " on " in style else ""
            text.append(
                letter + mark, style=f"{seat_style} on {background}" if background else seat_style
            )
        text.append("\n")
    legend = Text("terrain: ")
    for value, name in TERRAIN_NAMES.items():
        legend.append(f" {name} ", style=TERRAIN_STYLE[value])
        legend.append(" ")
    legend.append(
        "  pieces: N nomad, C city, S ship, M mountaineer, $ merchant, T temple; "
        "digit = seat, * = city with a merchant, underlined = activated"
    )
    if hexes:
        legend.append("; hexes in offset rows, cells named (q,r) axial, rows numbered by r")
    text.append_text(legend)
    return text


# -- a whole view -----------------------------------------------------------------------
def _cards(values: Sequence[str] | None) -> str:
    return ", ".join(values) if values else "-"


def render_view(
    view_message: pb.GameView, names: Sequence[str], summary: pb.GameSummary | None = None
) -> RenderableType:
    """A seat's (or a spectator's) view: header, world, seats, trophies, pending decision.

    Tapestry views go to :func:`~annales_cli.render_tapestry.render_tapestry_view`.
    """
    game = view_message.WhichOneof("game")
    if game == "tapestry":
        return render_tapestry_view(view_message, names, summary)
    if game == "imperium":
        return render_imperium_view(view_message, names, summary)
    if game != "rise_and_fall":
        return Text(str(view_message))
    view = view_data(view_message)
    viewer = view.get("viewer")
    header = Text()
    header.append(
        f"Rise & Fall — round {view.get('round', 0)}, phase {view.get('phase', '?')}", style="bold"
    )
    if summary is not None:
        header.append(
            f"   version {summary.version}/{summary.head_version} "
            f"({STATUS.get(summary.status, '?')})"
        )
    header.append(
        f"\nfirst player: {seat_name(names, int(view.get('first_player', -1)))}"
        f"   bank: {view.get('bank_coins', 0)} coins, {view.get('bank_wood', 0)} wood, "
        f"{view.get('bank_stone', 0)} stone   buy-back price: "
        f"{view.get('buy_back_price', 0)}   trophies: {view.get('trophies_taken', 0)}"
        f"/{view.get('trophy_target', 4)}"
    )
    if view.get("next_tile"):
        tile = view["next_tile"]
        header.append(f"\nnext tile: {tile.get('kind')} #{tile.get('shape', 0)}")
    sheets = view.get("score_sheets", [])
    table = Table(title="Seats", show_lines=False, expand=False)
    for column in (
        "seat",
        "coins",
        "wood",
        "stone",
        "hand",
        "discard",
        "reserve",
        "decline",
        "trophies",
        "pieces N/C/S/M/$/T",
        "score",
    ):
        table.add_column(
            column, justify="right" if column in ("coins", "wood", "stone", "score") else "left"
        )
    pending = set(view.get("pending", []))
    for seat in view.get("seats", []):
        number = int(seat.get("seat", 0))
        label = Text(seat_name(names, number), style=SEAT_STYLE[number % len(SEAT_STYLE)])
        if number == viewer:
            label.append(" (you)")
        if number in pending:
            label.append(" ◀")
        if seat.get("extinct"):
            label.append(" †")
        hand = seat.get("hand")
        hand_text = _cards(hand) if hand is not None else f"{seat.get('hand_size', 0)} cards"
        if seat.get("chosen"):
            hand_text += f" (chosen: {seat['chosen']})"
        elif seat.get("has_chosen"):
            hand_text += " (has chosen)"
        if seat.get("played"):
            hand_text += f" (played: {seat['played']})"
        if seat.get("decline_choice"):
            hand_text += f" (declining: {_cards(seat['decline_choice'])})"
        discard = _cards(seat.get("discard"))
        if seat.get("discard_size", 0) > len(seat.get("discard", [])):
            discard = f"{seat.get('discard_size')} (top: {discard})"
        total = sheets[number].get("total", 0) if number < len(sheets) else 0
        table.add_row(
            label,
            str(seat.get("coins", 0)),
            str(seat.get("wood", 0)),
            str(seat.get("stone", 0)),
            hand_text,
            discard,
            _cards(seat.get("reserve")),
            _cards(seat.get("declined")),
            _cards(seat.get("trophies")),
            "/".join(str(n) for n in seat.get("pieces", [])),
            str(total),
        )
    trophies = Text("trophies: ")
    for trophy in view.get("trophies", []):
        owner = int(trophy.get("owner", -1))
        holder = "free" if owner < 0 else seat_name(names, owner)
        trophies.append(f"{trophy.get('piece')} {trophy.get('vp', 0)} VP ({holder})  ")
    footer = Text()
    if view.get("final_scores") is not None:
        scores = view["final_scores"]
        winners = view.get("winners") or []
        footer.append(
            "Game over — final scores: "
            + ", ".join(f"{seat_name(names, i)} {s}" for i, s in enumerate(scores)),
            style="bold",
        )
        footer.append(
            "   winner(s): " + ", ".join(seat_name(names, w) for w in winners), style="bold green"
        )
    else:
        footer.append(
            f"decision: {view.get('decision', '')} — waiting for "
            + (", ".join(seat_name(names, s) for s in sorted(pending)) or "nobody")
        )
    return Group(header, render_world(view), table, trophies, footer)


# -- actions and events -----------------------------------------------------------------
def piece_at(view: dict[str, Any] | None, cell: int) -> str:
    """The piece types on ``cell`` in a view (``"piece"`` when unknown)."""
    if view is None:
        return "piece"
    found = [str(p.get("piece")) for p in view.get("pieces", []) if p.get("cell") == cell]
    return "+".join(found) or "piece"


def describe_action(
    action: pb.Action, view: dict[str, Any] | None = None, names: Sequence[str] = ()
) -> str:
    """A short human description of an action (``view``: the seat's view data, for context;
    ``names``: the seat names, for actions naming a seat).

    >>> from annales_client.games import command_to_action
    >>> from domain.riseandfall.commands import ChooseCard
    >>> describe_action(command_to_action("riseandfall", ChooseCard(card="city")))
    'play the city card (face down)'
    """
    data = action_data(action)
    game = game_of_action(action).name
    if game == "tapestry":
        return describe_tapestry_action(data, view, names)
    if game == "imperium":
        return describe_imperium_action(data, view)
    if game != "riseandfall":
        return describe_fields(data)
    kind = data.get("type")
    terrain: list[int] = list((view or {}).get("world", {}).get("terrain", []))

    def where(cell: int) -> str:
        ground = TERRAIN_NAMES.get(terrain[cell], "") if 0 <= cell < len(terrain) else ""
        return f"{cell_name(cell)}{' ' + ground if ground else ''}"

    if kind == "Activate":
        cell, name = int(data["cell"]), str(data["action"]).replace("_", " ")
        target = int(data.get("target", -1))
        text = f"{piece_at(view, cell)} at {cell_name(cell)}: {name}"
        return text + (f" → {where(target)}" if target >= 0 else "")
    if kind == "EndActions":
        return "end my actions for this round"
    if kind == "ChooseCard":
        return f"play the {data['card']} card (face down)"
    if kind == "DeclineCards":
        return "put in decline: " + (", ".join(data.get("cards", [])) or "nothing")
    if kind == "BuyBack":
        price = (view or {}).get("buy_back_price")
        return f"buy back the {data['card']} card" + (f" ({price} coins)" if price else "")
    if kind == "SkipBuyBack":
        return "buy nothing back"
    if kind == "Deploy":
        return f"deploy a {data['piece']} on {where(int(data['cell']))}"
    if kind == "PlaceTile":
        p = data.get("placement", {})
        moves = f", moving {len(p.get('moves', []))} plain(s)" if p.get("moves") else ""
        return (
            f"place {p.get('kind')} tile #{p.get('shape')} rotation {p.get('rotation')} "
            f"at ({p.get('x')},{p.get('y')}){moves}"
        )
    return str(data)


def describe_event(event: pb.GameEvent, names: Sequence[str]) -> str:
    """One readable line for an event: ``seq acting-seat kind: details``.

    Cells read ``(x,y)``, seats ``name#n``; hidden parts of sealed choices read ``(hidden)``;
    Tapestry events name their cards (:func:`~annales_cli.render_tapestry.describe_tapestry_event`).
    """
    data = event_data(event)
    kind = str(data.pop("type", event.kind))
    if event.WhichOneof("payload") == "tapestry":
        parts = describe_tapestry_event(kind, data, event, names)
    elif event.WhichOneof("payload") == "imperium":
        parts = describe_imperium_event(kind, data, event, names)
    else:
        parts = _event_parts(kind, data, event, names)
    actor = seat_name(names, event.seat) if event.seat >= 0 else "system"
    details = f": {'; '.join(parts)}" if parts else ""
    return f"{event.seq:>5} {actor:<10} {kind}{details}"


def _event_parts(
    kind: str, data: dict[str, Any], event: pb.GameEvent, names: Sequence[str]
) -> list[str]:
    """The detail parts of a Rise & Fall (or kernel) event's line."""
    parts: list[str] = []
    for key, value in data.items():
        if kind == "FirstPlayerPassed" and isinstance(value, int):
            parts.append(f"{key} {seat_name(names, value)}")
        elif kind == "CardsRevealed" and key == "cards" and isinstance(value, list):
            parts.append(
                "cards "
                + "; ".join(f"{seat_name(names, i)}: {card or '-'}" for i, card in enumerate(value))
            )
        elif key in CELL_FIELDS and isinstance(value, int):
            parts.append(f"{key} {cell_name(value)}")
        elif kind == "SeedRevealed" and key == "seed" and isinstance(value, str):
            parts.append(f"seed {seed_with_text(value)}")
        elif key in ("seat", "by") and value == event.seat:
            continue  # the acting seat, shown in front
        elif key in ("seat", "by", "victim", "first_player") and isinstance(value, int):
            parts.append(f"{key} {seat_name(names, value)}")
        elif key == "placement" and isinstance(value, dict):
            parts.append(f"{value.get('kind')} tile at ({value.get('x')},{value.get('y')})")
        elif key == "sheets":
            continue
        elif key in ("winners", "seats") and isinstance(value, list):
            parts.append(f"{key} {', '.join(seat_name(names, int(w)) for w in value) or '-'}")
        elif key == "scores" and isinstance(value, list) and value:
            parts.append(
                "scores " + ", ".join(f"{seat_name(names, i)} {v}" for i, v in enumerate(value))
            )
        elif key == "cards" and isinstance(value, list) and value and isinstance(value[0], list):
            parts.append(
                "cards "
                + "; ".join(
                    f"{seat_name(names, i)}: {', '.join(v) or '-'}" for i, v in enumerate(value)
                )
            )
        elif value == "" or (value == [] and event.redacted):
            parts.append(f"{key} (hidden)")
        elif isinstance(value, list):
            parts.append(f"{key} {', '.join(str(v) for v in value) or '-'}")
        else:
            parts.append(f"{key} {value}")
    return parts
