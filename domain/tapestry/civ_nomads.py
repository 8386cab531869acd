"""Nomads (Nomades): buildings and landmarks may be put on the map instead of the capital.

Rules (player aid, "CIVILISATIONS / Nomades"; facts folder ``civilizations.json#14``): each
income building or landmark a Nomad gains may go, instead of the capital (:class:`BuildOnMap`
answering the ``build`` decision), on a territory of the board:

* a territory you control holding a single piece (an outpost, a building or a landmark): gain
  1 resource of your choice; the territory now holds 2 pieces, so nobody can conquer it
  ("Conquête");
* an empty territory next to one you control: the building counts as an outpost there — it
  gives you control, and an opponent may conquer the territory and topple it.

Buildings on the map score as if they were in the capital (income buildings owned, landmarks
owned); they fill no plot of the capital, so they complete no district, row or column.

"Bâtiments et monuments" F.À.Q.: a building gained must be used if possible, so a Nomad whose
capital is full puts it on the map when a territory allows it rather than beside the capital.

Rebalancing: none ("RÉÉQUILIBRAGE DES CIVILISATIONS": NOMADES, no change). Gained during the
game: nothing more (the ability applies from then on).

Assumed: "empty" means a territory (a printed hex or an explored tile) with no piece at all;
settling it is no conquest (no dice, no achievement; "Objectifs": the central island needs a
conquest).
"""

from __future__ import annotations

from domain.core import Command
from domain.tapestry import cards  # noqa: F401  (Terraforming wraps "build" first; we wrap it)
from domain.tapestry import events as ev
from domain.tapestry.civs import has_civ
from domain.tapestry.commands import BuildOnMap, PlaceBuilding
from domain.tapestry.engine import DECISIONS, Ctx
from domain.tapestry.gains import OUTSIDE
from domain.tapestry.rules import board_neighbours, controlled
from domain.tapestry.state import Frame, TapestryState

KEY = "nomads"
#: the piece kind of a building on the map (see :class:`~domain.tapestry.state.Outpost`).
PIECE = "building"
_BESIDE = PlaceBuilding(row=OUTSIDE, col=OUTSIDE)


def map_spots(state: TapestryState, seat: int) -> list[int]:
    """Board indices where ``seat`` may put a building, in board order: territories it
    controls holding one piece, and empty territories next to one it controls."""
    mine = set(controlled(state, seat))
    near = board_neighbours(state.board)
    found = []
    for index, cell in enumerate(state.hexes):
        if not cell.explored:
            continue
        joined = index in mine and len(cell.outposts) == 1
        settled = not cell.outposts and any(n in mine for n in near[index] if n >= 0)
        if joined or settled:
            found.append(index)
    return found


_inner_options, _inner_answer = DECISIONS["build"]


def _options(state: TapestryState, top: Frame) -> list[Command]:
    """The capital placements, plus the map for a Nomad (no longer beside the capital then)."""
    found = _inner_options(state, top)
    if not has_civ(state, top.seat, KEY):
        return found
    spots: list[Command] = []
    for index in map_spots(state, top.seat):
        cell = state.hexes[index]
        spots.append(BuildOnMap(q=cell.q, r=cell.r))
    if spots:
        found = [c for c in found if c != _BESIDE]
    return [*found, *spots]


def _answer(ctx: Ctx, top: Frame, command: Command) -> None:
    if not isinstance(command, BuildOnMap):
        _inner_answer(ctx, top, command)
        return
    index = ctx.state.hex_index(command.q, command.r)
    joined = bool(ctx.state.hexes[index].outposts)
    landmark = top.ints[0] if top.token == "landmark" and top.ints else 0
    ctx.emit(
        ev.PiecePlaced(seat=top.seat, hex=index, piece=PIECE, building=top.token, landmark=landmark)
    )
    if joined:
        ctx.push(Frame(kind="resource", seat=top.seat, ints=(1,), source=f"civ:{KEY}"))


DECISIONS["build"] = (_options, _answer)
