"""Craftsmen (Artisans): income buildings may go on the mat's columns for their benefits.

Rules (player aid, "CIVILISATIONS / Artisans"; facts folder ``civilizations.json#3``): when
you gain an income building you may put it on the mat instead of your capital, on the lowest
empty space of one of its three columns, and gain the benefit it covers. Buildings on the mat
are part of your capital for every benefit (they were taken off the income mat, so income,
"VP per building" and the like count them) except rows and columns when the capital is
scored (they are not in the grid).

The mat (``content`` slots, bottom to top): column 1 worker, territory tile, 5 VP; column 2
coin, invent, upgrade, 10 VP; column 3 food, tapestry card, culture, research, 15 VP
(:data:`COLUMNS`, from the facts folder's ``column`` / ``height_from_bottom``).

The building decision (``build``) of a Craftsman gaining an income building also offers
``Choose(index=column)`` (0..2) for each column with an empty space. "Placing it beside the
capital" stays reserved to a building that fits nowhere: with a free mat space it must go
somewhere (F.À.Q. "BÂTIMENTS ET MONUMENTS": a gained building must be used if it can be).

Rebalancing: none ("RÉÉQUILIBRAGE DES CIVILISATIONS": ARTISANS under "Pas de changement",
which wins over the player aid's "one resource less", RULEBOOK_CROSSCHECK C2). Gained during
the game: no special rule; the mat is used from then on.

Mat state (``civ_tokens["craftsmen"]``): 12 values, one per slot, 0 when empty, else the
building there as ``BUILDINGS.index(building) + 1``.
"""

from __future__ import annotations

from domain.core import Command
from domain.tapestry import cards  # noqa: F401  (Terraforming wraps ``build`` first)
from domain.tapestry import content as C
from domain.tapestry.civs import civ_id, has_civ, set_tokens, tokens_of
from domain.tapestry.commands import Choose, PlaceBuilding
from domain.tapestry.engine import DECISIONS, Ctx, expr_frame
from domain.tapestry.gains import OUTSIDE
from domain.tapestry.state import BUILDINGS, Frame, TapestryState

KEY = "craftsmen"
#: the mat's slots (indices of the content's ``slots``) per column, bottom to top.
COLUMNS: tuple[tuple[int, ...], ...] = ((0, 1, 2), (3, 4, 5, 6), (7, 8, 9, 10, 11))
EMPTY_MAT: tuple[int, ...] = (0,) * 12


def mat(state: TapestryState, seat: int) -> list[int]:
    """The Craftsmen mat of ``seat``: per slot, 0 or the building's index + 1."""
    return tokens_of(state, seat, KEY, EMPTY_MAT)


def open_columns(state: TapestryState, seat: int) -> list[int]:
    """Columns (0..2) with an empty space left."""
    slots = mat(state, seat)
    return [i for i, column in enumerate(COLUMNS) if any(slots[s] == 0 for s in column)]


_build_options, _build_answer = DECISIONS["build"]


def _options(state: TapestryState, top: Frame) -> list[Command]:
    """The capital placements, and the mat's open columns for an income building."""
    found = _build_options(state, top)
    if top.token not in BUILDINGS or not has_civ(state, top.seat, KEY):
        return found
    columns = open_columns(state, top.seat)
    if not columns:
        return found
    inside = [c for c in found if not (isinstance(c, PlaceBuilding) and c.row == OUTSIDE)]
    return [*inside, *(Choose(index=column) for column in columns)]


def _answer(ctx: Ctx, top: Frame, command: Command) -> None:
    """A column: the building fills its lowest empty space and pays the benefit covered."""
    if not isinstance(command, Choose):
        _build_answer(ctx, top, command)
        return
    slots = mat(ctx.state, top.seat)
    slot = next(s for s in COLUMNS[command.index] if slots[s] == 0)
    slots[slot] = BUILDINGS.index(top.token) + 1
    set_tokens(ctx, top.seat, KEY, slots)
    benefit = C.CIVILIZATIONS[civ_id(KEY)].slots[slot]
    ctx.push(expr_frame(top.seat, benefit, f"civ:{KEY}"))


DECISIONS["build"] = (_options, _answer)
