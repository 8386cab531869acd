"""Plains that do not fit: moving the minimum number of plains ("Création du Monde": "Si un
joueur ne dispose pas de l'espace nécessaire pour poser une tuile de Plaine, il DOIT déplacer un
nombre minimum de tuile de Plaine de son choix afin de pouvoir positionner sa tuile").

A relocation lays the new plain and moves ``k`` plains of the world (lifted together, laid again
on sea cells or on cells another moved plain left), every tile on distinct cells. Only plains
with no tile on them can move.

The search is a cascade from the new plain, pruned by cells:

* every position of the new plain that lies on sea and movable plains' cells; the plains it
  overlaps *must* move (a position overlapping none needs no move);
* of the plains that must move and have no new position yet, the one with the fewest open
  positions (on cells still free: sea or lifted plains, off the new plain and the positions
  already taken; forcing at most the moves left) takes each of them in turn, the lowest
  numbered on a tie; the plains that position overlaps must move too;
* a branch stops as soon as more than ``k`` plains must move, or a waiting plain has no open
  position; a state (plains that must move, plains placed, cells taken) that led nowhere is
  remembered for this ``k`` and not explored again (moved plains of the same shape trading
  positions reach the same state: that symmetry is explored once).

So only moved sets reachable from the new plain are visited, where an exhaustive search tries
every combination of ``k`` plains and every position of each. It finds exactly the minimal
relocations: in a relocation moving the least number of plains, each moved plain's old cells
are covered by the new plain or by another moved plain (else it could stay, one move fewer),
which is exactly the set the cascade builds; conversely everything the cascade builds is a
relocation. Each one is reached by a single path (the plain to place next is a function of
the state). The legal actions are then sorted in the exhaustive search's order: by moved
plains, new position (rotation, row, column), then each moved plain's position (those on sea
first). Symmetric duplicates cannot arise: a tile's orientations are distinct as sets of cells
(:func:`domain.riseandfall.tiles.orientations`), so two positions never cover the same cells.

``tests/riseandfall/test_relocation.py`` compares it with the exhaustive search kept in
``tests/riseandfall/unpruned_relocation.py``; ``tests/bench/riseandfall_world.py`` times both.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Iterator

import msgspec

from domain.riseandfall.placement import _LAYER, _N, _SEA, MAX_MOVES, TileMove, TilePlacement
from domain.riseandfall.world import World
from domain.riseandfall.worldboard import _layer_positions, _positions

_PLAIN = _LAYER["plain"]

#: a position of a plain in the cascade: (rotation, x, y, cells as a bit mask, plains it
#: overlaps as a bit mask, on sea only).
_Spot = tuple[int, int, int, int, int, bool]


def movable(world: World) -> list[int]:
    """Indices of the plains of the world that could be moved (none of their cells covered)."""
    return [
        i
        for i, t in enumerate(world.tiles)
        if t.kind == "plain" and all(world.terrain[c] == _PLAIN for c in t.cells)
    ]


def movable_plains(world: World) -> int:
    """How many plains of the world could be moved (none of their cells covered)."""
    return len(movable(world))


class _Cascade:
    """The cascade search of the relocations of one plain in one world.

    Cells and sets of plains are bit masks. A state of the search is the set of plains that
    must move, those already given a position and the cells taken; a state found to lead to no
    relocation is remembered (per bound) and never explored again. That is where symmetry is
    pruned: moved plains of the same shape swapping their positions, or different orders of
    the same positions, reach the same state.
    """

    def __init__(self, world: World, shape: int) -> None:
        self.grid = world.grid
        self.shapes = [t.shape for t in world.tiles]  # each tile's shape, by tile index
        self.shape = shape
        self.owner = [-1] * _N  # the movable plain on each cell
        for i in movable(world):
            for c in world.tiles[i].cells:
                self.owner[c] = i
        self.open = [t == _SEA or self.owner[c] >= 0 for c, t in enumerate(world.terrain)]
        self._spots: dict[int, list[_Spot]] = {}
        self._dead: set[tuple[int, int, int]] = set()
        self._bound = 0

    def spots(self, shape: int) -> list[_Spot]:
        """Every position of a plain ``shape`` on sea and movable plains' cells."""
        if shape not in self._spots:
            anchors = (c for c in range(_N) if self.open[c])
            found: list[_Spot] = []
            for rotation, x, y, cells in _positions("plain", shape, self.open, anchors, self.grid):
                over = 0
                for c in cells:
                    if self.owner[c] >= 0:
                        over |= 1 << self.owner[c]
                mask = sum(1 << c for c in cells)
                found.append((rotation, x, y, mask, over, not over))
            self._spots[shape] = found
        return self._spots[shape]

    def _open_spots(self, shape: int, moved: int, used: int, room: int) -> list[_Spot]:
        """The spots of a plain ``shape`` off the ``used`` cells that make at most ``room`` more
        plains move."""
        found: list[_Spot] = []
        for spot in self.spots(shape):
            if not used & spot[3]:
                more = spot[4] & ~moved
                if not more or more.bit_count() <= room:
                    found.append(spot)
        return found

    def search(self, bound: int) -> Iterator[tuple[_Spot, dict[int, _Spot]]]:
        """Every relocation moving at most ``bound`` plains (at least one): the new plain's
        position and each moved plain's."""
        self._dead = set()
        self._bound = bound
        for new in self.spots(self.shape):
            if new[4] and new[4].bit_count() <= bound:
                yield from self._assign(new, new[4], {}, new[3])

    def _assign(
        self, new: _Spot, moved: int, placed: dict[int, _Spot], used: int
    ) -> Iterator[tuple[_Spot, dict[int, _Spot]]]:
        """The relocations completing a state (``moved`` plains, ``placed`` ones, ``used``
        cells)."""
        placed_mask = sum(1 << m for m in placed)
        waiting = moved & ~placed_mask
        if not waiting:
            yield new, dict(placed)
            return
        state = (moved, placed_mask, used)
        if state in self._dead:
            return
        room = self._bound - moved.bit_count()
        shapes = self.shapes
        options: dict[int, list[_Spot]] = {}  # per shape: the spots still open
        mover, choices = -1, list[_Spot]()
        for m in _bits(waiting):  # the plain with the fewest open spots goes first
            shape = shapes[m]
            if shape not in options:
                options[shape] = self._open_spots(shape, moved, used, room)
            if mover < 0 or len(options[shape]) < len(choices):
                mover, choices = m, options[shape]
            if not choices:
                break
        found = False
        for spot in choices:
            placed[mover] = spot
            for result in self._assign(new, moved | spot[4], placed, used | spot[3]):
                found = True
                yield result
            del placed[mover]
        if not found:
            self._dead.add(state)


def _bits(mask: int) -> Iterator[int]:
    """The numbers of the bits set in ``mask``, ascending."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _placement(shape: int, new: _Spot, placed: dict[int, _Spot]) -> TilePlacement:
    moves = tuple(TileMove(m, *placed[m][:3]) for m in sorted(placed))
    return TilePlacement("plain", shape, new[0], new[1], new[2], moves)


def _order(new: _Spot, placed: dict[int, _Spot]) -> tuple[object, ...]:
    """The exhaustive search's order: moved plains, new position, moved positions (on sea
    first, then by rotation, row, column)."""
    return (
        tuple(sorted(placed)),
        (new[0], new[2], new[1]),
        tuple(
            (0 if placed[m][5] else 1, placed[m][0], placed[m][2], placed[m][1])
            for m in sorted(placed)
        ),
    )


def plain_solutions(world: World, shape: int, k: int, first_only: bool) -> list[TilePlacement]:
    """Every legal placement of a plain that moves exactly ``k`` plains (``k >= 1``), in a
    fixed order; sound and complete when no placement moving fewer plains exists."""
    cascade = _cascade_for(world, shape)
    found: list[tuple[tuple[object, ...], TilePlacement]] = []
    for new, placed in cascade.search(k):
        if len(placed) != k:
            continue
        found.append((_order(new, placed), _placement(shape, new, placed)))
        if first_only:
            break
    found.sort(key=lambda item: item[0])
    return [placement for _, placement in found]


_MIN_CACHE: OrderedDict[bytes, int | None] = OrderedDict()
#: the last cascades built, by world and shape: their positions serve the minimum and then
#: the legal actions.
_CASCADES: OrderedDict[bytes, _Cascade] = OrderedDict()


def _cascade_for(world: World, shape: int) -> _Cascade:
    """The cascade search of plain ``shape`` in ``world`` (reused while the world is equal)."""
    key = hashlib.sha256(
        msgspec.msgpack.encode([shape, world.tiles, world.terrain, world.grid])
    ).digest()
    if key in _CASCADES:
        _CASCADES.move_to_end(key)
        return _CASCADES[key]
    cascade = _CASCADES[key] = _Cascade(world, shape)
    if len(_CASCADES) > 8:
        _CASCADES.popitem(last=False)
    return cascade


def _fits_with_every_plain_lifted(world: World, shape: int) -> bool:
    """``True`` if plain ``shape`` has a position on the sea and the movable plains' cells
    (a necessary condition for any relocation: it prunes the exact search when none exists)."""
    return bool(_cascade_for(world, shape).spots(shape))


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
        cascade = _cascade_for(world, shape)
        for k in range(1, limit + 1):
            if next(cascade.search(k), None) is not None:
                answer = k
                break
    _MIN_CACHE[key] = answer
    if len(_MIN_CACHE) > 256:
        _MIN_CACHE.popitem(last=False)
    return answer
