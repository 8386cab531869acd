"""Building the Rise & Fall world ("Création du Monde"): placement rules and a random builder.

The world starts from the initial 8-cell sea tiles (:func:`initial_world`); then every tile of
:func:`supply` is laid in order: all seas, then plains, forests, mountains, glaciers.

Rules (rulebook "Création du Monde"; ASSUMED details are listed by
:func:`domain.riseandfall.tiles.assumptions`):

* a sea tile lies on empty cells, touches (shares a side with) at least 2 distinct tiles
  already in the world, and closes no area: afterwards every empty cell is still joined to
  the grid's edge through empty cells sharing sides;
* every cell of a plain covers a sea cell (not the void, not a plain). All plains must be
  laid: when a plain fits nowhere, the player moves the minimum number of plains of their
  choice (lifted together, laid again on sea cells) so that it fits. ``riseandfall/1``
  (ASSUMED) moves at most :data:`MAX_MOVES` plains and sets aside a plain that cannot be laid
  so; ``riseandfall/2`` searches the minimum exactly (``max_moves=None``: up to every plain);
* every cell of a forest covers a plain, of a mountain a forest, of a glacier a mountain;
* ASSUMED: a tile with no legal position (``legal_placements`` is empty) is set aside.

The random builder of a world drawn from the seed is :mod:`domain.riseandfall.worldrandom`.

Tiles lie on the ``GRID`` x ``GRID`` table of the world's grid (``World.grid``: square or hex,
see :mod:`domain.riseandfall.grid`) in one of the distinct orientations of
:func:`domain.riseandfall.tiles.orientations`; ``x, y`` is the least corner of the oriented
shape (both minima of its cells' coordinates).

>>> from domain.core.chance import Chance
>>> from domain.riseandfall.worldrandom import random_world
>>> world = initial_world(2)
>>> placements = random_world(2, Chance(b"doc", version=0))
>>> for p in placements:
...     check_placement(world, p)
...     place(world, p)
>>> len(placements), [t.kind for t in world.tiles].count("glacier")
(38, 2)
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict, deque
from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations

import msgspec

from domain.core.errors import MalformedCommand, RuleViolation
from domain.riseandfall import tiles as catalogue
from domain.riseandfall.grid import Grid, grid_named
from domain.riseandfall.world import GRID, PlacedTile, Terrain, World, cell_of

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
    return RuleViolation(code, message, rule=RULE)


def _malformed(code: str, message: str) -> MalformedCommand:
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


# -- set-up -----------------------------------------------------------------------------


def _players(players: int, grid: str = "square") -> dict[str, int]:
    counts = catalogue.content(grid).counts.get(players)
    if counts is None:
        raise ValueError(f"Rise & Fall is played by 2 to 4 players, not {players}")
    return counts


def stage_counts(players: int, grid: str = "square") -> dict[str, int]:
    """How many tiles of each stage are laid ("Création du Monde" table).

    The initial seas (one per player) are not included: :func:`initial_world` lays them.

    >>> stage_counts(3)
    {'sea': 15, 'plain': 14, 'forest': 11, 'mountain': 8, 'glacier': 3}
    """
    counts = _players(players, grid)
    return {kind: counts[kind] for kind in STAGES}


def supply(players: int, grid: str = "square") -> list[tuple[str, int]]:
    """The ``(kind, shape)`` tiles to lay, in order (ASSUMED fixed box order, see tiles).

    >>> supply(2)[:3], len(supply(2))
    ([('sea', 0), ('sea', 1), ('sea', 2)], 38)
    """
    counts = stage_counts(players, grid)
    order = catalogue.box_order
    return [(kind, s) for kind in STAGES for s in order(kind, grid)[: counts[kind]]]


def initial_world(players: int, grid: str = "square") -> World:
    """The world with the initial sea tiles laid for ``players`` (ASSUMED layout).

    >>> w = initial_world(4)
    >>> len(w.tiles), sum(1 for t in w.terrain if t == Terrain.SEA)
    (4, 32)
    """
    _players(players, grid)
    world = World.empty(grid)
    for rotation, x, y in catalogue.content(grid).layouts[players]:
        cells = cells_at("initial", 0, rotation, x, y, grid)
        if cells is None or any(world.terrain[c] != _EMPTY for c in cells):
            raise catalogue.ContentError(f"initial layout for {players} players does not fit")
        world.tiles.append(PlacedTile("initial", 0, rotation, x, y, cells))
        for c in cells:
            world.terrain[c] = _SEA
    return world


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


# -- plains that do not fit: moving the minimum number of plains -------------------------


def _assignments(
    spots: Sequence[list[_Pos]], j: int, used: set[int], chosen: list[_Pos]
) -> Iterator[list[_Pos]]:
    """Every choice of one position per moved plain, pairwise disjoint and off ``used``."""
    if j == len(spots):
        yield list(chosen)
        return
    for spot in spots[j]:
        if used.isdisjoint(spot[3]):
            chosen.append(spot)
            used.update(spot[3])
            yield from _assignments(spots, j + 1, used, chosen)
            used.difference_update(spot[3])
            chosen.pop()


def _all_needed(new: _Pos, chosen: Sequence[_Pos], olds: Sequence[tuple[int, ...]]) -> bool:
    """``True`` if each moved plain's old cells are covered by the plain or another mover."""
    for m, old in enumerate(olds):
        cover = set(new[3])
        for i, spot in enumerate(chosen):
            if i != m:
                cover.update(spot[3])
        if cover.isdisjoint(old):
            return False
    return True


def _spots(
    shape: int,
    free: Sequence[bool],
    lifted: Sequence[int],
    settled: dict[int, list[_Pos]],
    grid: str,
) -> list[_Pos]:
    """Positions of a plain on ``free`` cells: those on cells free before lifting (computed
    once per shape in ``settled``) followed by those overlapping the lifted cells."""
    if shape not in settled:
        before = [f and c not in lifted for c, f in enumerate(free)]
        anchors = (c for c in range(_N) if before[c])
        settled[shape] = _positions("plain", shape, before, anchors, grid)
    return settled[shape] + _positions("plain", shape, free, lifted, grid)


def _plain_solutions(world: World, shape: int, k: int, first_only: bool) -> list[TilePlacement]:
    """Every legal placement of a plain that moves exactly ``k`` plains (``k >= 1``).

    Sound and complete when no placement moving fewer plains exists; then every moved
    plain's old cells are covered by the new plain or by another moved plain (otherwise
    leaving it in place would need fewer moves), which prunes the search.
    """
    free0 = [t == _SEA for t in world.terrain]
    plains = [
        i
        for i, t in enumerate(world.tiles)
        if t.kind == "plain" and all(world.terrain[c] == _LAYER["plain"] for c in t.cells)
    ]
    found: list[TilePlacement] = []
    settled: dict[int, list[_Pos]] = {}  # per shape: positions on cells free before lifting
    for combo in combinations(plains, k):
        olds = [world.tiles[i].cells for i in combo]
        free = free0[:]
        for cells in olds:
            for c in cells:
                free[c] = True
        lifted = [c for cells in olds for c in cells]
        news = _positions("plain", shape, free, lifted, world.grid)
        if not news:
            continue
        spots = [_spots(world.tiles[i].shape, free, lifted, settled, world.grid) for i in combo]
        for new in news:
            for chosen in _assignments(spots, 0, set(new[3]), []):
                if not _all_needed(new, chosen, olds):
                    continue
                moves = tuple(TileMove(combo[m], p[0], p[1], p[2]) for m, p in enumerate(chosen))
                found.append(TilePlacement("plain", shape, new[0], new[1], new[2], moves))
                if first_only:
                    return found
    return found


_MIN_CACHE: OrderedDict[bytes, int | None] = OrderedDict()


def movable_plains(world: World) -> int:
    """How many plains of the world could be moved (none of their cells covered)."""
    return sum(
        1
        for t in world.tiles
        if t.kind == "plain" and all(world.terrain[c] == _LAYER["plain"] for c in t.cells)
    )


def _fits_with_every_plain_lifted(world: World, shape: int) -> bool:
    """``True`` if plain ``shape`` has a position on the sea and the movable plains' cells
    (a necessary condition for any relocation: it prunes the exact search when none exists)."""
    free = [t == _SEA for t in world.terrain]
    for t in world.tiles:
        if t.kind == "plain" and all(world.terrain[c] == _LAYER["plain"] for c in t.cells):
            for c in t.cells:
                free[c] = True
    return bool(_positions("plain", shape, free, (c for c in range(_N) if free[c]), world.grid))


def minimum_moves(world: World, shape: int, max_moves: int | None = MAX_MOVES) -> int | None:
    """How many plains must be moved to lay plain ``shape`` now (0 if it fits as it is).

    ``max_moves`` bounds the search (``None``: every movable plain, the exact minimum of
    ``riseandfall/2``). ``None`` when even that many moves are not enough: the plain is set
    aside (``riseandfall/2``: only when no arrangement of every plain fits, see
    ``content/world_setup_hex.json``).
    """
    key = hashlib.sha256(
        msgspec.msgpack.encode([shape, world.tiles, world.grid, max_moves])
    ).digest()
    if key in _MIN_CACHE:
        _MIN_CACHE.move_to_end(key)
        return _MIN_CACHE[key]
    answer: int | None = None
    limit = movable_plains(world) if max_moves is None else max_moves
    if _layer_positions(world, "plain", shape):
        answer = 0
    elif max_moves is None and not _fits_with_every_plain_lifted(world, shape):
        answer = None  # pruned: no number of moves can make room
    else:
        for k in range(1, limit + 1):
            if _plain_solutions(world, shape, k, first_only=True):
                answer = k
                break
    _MIN_CACHE[key] = answer
    if len(_MIN_CACHE) > 256:
        _MIN_CACHE.popitem(last=False)
    return answer


# -- the rules ----------------------------------------------------------------------------


def _check_moves(world: World, placement: TilePlacement) -> None:
    """Check the moved plains of a plain placement and the plain itself after the moves."""
    moves = placement.moves
    indices = [m.tile for m in moves]
    if indices != sorted(set(indices)):
        raise _malformed("BAD_MOVES", "Moved tiles must be distinct and listed by tile index.")
    free = [t == _SEA for t in world.terrain]
    for m in moves:
        if not 0 <= m.tile < len(world.tiles) or world.tiles[m.tile].kind != "plain":
            raise _violation("MOVE_NOT_A_PLAIN", f"Tile {m.tile} is not a plain of the world.")
        tile = world.tiles[m.tile]
        if any(world.terrain[c] != _LAYER["plain"] for c in tile.cells):
            raise _violation("MOVE_COVERED", f"Plain {m.tile} is covered by another tile.")
        for c in tile.cells:
            free[c] = True
    for m in moves:
        shape = world.tiles[m.tile].shape
        cells = cells_at("plain", shape, m.rotation, m.x, m.y, world.grid)
        if cells is None:
            raise _violation("OFF_GRID", f"Moved plain {m.tile} would leave the table.")
        if not all(free[c] for c in cells):
            raise _violation("PLAIN_NOT_ON_SEA", f"Moved plain {m.tile} must lie on sea only.")
        for c in cells:
            free[c] = False
    cells = cells_at(
        "plain", placement.shape, placement.rotation, placement.x, placement.y, world.grid
    )
    if cells is None or not all(free[c] for c in cells):
        raise _violation("PLAIN_NOT_ON_SEA", "Every cell of a plain must cover a sea cell.")


def check_placement(
    world: World, placement: TilePlacement, max_moves: int | None = MAX_MOVES
) -> None:
    """Raise :class:`RuleViolation` (rule "Création du Monde") if the placement is illegal.

    The caller checks that the tile is the one to lay now (kind and shape of the supply).
    ``max_moves`` bounds the plains moved (see :func:`minimum_moves`).
    """
    kind = placement.kind
    if kind not in STAGES:
        raise _malformed("UNKNOWN_TILE", f"{kind!r} is not a tile kind; expected {STAGES}.")
    grid = world.grid
    cells = cells_at(kind, placement.shape, placement.rotation, placement.x, placement.y, grid)
    if cells is None:
        raise _violation("OFF_GRID", "The tile would leave the table.")
    if placement.moves and kind != "plain":
        raise _violation("MOVES_NOT_ALLOWED", "Only plains may be moved, to lay a plain.")
    if kind == "sea":
        error = _Board(world).sea_error(cells)
        if error is not None:
            raise _violation(*error)
        return
    if kind == "plain":
        if not placement.moves and all(world.terrain[c] == _SEA for c in cells):
            return
        if placement.moves:
            _check_moves(world, placement)
        needed = minimum_moves(world, placement.shape, max_moves)
        if needed is None:
            most = "every movable plain" if max_moves is None else f"{max_moves} plains"
            raise _violation(
                "PLAIN_SET_ASIDE",
                f"This plain fits nowhere even moving {most}: it is set aside.",
            )
        if not placement.moves and needed == 0:
            raise _violation("PLAIN_NOT_ON_SEA", "Every cell of a plain must cover a sea cell.")
        if len(placement.moves) != needed:
            raise _violation(
                "PLAIN_MOVES_NOT_MINIMAL",
                f"This plain fits only if exactly {needed} plain(s) are moved, "
                f"not {len(placement.moves)}.",
            )
        return
    below = _BELOW[kind]
    if any(world.terrain[c] != below for c in cells):
        name = Terrain(below).name.lower()
        raise _violation(
            f"{kind.upper()}_NOT_ON_{name.upper()}",
            f"Every cell of a {kind} tile must cover a {name} cell.",
        )


def legal_placements(
    world: World, kind: str, shape: int, max_moves: int | None = MAX_MOVES
) -> list[TilePlacement]:
    """Every legal way to lay tile ``kind``/``shape`` now, in a fixed order.

    Empty when the tile fits nowhere (it is set aside, ASSUMED). For a plain that needs
    moves, only the options moving the minimum number of plains are listed.
    """
    if kind not in STAGES or not 0 <= shape < catalogue.shape_count(kind, world.grid):
        raise _malformed("UNKNOWN_TILE", f"There is no {kind!r} tile shape {shape}.")
    if kind == "sea":
        positions = _sea_positions(_Board(world), shape)
    elif kind == "plain":
        needed = minimum_moves(world, shape, max_moves)
        if needed is None:
            return []
        if needed:
            return _plain_solutions(world, shape, needed, first_only=False)
        positions = _layer_positions(world, kind, shape)
    else:
        positions = _layer_positions(world, kind, shape)
    return [TilePlacement(kind, shape, r, x, y) for r, x, y, _ in positions]


def place(world: World, placement: TilePlacement) -> None:
    """Lay a tile (after moving plains if any); assumes :func:`check_placement` passed."""
    lifted: list[int] = []
    for m in placement.moves:
        lifted.extend(world.tiles[m.tile].cells)
    for c in lifted:
        world.terrain[c] = _SEA
    for m in placement.moves:
        old = world.tiles[m.tile]
        cells = cells_at("plain", old.shape, m.rotation, m.x, m.y, world.grid)
        assert cells is not None
        world.tiles[m.tile] = PlacedTile("plain", old.shape, m.rotation, m.x, m.y, cells)
        for c in cells:
            world.terrain[c] = _LAYER["plain"]
    kind = placement.kind
    cells = cells_at(
        kind, placement.shape, placement.rotation, placement.x, placement.y, world.grid
    )
    assert cells is not None
    world.tiles.append(
        PlacedTile(kind, placement.shape, placement.rotation, placement.x, placement.y, cells)
    )
    layer = _LAYER[kind]
    for c in cells:
        world.terrain[c] = layer
