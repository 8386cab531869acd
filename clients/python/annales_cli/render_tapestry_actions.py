"""Readable terminal text of a Tapestry action: what a command does, in words (see
``render.describe_action``). Content ids read ``Name (#id)``, hexes ``(q,r)``, tracks by name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from annales_client.tapestry import (
    RESOURCES,
    TRACKS,
    benefit_text,
    conquer_die,
    content_name,
    landmark_plots,
    space_info,
)

from annales_cli.render_common import describe_fields, seat_name
from annales_cli.render_tapestry import (
    _DISCARDS,
    _SHELF,
    SPY_OPTIONS,
    TINKER_OPTIONS,
    TREASURES,
    _hex,
)
from annales_cli.render_tapestry_boxes import box_choose_text
from annales_cli.render_tapestry_pp import choose_text

__all__ = ["describe_tapestry_action"]


def _choose_text(index: int, view: Mapping[str, Any], names: Sequence[str]) -> str:
    frame: Mapping[str, Any] = view.get("frame") or {}
    kind, ints = str(frame.get("kind", "")), list(frame.get("ints", []))
    options = list(frame.get("options", []))
    track = TRACKS[index] if 0 <= index < len(TRACKS) else f"track {index}"
    boxed = box_choose_text(kind, index, ints, str(frame.get("token", "")))
    if boxed is not None:
        return boxed
    if kind in ("choose", "order") and 0 <= index < len(options):
        verb = "take" if kind == "choose" else "take first"
        return f"{verb}: {benefit_text(options[index])}"
    if kind == "research" and len(ints) == 2:
        rolled = TRACKS[ints[1]] if 0 <= ints[1] < len(TRACKS) else "?"
        return f"advance on {rolled} (the rolled track)" if index == 0 else "stay"
    if kind == "research_pick" and len(ints) == 3:
        rolled = ints[1 + index] if index in (0, 1) else -1
        return f"keep the roll: {TRACKS[rolled] if 0 <= rolled < len(TRACKS) else '?'}"
    if kind == "die" and len(ints) == 3:
        colour = "red" if index == 0 else "black"
        face = conquer_die(colour, ints[1] if index == 0 else ints[2])
        return f"keep the {colour} die: {benefit_text(face)}"
    if text := choose_text(kind, index, view, names):  # Plans & Ploys civilizations
        return text
    if kind == "treasure_hunters":
        slot, where = divmod(index, 100)
        terrain = TREASURES[slot] if 0 <= slot < len(TREASURES) else "?"
        return f"claim the {terrain} treasure with a token at {_hex(view, where)}"
    if kind == "spies":
        option, rest = divmod(index, 10_000)
        other, item = divmod(rest, 1_000)
        what = SPY_OPTIONS[option] if 0 <= option < len(SPY_OPTIONS) else "?"
        if option == 2:
            what = f"{TRACKS[item] if 0 <= item < len(TRACKS) else '?'} space"
        elif option == 3:
            what = content_name("tech", item)
        elif option == 1:
            what = f"space tile #{item - 500}" if item >= 500 else f"territory tile #{item}"
        return f"copy {seat_name(names, other)}'s {what}"
    if kind == "tinkerers":
        option, rest = divmod(index, 100)
        where, token = divmod(rest, 10)
        verb = TINKER_OPTIONS[option] if 0 <= option < len(TINKER_OPTIONS) else "?"
        return f"{verb} {TRACKS[where] if 0 <= where < len(TRACKS) else '?'} (token {token})"
    if kind == "utilitarians_move":
        return f"move the token from {content_name('landmark', index)}"
    if kind == "utilitarians_place":
        return f"a token on {content_name('landmark', index)}"
    if kind == "treasure_die" and len(ints) == 4:
        colour = "red" if ints[1] == 0 else "black"
        face = ints[2 + index] if index in (0, 1) else 0
        return f"keep the {colour} die: {benefit_text(conquer_die(colour, face))}"
    if kind in ("track", "card_track") and frame.get("token") != "socialism":
        return f"choose the {track} track"
    if kind == "card_track":
        where, space = divmod(index, 100)
        return f"{TRACKS[where] if 0 <= where < len(TRACKS) else '?'} to space {space}"
    if kind in ("marriage", "trade_economy"):
        other, pick = divmod(index, 10)
        return f"{seat_name(names, other)}, {TRACKS[pick] if pick < len(TRACKS) else '?'} track"
    if kind == "alliance":
        return f"ally with {seat_name(names, index)}"
    if kind == "sail_give":
        other, tile = divmod(index, 100)
        return f"give territory tile #{tile} to {seat_name(names, other)} (3 VP)"
    if kind in ("democracy", "espionage"):
        verb = "discard" if kind == "democracy" else "copy"
        return f"{verb} {content_name('tapestry', index)}"
    if kind == "colonialism":
        return f"the tile at {_hex(view, index)}"
    if kind == "guilds":
        k = abs(index)
        return (
            f"pay {k} resource(s) for {5 * k} VP"
            if index > 0
            else f"pay {5 * k} VP for {k} resource(s)"
        )
    if kind == "collectors" and ints:
        label, what = _SHELF[ints[0]] if 0 <= ints[0] < len(_SHELF) else ("?", "")
        shown = content_name(what, index) if what else f"#{index}"
        return f"put the {label} {shown} on the Collectors mat"
    if kind == "build" and index >= 200:
        return "park the landmark on the Urban Planners mat (build it on a later turn)"
    if kind in ("build", "conquer") and index >= 100:
        label = _SHELF[index - 100][0] if index - 100 < len(_SHELF) else "?"
        return f"put the {label} on the Collectors mat for its reward"
    if kind == "turn" and _card_turns(view, frame):  # the Merfolk after their 5th income
        return f"discard {content_name('tapestry', index)} for 5 VP"
    if kind == "turn":
        return f"first build the parked landmark {content_name('landmark', index)}"
    if kind == "olympic":
        return "pay a worker for 10 VP"
    if kind == "exploitation":
        return "keep the exploration VP" if index == 0 else "give them back for the tile's benefit"
    return f"choose option {index}" + (f" ({frame.get('token')})" if frame.get("token") else "")


def _card_turns(view: Mapping[str, Any], frame: Mapping[str, Any]) -> bool:
    """Whether the frame's seat plays tapestry-card turns after its fifth income turn (its
    ``_plays_on`` mat token: 2, the Merfolk), where a ``Choose`` on its turn is a card."""
    seats: Sequence[Mapping[str, Any]] = view.get("seats", [])
    seat = frame.get("seat", -1)
    if not isinstance(seat, int) or not 0 <= seat < len(seats):
        return False
    tokens = seats[seat].get("civ_tokens", {}).get("_plays_on")
    values = tokens.get("values", []) if isinstance(tokens, Mapping) else tokens or []
    return list(values)[:1] == [2]


def _advance_text(data: Mapping[str, Any], view: Mapping[str, Any] | None) -> str:
    track = str(data.get("track", "?"))
    text = f"advance on {track}"
    seats: Sequence[Mapping[str, Any]] = (view or {}).get("seats", [])
    viewer = (view or {}).get("viewer")
    if viewer is not None and 0 <= int(viewer) < len(seats) and track in TRACKS:
        me = seats[int(viewer)]
        index, token = TRACKS.index(track), int(data.get("token", -1))
        tokens = list((me.get("tracks") or [[]] * len(TRACKS))[index])
        position = tokens[token] if 0 <= token < len(tokens) else me["positions"][index]
        name, benefit, cost = space_info(track, int(position) + 1)
        if name:
            text += f" to space {int(position) + 1} ({name}: {benefit})"
        fixed = [unit for unit in cost if unit in RESOURCES]
        paid = fixed + list(data.get("payment", []))
        text += f", paying {', '.join(paid) or 'nothing'}"
    elif data.get("payment"):
        text += f", paying {', '.join(data['payment'])}"
    if int(data.get("token", -1)) >= 0:
        text += f" (token {data['token']})"
    return text


def describe_tapestry_action(
    data: Mapping[str, Any], view: Mapping[str, Any] | None = None, names: Sequence[str] = ()
) -> str:
    """A short human description of a Tapestry action's plain data (``view``: the seat's view
    data, for the options of the decision it answers; ``names``: seat names).

    >>> describe_tapestry_action({"type": "PlayTapestry", "card": 7})
    'play tapestry card Broker of Peace (#7)'
    >>> describe_tapestry_action({"type": "Explore", "q": -2, "r": 0, "tile": 4, "rotation": 3})
    'explore (-2,0) with territory tile #4, turned 3/6'
    """
    view = view or {}
    frame: Mapping[str, Any] = view.get("frame") or {}
    kind = data.get("type")
    if kind == "ChooseCivilization":
        return f"keep civilization {content_name('civilization', int(data['civilization']))}"
    if kind == "ChooseCapital":
        return f"keep capital {content_name('capital', int(data['capital']))}"
    if kind == "TakeIncome":
        return "take an income turn (start a new era)"
    if kind == "Advance":
        return _advance_text(data, view)
    if kind == "Choose":
        return _choose_text(int(data.get("index", 0)), view, names)
    if kind == "ChooseResource":
        ints = list(frame.get("ints", []))
        if frame.get("kind") == "mercantilism":
            return f"convert a food into 1 {data['resource']} (2 VP)"
        verb = "lose" if ints and int(ints[0]) < 0 else "take"
        return f"{verb} 1 {data['resource']}"
    if kind == "PayBonus":
        units = list(frame.get("options", []))
        given = next((_DISCARDS[u] for u in units if u in _DISCARDS), "tapestry")
        paid = [unit for unit in units if unit in RESOURCES] + list(data.get("payment", []))
        discards = [content_name(given, int(d)) for d in data.get("discard", [])]
        price = [f"pay {', '.join(paid)}"] if paid else []
        price += [f"discard {', '.join(discards)}"] if discards else []
        gain = benefit_text(frame.get("expr")) if frame.get("expr") else "the bonus"
        return f"{' and '.join(price) or 'take'} for {gain}"
    if kind == "Decline":
        what = {"bonus": "the bonus", "upgrade": "the upgrade", "trap": "to play a Trap"}
        return "decline " + what.get(str(frame.get("kind", "")), "(stop)")
    if kind == "PlaceBuilding":
        return _building_text(data, frame)
    if kind == "Explore":
        return (
            f"explore ({data.get('q')},{data.get('r')}) with territory tile #{data.get('tile')}, "
            f"turned {data.get('rotation', 0)}/6"
        )
    if kind == "ExploreSpace":
        return f"explore space tile #{data.get('tile')}"
    if kind == "Conquer":
        return f"conquer ({data.get('q')},{data.get('r')})" + _held_by(data, view, names)
    if kind == "PlayTrap":
        return "play a Trap card"
    if kind == "Invent":
        card = int(data.get("card", 0))
        return f"invent {content_name('tech', card)}" if card else "invent the top tech card"
    if kind == "Upgrade":
        return f"upgrade tech {content_name('tech', int(data['card']))}"
    if kind == "ChooseTech":
        return f"choose tech {content_name('tech', int(data['card']))}"
    if kind == "PlayTapestry":
        return f"play tapestry card {content_name('tapestry', int(data['card']))}"
    return describe_fields(data)


def _building_text(data: Mapping[str, Any], frame: Mapping[str, Any]) -> str:
    """Where a building goes: ``row r, col c`` (rows and columns 0-8, top left first); a
    landmark lists the plots it covers (it may overhang the grid)."""
    building = str(frame.get("token") or "building")
    row, col = int(data.get("row", 0)), int(data.get("col", 0))
    ints = list(frame.get("ints", []))
    if building == "landmark" and ints:
        building = f"landmark {content_name('landmark', int(ints[0]))}"
    if row == -99:
        return f"set the {building} beside the capital"
    if frame.get("token") == "landmark" and ints:
        plots = landmark_plots(int(ints[0]), row, col, int(data.get("orientation", 0)))
        where = ", ".join(f"r{r}c{c}" for r, c in plots)
        return f"place the {building} covering {where}"
    return f"place the {building} at row {row}, col {col}"


def _held_by(data: Mapping[str, Any], view: Mapping[str, Any], names: Sequence[str]) -> str:
    for cell in view.get("hexes", []):
        if cell.get("q") == data.get("q") and cell.get("r") == data.get("r"):
            owners = sorted({int(o.get("seat", 0)) for o in cell.get("outposts", [])})
            if owners:
                return " (held by " + ", ".join(seat_name(names, s) for s in owners) + ")"
    return ""
