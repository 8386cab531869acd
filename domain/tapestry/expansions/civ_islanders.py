"""Islanders (Insulaires, Plans & Ploys): an island of seven hexes on the civilization mat.

Facts: the facts folder's record (``civilizations.json#33``: « Start with 4 territory tiles.
Income turns 2-5: you may explore one hex of the mat's 7-hex island (normal VP and benefit);
normal explores may target it too. Final income: 4 VP per mat tile with all-water outer
edges. », mid-game « May discard and draw another; if kept, place up to 4 territory tiles on
the island without benefits. ») and its mat (``map.json#islanders_mat``, our
``content/islanders_mat.json``), the rulebook's "RÉÉQUILIBRAGE DES CIVILISATIONS"
(« [...] INSULAIRES [...] Pas de changement »), "Exploration" (1 VP per side lined up, then the
tile's benefit). Our content: ``content/civilizations_plans_and_ploys.json#33``; readings the
sources leave open are records of ``decisions.json`` (``islanders_*``).

The mat's hexes: 0 the printed centre, 1-6 the hexes around it (the content's order). A tile
explored there (``IslandTileExplored``) leaves the supply for the mat; the mat's counters
(``civ_tokens["islanders"]``) hold ``tile, rotation`` for hexes 1-6 (``0, 0``: empty).

* Setup: four territory tiles.
* Income turns 2-5: one mat hex may be explored (decision :data:`KEY`:
  ``Choose(index=hex * HEX + tile * TILE + rotation)`` or ``Decline``), with the exploration's
  VP (sides lined up with the centre's printed terrains and the tiles beside) and the tile's
  benefit. Every ordinary exploration may target the mat the same way (``Choose`` beside the
  ``Explore`` options).
* Income turn 5 (the final income), after that: 4 VP per mat tile whose outer edge (the mat's
  edge facing the sea) shows sea at both ends.
* Gained during the game: keep it (then up to four tiles of the supply go onto the mat with
  no VP and no benefit, decision :data:`PLACE`) or give it back and gain another civilization
  (decision :data:`GAINED`; ``CivilizationReturned``).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import msgspec

from domain.core import Command
from domain.core.provenance import Sourced
from domain.tapestry import civs, hexmap
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.commands import Choose, Decline
from domain.tapestry.engine import AUTO, DECISIONS, Ctx, expr_frame
from domain.tapestry.gains import score
from domain.tapestry.mapping import tile_rotations
from domain.tapestry.rules import gain
from domain.tapestry.state import Frame, TapestryState

KEY = "islanders"
BOX = "plans_and_ploys"
#: decision kinds: a civilization gained during the game kept or given back; the tiles placed
#: then.
GAINED, PLACE = "islanders_gained", "islanders_place"
#: ``Choose`` codes: ``hex * HEX + tile * TILE + rotation``.
HEX, TILE = 10000, 10
#: VP per mat tile with sea on its outer edge at the final income; tiles placed when gained.
SEA_VP, GAINED_TILES = 4, 4


class IslandHex(msgspec.Struct, frozen=True, kw_only=True):
    """A hex around the mat's centre: axial ``(q, r)`` from the centre, and its edge facing the
    sea around the mat."""

    q: int
    r: int
    outer_edge: int


class Island(Sourced, frozen=True, kw_only=True):
    """The island on the Islanders' mat: the centre's 12 terrain samples (2 per edge,
    clockwise from the top edge's left half) and the six hexes around it."""

    centre: tuple[str, ...]
    hexes: tuple[IslandHex, ...]


class _IslandFile(msgspec.Struct, frozen=True):
    island: Island


#: the mat's island (``content/islanders_mat.json``).
ISLAND: Island = msgspec.json.decode(
    (Path(C.__file__).parent / "content" / "islanders_mat.json").read_bytes(), type=_IslandFile
).island


def placed(state: TapestryState, seat: int) -> list[tuple[int, int]]:
    """``(tile, rotation)`` on mat hexes 1-6 of ``seat`` (tile 0: empty)."""
    values = civs.tokens_of(state, seat, KEY, (0,) * (2 * len(ISLAND.hexes)))
    return [(values[2 * i], values[2 * i + 1]) for i in range(len(ISLAND.hexes))]


def empty_hexes(state: TapestryState, seat: int) -> list[int]:
    """Mat hexes (1-6) with no tile yet."""
    return [i + 1 for i, (tile, _) in enumerate(placed(state, seat)) if tile == 0]


@lru_cache(maxsize=1)
def _positions() -> dict[tuple[int, int], int]:
    return {(h.q, h.r): i + 1 for i, h in enumerate(ISLAND.hexes)}


def mat_vp(state: TapestryState, seat: int, hex_: int, tile: int, rotation: int) -> int:
    """VP for exploring ``tile`` turned ``rotation`` on mat hex ``hex_`` ("Exploration": a
    side counts when a terrain lines up with the centre's samples or a tile beside)."""
    where = ISLAND.hexes[hex_ - 1]
    corners = hexmap.rotate(C.TERRITORY_TILES[tile].corners, rotation)
    tiles = placed(state, seat)
    others: list[tuple[str, ...]] = []
    for direction, near in enumerate(hexmap.neighbours((where.q, where.r))):
        if near == (0, 0):  # the centre: its edge facing us is edge d = direction + 3
            d = hexmap.opposite(direction)
            centre = ["", "", "", "", "", ""]
            centre[d] = ISLAND.centre[2 * d]
            centre[(d + 1) % 6] = ISLAND.centre[2 * d + 1]
            others.append(tuple(centre))
            continue
        index = _positions().get(near, 0)
        other, turned = tiles[index - 1] if index else (0, 0)
        others.append(hexmap.rotate(C.TERRITORY_TILES[other].corners, turned) if other else ())
    return hexmap.exploration_vp(corners, others)


def mat_choices(state: TapestryState, seat: int, only: int = 0) -> list[Command]:
    """Every ``Choose`` putting a tile of the supply (``only``: that tile) on an empty mat
    hex."""
    tiles = sorted(set(state.seats[seat].territory))
    if only:
        tiles = [t for t in tiles if t == only]
    return [
        Choose(index=hex_ * HEX + tile * TILE + rotation)
        for hex_ in empty_hexes(state, seat)
        for tile in tiles
        for rotation in tile_rotations(tile)
    ]


def explore_mat(ctx: Ctx, seat: int, code: int, benefits: bool) -> None:
    """Put the tile of ``code`` on the mat; with ``benefits`` score it and gain its benefit."""
    hex_, rest = divmod(code, HEX)
    tile, rotation = divmod(rest, TILE)
    vp = mat_vp(ctx.state, seat, hex_, tile, rotation) if benefits else 0
    ctx.emit(ev.IslandTileExplored(seat=seat, hex=hex_, tile=tile, rotation=rotation))
    score(ctx, seat, vp, "exploration")
    benefit = C.TERRITORY_TILES[tile].benefit
    if benefits and benefit is not None:
        ctx.push(expr_frame(seat, benefit, f"tile:{tile}"))


# -- income turns 2-5 ----------------------------------------------------------------------
def _income(ctx: Ctx, seat: int, era: int) -> None:
    frames: list[Frame] = []
    if 2 <= era <= 5 and mat_choices(ctx.state, seat):
        frames.append(Frame(kind=KEY, seat=seat, source=f"civ:{KEY}"))
    if era == 5:
        frames.append(Frame(kind="islanders_score", seat=seat, source=f"civ:{KEY}"))
    ctx.push(*frames)


def _options(state: TapestryState, top: Frame) -> list[Command]:
    found = mat_choices(state, top.seat)
    return [*found, Decline()] if found else []


def _answer(ctx: Ctx, top: Frame, command: Command) -> None:
    if isinstance(command, Choose):
        explore_mat(ctx, top.seat, command.index, True)


DECISIONS[KEY] = (_options, _answer)


def sea_tiles(state: TapestryState, seat: int) -> int:
    """Mat tiles whose outer edge shows sea at both its corners."""
    count = 0
    for (tile, rotation), where in zip(placed(state, seat), ISLAND.hexes, strict=True):
        if tile:
            corners = hexmap.rotate(C.TERRITORY_TILES[tile].corners, rotation)
            edge = where.outer_edge
            count += corners[edge] == "sea" and corners[(edge + 1) % 6] == "sea"
    return count


def _final(ctx: Ctx, top: Frame) -> None:
    score(ctx, top.seat, SEA_VP * sea_tiles(ctx.state, top.seat), f"civ:{KEY}")


AUTO["islanders_score"] = _final


# -- ordinary explorations may target the mat ----------------------------------------------------
_explore_options, _explore_answer = DECISIONS["explore"]


def _explore_with_mat(state: TapestryState, top: Frame) -> list[Command]:
    found = _explore_options(state, top)
    if not civs.has_civ(state, top.seat, KEY):
        return found
    only = top.ints[1] if len(top.ints) > 1 else 0
    return [*found, *mat_choices(state, top.seat, only)]


def _explore_answer_mat(ctx: Ctx, top: Frame, command: Command) -> None:
    if isinstance(command, Choose) and civs.has_civ(ctx.state, top.seat, KEY):
        explore_mat(ctx, top.seat, command.index, True)
        return
    _explore_answer(ctx, top, command)


DECISIONS["explore"] = (_explore_with_mat, _explore_answer_mat)


# -- gained during the game ----------------------------------------------------------------------
def _gained(ctx: Ctx, seat: int) -> None:
    ctx.push(Frame(kind=GAINED, seat=seat, source=f"civ:{KEY}"))


def _gained_options(state: TapestryState, top: Frame) -> list[Command]:
    return [Choose(index=0), Choose(index=1)]


def _gained_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    seat = top.seat
    if command.index == 1:  # « May discard and draw another »
        ctx.emit(ev.CivilizationReturned(seat=seat, civilization=civs.civ_id(KEY)))
        ctx.push(expr_frame(seat, gain("gain_random_civilization"), f"civ:{KEY}"))
        return
    ctx.push(Frame(kind=PLACE, seat=seat, ints=(GAINED_TILES,), source=f"civ:{KEY}"))


DECISIONS[GAINED] = (_gained_options, _gained_answer)


def _place_options(state: TapestryState, top: Frame) -> list[Command]:
    found = mat_choices(state, top.seat)
    return [*found, Decline()] if found else []


def _place_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    if isinstance(command, Decline):
        return
    assert isinstance(command, Choose)
    explore_mat(ctx, top.seat, command.index, False)
    if top.ints[0] > 1:
        ctx.push(Frame(kind=PLACE, seat=top.seat, ints=(top.ints[0] - 1,), source=top.source))


DECISIONS[PLACE] = (_place_options, _place_answer)

civs.ON_GAIN[KEY] = _gained
civs.INCOME[KEY] = _income
civs.BOX_CIVILIZATIONS.setdefault(BOX, []).append(KEY)
civs.BOX_GAINABLE.setdefault(BOX, []).append(KEY)
