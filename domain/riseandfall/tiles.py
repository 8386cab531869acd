"""The terrain tiles of Rise & Fall and the world set-up tables, loaded from ``content/``.

``content/tiles.json`` lists the tile kinds with their counts (rulebook, "Matériel") and the
shape of every kind (not in the rulebook: authored, marked ``assumed``);
``content/world_setup.json`` holds the per-player-count table of "Création du Monde", the
initial sea layouts and the rule interpretations Annales had to choose. Those two describe
the square world of ``riseandfall/1``; ``content/tiles_hex.json`` and
``content/world_setup_hex.json`` describe the hexagonal world of ``riseandfall/2`` (every
function takes the grid's name, ``"square"`` by default). The files are validated with
msgspec at load; bad data raises :class:`ContentError` naming the problem.

>>> content().kinds["plain"].count, shape("plain", 0).cells[:2]
(17, ((0, 0), (1, 0)))
>>> [o.rotation for o in orientations("plain", 0)]
[0, 1]
>>> len(box_order("sea")), box_order("sea")[:5]
(19, (0, 1, 2, 3, 0))
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

import msgspec

from domain.riseandfall.grid import Grid
from domain.riseandfall.grids import grid_named
from domain.riseandfall.world import GRID

#: the content files of each grid: (tiles, world set-up).
FILES = {
    "square": ("tiles.json", "world_setup.json"),
    "hex": ("tiles_hex.json", "world_setup_hex.json"),
}

CONTENT = Path(__file__).with_name("content")
KINDS = ("initial", "sea", "plain", "forest", "mountain", "glacier")
Source = Literal["rulebook", "assumed"]


class ContentError(ValueError):
    """A content file is missing, malformed or inconsistent."""


class _KindRecord(msgspec.Struct, forbid_unknown_fields=True):
    kind: str
    cells: int
    count: int
    source: Source
    section: str = ""
    note: str = ""


class _ShapeRecord(msgspec.Struct, forbid_unknown_fields=True):
    kind: str
    index: int
    copies: int
    cells: list[tuple[int, int]]
    source: Source
    note: str


class _TilesFile(msgspec.Struct, forbid_unknown_fields=True):
    kinds: list[_KindRecord]
    shapes: list[_ShapeRecord]


class _Grid(msgspec.Struct, forbid_unknown_fields=True):
    size: int
    source: Source
    note: str


class _CountRecord(msgspec.Struct, forbid_unknown_fields=True):
    players: int
    initial: int
    sea: int
    plain: int
    forest: int
    mountain: int
    glacier: int
    source: Source
    section: str = ""
    note: str = ""


class _LayoutRecord(msgspec.Struct, forbid_unknown_fields=True):
    players: int
    tiles: list[tuple[int, int, int]]
    source: Source
    note: str


class _RuleRecord(msgspec.Struct, forbid_unknown_fields=True):
    topic: str
    source: Source
    note: str


class _SetupFile(msgspec.Struct, forbid_unknown_fields=True):
    grid: _Grid
    counts: list[_CountRecord]
    layouts: list[_LayoutRecord]
    rules: list[_RuleRecord]


class Kind(msgspec.Struct, frozen=True):
    """A kind of terrain tile: its size in cells and how many the box holds."""

    kind: str
    cells: int
    count: int


class Shape(msgspec.Struct, frozen=True):
    """One shape of a kind: its cells (x, y) in orientation 0 and how many copies exist."""

    kind: str
    index: int
    copies: int
    cells: tuple[tuple[int, int], ...]


class Orientation(msgspec.Struct, frozen=True):
    """A distinct orientation of a shape: cells relative to the bounding-box corner."""

    rotation: int
    cells: tuple[tuple[int, int], ...]
    width: int
    height: int


class Content(msgspec.Struct, frozen=True):
    """Everything loaded from the two content files.

    Attributes:
        kinds: per kind name.
        shapes: per kind name, the shapes in index order.
        counts: per player count, tiles of each kind (``"initial"`` included).
        layouts: per player count, the initial tiles as ``(rotation, x, y)``.
        assumed: every assumed fact, one sentence each.
    """

    kinds: dict[str, Kind]
    shapes: dict[str, tuple[Shape, ...]]
    counts: dict[int, dict[str, int]]
    layouts: dict[int, tuple[tuple[int, int, int], ...]]
    assumed: tuple[str, ...]


def _decode(name: str, cls: type[msgspec.Struct]) -> msgspec.Struct:
    path = CONTENT / name
    try:
        return msgspec.json.decode(path.read_bytes(), type=cls)
    except (OSError, msgspec.DecodeError) as error:
        raise ContentError(f"{path}: {error}") from error


def _connected(cells: tuple[tuple[int, int], ...], grid: Grid) -> bool:
    todo = [cells[0]]
    seen = {cells[0]}
    while todo:
        x, y = todo.pop()
        for dx, dy in grid.steps():
            n = (x + dx, y + dy)
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(cells)


def _check_tiles(
    data: _TilesFile, grid: Grid
) -> tuple[dict[str, Kind], dict[str, tuple[Shape, ...]]]:
    kinds: dict[str, Kind] = {}
    for k in data.kinds:
        if k.kind not in KINDS or k.kind in kinds:
            raise ContentError(f"tiles.json: unknown or repeated kind {k.kind!r}")
        if k.cells <= 0 or k.count <= 0:
            raise ContentError(f"tiles.json: kind {k.kind!r} needs positive cells and count")
        kinds[k.kind] = Kind(k.kind, k.cells, k.count)
    if tuple(kinds) != KINDS:
        raise ContentError(f"tiles.json: kinds must be exactly {KINDS} in this order")
    shapes: dict[str, list[Shape]] = {k: [] for k in KINDS}
    for s in data.shapes:
        where = f"tiles.json: shape {s.kind}/{s.index}"
        if s.kind not in kinds:
            raise ContentError(f"{where}: unknown kind")
        if s.index != len(shapes[s.kind]):
            raise ContentError(f"{where}: indices must run 0, 1, 2... within a kind")
        cells = tuple(sorted(set(s.cells), key=lambda p: (p[1], p[0])))
        if len(cells) != len(s.cells) or len(cells) != kinds[s.kind].cells:
            raise ContentError(f"{where}: needs {kinds[s.kind].cells} distinct cells")
        if min(x for x, _ in cells) != 0 or min(y for _, y in cells) != 0:
            raise ContentError(f"{where}: cells must start at column 0 and row 0")
        if not _connected(cells, grid):
            raise ContentError(f"{where}: cells must be connected by their sides")
        if s.copies <= 0:
            raise ContentError(f"{where}: copies must be positive")
        shapes[s.kind].append(Shape(s.kind, s.index, s.copies, cells))
    for name, kind in kinds.items():
        total = sum(s.copies for s in shapes[name])
        if total != kind.count:
            raise ContentError(f"tiles.json: {name} copies sum to {total}, box has {kind.count}")
    return kinds, {k: tuple(v) for k, v in shapes.items()}


def _load(grid_name: str) -> Content:
    grid = grid_named(grid_name)
    tiles_file, setup_file = FILES[grid_name]
    tiles = _decode(tiles_file, _TilesFile)
    setup = _decode(setup_file, _SetupFile)
    assert isinstance(tiles, _TilesFile) and isinstance(setup, _SetupFile)
    kinds, shapes = _check_tiles(tiles, grid)
    if setup.grid.size != GRID:
        raise ContentError(f"{setup_file}: grid size {setup.grid.size} != GRID {GRID}")
    counts: dict[int, dict[str, int]] = {}
    for c in setup.counts:
        row = {k: int(getattr(c, k)) for k in KINDS}
        for name, n in row.items():
            if not 0 <= n <= kinds[name].count:
                raise ContentError(f"{setup_file}: {c.players} players, {name} count {n}")
        if row["initial"] != c.players or row["glacier"] != c.players:
            raise ContentError(f"{setup_file}: {c.players} players: one initial/glacier each")
        counts[c.players] = row
    layouts: dict[int, tuple[tuple[int, int, int], ...]] = {}
    for lay in setup.layouts:
        if lay.players not in counts or len(lay.tiles) != counts[lay.players]["initial"]:
            raise ContentError(f"{setup_file}: layout for {lay.players} players")
        if any(not 0 <= r < grid.rotations for r, _, _ in lay.tiles):
            raise ContentError(f"{setup_file}: layout rotation out of range ({lay.players}p)")
        layouts[lay.players] = tuple(lay.tiles)
    if set(layouts) != set(counts):
        raise ContentError(f"{setup_file}: one layout per player count is needed")
    assumed: list[str] = [f"{setup.grid.note}" + " (grid)"]
    assumed += [f"Tile {s.kind}/{s.index}: {s.note}" for s in tiles.shapes if s.source == "assumed"]
    assumed += [f"Kind {k.kind}: {k.note}" for k in tiles.kinds if k.source == "assumed"]
    assumed += [f"Count ({c.players}p): {c.note}" for c in setup.counts if c.source == "assumed"]
    assumed += [f"Layout ({x.players}p): {x.note}" for x in setup.layouts if x.source == "assumed"]
    assumed += [f"Rule {r.topic}: {r.note}" for r in setup.rules if r.source == "assumed"]
    return Content(kinds, shapes, counts, layouts, tuple(assumed))


@cache
def content(grid: str = "square") -> Content:
    """The validated content of the world on ``grid`` (loaded once)."""
    return _load(grid)


def assumptions(grid: str = "square") -> list[str]:
    """Every fact about the world that the rulebook does not give and Annales chose.

    >>> any("adjacency" in line for line in assumptions())
    True
    """
    return list(content(grid).assumed)


def shape(kind: str, index: int, grid: str = "square") -> Shape:
    """The shape ``index`` of ``kind`` (raises ``KeyError``/``IndexError`` when unknown)."""
    return content(grid).shapes[kind][index]


def shape_count(kind: str, grid: str = "square") -> int:
    """How many shapes ``kind`` has (0 for an unknown kind)."""
    return len(content(grid).shapes.get(kind, ()))


@cache
def orientations(kind: str, index: int, grid: str = "square") -> tuple[Orientation, ...]:
    """The distinct orientations of a shape, each with its lowest rotation number."""
    seen: set[tuple[tuple[int, int], ...]] = set()
    found: list[Orientation] = []
    geometry = grid_named(grid)
    for rotation in range(geometry.rotations):
        cells = geometry.orient(shape(kind, index, grid).cells, rotation)
        if cells in seen:
            continue
        seen.add(cells)
        width = max(x for x, _ in cells) + 1
        height = max(y for _, y in cells) + 1
        found.append(Orientation(rotation, cells, width, height))
    return tuple(found)


@cache
def orientation(kind: str, index: int, rotation: int, grid: str = "square") -> Orientation | None:
    """The orientation with this rotation number, ``None`` if it repeats a lower one."""
    for o in orientations(kind, index, grid):
        if o.rotation == rotation:
            return o
    return None


@cache
def box_order(kind: str, grid: str = "square") -> tuple[int, ...]:
    """Shape indices of the box's tiles of ``kind`` in the order they are taken (ASSUMED).

    The order cycles through the shapes (0, 1, 2, ..., 0, 1, ...) while copies remain.
    """
    left = [s.copies for s in content(grid).shapes[kind]]
    order: list[int] = []
    while any(left):
        for index, n in enumerate(left):
            if n:
                order.append(index)
                left[index] -= 1
    return tuple(order)
