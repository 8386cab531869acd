"""The plain relocation search as it was before pruning (rulebook "Création du Monde": "il DOIT
déplacer un nombre minimum de tuile de Plaine de son choix"): every combination of ``k`` plains,
every position of the new plain and every assignment of positions to the lifted plains.

Kept verbatim as the reference the engine's pruned search (``domain.riseandfall.relocation``)
must match exactly, on seeded worlds (``tests/riseandfall/test_relocation.py``), and timed
against it by ``tests/bench/riseandfall_world.py``. No cache.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

from domain.riseandfall.placement import _LAYER, _N, _SEA, TileMove, TilePlacement, _Pos
from domain.riseandfall.relocation import movable_plains
from domain.riseandfall.world import World
from domain.riseandfall.worldboard import _layer_positions, _positions


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


def _fits_with_every_plain_lifted(world: World, shape: int) -> bool:
    """``True`` if plain ``shape`` has a position on the sea and the movable plains' cells."""
    free = [t == _SEA for t in world.terrain]
    for t in world.tiles:
        if t.kind == "plain" and all(world.terrain[c] == _LAYER["plain"] for c in t.cells):
            for c in t.cells:
                free[c] = True
    return bool(_positions("plain", shape, free, (c for c in range(_N) if free[c]), world.grid))


def unpruned_minimum_moves(world: World, shape: int, max_moves: int | None = None) -> int | None:
    """How many plains must be moved to lay plain ``shape`` (0 if it fits); ``None``: no
    number up to ``max_moves`` (``None``: every movable plain) is enough."""
    limit = movable_plains(world) if max_moves is None else max_moves
    if _layer_positions(world, "plain", shape):
        return 0
    if max_moves is None and not _fits_with_every_plain_lifted(world, shape):
        return None
    for k in range(1, limit + 1):
        if _plain_solutions(world, shape, k, first_only=True):
            return k
    return None


def unpruned_relocations(
    world: World, shape: int, max_moves: int | None = None
) -> list[TilePlacement]:
    """Every minimal relocation laying plain ``shape``, in the engine's order (``[]`` when it
    fits without moves or not at all)."""
    needed = unpruned_minimum_moves(world, shape, max_moves)
    if not needed:
        return []
    return _plain_solutions(world, shape, needed, first_only=False)
