"""The geometry interface of a Rise & Fall world: what the rules ask of the table's cells.

The rules (movement, coasts, regions, cliffs, presence, the enclosed-area rule, tithe, trade,
world building) never look at coordinates themselves: they ask a :class:`Grid` for the
neighbours of a cell, the distance between cells, the orientations of a tile and the table's
bounds. Two grids exist, each in its own module: the square world of ruleset
``riseandfall/1`` (:mod:`domain.riseandfall.squaregrid`) and the hexagonal world of
``riseandfall/2`` (:mod:`domain.riseandfall.hexgrid`).

Both grids number the cells of a ``SIZE`` x ``SIZE`` table the same way: the cell at
coordinates ``(x, y)`` is ``y * SIZE + x``. On squares ``x, y`` are the column and row; on
hexes they are the axial coordinates ``q, r`` (see :mod:`domain.riseandfall.hexgrid`). A tile
shape is a set of ``(x, y)`` offsets; translating a shape adds to both coordinates on either
grid, so the placement code is shared. A ruleset names its grid; :mod:`domain.riseandfall.grids`
finds it by that name.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable

#: side of the table every grid lives on (cells ``0 .. SIZE * SIZE - 1``).
SIZE: int = 40

Cells = tuple[tuple[int, int], ...]


class Grid(ABC):
    """One geometry of the world's table (see the module docstring).

    Attributes:
        name: ``"square"`` or ``"hex"`` (stored in :attr:`World.grid`).
        size: the table's side in cells.
        degree: the most neighbours a cell has.
        rotations: orientation numbers ``0 .. rotations - 1`` (the second half mirrored).
        neighbours: for every cell id, its neighbours on the table in a fixed order.
    """

    name: str
    degree: int
    rotations: int
    size: int = SIZE

    def __init__(self) -> None:
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(
            tuple(
                (y + dy) * SIZE + (x + dx)
                for dx, dy in self.steps()
                if 0 <= x + dx < SIZE and 0 <= y + dy < SIZE
            )
            for y in range(SIZE)
            for x in range(SIZE)
        )

    @abstractmethod
    def steps(self) -> tuple[tuple[int, int], ...]:
        """The ``(dx, dy)`` from a cell to each of its neighbours, in the fixed order."""

    @abstractmethod
    def turn(self, x: int, y: int) -> tuple[int, int]:
        """The point ``(x, y)`` turned by one step of the rotation group (clockwise)."""

    @abstractmethod
    def mirror(self, x: int, y: int) -> tuple[int, int]:
        """The point ``(x, y)`` reflected across the grid's mirror axis."""

    @abstractmethod
    def distance(self, a: int, b: int) -> int:
        """The number of steps between cells ``a`` and ``b`` across the table."""

    def cell_of(self, x: int, y: int) -> int:
        """The cell id at ``(x, y)``."""
        return y * SIZE + x

    def xy(self, cell: int) -> tuple[int, int]:
        """The ``(x, y)`` of a cell id."""
        return cell % SIZE, cell // SIZE

    def on_table(self, x: int, y: int) -> bool:
        """``True`` if ``(x, y)`` is a cell of the table."""
        return 0 <= x < SIZE and 0 <= y < SIZE

    def orient(self, cells: Iterable[tuple[int, int]], rotation: int) -> Cells:
        """A shape's cells in orientation ``rotation``, moved so both minima are 0.

        Rotation ``r``: mirror first when ``r >= rotations // 2``, then turn ``r`` modulo
        ``rotations // 2`` steps. Sorted by ``(y, x)``.
        """
        if not 0 <= rotation < self.rotations:
            raise ValueError(f"rotation must be in 0..{self.rotations - 1}, got {rotation}")
        half = self.rotations // 2
        points = [self.mirror(x, y) if rotation >= half else (x, y) for x, y in cells]
        for _ in range(rotation % half):
            points = [self.turn(x, y) for x, y in points]
        return normalise(points)

    def flood(self, starts: Iterable[int], passable: Callable[[int], bool]) -> list[int]:
        """Every cell reached from ``starts`` through ``passable`` cells, in visiting order
        (the starts themselves are included when passable)."""
        seen: set[int] = set()
        order: list[int] = []
        stack = [c for c in starts if passable(c)]
        for c in stack:
            seen.add(c)
        order.extend(stack)
        while stack:
            cell = stack.pop()
            for n in self.neighbours[cell]:
                if n not in seen and passable(n):
                    seen.add(n)
                    order.append(n)
                    stack.append(n)
        return order


def normalise(points: Iterable[tuple[int, int]]) -> Cells:
    """Points moved so the least ``x`` and the least ``y`` are 0, sorted by ``(y, x)``."""
    pts = list(points)
    min_x = min(x for x, _ in pts)
    min_y = min(y for _, y in pts)
    return tuple(sorted(((x - min_x, y - min_y) for x, y in pts), key=lambda p: (p[1], p[0])))
