"""The grids of Rise & Fall worlds by name: ``"square"`` (ruleset ``riseandfall/1``) and
``"hex"`` (``riseandfall/2``), the name a world's ``grid`` field holds.

>>> grid_named("hex").degree, grid_named("square").degree
(6, 4)
>>> grid_named("hex").rotations, grid_named("square").rotations
(12, 8)
"""

from __future__ import annotations

from domain.riseandfall.grid import Grid
from domain.riseandfall.hexgrid import HEX
from domain.riseandfall.squaregrid import SQUARE

#: grid name -> the grid.
GRIDS: dict[str, Grid] = {grid.name: grid for grid in (SQUARE, HEX)}


def grid_named(name: str) -> Grid:
    """The grid called ``name`` (``"square"`` or ``"hex"``); raises ``KeyError`` if unknown."""
    return GRIDS[name]
