"""The plain relocation search, pruned (rulebook "Création du Monde": "il DOIT déplacer un
nombre minimum de tuile de Plaine de son choix afin de pouvoir positionner sa tuile").

The engine's cascade search (:mod:`domain.riseandfall.relocation`) must find exactly what the
exhaustive search it replaced finds (kept in :mod:`tests.riseandfall.unpruned_relocation`): the
same minimum number of plains moved (or none possible) and the same legal actions in the same
order, on seeded worlds packed with plains until one fits nowhere (hexes for ``riseandfall/2``,
squares with at most 2 moves for ``riseandfall/1``). Symmetric duplicates never arise: a tile's
positions cover pairwise distinct sets of cells.
"""

from __future__ import annotations

import pytest

from domain.riseandfall import tiles as catalogue
from domain.riseandfall.placement import MAX_MOVES
from domain.riseandfall.relocation import _MIN_CACHE
from domain.riseandfall.world import Terrain
from domain.riseandfall.worldboard import _layer_positions
from domain.riseandfall.worldbuild import legal_placements, minimum_moves
from tests.riseandfall.packed_worlds import packed_world
from tests.riseandfall.unpruned_relocation import unpruned_minimum_moves, unpruned_relocations

#: (seed, sea cells, tight packing): seeded hex worlds where the next plain fits nowhere, the
#: exhaustive search quick enough for a test on each (minimum 1 to 3 moves, or no room at all).
HEX_CASES = [(seed, size, False) for seed in range(6) for size in (40, 56)] + [
    (0, 48, True),
    (5, 48, True),
]


@pytest.mark.parametrize(("seed", "size", "tight"), HEX_CASES)
def test_pruned_search_finds_the_same_minimal_relocations(
    seed: int, size: int, tight: bool
) -> None:
    """ "Création du Monde" on hexes (``riseandfall/2``, no bound on the plains moved): same
    minimum and the same minimal relocations, in the same order, as the exhaustive search."""
    world, shape = packed_world(seed, size, tight)
    assert not _layer_positions(world, "plain", shape)
    _MIN_CACHE.clear()
    needed = minimum_moves(world, shape, None)
    assert needed == unpruned_minimum_moves(world, shape, None)
    found = legal_placements(world, "plain", shape, None)
    assert found == unpruned_relocations(world, shape, None)
    if needed is None:  # no arrangement of the plains leaves room: set aside (assumed)
        assert found == []
    else:
        assert found and {len(p.moves) for p in found} == {needed} and needed >= 1


@pytest.mark.parametrize("seed", range(6))
def test_pruned_search_with_the_square_bound(seed: int) -> None:
    """``riseandfall/1`` (squares, at most ``MAX_MOVES`` plains moved, else set aside): the
    pruned search gives the same answer and the same legal actions."""
    world, shape = packed_world(seed, 40, False, "square")
    _MIN_CACHE.clear()
    needed = minimum_moves(world, shape, MAX_MOVES)
    assert needed == unpruned_minimum_moves(world, shape, MAX_MOVES)
    found = legal_placements(world, "plain", shape, MAX_MOVES)
    if needed:
        assert found == unpruned_relocations(world, shape, MAX_MOVES)
    else:
        assert found == []


@pytest.mark.parametrize("grid", ["hex", "square"])
def test_a_tiles_positions_never_repeat_a_set_of_cells(grid: str) -> None:
    """Symmetry: rotations and reflections giving the same cells are one orientation, so no
    two positions of a tile cover the same cells (nothing to prune twice)."""
    for kind in ("plain", "forest", "mountain", "glacier"):
        for shape in range(catalogue.shape_count(kind, grid)):
            cells = [o.cells for o in catalogue.orientations(kind, shape, grid)]
            assert len(set(cells)) == len(cells)
    world, _ = packed_world(1, 56, False, grid)
    sea, empty = int(Terrain.SEA), int(Terrain.EMPTY)
    world.terrain = [empty if t == empty else sea for t in world.terrain]  # plains lifted
    for shape in range(catalogue.shape_count("plain", grid)):
        positions = _layer_positions(world, "plain", shape)
        assert len({p[3] for p in positions}) == len(positions) > 0
