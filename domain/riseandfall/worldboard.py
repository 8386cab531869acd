"""Per-cell facts of a Rise & Fall world under construction and the positions a tile may take
("Création du Monde"): the sea rules (on empty cells, touching 2 tiles, closing no area) and
the layer rules (each cell on the layer below).

>>> from domain.riseandfall.worldbuild import initial_world
>>> world = initial_world(2, "hex")
>>> len(_layer_positions(world, "plain", 0)) > 0
True
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence

from domain.riseandfall import tiles as catalogue
from domain.riseandfall.grid import Grid
from domain.riseandfall.grids import grid_named
from domain.riseandfall.placement import _BELOW, _EMPTY, _N, _Pos
from domain.riseandfall.world import GRID, World, cell_of

# -- the board: fast per-cell facts derived from a world -----------------------------------


class _Board:
    """Terrain, top tile per cell and bounding box, updated as tiles are laid."""

    __slots__ = ("box", "grid", "nb", "terrain", "top")

    def __init__(self, world: World) -> None:
        self.grid: Grid = grid_named(world.grid)
        self.nb = self.grid.neighbours
        self.terrain = list(world.terrain)
        self.top = [-1] * _N
        for index, tile in enumerate(world.tiles):
            for c in tile.cells:
                self.top[c] = index
        filled = [c for c in range(_N) if self.terrain[c] != _EMPTY]
        xs = [c % GRID for c in filled] or [GRID // 2]
        ys = [c // GRID for c in filled] or [GRID // 2]
        self.box = [min(xs), max(xs), min(ys), max(ys)]

    def near(self) -> list[int]:
        """The cells of the bounding box grown by one, kept one cell inside the grid."""
        x0, x1 = max(self.box[0] - 1, 1), min(self.box[1] + 1, GRID - 2)
        y0, y1 = max(self.box[2] - 1, 1), min(self.box[3] + 1, GRID - 2)
        return [y * GRID + x for y in range(y0, y1 + 1) for x in range(x0, x1 + 1)]

    def lay(self, cells: Sequence[int], layer: int, index: int) -> None:
        """Lay tile ``index`` of terrain ``layer`` on ``cells`` (the terrain and the topmost tile of
        each cell change)."""
        for c in cells:
            self.terrain[c] = layer
            self.top[c] = index
            x, y = c % GRID, c // GRID
            box = self.box
            box[0], box[1] = min(box[0], x), max(box[1], x)
            box[2], box[3] = min(box[2], y), max(box[3], y)

    def encloses(self, cells: Sequence[int]) -> bool:
        """``True`` if filling ``cells`` would cut some empty cell off the grid's edge."""
        new = set(cells)
        terrain = self.terrain
        min_x, max_x, min_y, max_y = self.box
        for c in cells:
            x, y = c % GRID, c // GRID
            min_x, max_x, min_y, max_y = min(min_x, x), max(max_x, x), min(min_y, y), max(max_y, y)
        escaped: set[int] = set()
        neighbours = self.nb
        for c in cells:
            for start in neighbours[c]:
                if start in new or terrain[start] != _EMPTY or start in escaped:
                    continue
                seen = {start}
                queue = deque((start,))
                out = False
                while queue and not out:
                    cur = queue.popleft()
                    x, y = cur % GRID, cur // GRID
                    if x <= min_x or x >= max_x or y <= min_y or y >= max_y:
                        # on or outside the box edge: no filled cell lies beyond it
                        out = True
                        break
                    for n in neighbours[cur]:
                        if n in escaped:
                            out = True
                            break
                        if n not in seen and n not in new and terrain[n] == _EMPTY:
                            seen.add(n)
                            queue.append(n)
                if not out:
                    return True
                escaped |= seen
        return False

    def sea_error(self, cells: Sequence[int]) -> tuple[str, str] | None:
        """Why a sea tile may not lie on ``cells`` (``(reason, message)``), or ``None`` when it
        may."""
        terrain, top = self.terrain, self.top
        if any(terrain[c] != _EMPTY for c in cells):
            return "SEA_OVERLAP", "A sea tile is laid on empty cells only."
        touched = {top[n] for c in cells for n in self.nb[c] if top[n] >= 0}
        if len(touched) < 2:
            return "SEA_MUST_TOUCH_TWO", "A sea tile must touch at least 2 tiles of the world."
        if self.encloses(cells):
            return "SEA_ENCLOSES_EMPTY", "A sea tile may not close an area of empty cells."
        return None

    def fits(self, cells: Sequence[int], below: int) -> bool:
        """``True`` when every cell of ``cells`` is of terrain ``below`` (a tile lies on one
        kind)."""
        terrain = self.terrain
        return all(terrain[c] == below for c in cells)

    def tightness(self, cells: Sequence[int], below: int) -> int:
        """How many sides of the tile face something other than free ``below`` cells."""
        inside = set(cells)
        terrain = self.terrain
        nb = self.nb
        score = self.grid.degree * len(cells) - sum(len(nb[c]) for c in cells)  # grid edge
        for c in cells:
            for n in nb[c]:
                if n not in inside and terrain[n] != below:
                    score += 1
        return score


# -- positions ----------------------------------------------------------------------------


def _positions(
    kind: str, shape: int, free: Sequence[bool], anchors: Iterable[int], grid: str = "square"
) -> list[_Pos]:
    """Every position of a tile whose cells are all ``free`` and include one of ``anchors``.

    Ordered by rotation, then by the anchor row and column; no duplicates.
    """
    targets = sorted(set(anchors))
    found: list[_Pos] = []
    for o in catalogue.orientations(kind, shape, grid):
        seen: set[tuple[int, int]] = set()
        for target in targets:
            tx, ty = target % GRID, target // GRID
            for dx, dy in o.cells:
                x, y = tx - dx, ty - dy
                if x < 0 or y < 0 or x + o.width > GRID or y + o.height > GRID:
                    continue
                if (x, y) in seen:
                    continue
                seen.add((x, y))
                base = cell_of(x, y)
                cells = tuple(base + cx + cy * GRID for cx, cy in o.cells)
                if all(free[c] for c in cells):
                    found.append((o.rotation, x, y, cells))
    found.sort(key=lambda p: (p[0], p[2], p[1]))
    return found


def _layer_positions(world: World, kind: str, shape: int) -> list[_Pos]:
    below = _BELOW[kind]
    free = [t == below for t in world.terrain]
    return _positions(kind, shape, free, (c for c in range(_N) if free[c]), world.grid)


def _sea_positions(board: _Board, shape: int) -> list[_Pos]:
    terrain = board.terrain
    nb = board.nb
    edge = [
        c for c in range(_N) if terrain[c] == _EMPTY and any(terrain[n] != _EMPTY for n in nb[c])
    ]
    free = [t == _EMPTY for t in terrain]
    found = _positions("sea", shape, free, edge, board.grid.name)
    return [p for p in found if board.sea_error(p[3]) is None]
