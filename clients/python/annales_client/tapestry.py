"""Reading Tapestry views and actions: content names, benefit text, and a greedy heuristic.

Everything here works on the *plain data* of the API messages (:func:`~annales_client.games.
view_data`, :func:`~annales_client.games.action_data`), plus the public content files of the
game (:mod:`domain.tapestry.content`: names of cards, tracks and benefits — nothing secret).

* :func:`content_name` — ``"Bakery (#5)"`` for a tech card id, and so on;
* :func:`benefit_text` — a benefit expression (``TapestryFrame.expr`` / ``options``, JSON) as
  short English: ``"research"``, ``"a house + 2 VP"``;
* :func:`tapestry_value` — the immediate gain the API greedy bot expects from a listed action,
  read from the seat's view (see :class:`~annales_client.bots.GreedyApiBot`).

>>> benefit_text('{"kind":"gain","token":"gain_house","count":1}')
'a house'
>>> benefit_text({"kind": "all", "items": [{"kind": "gain", "token": "vp", "count": 3},
...     {"kind": "gain", "token": "gain_coin", "count": 2}]})
'3 VP + 2 coins'
>>> content_name("tech", 5)
'Bakery (#5)'
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from domain.tapestry import content as C

__all__ = [
    "BUILDINGS",
    "RESOURCES",
    "TRACKS",
    "benefit_text",
    "benefit_value",
    "conquer_die",
    "content_name",
    "hex_name",
    "landmark_plots",
    "load_benefit",
    "space_info",
    "tapestry_value",
]

TRACKS: tuple[str, ...] = C.TRACKS
RESOURCES: tuple[str, ...] = tuple(C.RESOURCES)
#: income buildings in income-mat order, and how many each track starts with.
BUILDINGS: tuple[str, ...] = tuple(t.building for t in C.INCOME_TRACKS)
START_BUILDINGS: tuple[int, ...] = tuple(t.start_buildings for t in C.INCOME_TRACKS)
#: capital-grid letters of the income buildings.
BUILDING_LETTER = {"market": "M", "house": "H", "farm": "F", "armory": "A"}

_NAMED: dict[str, Mapping[int, Any]] = {
    "tapestry": C.TAPESTRY_CARDS,
    "tech": C.TECH_CARDS,
    "civilization": C.CIVILIZATIONS,
    "capital": C.CAPITALS,
    "landmark": C.LANDMARKS,
    "achievement": C.ACHIEVEMENTS,
}


def content_name(kind: str, ident: int) -> str:
    """``"Name (#id)"`` of a content id of ``kind`` (tapestry, tech, civilization, capital,
    landmark, achievement, territory, space); ``#id`` alone when it has no name.

    >>> content_name("tapestry", 0), content_name("civilization", 5)
    ('face-down card', 'Futurists (#5)')
    """
    if kind == "tapestry" and ident == 0:
        return "face-down card"
    record = _NAMED.get(kind, {}).get(ident)
    name = getattr(record, "name", "") if record is not None else ""
    return f"{name} (#{ident})" if name else f"{kind} #{ident}"


def hex_name(players: int, index: int) -> str:
    """``(q,r)`` of hex ``index`` of the board used by ``players`` seats (board order, as in
    ``TapestryView.hexes``); ``hex #index`` when unknown.

    >>> hex_name(3, 0), hex_name(3, 999)
    ('(-3,-3)', 'hex #999')
    """
    try:
        cell = C.board_for(players).hexes[index]
    except (IndexError, KeyError, ValueError, C.ContentError):
        return f"hex #{index}"
    return f"({cell.q},{cell.r})"


def landmark_plots(landmark: int, row: int, col: int, orientation: int) -> list[tuple[int, int]]:
    """The capital plots ``(row, col)`` a landmark covers when anchored at ``(row, col)`` in
    ``orientation`` (cells off the 9 x 9 grid left out: buildings may overhang it).

    >>> landmark_plots(9, -1, -1, 0)
    [(0, 0)]
    """
    record = C.LANDMARKS.get(landmark)
    if record is None or not 0 <= orientation < len(record.orientations):
        return []
    cells = [(row + r, col + c) for r, c in record.orientations[orientation]]
    return [(r, c) for r, c in cells if 0 <= r < 9 and 0 <= c < 9]


def load_benefit(expr: str | Mapping[str, Any] | None) -> dict[str, Any]:
    """A benefit expression as plain data (``{}`` for an empty or unreadable one)."""
    if not expr:
        return {}
    if isinstance(expr, str):
        try:
            loaded = json.loads(expr)
        except ValueError:
            return {"kind": "gain", "token": expr, "count": 1}
        return loaded if isinstance(loaded, dict) else {}
    return dict(expr)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("s" if count != 1 and not word.endswith("d") else "")


#: things gained one by one ("a house", "2 territory tiles").
_COUNTED = (*BUILDINGS, "tapestry_card", "territory_tile", "space_tile", "random_civilization")


#: the engine's internal tokens (choices it offers itself).
_INTERNAL = {"_nothing": "nothing", "_refresh_tech": "refresh the tech display"}


def _gain_text(token: str, count: int) -> str:
    if token == "vp":
        return f"{count} VP"
    if token in _INTERNAL:
        return _INTERNAL[token]
    if token.startswith("_landmark_") and token.removeprefix("_landmark_").isdigit():
        return "the landmark " + content_name("landmark", int(token.removeprefix("_landmark_")))
    thing = token.removeprefix("gain_")
    if thing in RESOURCES:
        return _plural(count, thing)
    if token.startswith("gain_") and thing in _COUNTED:
        words = thing.replace("_", " ")
        article = "an" if words[0] in "aeiou" else "a"
        return f"{article} {words}" if count == 1 else f"{count} {words}s"
    if token.startswith("gain_landmark_"):
        return "the " + token.removeprefix("gain_landmark_").replace("_", " ") + " landmark"
    if thing == "any_resource":
        return "a resource of your choice" if count == 1 else f"{count} resources of your choice"
    words = thing.replace("_", " ")
    return words if count == 1 else f"{count}× {words}"


def benefit_text(expr: str | Mapping[str, Any] | None) -> str:
    """A benefit expression (JSON text or data) as short English (``"-"`` when empty)."""
    data = load_benefit(expr)
    kind = data.get("kind")
    if kind == "gain":
        return _gain_text(str(data.get("token", "")), int(data.get("count", 1)))
    items = [benefit_text(item) for item in data.get("items", [])]
    if kind == "all":
        return " + ".join(items) or "nothing"
    if kind == "any_order":
        return " + ".join(items) + " (any order)"
    if kind == "one_of":
        return " or ".join(items)
    if kind == "pay":
        cost = ", ".join(str(unit).replace("_", " ") for unit in data.get("pay", []))
        return f"pay {cost} for {benefit_text(data.get('gain'))}"
    return "-"


def space_info(track: str, space: int) -> tuple[str, str, tuple[str, ...]]:
    """Name, benefit text and cost units of space ``space`` (1-12) of ``track``.

    >>> space_info("science", 5)
    ('Chemistry', 'research', ('worker', 'any_resource'))
    """
    if not 1 <= space <= 12 or track not in TRACKS:
        return "", "", ()
    found = C.space(track, space)
    return found.name, benefit_text(msgspec.to_builtins(found.benefit)), tuple(found.cost)


def conquer_die(colour: str, face: int) -> dict[str, Any]:
    """The benefit (plain data) on face ``face`` of the ``"red"`` or ``"black"`` conquer die.

    >>> benefit_text(conquer_die("red", 0))
    '5 VP'
    """
    faces = C.RED_DIE if colour == "red" else C.BLACK_DIE
    found: dict[str, Any] = msgspec.to_builtins(faces[face]) if 0 <= face < len(faces) else {}
    return found


# -- the greedy heuristic --------------------------------------------------------------------
_TOKEN_VALUE = {
    "gain_any_resource": 1.2,
    "gain_any_income_building": 2.5,
    "gain_any_available_landmark": 4.0,
    "gain_tapestry_card": 1.5,
    "gain_territory_tile": 1.0,
    "gain_space_tile": 1.0,
    "invent": 2.0,
    "upgrade_tech": 2.0,
    "explore": 2.5,
    "explore_anywhere": 2.5,
    "explore_space": 2.0,
    "conquer": 2.5,
    "conquer_anywhere": 2.5,
    "conquer_both_dice": 3.5,
    "conquer_both_dice_if_opponent": 3.0,
    "research": 1.5,
}


def _my_seat(view: Mapping[str, Any], seat: int) -> dict[str, Any]:
    seats: Sequence[dict[str, Any]] = view.get("seats", [])
    return seats[seat] if 0 <= seat < len(seats) else {}


def _controlled(view: Mapping[str, Any], seat: int) -> int:
    """Hexes where ``seat`` has a standing outpost."""
    return sum(
        1
        for cell in view.get("hexes", [])
        if any(o.get("seat") == seat and not o.get("toppled") for o in cell.get("outposts", []))
    )


def _token_value(token: str, view: Mapping[str, Any], seat: int) -> float:
    me = _my_seat(view, seat)
    grid = "".join(me.get("capital_grid", []))
    positions: list[int] = list(me.get("positions", [0, 0, 0, 0]))
    if token.removeprefix("gain_") in RESOURCES:
        return 1.0
    if token.removeprefix("gain_") in BUILDINGS:
        return 2.5
    if token.startswith("gain_landmark_"):
        return 4.0
    if token.startswith("vp_per_") and token.endswith("_space"):
        track = token.removeprefix("vp_per_").removesuffix("_space")
        return float(positions[TRACKS.index(track)]) if track in TRACKS else 2.0
    building = token.removeprefix("vp_per_")
    if building in BUILDINGS:
        return float(grid.count(BUILDING_LETTER[building]))
    computed = {
        "vp_per_controlled_territory": lambda: float(_controlled(view, seat)),
        "vp_per_tech_card": lambda: float(len(me.get("tech", []))),
        "vp_3_per_landmark": lambda: 3.0 * len(me.get("landmarks", [])),
        "vp_per_territory_tile_in_supply": lambda: float(len(me.get("territory", []))),
        "vp_per_tapestry_card": lambda: float(me.get("hand_size", 0) + len(me.get("mat", []))),
    }
    if token in computed:
        return computed[token]()
    if token.startswith("advance_"):
        return 1.0 if "no_benefit" in token else 2.0
    if token.startswith("research"):
        return 1.0 if "no_benefit" in token else 1.5
    return _TOKEN_VALUE.get(token, 1.0)


def benefit_value(
    expr: str | Mapping[str, Any] | None, view: Mapping[str, Any], seat: int
) -> float:
    """The heuristic worth of a benefit expression for ``seat`` (1 VP = 1; see the table)."""
    data = load_benefit(expr)
    kind = data.get("kind")
    if kind == "gain":
        token, count = str(data.get("token", "")), int(data.get("count", 1))
        return float(count) if token == "vp" else count * _token_value(token, view, seat)
    values = [benefit_value(item, view, seat) for item in data.get("items", [])]
    if kind in ("all", "any_order"):
        return sum(values)
    if kind == "one_of":
        return max(values, default=0.0)
    if kind == "pay":
        return max(0.0, benefit_value(data.get("gain"), view, seat) - len(data.get("pay", [])))
    return 0.0


def _advance_value(command: Mapping[str, Any], view: Mapping[str, Any], seat: int) -> float:
    me = _my_seat(view, seat)
    track = str(command.get("track", ""))
    if track not in TRACKS:
        return 0.0
    index = TRACKS.index(track)
    token = int(command.get("token", -1))
    tracks: list[list[int]] = list(me.get("tracks") or [[]] * len(TRACKS))
    tokens = list(tracks[index]) if index < len(tracks) else []
    positions: list[int] = list(me.get("positions", [0] * len(TRACKS)))
    position = tokens[token] if 0 <= token < len(tokens) else positions[index]
    if position >= 12:
        return 0.5
    found = C.space(track, position + 1)
    value = 1.0 + benefit_value(msgspec.to_builtins(found.benefit), view, seat)
    if found.landmark is not None and str(found.landmark) not in view.get("landmark_owner", {}):
        value += 4.0
    return value - 0.3 * len(found.cost)


def _build_value(command: Mapping[str, Any], view: Mapping[str, Any], seat: int) -> float:
    """Plots already filled in the target's row, column and district (completing them
    scores at income turns)."""
    grid: list[str] = list(_my_seat(view, seat).get("capital_grid", []))
    row, col = int(command.get("row", -99)), int(command.get("col", -99))
    if not (0 <= row < len(grid) and 0 <= col < len(grid[row])):
        return -1.0
    filled = sum(c != "." for c in grid[row]) + sum(r[col] != "." for r in grid)
    r0, c0 = row - row % 3, col - col % 3
    filled += sum(grid[r][c] != "." for r in range(r0, r0 + 3) for c in range(c0, c0 + 3))
    return filled / 10


def _choose_value(
    index: int, frame: Mapping[str, Any], view: Mapping[str, Any], seat: int
) -> float:
    kind = frame.get("kind", "")
    ints: list[int] = list(frame.get("ints", []))
    options: list[str] = list(frame.get("options", []))
    if kind in ("choose", "order") and 0 <= index < len(options):
        return benefit_value(options[index], view, seat)
    if kind == "research":
        return 1.5 if index == 0 else 0.0
    if kind == "die" and len(ints) == 3:
        face = conquer_die("red", ints[1]) if index == 0 else conquer_die("black", ints[2])
        return benefit_value(face, view, seat)
    if kind == "guilds":
        return 4.0 * index if index > 0 else 6.2 * index
    if kind == "olympic":
        return 9.0
    if kind == "democracy":
        return 0.5
    return 0.0


def tapestry_value(command: Mapping[str, Any], view: Mapping[str, Any], seat: int) -> float:
    """What the greedy API bot expects to gain by sending ``command`` (plain action data).

    A fixed table of immediate gains read from the seat's view and the public content: an
    advance is worth 1 plus the benefit of the space reached (plus 4 for a landmark still
    free, minus 0.3 per cost unit); a benefit choice or a paid bonus the worth of the benefit
    (1 VP = 1, a resource 1, a building 2.5, a landmark 4, explore/conquer 2.5...) minus what is
    paid; a building goes where its row, column and district are fullest; a gained resource
    is the one held least (a lost one, the one held most); income, declines and everything else
    (explore targets, tapestry cards, civilizations) are worth 0 and left to the seeded tie-break.
    """
    kind = command.get("type")
    frame: dict[str, Any] = dict(view.get("frame") or {})
    resources: list[int] = list(_my_seat(view, seat).get("resources", [0, 0, 0, 0]))
    if kind == "Advance":
        return _advance_value(command, view, seat)
    if kind == "TakeIncome":
        return 0.5
    if kind == "Choose":
        return _choose_value(int(command.get("index", 0)), frame, view, seat)
    if kind == "ChooseResource":
        held = (
            resources[RESOURCES.index(command["resource"])]
            if command.get("resource") in RESOURCES
            else 0
        )
        if frame.get("kind") == "mercantilism":
            return 2.0 - held / 10
        lose = bool(frame.get("ints")) and int(frame["ints"][0]) < 0
        return held / 10 if lose else -held / 10
    if kind == "PayBonus":
        paid = len(command.get("payment", [])) + len(command.get("discard", []))
        fixed = sum(1 for unit in frame.get("options", []) if unit in RESOURCES)
        return benefit_value(frame.get("expr"), view, seat) - paid - fixed
    if kind == "PlaceBuilding":
        return _build_value(command, view, seat)
    if kind == "Invent":
        return 1.0 if int(command.get("card", 0)) else 0.8
    if kind == "Upgrade":
        return 1.5
    if kind == "PlayTrap":
        return 2.0
    return 0.0
