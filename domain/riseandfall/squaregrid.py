"""The square world of ruleset ``riseandfall/1``: a 40 x 40 grid of square cells.

ASSUMED (``riseandfall/1``): two cells are adjacent when they share a side (4-neighbourhood,
in the order north, east, south, west); tiles turn by quarter turns and may be mirrored
left-right (8 orientations).

>>> SQUARE.neighbours[SQUARE.cell_of(0, 0)] == (SQUARE.cell_of(1, 0), SQUARE.cell_of(0, 1))
True
>>> SQUARE.orient([(0, 0), (1, 0), (2, 0), (0, 1)], 1)
((0, 0), (1, 0), (1, 1), (1, 2))
"""

from __future__ import annotations

from domain.riseandfall.grid import Grid


class SquareGrid(Grid):
    """Square cells, 4 neighbours, 4 quarter turns mirrored or not."""

    name = "square"
    degree = 4
    rotations = 8

    def steps(self) -> tuple[tuple[int, int], ...]:
        """North, east, south, west (y grows downwards)."""
        return ((0, -1), (1, 0), (0, 1), (-1, 0))

    def turn(self, x: int, y: int) -> tuple[int, int]:
        """A quarter turn clockwise (x to the right, y downwards)."""
        return -y, x

    def mirror(self, x: int, y: int) -> tuple[int, int]:
        """Left-right mirror."""
        return -x, y

    def distance(self, a: int, b: int) -> int:
        """Steps between two cells moving by sides (Manhattan distance)."""
        ax, ay = self.xy(a)
        bx, by = self.xy(b)
        return abs(ax - bx) + abs(ay - by)


SQUARE = SquareGrid()
