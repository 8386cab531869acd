"""The hexagonal geometry of ``riseandfall/2`` (:mod:`domain.riseandfall.hexgrid`), exhaustively.

The rule: "the world is made of hexagons" — every cell has six neighbours, tiles turn
by sixths of a turn and may be mirrored. These tests check the geometry on its own: neighbour
symmetry on the whole table, the rotation group of order 6, the reflection, distances against
a breadth-first search, flood fill against a brute-force closure, and the offset-row mapping.
"""

from __future__ import annotations

from collections import deque

from domain.core import Chance
from domain.riseandfall.grid import SIZE
from domain.riseandfall.grids import grid_named
from domain.riseandfall.hexgrid import HEX, axial_of, offset_of
from domain.riseandfall.squaregrid import SQUARE

ALL = range(SIZE * SIZE)


def test_every_neighbour_relation_is_symmetric_and_six_inside() -> None:
    """Neighbours are mutual; an inner cell has exactly six, distinct, at distance 1."""
    for cell in ALL:
        around = HEX.neighbours[cell]
        assert len(set(around)) == len(around)
        for n in around:
            assert cell in HEX.neighbours[n]
            assert HEX.distance(cell, n) == 1
        q, r = HEX.xy(cell)
        inner = 0 < q < SIZE - 1 and 0 < r < SIZE - 1
        assert (len(around) == 6) if inner else (2 <= len(around) < 6)


def test_rotation_group_has_order_six_and_preserves_adjacency() -> None:
    """Six turns give back every point; no fewer do (except the centre); turns keep
    neighbours neighbours, so a turned tile is still connected."""
    steps = set(HEX.steps())
    for q in range(-4, 5):
        for r in range(-4, 5):
            point = (q, r)
            seen = [point]
            for _ in range(6):
                seen.append(HEX.turn(*seen[-1]))
            assert seen[6] == point
            if point != (0, 0):
                assert len(set(seen[:6])) == 6
    for dq, dr in steps:
        assert HEX.turn(dq, dr) in steps
        assert HEX.mirror(dq, dr) in steps


def test_reflection_is_an_involution_not_a_rotation() -> None:
    """Mirroring twice is the identity; a chiral shape's mirror is none of its rotations;
    mirror and turn generate the 12 symmetries (dihedral group of order 12)."""
    for q in range(-3, 4):
        for r in range(-3, 4):
            assert HEX.mirror(*HEX.mirror(q, r)) == (q, r)
    chiral = [(0, 0), (1, 0), (2, 0), (0, 1)]  # a bent line of four
    turns = {HEX.orient(chiral, k) for k in range(6)}
    mirrored = {HEX.orient(chiral, 6 + k) for k in range(6)}
    assert len(turns) == 6 and len(mirrored) == 6 and turns.isdisjoint(mirrored)
    flower = [(1, 0), (2, 0), (0, 1), (1, 1), (2, 1), (0, 2), (1, 2)]
    assert len({HEX.orient(flower, k) for k in range(12)}) == 1


def test_distance_equals_breadth_first_steps() -> None:
    """Hex distance equals the number of steps of a breadth-first search from the cell."""
    for source in (HEX.cell_of(20, 20), HEX.cell_of(5, 33), HEX.cell_of(0, 0)):
        depth = {source: 0}
        queue = deque([source])
        while queue:
            cell = queue.popleft()
            for n in HEX.neighbours[cell]:
                if n not in depth:
                    depth[n] = depth[cell] + 1
                    queue.append(n)
        assert len(depth) == SIZE * SIZE
        assert all(HEX.distance(source, c) == d for c, d in depth.items())


def _closure(starts: list[int], passable: set[int]) -> set[int]:
    """Brute force: grow the set until no passable neighbour is missing."""
    reached = {c for c in starts if c in passable}
    while True:
        more = {
            n
            for c in ALL
            if c in reached
            for n in HEX.neighbours[c]
            if n in passable and n not in reached
        }
        if not more:
            return reached
        reached |= more


def test_flood_fill_matches_brute_force() -> None:
    """Flood fill from random starts through random passable cells equals the closure."""
    chance = Chance(b"hexflood", 0)
    window = [HEX.cell_of(q, r) for q in range(10, 22) for r in range(10, 22)]
    for _ in range(25):
        passable = {c for c in window if chance.below(100) < 55}
        starts = [window[chance.below(len(window))] for _ in range(2)]
        assert set(HEX.flood(starts, passable.__contains__)) == _closure(starts, passable)


def test_offset_rows_map_back_to_axial() -> None:
    """Offset rows ("odd-r") and axial coordinates convert both ways; neighbours in offset
    rows are the six a drawing shows (same row, and two on each adjacent row)."""
    for q in range(SIZE):
        for r in range(SIZE):
            assert axial_of(*offset_of(q, r)) == (q, r)
    col, row = offset_of(10, 7)
    around = {offset_of(*HEX.xy(n)) for n in HEX.neighbours[HEX.cell_of(10, 7)]}
    assert around == {
        (col - 1, row),
        (col + 1, row),
        (col, row - 1),
        (col + 1, row - 1),
        (col, row + 1),
        (col + 1, row + 1),
    }


def test_both_grids_share_the_cell_numbering() -> None:
    """The square world keeps its 4 neighbours (N, E, S, W) and 8 orientations."""
    assert grid_named("square") is SQUARE and grid_named("hex") is HEX
    c = SQUARE.cell_of(5, 5)
    assert SQUARE.neighbours[c] == (c - SIZE, c + 1, c + SIZE, c - 1)
    assert SQUARE.distance(c, SQUARE.cell_of(7, 8)) == 5
    assert HEX.cell_of(5, 5) == c
