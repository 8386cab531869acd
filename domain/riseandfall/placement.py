"""Tile placements of the Rise & Fall world ("Création du Monde"): the commands' data and the
cells a tile covers.

A tile lies on the ``GRID`` x ``GRID`` table of the world's grid (``World.grid``: square or hex,
see :mod:`domain.riseandfall.grid`) in one of the distinct orientations of
:func:`domain.riseandfall.tiles.orientations`; ``x, y`` is the least corner of the oriented
shape (both minima of its cells' coordinates). Orientations are distinct as sets of cells, so
two positions of one tile never cover the same cells.

>>> cells_at("plain", 1, 0, 0, 0, "hex") == cells_at("plain", 1, 0, 0, 0, "hex")
True
"""

from __future__ import annotations

import msgspec

from domain.core.errors import MalformedCommand, RuleViolation
from domain.riseandfall import tiles as catalogue
from domain.riseandfall.grids import grid_named
from domain.riseandfall.world import GRID, Terrain, cell_of

STAGES = ("sea", "plain", "forest", "mountain", "glacier")
RULE = "Création du Monde"
#: ASSUMED: the most plains ever moved to lay one plain (beyond, the plain is set aside).
MAX_MOVES = 2

_N = GRID * GRID
_EMPTY = int(Terrain.EMPTY)
_SEA = int(Terrain.SEA)
_LAYER = {
    "initial": _SEA,
    "sea": _SEA,
    "plain": int(Terrain.PLAIN),
    "forest": int(Terrain.FOREST),
    "mountain": int(Terrain.MOUNTAIN),
    "glacier": int(Terrain.GLACIER),
}
_BELOW = {"plain": _SEA, "forest": _LAYER["plain"], "mountain": _LAYER["forest"]}
_BELOW["glacier"] = _LAYER["mountain"]

# A position of a tile: (rotation, x, y, cells ascending).
_Pos = tuple[int, int, int, tuple[int, ...]]


class TileMove(msgspec.Struct, frozen=True):
    """A plain already in the world moved to a new position (rule on missing space).

    Attributes:
        tile: index of the moved tile in :attr:`World.tiles` (it keeps that index).
        rotation: its new orientation; x, y: its new anchor.
    """

    tile: int
    rotation: int
    x: int
    y: int


class TilePlacement(msgspec.Struct, frozen=True):
    """A player's choice: lay tile ``kind``/``shape`` in ``rotation`` at ``x, y``.

    ``moves`` (plains only) lists the plains moved first, ascending by tile index.
    """

    kind: str
    shape: int
    rotation: int
    x: int
    y: int
    moves: tuple[TileMove, ...] = ()


def _violation(code: str, message: str) -> RuleViolation:
    """A refusal under the rule "Création du Monde"."""
    return RuleViolation(code, message, rule=RULE)


def _malformed(code: str, message: str) -> MalformedCommand:
    """A malformed placement (unknown tile, bad rotation) under "Création du Monde"."""
    return MalformedCommand(code, message, rule=RULE)


def cells_at(
    kind: str, shape: int, rotation: int, x: int, y: int, grid: str = "square"
) -> tuple[int, ...] | None:
    """The cells a tile covers at this position, ascending; ``None`` if it leaves the grid.

    Raises ``MalformedCommand`` for an unknown kind/shape and ``RuleViolation`` for a
    rotation that repeats a lower-numbered orientation.
    """
    if not 0 <= shape < catalogue.shape_count(kind, grid):
        raise _malformed("UNKNOWN_TILE", f"There is no {kind!r} tile shape {shape}.")
    turns = grid_named(grid).rotations
    if not 0 <= rotation < turns:
        raise _malformed("BAD_ROTATION", f"Rotation {rotation} is not in 0..{turns - 1}.")
    o = catalogue.orientation(kind, shape, rotation, grid)
    if o is None:
        raise _violation(
            "REPEATED_ORIENTATION",
            f"Rotation {rotation} repeats a lower-numbered orientation of this tile.",
        )
    if x < 0 or y < 0 or x + o.width > GRID or y + o.height > GRID:
        return None
    return tuple(cell_of(x + dx, y + dy) for dx, dy in o.cells)
