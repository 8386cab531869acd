"""Capital-city geometry for Tapestry: the 9x9 grid, footprints, placements, districts, scoring.

Everything here is a pure, deterministic function over small immutable values; no content
module is imported (callers pass a capital's grid strings and a landmark's orientations).

Coordinates: a :data:`Cell` is ``(row, col)``, row 0 at the top and column 0 at the left, as in
``capitals.json`` and ``landmarks.json`` of the reference. Cells with a row or column outside
``0..8`` are *off the grid* (used by overhanging placements).

Rules implemented (French rulebook, section "BÂTIMENTS & CAPITALES", its part "COMPLÉTER DES
DISTRICTS, DES LIGNES ET DES COLONNES", and the F.À.Q. "BÂTIMENTS ET MONUMENTS"):

* Buildings go on empty plots; impassable plots (printed dots) take no building but count
  towards completing districts, rows and columns.
* An income building covers one plot; a landmark covers its footprint, "aligned with the grid",
  in any of its rotations (:func:`orientations`).
* A building may overhang the edge of the grid. A placement is legal when at least one of its
  cells is on the grid and none of its on-grid cells is filled or impassable
  (:func:`placements`). When no such placement exists the building is set beside the capital
  and still counts as one of yours (:func:`has_placement` tells the engine which case holds).
* A district (one of the nine 3x3 blocks) is complete when each of its 9 plots is filled or
  impassable; completing one gives 1 resource of your choice (:func:`completed_districts`).
* Capital scoring gives 1 VP per complete row and 1 VP per complete column, a plot counting
  when it is filled or impassable (:func:`complete_rows_and_columns`).

Decisions where the rulebook is silent (ASSUMED):

* Parts of a footprint off the grid are not tracked: two overhanging landmarks never conflict
  off the grid, and a placement entirely off the grid is not a placement (that is the "beside
  the capital" case).
* Footprints are rotated, never mirrored (miniatures are not turned upside down); the base
  landmarks' shapes are mirror-symmetric anyway.

>>> grid = new_capital(("000000000",) * 9)
>>> len(placements(grid, SINGLE_CELL))
81
>>> grid = place(grid, ((0, c) for c in range(9)), "H")
>>> complete_rows_and_columns(grid)
(1, 0)
>>> has_placement(grid, orientations([(0, 0), (0, 1)]))
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

import msgspec

#: a plot of the capital: ``(row, col)``, row 0 at the top, column 0 at the left.
Cell = tuple[int, int]
#: the cells of one orientation of a footprint, relative to its anchor ``(0, 0)``.
Footprint = tuple[Cell, ...]
#: every distinct rotation of a footprint, in a fixed order; a placement names one by index.
Orientations = tuple[Footprint, ...]
#: ``(row, col, orientation)``: the footprint's orientation shifted by ``(row, col)``.
Placement = tuple[int, int, int]

#: side of the square capital grid.
SIZE: int = 9
#: a plot in ``CapitalGrid.blocked`` that takes no building (printed dot, Architects' cube).
IMPASSABLE: str = "1"
#: a plot in ``CapitalGrid.blocked`` that may take a building.
BUILDABLE: str = "0"
#: an empty plot in ``CapitalGrid.filled``; any other character marks a building there.
EMPTY: str = "."
#: the footprint of an income building (house, farm, market, armory): one plot.
SINGLE_CELL: Orientations = (((0, 0),),)

_EMPTY_ROWS: tuple[str, ...] = (EMPTY * SIZE,) * SIZE
_FULL: int = (1 << (SIZE * SIZE)) - 1
# bytes.translate table: '.' -> '0', every other byte -> '1'
_FILLED_TABLE: bytes = bytes(ord("0") if b == ord(EMPTY) else ord("1") for b in range(256))


def _bit(row: int, col: int) -> int:
    return 1 << (row * SIZE + col)


def _cells_mask(cells: Iterable[Cell]) -> int:
    mask = 0
    for row, col in cells:
        mask |= _bit(row, col)
    return mask


#: the nine districts' masks, district ``d`` covering rows ``3*(d//3)..`` and cols ``3*(d%3)..``.
_DISTRICTS: tuple[int, ...] = tuple(
    _cells_mask((3 * (d // 3) + r, 3 * (d % 3) + c) for r in range(3) for c in range(3))
    for d in range(9)
)
_ROWS: tuple[int, ...] = tuple(_cells_mask((r, c) for c in range(SIZE)) for r in range(SIZE))
_COLS: tuple[int, ...] = tuple(_cells_mask((r, c) for r in range(SIZE)) for c in range(SIZE))


def on_grid(cell: Cell) -> bool:
    """``True`` when ``cell`` lies inside the 9x9 grid.

    >>> on_grid((0, 8)), on_grid((-1, 3)), on_grid((4, 9))
    (True, False, False)
    """
    return 0 <= cell[0] < SIZE and 0 <= cell[1] < SIZE


def district_of(cell: Cell) -> int:
    """The district (0..8, row-major: 0 top-left, 2 top-right, 8 bottom-right) of a plot.

    >>> district_of((0, 0)), district_of((1, 5)), district_of((8, 8))
    (0, 1, 8)
    """
    if not on_grid(cell):
        raise ValueError(f"cell {cell} is off the grid")
    return 3 * (cell[0] // 3) + cell[1] // 3


def district_cells(district: int) -> tuple[Cell, ...]:
    """The 9 plots of ``district`` (0..8), row-major.

    >>> district_cells(5)[:3]
    ((3, 6), (3, 7), (3, 8))
    """
    if not 0 <= district < 9:
        raise ValueError(f"no district {district}")
    top, left = 3 * (district // 3), 3 * (district % 3)
    return tuple((top + r, left + c) for r in range(3) for c in range(3))


class CapitalGrid(msgspec.Struct, frozen=True):
    """A capital's plots: which are impassable and which hold a building.

    ``blocked`` is 9 strings of 9 characters, ``'1'`` impassable and ``'0'`` buildable (the
    reference's ``capitals.json`` grid format). ``filled`` is 9 strings of 9 characters,
    ``'.'`` empty, any other printable ASCII character marking the building there (the mark is
    the caller's choice, e.g. ``'H'`` for a house). A plot is never both impassable and filled.

    >>> g = new_capital(("100000000",) + ("000000000",) * 8)
    >>> g.is_impassable((0, 0)), g.is_empty((0, 1)), g.mark((0, 1))
    (True, True, '.')
    """

    blocked: tuple[str, ...]
    filled: tuple[str, ...] = _EMPTY_ROWS

    def __post_init__(self) -> None:
        """Reject malformed grids (wrong size, unknown characters, a filled impassable plot)."""
        for name, rows in (("blocked", self.blocked), ("filled", self.filled)):
            if len(rows) != SIZE or any(len(row) != SIZE for row in rows):
                raise ValueError(f"{name} must be {SIZE} strings of {SIZE} characters")
            if not all(row.isascii() and row.isprintable() for row in rows):
                raise ValueError(f"{name} must hold printable ASCII characters")
        if any(ch not in (IMPASSABLE, BUILDABLE) for row in self.blocked for ch in row):
            raise ValueError("blocked may only hold '0' and '1'")
        if _blocked_mask(self) & _filled_mask(self):
            raise ValueError("a plot cannot be both impassable and filled")

    def is_impassable(self, cell: Cell) -> bool:
        """``True`` when the on-grid ``cell`` is impassable."""
        return self.blocked[cell[0]][cell[1]] == IMPASSABLE

    def is_empty(self, cell: Cell) -> bool:
        """``True`` when the on-grid ``cell`` can take a building (buildable and not filled)."""
        return not self.is_impassable(cell) and self.filled[cell[0]][cell[1]] == EMPTY

    def mark(self, cell: Cell) -> str:
        """The building mark on the on-grid ``cell`` (``'.'`` when none)."""
        return self.filled[cell[0]][cell[1]]


def new_capital(grid: Sequence[str]) -> CapitalGrid:
    """An empty capital from the reference's 9 grid strings (``'1'`` impassable).

    >>> new_capital(["0" * 9] * 9).filled[0]
    '.........'
    """
    return CapitalGrid(blocked=tuple(grid))


def _blocked_mask(grid: CapitalGrid) -> int:
    return int("".join(grid.blocked)[::-1], 2)


def _filled_mask(grid: CapitalGrid) -> int:
    flat = "".join(grid.filled).encode("ascii").translate(_FILLED_TABLE)
    return int(flat[::-1], 2)


def occupied_mask(grid: CapitalGrid) -> int:
    """Bit ``row * 9 + col`` set for every plot that is filled or impassable.

    >>> occupied_mask(new_capital(("110000000",) + ("000000000",) * 8))
    3
    """
    return _blocked_mask(grid) | _filled_mask(grid)


# ---------------------------------------------------------------- footprints


def normalise(cells: Iterable[Sequence[int]]) -> Footprint:
    """The cells shifted so their smallest row and column are 0, sorted row-major.

    >>> normalise([(2, 3), (1, 4)])
    ((0, 1), (1, 0))
    """
    pairs = [(int(c[0]), int(c[1])) for c in cells]
    if not pairs:
        raise ValueError("a footprint needs at least one cell")
    top = min(r for r, _ in pairs)
    left = min(c for _, c in pairs)
    return tuple(sorted({(r - top, c - left) for r, c in pairs}))


def rotate_clockwise(cells: Iterable[Sequence[int]]) -> Footprint:
    """The footprint turned a quarter turn clockwise (top-left goes to top-right), normalised.

    >>> rotate_clockwise([(0, 0), (0, 1), (0, 2)])
    ((0, 0), (1, 0), (2, 0))
    >>> rotate_clockwise([(0, 0), (1, 0), (1, 1)])
    ((0, 0), (0, 1), (1, 0))
    """
    return normalise((c[1], -c[0]) for c in cells)


def orientations(cells: Iterable[Sequence[int]]) -> Orientations:
    """Every distinct rotation of a footprint: the given one first, then quarter turns clockwise.

    Each orientation is normalised (:func:`normalise`); a rotation equal to an earlier one is
    left out, so a square gives 1 orientation, a rectangle 2 and an L-shape 4. The order matches
    ``distinct_orientations`` of the reference's ``landmarks.json``.

    >>> orientations([(0, 0), (0, 1), (1, 0), (1, 1)])
    (((0, 0), (0, 1), (1, 0), (1, 1)),)
    >>> orientations([(0, 0), (0, 1), (0, 2)])
    (((0, 0), (0, 1), (0, 2)), ((0, 0), (1, 0), (2, 0)))
    >>> len(orientations([(0, 1), (1, 0), (1, 1)]))
    4
    """
    current = normalise(cells)
    found: list[Footprint] = []
    for _ in range(4):
        if current not in found:
            found.append(current)
        current = rotate_clockwise(current)
    return tuple(found)


# ---------------------------------------------------------------- placements


@lru_cache(maxsize=256)
def _table(footprints: Orientations) -> tuple[tuple[int, int, int, int], ...]:
    """Every anchor of every orientation with at least one cell on the grid.

    Entries are ``(row, col, orientation, on_grid_mask)`` sorted by row, column, orientation.
    The cache only saves time: its keys never influence a result.
    """
    entries: list[tuple[int, int, int, int]] = []
    for index, footprint in enumerate(footprints):
        if not footprint:
            raise ValueError("an orientation needs at least one cell")
        rows = [r for r, _ in footprint]
        cols = [c for _, c in footprint]
        for row in range(-max(rows), SIZE - min(rows)):
            for col in range(-max(cols), SIZE - min(cols)):
                mask = _cells_mask(
                    (row + r, col + c) for r, c in footprint if on_grid((row + r, col + c))
                )
                if mask:
                    entries.append((row, col, index, mask))
    entries.sort()
    return tuple(entries)


def placements(grid: CapitalGrid, footprints: Orientations) -> list[Placement]:
    """Every legal ``(row, col, orientation)`` for a building with these orientations.

    ``footprints`` is :data:`SINGLE_CELL` for an income building, or a landmark's orientations
    (:func:`orientations`, or the content's ``Landmark.orientations``). A placement covers the
    cells ``(row + r, col + c)`` of ``footprints[orientation]``; it is legal when at least one
    covered cell is on the grid and every on-grid covered cell is empty (section "BÂTIMENTS &
    CAPITALES": buildings may overhang the grid). Sorted by row, column, orientation. Several
    overhanging placements may cover the same on-grid plots: see :func:`distinct_placements`.

    >>> grid = new_capital(("000000000",) * 9)
    >>> placements(grid, SINGLE_CELL)[:2]
    [(0, 0, 0), (0, 1, 0)]
    >>> len(placements(grid, orientations([(0, 0), (0, 1), (1, 0), (1, 1)])))
    100
    """
    occupied = occupied_mask(grid)
    return [(r, c, o) for r, c, o, m in _table(footprints) if not m & occupied]


def distinct_placements(grid: CapitalGrid, footprints: Orientations) -> list[Placement]:
    """The legal placements, keeping only the first of those covering the same on-grid plots.

    Off-grid parts are not tracked, so placements that cover the same plots have the same
    effect on the game; this is the smaller list a bot or a legal-action enumeration can use.

    >>> grid = new_capital(("000000000",) * 9)
    >>> tech_hub = orientations([(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)])
    >>> len(placements(grid, tech_hub)) > len(distinct_placements(grid, tech_hub))
    True
    """
    occupied = occupied_mask(grid)
    seen: dict[int, Placement] = {}
    for r, c, o, m in _table(footprints):
        if not m & occupied and m not in seen:
            seen[m] = (r, c, o)
    return list(seen.values())


def has_placement(grid: CapitalGrid, footprints: Orientations) -> bool:
    """``True`` when the building fits somewhere; otherwise it goes beside the capital.

    Section "BÂTIMENTS & CAPITALES" and F.À.Q. "BÂTIMENTS ET MONUMENTS": a building that finds
    no room is placed outside the capital and still counts as one of yours; a building that
    fits must be placed.

    >>> full = new_capital(("111111111",) * 9)
    >>> has_placement(full, SINGLE_CELL)
    False
    """
    occupied = occupied_mask(grid)
    return any(not m & occupied for _, _, _, m in _table(footprints))


def footprint_at(footprints: Orientations, placement: Placement) -> tuple[Cell, ...]:
    """All cells a placement covers, on or off the grid.

    >>> footprint_at(orientations([(0, 0), (0, 1)]), (8, 8, 0))
    ((8, 8), (8, 9))
    """
    row, col, index = placement
    if not 0 <= index < len(footprints):
        raise ValueError(f"no orientation {index}")
    return tuple((row + r, col + c) for r, c in footprints[index])


def is_legal_placement(grid: CapitalGrid, footprints: Orientations, placement: Placement) -> bool:
    """``True`` when ``placement`` is one of :func:`placements` (checked directly, no list).

    >>> grid = new_capital(("000000000",) * 9)
    >>> bar = orientations([(0, 0), (0, 1)])
    >>> is_legal_placement(grid, bar, (8, 8, 0)), is_legal_placement(grid, bar, (9, 0, 0))
    (True, False)
    """
    if not 0 <= placement[2] < len(footprints):
        return False
    cells = [cell for cell in footprint_at(footprints, placement) if on_grid(cell)]
    return bool(cells) and not _cells_mask(cells) & occupied_mask(grid)


# ---------------------------------------------------------------- changing the grid


def _with_cells(rows: tuple[str, ...], cells: Iterable[Cell], char: str) -> tuple[str, ...]:
    table = [list(row) for row in rows]
    for row, col in cells:
        table[row][col] = char
    return tuple("".join(row) for row in table)


def place(grid: CapitalGrid, cells: Iterable[Cell], mark: str = "X") -> CapitalGrid:
    """A new grid with the on-grid ``cells`` filled with ``mark``; off-grid cells are ignored.

    Raises ``ValueError`` when a covered on-grid plot is filled or impassable, or when no cell
    is on the grid (a building that does not fit goes beside the capital instead).

    >>> grid = place(new_capital(("000000000",) * 9), [(0, 8), (0, 9)], "L")
    >>> grid.filled[0]
    '........L'
    """
    if len(mark) != 1 or mark == EMPTY or not (mark.isascii() and mark.isprintable()):
        raise ValueError(f"a building mark is one printable ASCII character other than {EMPTY!r}")
    inside = [cell for cell in cells if on_grid(cell)]
    if not inside:
        raise ValueError("no cell of the placement is on the grid")
    mask = _cells_mask(inside)
    if mask & occupied_mask(grid) or len(set(inside)) != len(inside):
        raise ValueError(f"cells {inside} are not all distinct empty plots")
    return CapitalGrid(blocked=grid.blocked, filled=_with_cells(grid.filled, inside, mark))


def place_at(
    grid: CapitalGrid, footprints: Orientations, placement: Placement, mark: str = "X"
) -> CapitalGrid:
    """:func:`place` the cells of ``placement`` (see :func:`footprint_at`).

    >>> grid = place_at(new_capital(("000000000",) * 9), SINGLE_CELL, (4, 4, 0), "H")
    >>> grid.mark((4, 4))
    'H'
    """
    return place(grid, footprint_at(footprints, placement), mark)


def block(grid: CapitalGrid, cells: Iterable[Cell]) -> CapitalGrid:
    """A new grid where the given empty plots are impassable (e.g. the Architects' cubes).

    >>> block(new_capital(("000000000",) * 9), [(0, 0)]).blocked[0]
    '100000000'
    """
    cells = list(cells)
    if not all(on_grid(cell) and grid.is_empty(cell) for cell in cells):
        raise ValueError(f"cells {cells} are not all empty plots")
    return CapitalGrid(blocked=_with_cells(grid.blocked, cells, IMPASSABLE), filled=grid.filled)


# ---------------------------------------------------------------- districts and scoring


def empty_cells(grid: CapitalGrid) -> tuple[Cell, ...]:
    """The plots that can still take a building, row-major.

    >>> len(empty_cells(new_capital(("110000000",) + ("000000000",) * 8)))
    79
    """
    occupied = occupied_mask(grid)
    return tuple((r, c) for r in range(SIZE) for c in range(SIZE) if not occupied & _bit(r, c))


def complete_districts(grid: CapitalGrid) -> tuple[int, ...]:
    """The districts (0..8) whose 9 plots are all filled or impassable.

    >>> complete_districts(new_capital(("111000000",) * 3 + ("000000000",) * 6))
    (0,)
    """
    occupied = occupied_mask(grid)
    return tuple(d for d, m in enumerate(_DISTRICTS) if occupied & m == m)


def completed_districts(before: CapitalGrid, after: CapitalGrid) -> tuple[int, ...]:
    """The districts complete in ``after`` but not in ``before``: 1 resource each.

    Section "COMPLÉTER DES DISTRICTS, DES LIGNES ET DES COLONNES": filling the last plots of a
    3x3 district gives 1 resource of your choice at once (impassable plots count as filled).

    >>> before = new_capital(("110000000", "111000000", "111000000") + ("000000000",) * 6)
    >>> completed_districts(before, place(before, [(0, 2)]))
    (0,)
    """
    was = set(complete_districts(before))
    return tuple(d for d in complete_districts(after) if d not in was)


def complete_rows_and_columns(grid: CapitalGrid) -> tuple[int, int]:
    """``(rows, columns)`` whose 9 plots are all filled or impassable.

    Section "COMPLÉTER DES DISTRICTS, DES LIGNES ET DES COLONNES": scoring the capital gives
    1 VP per complete row and per complete column (see :func:`capital_vp`).

    >>> complete_rows_and_columns(new_capital(("111111111",) + ("100000000",) * 8))
    (1, 1)
    """
    occupied = occupied_mask(grid)
    rows = sum(1 for m in _ROWS if occupied & m == m)
    cols = sum(1 for m in _COLS if occupied & m == m)
    return rows, cols


def capital_vp(grid: CapitalGrid) -> int:
    """VP for scoring the capital: complete rows plus complete columns.

    >>> capital_vp(new_capital(("111111111",) * 9))
    18
    """
    rows, cols = complete_rows_and_columns(grid)
    return rows + cols


def is_full(grid: CapitalGrid) -> bool:
    """``True`` when every plot is filled or impassable.

    >>> is_full(new_capital(("111111111",) * 9))
    True
    """
    return occupied_mask(grid) == _FULL
