"""Readable terminal rendering of Tapestry views, actions and events (rich).

Content ids read ``Name (#id)`` (cards, civilizations, capitals, landmarks); hexes read
``(q,r)`` in the board's axial coordinates; resources are listed coin, worker, food, culture;
tracks exploration, science, technology, military. The capital grid is 9 x 9 plots, top row
first (``.`` empty, ``M``/``H``/``F``/``A`` market, house, farm, armory, ``L`` landmark), its
3 x 3 districts separated by spaces, rows and columns numbered 0-8 (``r2c3``: row 2, col 3),
``#`` an impassable plot of the mat. The board is drawn as a hex map (:func:`hex_map`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from annales.v1 import annales_pb2 as pb
from annales_client.games import view_data
from annales_client.tapestry import (
    BUILDINGS,
    RESOURCES,
    START_BUILDINGS,
    TRACKS,
    benefit_text,
    content_name,
    space_info,
)
from rich.columns import Columns
from rich.console import Group, JustifyMethod, RenderableType
from rich.table import Table
from rich.text import Text

from annales_cli.render_common import SEAT_STYLE, STATUS, game_over, seat_name
from annales_cli.render_tapestry_boxes import income_mat_notes, own_notes
from annales_cli.render_tapestry_events import describe_tapestry_event
from annales_cli.render_tapestry_pp import mat_parts
from annales_cli.render_tapestry_solo import party_name, render_bots

#: the Treasure Hunters' treasures (Plans & Ploys), by mat slot.
TREASURES = ("desert", "grassland", "mountain", "forest")
#: the Spies' and the Tinkerers' options (Plans & Ploys), by mat slot.
SPY_OPTIONS = ("WHEN PLAYED card", "tile", "track space", "tech card")
TINKER_OPTIONS = (
    "refund the cost of",
    "match the nearest opponent on",
    "move back 3 on",
    "jump to the next bonus on",
)

__all__ = [
    "describe_tapestry_event",
    "render_tapestry_view",
    "resources_text",
]

_ROWS = {0: "bottom", 1: "middle", 2: "top"}
#: cost units given up by discarding, and the kind of id a discard names.
_DISCARDS = {"tapestry_card": "tapestry", "territory_tile": "territory", "tech_card": "tech"}


def resources_text(resources: Sequence[int]) -> str:
    """``"3 coin, 1 worker, 0 food, 2 culture"``.

    >>> resources_text([3, 1, 0, 2])
    '3 coin, 1 worker, 0 food, 2 culture'
    """
    return ", ".join(f"{n} {r}" for n, r in zip(resources, RESOURCES, strict=False))


def _cards(count: int) -> str:
    return f"{count} card" + ("" if count == 1 else "s")


def _names(kind: str, ids: Sequence[int]) -> str:
    return ", ".join(content_name(kind, int(i)) for i in ids) or "-"


def _hex(view: Mapping[str, Any] | None, index: int) -> str:
    hexes: Sequence[Mapping[str, Any]] = (view or {}).get("hexes", [])
    if 0 <= index < len(hexes):
        return f"({hexes[index].get('q', 0)},{hexes[index].get('r', 0)})"
    return f"hex #{index}"


def _source(source: str) -> str:
    """A frame's ``source`` for a player: ``track:science:5`` -> ``science space 5 (Chemistry)``."""
    parts = source.split(":")
    if parts[0] == "track" and len(parts) == 3 and parts[2].isdigit():
        name = space_info(parts[1], int(parts[2]))[0]
        return f"{parts[1]} space {parts[2]}" + (f" ({name})" if name else "")
    if parts[0] == "track" and len(parts) == 2:
        return f"the {parts[1]} track"
    if parts[0] == "era" and len(parts) == 2:
        return f"the start of era {parts[1]}"
    if parts[0] == "tile" and len(parts) == 2:
        return f"territory tile #{parts[1]}"
    if parts[0] in ("civ", "repeat", "adjustment") and len(parts) == 2:
        return f"{parts[0]} {parts[1].replace('_', ' ')}"
    return source.replace("_", " ")


# -- a whole view -----------------------------------------------------------------------
def _header(view: Mapping[str, Any], names: Sequence[str], summary: pb.GameSummary | None) -> Text:
    header = Text()
    header.append(
        f"Tapestry — {view.get('phase', '?')}, turn {view.get('turn', 0)} "
        f"({view.get('board', '?')} board)",
        style="bold",
    )
    if summary is not None:
        header.append(
            f"   version {summary.version}/{summary.head_version} "
            f"({STATUS.get(summary.status, '?')})"
        )
    current, first = int(view.get("current", -1)), int(view.get("first_player", -1))
    header.append(
        f"\ncurrent: {seat_name(names, current) if current >= 0 else '-'}"
        f"   first player: {seat_name(names, first) if first >= 0 else '-'}"
        f"   tech display: {_names('tech', view.get('tech_display', []))}"
    )
    variants = view.get("variants") or []
    if variants:
        header.append(f"\nvariants: {', '.join(str(v).replace('_', ' ') for v in variants)}")
    return header


def _seats_table(view: Mapping[str, Any], names: Sequence[str]) -> Table:
    table = Table(
        title="Seats",
        caption="resources: coin, worker, food, culture; tracks: exploration, science, "
        "technology, military; buildings left on the income mat: market, house, farm, armory",
        expand=False,
    )
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("seat", "left"),
        ("civ", "left"),
        ("VP", "right"),
        ("resources\nC/W/F/Cu", "center"),
        ("tracks\nE/S/T/M", "center"),
        ("buildings\nM/H/F/A", "center"),
        ("era", "right"),
        ("outposts", "right"),
        ("hand", "right"),
    )
    for column, justify in columns:
        table.add_column(column, justify=justify)
    viewer, pending = view.get("viewer"), set(view.get("pending", []))
    for seat in view.get("seats", []):
        number = int(seat.get("seat", 0))
        label = Text(seat_name(names, number), style=SEAT_STYLE[number % len(SEAT_STYLE)])
        label.append(" (you)" if number == viewer else "")
        label.append(" ◀" if number in pending else "")
        label.append(" ✓" if seat.get("finished") else "")
        taken = list(seat.get("buildings_taken", [0] * len(BUILDINGS)))
        left = [start - t for start, t in zip(START_BUILDINGS, taken, strict=False)]
        table.add_row(
            label,
            _names("civilization", seat.get("civilizations", [])),
            str(seat.get("vp", 0)),
            "/".join(str(n) for n in seat.get("resources", [])),
            "/".join(str(n) for n in seat.get("positions", [])),
            "/".join(str(n) for n in left) + income_mat_notes(seat),
            str(seat.get("income_turns", 0)),
            str(seat.get("outposts", 0)),
            _cards(int(seat.get("hand_size", 0))),
        )
    return table


def _cards_table(view: Mapping[str, Any], names: Sequence[str]) -> Table:
    table = Table(title="Cards and tiles", expand=False)
    for column in ("seat", "hand", "tech cards (row)", "tapestry mat (era)", "landmarks", "tiles"):
        table.add_column(column)
    for seat in view.get("seats", []):
        number = int(seat.get("seat", 0))
        tech = ", ".join(
            f"{content_name('tech', int(t.get('card', 0)))} {_ROWS.get(int(t.get('row', 0)), '?')}"
            for t in seat.get("tech", [])
        )
        mat = ", ".join(
            f"{int(p.get('era', 0))}: {content_name('tapestry', int(p.get('card', 0)))}"
            for p in seat.get("mat", [])
        )
        tiles = f"territory {', '.join(str(t) for t in seat.get('territory', [])) or '-'}"
        if seat.get("space"):
            tiles += f"; space {', '.join(str(t) for t in seat['space'])}"
        tiles = "; ".join([tiles, *mat_parts(seat, names)])
        hand = seat.get("hand")
        mats = civ_mats(seat)
        table.add_row(
            seat_name(names, number),
            _names("tapestry", hand) if hand is not None else "hidden",
            tech or "-",
            mat or "-",
            _names("landmark", seat.get("landmarks", [])) + (f"\n{mats}" if mats else ""),
            tiles,
        )
    return table


#: the spaces of the Collectors' mat, in order, and the kind of id each holds ("": none).
_SHELF = (
    ("outpost", ""),
    ("house", ""),
    ("landmark", "landmark"),
    ("tapestry card", "tapestry"),
    ("territory tile", ""),
    ("tech card", "tech"),
)


def _ints(value: Any) -> list[int]:
    """A civ_tokens entry as a list of ints (a plain list, or the proto's ``values``)."""
    items = value.get("values", []) if isinstance(value, Mapping) else value
    return [int(v) for v in items or []]


def civ_mats(seat: Mapping[str, Any]) -> str:
    """What lies on a seat's Collectors, Urban Planners, Spies, Tinkerers and Utilitarians mats
    ("" when none is held)."""
    tokens: Mapping[str, Any] = seat.get("civ_tokens") or {}
    parts: list[str] = []
    shelf = _ints(tokens.get("collectors", []))[: len(_SHELF)]
    if any(shelf):
        kept = []
        for (label, kind), item in zip(_SHELF, shelf, strict=False):
            if item < 0:
                kept.append(f"{label} (face down)")
            elif item and kind:
                kept.append(f"{label} {content_name(kind, item)}")
            elif item:
                kept.append(label + (f" #{item}" if label == "territory tile" else ""))
        parts.append("collected: " + ", ".join(kept))
    parked = _ints(tokens.get("urban_planners", []))
    if parked:
        parts.append(f"parked: {_names('landmark', parked)}")
    if mat_tokens_text(seat):
        parts.append(mat_tokens_text(seat))
    return "; ".join(parts)


def _capital(seat: Mapping[str, Any], names: Sequence[str]) -> Text:
    number = int(seat.get("seat", 0))
    capital = int(seat.get("capital", -1))
    text = Text(seat_name(names, number), style=SEAT_STYLE[number % len(SEAT_STYLE)])
    text.append(f" — {content_name('capital', capital) if capital >= 0 else 'no capital yet'}\n")
    text.append("   012 345 678\n", style="dim")
    blocked: Sequence[str] = seat.get("capital_blocked") or []
    for row, line in enumerate(seat.get("capital_grid", [])):
        text.append(f"{row}  ", style="dim")
        marks = (row < len(blocked) and blocked[row]) or ""
        for col, plot in enumerate(line):
            if col and col % 3 == 0:
                text.append(" ")
            if plot == "." and col < len(marks) and marks[col] == "1":
                text.append("#", style="dim")  # an impassable plot of the mat
            else:
                text.append(plot, style="bold" if plot != "." else "")
        text.append("\n")
        if row in (2, 5):
            text.append("\n")
    return text


def _hex_mark(cell: Mapping[str, Any]) -> Text:
    """Two characters for a hex: its outposts' seats, ``--`` explored or printed, ``..``."""
    outposts: Sequence[Mapping[str, Any]] = cell.get("outposts", [])
    seats = sorted({int(o.get("seat", 0)) for o in outposts})
    if not seats:
        explored = int(cell.get("tile", -1)) >= 0 or cell.get("printed")
        return Text("--") if explored else Text("..", style="dim")
    mark = Text()
    for seat in seats[:2]:
        toppled = all(o.get("toppled") for o in outposts if int(o.get("seat", 0)) == seat)
        mark.append("x" if toppled else str(seat), style=SEAT_STYLE[seat % len(SEAT_STYLE)])
    if len(mark) < 2:
        mark.append(" ")
    return mark


def hex_map(view: Mapping[str, Any]) -> Text:
    """The board drawn as flat-top hexes, as on the table: ``(q+1, r+1)`` directly below
    ``(q, r)``, so a hex sits at column ``q - r`` and half-row ``q + r``. Each hex reads
    ``..`` (unexplored), ``--`` (a territory with no outpost) or the seat numbers of its
    outposts (coloured; ``x``: toppled)."""
    hexes: Sequence[Mapping[str, Any]] = view.get("hexes", [])
    if not hexes:
        return Text("")
    at = {
        (int(h.get("q", 0)) - int(h.get("r", 0)), int(h.get("q", 0)) + int(h.get("r", 0))): h
        for h in hexes
    }
    xs = [x for x, _ in at]
    ys = [y for _, y in at]
    text = Text("Map (.. unexplored, -- no outpost, digits: seats with outposts, x toppled):\n")
    for y in range(min(ys), max(ys) + 1):
        line = Text("  ")
        for x in range(min(xs), max(xs) + 1):
            cell = at.get((x, y))
            line.append_text(_hex_mark(cell) if cell is not None else Text("  "))
            line.append(" ")
        text.append_text(Text(line.plain.rstrip() and "") if not line.plain.strip() else line)
        text.append("\n")
    return text


def _map(view: Mapping[str, Any], names: Sequence[str]) -> Text:
    hexes: Sequence[Mapping[str, Any]] = view.get("hexes", [])
    held = [(i, h) for i, h in enumerate(hexes) if h.get("outposts")]
    explored = sum(1 for h in hexes if int(h.get("tile", -1)) >= 0)
    text = Text(
        f"Map: {len(hexes)} hexes, {explored} explored; {len(held)} with outposts:\n", style="bold"
    )
    for _, cell in held:
        tile = int(cell.get("tile", -1))
        where = f"tile #{tile}" if tile >= 0 else ("printed" if cell.get("printed") else "-")
        counts: dict[tuple[int, bool], int] = {}
        for outpost in cell.get("outposts", []):
            key = (int(outpost.get("seat", 0)), bool(outpost.get("toppled")))
            counts[key] = counts.get(key, 0) + 1
        owners = ", ".join(
            party_name(names, s) + (f" ×{n}" if n > 1 else "") + (" (toppled)" if toppled else "")
            for (s, toppled), n in counts.items()
        )
        text.append(f"  ({cell.get('q', 0)},{cell.get('r', 0)}) {where}: {owners}\n")
    return text


def _decision(view: Mapping[str, Any], names: Sequence[str]) -> Text:
    over = game_over(view, names)
    if over is not None:
        return over
    text = Text()
    waiting = ", ".join(seat_name(names, s) for s in view.get("pending", [])) or "nobody"
    text.append(f"decision: {view.get('decision', '')}", style="bold")
    text.append(f" — {view.get('prompt', '')} (waiting for {waiting})")
    frame: Mapping[str, Any] = view.get("frame") or {}
    if frame.get("source"):
        text.append(f"\n  from {_source(str(frame['source']))}")
    if frame.get("kind") == "bonus":
        cost = ", ".join(str(u).replace("_", " ") for u in frame.get("options", []))
        text.append(f"\n  bonus: {benefit_text(frame.get('expr'))} for {cost or 'nothing'}")
    elif frame.get("kind") == "build" and frame.get("token"):
        text.append(f"\n  building: {frame['token']}")
    elif frame.get("options"):
        offered = "   ".join(
            f"{i}) {benefit_text(option)}" for i, option in enumerate(frame["options"])
        )
        text.append(f"\n  offered: {offered}")
    return text


def _civ_tokens(seat: Mapping[str, Any], key: str) -> list[int]:
    """A seat's ``civ_tokens[key]`` (a list, or an ``IntList`` as ``{"values": [...]}``)."""
    found = (seat.get("civ_tokens") or {}).get(key)
    if isinstance(found, Mapping):
        found = found.get("values", [])
    return [int(v) for v in found or []]


def mat_tokens_text(seat: Mapping[str, Any]) -> str:
    """The Plans & Ploys mats' tokens of a seat in words: the Spies' and Tinkerers' options
    used, the landmarks holding the Utilitarians' tokens ("" when none)."""
    parts: list[str] = []
    for key, names_of in (("spies", SPY_OPTIONS), ("tinkerers", TINKER_OPTIONS)):
        used = _civ_tokens(seat, key)
        if used:
            short = [n.split(" ")[0] if key == "tinkerers" else n for n in names_of]
            said = ", ".join(short[u] for u in used if 0 <= u < len(short))
            parts.append(f"{key} options used: {said}")
    landmarks = _civ_tokens(seat, "utilitarians")
    if landmarks:
        parts.append(f"utilitarian tokens on: {_names('landmark', landmarks)}")
    return "; ".join(parts)


def _you(view: Mapping[str, Any], names: Sequence[str]) -> Text | None:
    viewer = view.get("viewer")
    seats: Sequence[Mapping[str, Any]] = view.get("seats", [])
    if viewer is None or not 0 <= int(viewer) < len(seats):
        return None
    me = seats[int(viewer)]
    text = Text(f"You ({seat_name(names, int(viewer))}): ", style="bold")
    text.append(f"{me.get('vp', 0)} VP; resources: {resources_text(me.get('resources', []))}")
    tracks = []
    for track, position in zip(TRACKS, me.get("positions", []), strict=False):
        name = space_info(track, int(position))[0]
        tracks.append(f"{track} {position}" + (f" ({name})" if name else ""))
    text.append(f"\n  tracks: {', '.join(tracks)}")
    text.append(f"\n  hand: {_names('tapestry', me.get('hand') or [])}")
    for line in own_notes(me):
        text.append(f"\n  {line}")
    mats = civ_mats(me)
    if mats:
        text.append(f"\n  civilization mat: {mats}")
    offer = me.get("civ_offer")
    if offer:
        text.append(f"\n  civilizations dealt: {_names('civilization', offer)}")
    if int(me.get("capital", -1)) < 0 and me.get("capital_offer"):
        text.append(f"\n  capitals dealt: {_names('capital', me['capital_offer'])}")
    return text


def render_tapestry_view(
    view_message: pb.GameView, names: Sequence[str], summary: pb.GameSummary | None = None
) -> RenderableType:
    """A seat's (or a spectator's) Tapestry view: header, your seat, seats, cards, capitals,
    the map's held hexes and the pending decision (or the final scores)."""
    view = view_data(view_message)
    parts: list[RenderableType] = [_header(view, names, summary)]
    you = _you(view, names)
    if you is not None:
        parts.append(you)
    parts += [_seats_table(view, names), _cards_table(view, names)]
    capitals = [_capital(seat, names) for seat in view.get("seats", [])]
    parts += [Columns(capitals, padding=(0, 4)), hex_map(view), _map(view, names)]
    bots = render_bots(view)  # solo: the Automa and the Shadow Empire
    if bots is not None:
        parts.append(bots)
    parts.append(_decision(view, names))
    return Group(*parts)
