"""The hexagonal world of ruleset ``riseandfall/2``: hex cells in axial coordinates.

The rulebook's terrain tiles are made of hexagonal cells (public reviews: "Les tuiles du
plateau ... sont composées d'hexagones", https://scifi-universe.com/critiques/10587/rise-et-fall;
"tuiles hexagonales d'eau, de plaines, forêts, montagnes", https://ludactu.fr/post/5468). A
cell is ``(q, r)`` in *axial* coordinates (pointy-topped hexes): ``q`` grows to the east,
``r`` to the south-east; the third cube coordinate is ``s = -q - r``. The table is the
``SIZE`` x ``SIZE`` rhombus ``0 <= q, r < SIZE`` and the cell id is ``r * SIZE + q`` (the
world is built at its centre and never nears its edges).

Every cell has six neighbours, in the fixed order east, north-east, north-west, west,
south-west, south-east: ``(+1, 0), (+1, -1), (0, -1), (-1, 0), (-1, +1), (0, +1)``. A tile
turns by sixths of a turn (``turn``: ``(q, r) -> (-r, q + r)``) and may be mirrored
(``mirror``: ``(q, r) -> (r, q)``, the reflection across the line ``q = r``): 12 orientation
numbers, of which only the distinct ones are offered.

To draw the world in *offset rows* ("odd-r": odd rows shifted half a cell to the right), a
cell ``(q, r)`` is at row ``r``, column ``q + (r - (r & 1)) // 2`` (:func:`offset_of`).

>>> HEX.distance(HEX.cell_of(10, 10), HEX.cell_of(12, 9))
2
>>> len(HEX.neighbours[HEX.cell_of(10, 10)])
6
>>> offset_of(3, 3), axial_of(*offset_of(3, 3))
((4, 3), (3, 3))
"""

from __future__ import annotations

from domain.riseandfall.grid import Grid


class HexGrid(Grid):
    """Pointy-topped hex cells in axial coordinates, 6 neighbours, 6 turns mirrored or not."""

    name = "hex"
    degree = 6
    rotations = 12

    def steps(self) -> tuple[tuple[int, int], ...]:
        """East, north-east, north-west, west, south-west, south-east."""
        return ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

    def turn(self, x: int, y: int) -> tuple[int, int]:
        """A sixth of a turn clockwise: cube ``(q, r, s) -> (-r, -s, -q)``."""
        return -y, x + y

    def mirror(self, x: int, y: int) -> tuple[int, int]:
        """The reflection swapping ``q`` and ``r``."""
        return y, x

    def distance(self, a: int, b: int) -> int:
        """Hex steps between two cells: ``(|dq| + |dr| + |dq + dr|) / 2``."""
        aq, ar = self.xy(a)
        bq, br = self.xy(b)
        dq, dr = aq - bq, ar - br
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def offset_of(q: int, r: int) -> tuple[int, int]:
    """The ``(column, row)`` of axial ``(q, r)`` in odd-r offset rows."""
    return q + (r - (r & 1)) // 2, r


def axial_of(col: int, row: int) -> tuple[int, int]:
    """The axial ``(q, r)`` of odd-r offset ``(column, row)``."""
    return col - (row - (row & 1)) // 2, row


HEX = HexGrid()
