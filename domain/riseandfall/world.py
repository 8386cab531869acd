"""The geometry of the Rise & Fall world: terrains, grid, cells, levels, cliffs and regions.

The rulebook builds the world from terrain tiles laid on the table ("Création du Monde").
Annales models the table as a ``GRID`` x ``GRID`` grid of cells whose geometry is a
:class:`~domain.riseandfall.grid.Grid`: square cells in ruleset ``riseandfall/1``
(:mod:`domain.riseandfall.squaregrid`), hexagonal cells in ``riseandfall/2``
(:mod:`domain.riseandfall.hexgrid`); :attr:`World.grid` names it. A cell is the integer
``y * GRID + x``. Tiles stack: a cell's terrain is its top layer, and its level equals the
terrain's value (sea 0, plain 1, forest 2, mountain 3, glacier 4).

The module-level ``NEIGHBOURS``, ``neighbours``, ``cell_of``, ``xy`` and ``orient`` are those of
the square world (kept for ``riseandfall/1`` and its tests); the rules ask a world's grid.

Rules implemented here:

* "FALAISE": two adjacent cells whose levels differ by 2 or more are separated by a cliff
  (:func:`is_cliff`).
* "Présence territoriale": a region is a maximal set of adjacent cells sharing a terrain,
  glacier cells counting as mountain (:attr:`Geometry.regions`).

>>> cell_of(3, 2)
83
>>> xy(83)
(3, 2)
>>> neighbours(cell_of(0, 0)) == (cell_of(1, 0), cell_of(0, 1))
True
>>> is_cliff(Terrain.PLAIN, Terrain.MOUNTAIN), is_cliff(Terrain.SEA, Terrain.PLAIN)
(True, False)
"""

from __future__ import annotations

import hashlib
from array import array
from collections import OrderedDict
from collections.abc import Iterable
from enum import IntEnum

import msgspec

from domain.riseandfall.grid import SIZE, Grid
from domain.riseandfall.grids import grid_named
from domain.riseandfall.squaregrid import SQUARE

#: side of the table the world lives on (both grids).
GRID: int = SIZE


class Terrain(IntEnum):
    """A cell's top terrain; the value is the cell's level (``EMPTY`` = nothing there)."""

    EMPTY = -1
    SEA = 0
    PLAIN = 1
    FOREST = 2
    MOUNTAIN = 3
    GLACIER = 4


def cell_of(x: int, y: int) -> int:
    """The cell id at column ``x``, row ``y`` (both in ``range(GRID)``)."""
    return y * GRID + x


def xy(cell: int) -> tuple[int, int]:
    """The ``(x, y)`` of a cell id."""
    return cell % GRID, cell // GRID


#: precomputed orthogonal neighbours of every cell of the square world (N, E, S, W).
NEIGHBOURS: tuple[tuple[int, ...], ...] = SQUARE.neighbours


def neighbours(cell: int) -> tuple[int, ...]:
    """The cells sharing a side with ``cell`` in the square world, in the order N, E, S, W."""
    return NEIGHBOURS[cell]


def is_cliff(a: Terrain | int, b: Terrain | int) -> bool:
    """``True`` if two adjacent cells of these terrains are separated by a cliff ("FALAISE").

    Both must be non-empty and their levels must differ by 2 or more.

    >>> is_cliff(Terrain.FOREST, Terrain.GLACIER), is_cliff(Terrain.EMPTY, Terrain.MOUNTAIN)
    (True, False)
    """
    if a < 0 or b < 0:
        return False
    return abs(int(a) - int(b)) >= 2


def region_terrain(terrain: Terrain | int) -> Terrain:
    """The terrain a cell counts as for regions: glacier counts as mountain."""
    if terrain == Terrain.GLACIER:
        return Terrain.MOUNTAIN
    return Terrain(terrain)


class PlacedTile(msgspec.Struct, frozen=True):
    """A terrain tile lying in the world.

    Attributes:
        kind: ``"initial"`` (the 8-cell starting seas) or a stage of
            :data:`domain.riseandfall.worldbuild.STAGES`.
        shape: index of the shape within its kind (``content/tiles.json``).
        rotation: orientation 0..7 (quarter turns clockwise, +4 when mirrored).
        x: column of the oriented shape's bounding-box corner.
        y: row of the oriented shape's bounding-box corner.
        cells: the cells it covers, ascending.

    On the hex grid (``riseandfall/2``) ``rotation`` is 0..11 (sixths of a turn, +6 when
    mirrored) and ``x, y`` are the axial ``q, r`` of the oriented shape's least corner.
    """

    kind: str
    shape: int
    rotation: int
    x: int
    y: int
    cells: tuple[int, ...]


class World(msgspec.Struct):
    """The world as laid on the table: top terrain of every cell and the tiles placed.

    Mutable (part of the game state); :func:`domain.riseandfall.worldbuild.place` changes it.

    Attributes:
        terrain: ``GRID * GRID`` values of :class:`Terrain` (``-1`` where nothing lies).
        tiles: every tile placed, in placing order (a moved plain keeps its index).
        grid: the geometry of its cells, ``"square"`` (``riseandfall/1``) or ``"hex"``
            (``riseandfall/2``); see :func:`domain.riseandfall.grids.grid_named`.
    """

    terrain: list[int]
    tiles: list[PlacedTile]
    grid: str = "square"

    def geometry_of_cells(self) -> Grid:
        """The :class:`~domain.riseandfall.grid.Grid` of this world's cells."""
        return grid_named(self.grid)

    def at(self, cell: int) -> Terrain:
        """The top terrain of ``cell``."""
        return Terrain(self.terrain[cell])

    @classmethod
    def empty(cls, grid: str = "square") -> World:
        """A world with nothing on the table, on the grid called ``grid``."""
        return cls(terrain=[int(Terrain.EMPTY)] * (GRID * GRID), tiles=[], grid=grid)


class Region(msgspec.Struct, frozen=True):
    """A region ("Présence territoriale"): adjacent cells of one terrain, glacier as mountain.

    Attributes:
        index: position in :attr:`Geometry.regions`.
        terrain: ``SEA``, ``PLAIN``, ``FOREST`` or ``MOUNTAIN`` (never ``GLACIER``).
        cells: its cells, ascending.
    """

    index: int
    terrain: Terrain
    cells: tuple[int, ...]


class Geometry:
    """Read-only facts derived from a finished world (build it with :func:`geometry`).

    Attributes:
        terrain: the top terrain value of every cell (as in :attr:`World.terrain`).
        cells: every non-empty cell, ascending.
        grid: the geometry of the cells.
        land_neighbours: for every cell id, its non-empty neighbours (in the grid's order);
            empty for empty cells. Despite the name it includes sea cells.
        regions: the regions, ordered by their smallest cell.
        region_index: for every cell id, its region index (``-1`` for empty cells).
    """

    __slots__ = (
        "_coastal",
        "cells",
        "grid",
        "land_neighbours",
        "region_index",
        "regions",
        "terrain",
    )

    def __init__(self, terrain: Iterable[int], grid: Grid = SQUARE) -> None:
        self.grid = grid
        self.terrain: tuple[int, ...] = tuple(terrain)
        if len(self.terrain) != GRID * GRID:
            raise ValueError(f"a world has {GRID * GRID} cells, got {len(self.terrain)}")
        top = self.terrain
        self.cells: tuple[int, ...] = tuple(c for c in range(GRID * GRID) if top[c] >= 0)
        self.land_neighbours: tuple[tuple[int, ...], ...] = tuple(
            tuple(n for n in grid.neighbours[c] if top[n] >= 0) if top[c] >= 0 else ()
            for c in range(GRID * GRID)
        )
        index = [-1] * (GRID * GRID)
        regions: list[Region] = []
        for start in self.cells:
            if index[start] >= 0:
                continue
            kind = region_terrain(top[start])
            number = len(regions)
            index[start] = number
            stack = [start]
            members = [start]
            while stack:
                cell = stack.pop()
                for n in self.land_neighbours[cell]:
                    if index[n] < 0 and region_terrain(top[n]) == kind:
                        index[n] = number
                        stack.append(n)
                        members.append(n)
            regions.append(Region(number, kind, tuple(sorted(members))))
        self.regions: tuple[Region, ...] = tuple(regions)
        self.region_index: tuple[int, ...] = tuple(index)
        self._coastal: dict[int, tuple[int, ...]] = {}

    def at(self, cell: int) -> Terrain:
        """The top terrain of ``cell``."""
        return Terrain(self.terrain[cell])

    def level(self, cell: int) -> int:
        """The level of ``cell`` (``-1`` when empty)."""
        return self.terrain[cell]

    def neighbours_of(self, cell: int) -> tuple[int, ...]:
        """The non-empty cells neighbouring ``cell`` (in the grid's order)."""
        return self.land_neighbours[cell]

    def cliff(self, a: int, b: int) -> bool:
        """``True`` if a cliff separates the cells ``a`` and ``b`` ("FALAISE")."""
        return is_cliff(self.terrain[a], self.terrain[b])

    def region_of(self, cell: int) -> int:
        """The index of the region of ``cell`` (glacier cells are in their mountain region).

        ``-1`` for an empty cell.
        """
        return self.region_index[cell]

    def sea_region_of(self, cell: int) -> int:
        """The sea region of a sea cell (ships move within one); ``-1`` for other cells."""
        if self.terrain[cell] != Terrain.SEA:
            return -1
        return self.region_index[cell]

    def coastal(self, cell: int) -> tuple[int, ...]:
        """The indices of the sea regions sharing a side with ``cell``, ascending.

        For a land cell these are the seas its coast touches (empty if inland). For a sea cell
        it is its own region when it has a sea neighbour.
        """
        known = self._coastal.get(cell)
        if known is None:
            found = {
                self.region_index[n]
                for n in self.land_neighbours[cell]
                if self.terrain[n] == Terrain.SEA
            }
            known = tuple(sorted(found))
            self._coastal[cell] = known
        return known

    def region(self, index: int) -> Region:
        """The region with this index."""
        return self.regions[index]


_CACHE: OrderedDict[bytes, Geometry] = OrderedDict()
#: as many layouts as the service keeps games in memory (``GameService(cache_size=256)``): with
#: more games in play than layouts kept, every command of a game would rebuild its geometry
#: (about 3 ms and 56 KB a layout)
_CACHE_SIZE = 256


def terrain_key(terrain: list[int]) -> bytes:
    """A compact digest identifying a terrain layout (SHA-256 of its bytes)."""
    return hashlib.sha256(array("b", terrain).tobytes()).digest()


def geometry(world: World) -> Geometry:
    """The (memoised) :class:`Geometry` of a world, keyed by its terrain bytes.

    Moving or adding tiles changes the terrain and therefore the key, so the answer is
    always current; a small LRU keeps the most recent layouts.

    >>> w = World.empty()
    >>> w.terrain[cell_of(1, 1)] = Terrain.PLAIN
    >>> w.terrain[cell_of(2, 1)] = Terrain.GLACIER
    >>> w.terrain[cell_of(3, 1)] = Terrain.MOUNTAIN
    >>> g = geometry(w)
    >>> [(r.terrain.name, len(r.cells)) for r in g.regions]
    [('PLAIN', 1), ('MOUNTAIN', 2)]
    >>> g.cliff(cell_of(1, 1), cell_of(2, 1)), geometry(w) is g
    (True, True)
    """
    key = terrain_key(world.terrain) + world.grid.encode()
    found = _CACHE.get(key)
    if found is not None:
        _CACHE.move_to_end(key)
        return found
    built = Geometry(world.terrain, grid_named(world.grid))
    _CACHE[key] = built
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return built


def orient(cells: Iterable[tuple[int, int]], rotation: int) -> tuple[tuple[int, int], ...]:
    """A shape's cells in square orientation ``rotation`` (see ``SquareGrid.orient``).

    Rotation ``r``: mirror left-right first when ``r >= 4``, then turn ``r % 4`` quarter
    turns clockwise (x to the right, y downwards). The result is sorted by ``(y, x)``.

    >>> orient([(0, 0), (1, 0), (2, 0), (0, 1)], 1)
    ((0, 0), (1, 0), (1, 1), (1, 2))
    """
    return SQUARE.orient(cells, rotation)
