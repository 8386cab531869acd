"""Treasure Hunters (Chasseurs de Trésors, Plans & Ploys): hunter tokens claim territories.

Facts: the facts folder's mat (``civilizations.json#38``: four tokens, two territory tiles at
the start, income turns 2-5, one treasure per terrain: desert, grassland, mountain, forest),
the rulebook's "RÉÉQUILIBRAGE DES CIVILISATIONS" (« CHASSEURS DE TRÉSORS [...] Pas de
changement »), "MISE EN PLACE DES JOUEURS" F (civilization setup) and "Règles générales"
(nothing gained after the fifth income turn). Our content:
``content/civilizations_plans_and_ploys.json#38``; readings the sources leave open are records
of ``decisions.json`` (``treasure_hunters_*``).

On income turns 2-5 the seat may put one of its four tokens (decision ``treasure_hunters``:
``Choose(index=slot * 100 + hex)``, or ``Decline``) on an empty territory next to one it
controls and showing the terrain of a treasure not claimed yet; the token holds that territory
(a map piece that controls it, :data:`~domain.tapestry.state.CONTROLLING_PIECES`; no conquest
may target it) and the treasure is gained: a resource, then dice. The treasures' dice:

* desert: the black die thrown twice, one face kept (decision ``treasure_die``: ``Choose``
  0 / 1);
* grassland: the science die thrown twice, one track kept, then a research of it (benefit
  and bonus, as "Recherche");
* mountain: both conquer dice, both faces gained; forest: the red die twice, both gained.

A black die's "?" face gives the claimed territory's tile benefit (a printed territory has
none). Every throw is a recorded, public chance outcome (``DieRolled``, ``ScienceDieRolled``).
A seat with extra options (the Psionics, who may gain this mat) throws each die once more and
keeps one value of each throw (``rules.extra_options``).
"""

from __future__ import annotations

from domain.core import Command
from domain.tapestry import civs, mapping
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.commands import Choose, Decline
from domain.tapestry.engine import DECISIONS, TOKENS, Ctx, expr_frame
from domain.tapestry.rules import board_neighbours, controlled, corners, dump, extra_options
from domain.tapestry.state import Frame, TapestryState
from domain.tapestry.tracks import RESEARCH_FULL, research_result, roll_science

KEY = "treasure_hunters"
BOX = "plans_and_ploys"
#: the terrain of each treasure, in mat order (facts folder ``civilizations.json#38``).
TERRAINS: tuple[str, ...] = ("desert", "grassland", "mountain", "forest")
#: hex indices are below this in the decision's ``slot * 100 + hex`` encoding.
SLOT_BASE = 100
RED, BLACK = 0, 1


def claimed(state: TapestryState, seat: int) -> list[int]:
    """The treasures (slot indices) ``seat`` has claimed, in order."""
    return civs.tokens_of(state, seat, KEY, ())


def terrains_shown(state: TapestryState, index: int) -> set[str]:
    """The terrains a territory shows: its corners, and an island tile's centre."""
    shown = set(corners(state, index))
    tile = state.hexes[index].tile
    if tile >= 0 and C.TERRITORY_TILES[tile].center is not None:
        shown.add(str(C.TERRITORY_TILES[tile].center))
    return shown


def targets(state: TapestryState, seat: int) -> list[tuple[int, int]]:
    """``(slot, hex)``: each unclaimed treasure and each empty territory next to one ``seat``
    controls that shows the treasure's terrain."""
    near = board_neighbours(state.board)
    mine = set(controlled(state, seat))
    free = [slot for slot in range(len(TERRAINS)) if slot not in claimed(state, seat)]
    found: list[tuple[int, int]] = []
    for slot in free:
        for index, cell in enumerate(state.hexes):
            if not cell.explored or cell.outposts:
                continue
            if not any(n in mine for n in near[index] if n >= 0):
                continue
            if TERRAINS[slot] in terrains_shown(state, index):
                found.append((slot, index))
    return found


# -- income turns 2-5 ----------------------------------------------------------------------
def _income(ctx: Ctx, seat: int, era: int) -> None:
    if targets(ctx.state, seat):
        ctx.push(Frame(kind=KEY, seat=seat, source=f"civ:{KEY}"))


def _options(state: TapestryState, top: Frame) -> list[Command]:
    found: list[Command] = [Choose(index=s * SLOT_BASE + h) for s, h in targets(state, top.seat)]
    return [*found, Decline()] if found else []


def _answer(ctx: Ctx, top: Frame, command: Command) -> None:
    if isinstance(command, Decline):
        return
    assert isinstance(command, Choose)
    seat = top.seat
    slot, index = divmod(command.index, SLOT_BASE)
    ctx.emit(ev.PiecePlaced(seat=seat, hex=index, piece=KEY))
    civs.set_tokens(ctx, seat, KEY, [*claimed(ctx.state, seat), slot])
    treasure = C.CIVILIZATIONS[civs.civ_id(KEY)].slots[slot]
    ctx.push(expr_frame(seat, treasure, f"civ:{KEY}:{index}"))


DECISIONS[KEY] = (_options, _answer)


# -- the treasures' dice --------------------------------------------------------------------
def _hex_of(frame: Frame) -> int:
    """The claimed territory named by a treasure frame's source (``civ:<key>:<hex>``)."""
    parts = frame.source.split(":")
    return int(parts[2]) if len(parts) == 3 and parts[2].isdigit() else -1


def _throw(ctx: Ctx, seat: int, die: int, index: int) -> int:
    return mapping.roll_die(ctx, seat, die, index)


def face_frame(seat: int, index: int, die: int, face: int) -> Frame:
    """The frame giving ``seat`` what a conquer die's face shows; the black die's "?" is the
    tile benefit of territory ``index``."""
    benefit = C.RED_DIE[face] if die == RED else C.BLACK_DIE[face]
    if isinstance(benefit, C.Gain) and benefit.token == "gain_conquered_tile_benefit":
        return Frame(kind="tile_benefit", seat=seat, ints=(index,))
    return expr_frame(seat, dump(benefit), f"civ:{KEY}")


def _kept(seat: int, index: int, die: int, faces: list[int]) -> Frame:
    """One throw's face, or the choice among its faces when the die was thrown more than
    once for it (``treasure_die``)."""
    distinct = list(dict.fromkeys(faces))
    if len(distinct) == 1:
        return face_frame(seat, index, die, distinct[0])
    return Frame(kind="treasure_die", seat=seat, ints=(index, die, *distinct))


def _throws(ctx: Ctx, seat: int, die: int, index: int) -> list[int]:
    """One throw kept of ``1 + extra`` (the Psionics throw each die once more)."""
    return [_throw(ctx, seat, die, index) for _ in range(1 + extra_options(ctx.state, seat))]


def _black_twice(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
    index = _hex_of(top)
    extra = extra_options(ctx.state, seat)
    faces = [_throw(ctx, seat, BLACK, index) for _ in range(2 + extra)]
    ctx.push(_kept(seat, index, BLACK, faces))


def _red_twice(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
    index = _hex_of(top)
    groups = [_throws(ctx, seat, RED, index) for _ in range(2)]
    ctx.push(*(_kept(seat, index, RED, faces) for faces in groups))


def _both_dice(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
    index = _hex_of(top)
    reds = _throws(ctx, seat, RED, index)
    blacks = _throws(ctx, seat, BLACK, index)
    ctx.push(_kept(seat, index, RED, reds), _kept(seat, index, BLACK, blacks))


def _science_twice(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
    extra = extra_options(ctx.state, seat)
    rolls = list(dict.fromkeys(roll_science(ctx, seat) for _ in range(2 + extra)))
    if len(rolls) == 1:
        research_result(ctx, seat, RESEARCH_FULL, rolls[0], top.source)
    else:
        ctx.push(Frame(kind="research_pick", seat=seat, ints=(RESEARCH_FULL, *rolls)))


TOKENS["roll_black_die_twice_choose_one"] = _black_twice
TOKENS["roll_red_die_twice_gain_both"] = _red_twice
TOKENS["roll_both_conquer_dice_gain_both"] = _both_dice
TOKENS["roll_science_die_twice_choose_one"] = _science_twice


def _die_options(state: TapestryState, top: Frame) -> list[Command]:
    return [Choose(index=i) for i in range(len(top.ints) - 2)]


def _die_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    index, die, *faces = top.ints
    ctx.push(face_frame(top.seat, index, die, faces[command.index]))


DECISIONS["treasure_die"] = (_die_options, _die_answer)


civs.INCOME[KEY] = _income
civs.BOX_CIVILIZATIONS.setdefault(BOX, []).append(KEY)
civs.BOX_GAINABLE.setdefault(BOX, []).append(KEY)
