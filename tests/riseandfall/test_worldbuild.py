"""Tests of building the Rise & Fall world (``worldbuild.py``), rulebook "Création du Monde"."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.core.chance import Chance
from domain.core.errors import MalformedCommand, RuleViolation
from domain.riseandfall import tiles
from domain.riseandfall.world import GRID, PlacedTile, Terrain, World, cell_of, geometry
from domain.riseandfall.worldbuild import (
    STAGES,
    TileMove,
    TilePlacement,
    check_placement,
    initial_world,
    legal_placements,
    minimum_moves,
    place,
    stage_counts,
    supply,
)
from domain.riseandfall.worldrandom import random_world


def sea_world(rows: list[str], x0: int = 10, y0: int = 10) -> World:
    """A world of hand-made sea tiles: each letter of the map is one tile, ``.`` is empty."""
    world = World.empty()
    labels = sorted({ch for row in rows for ch in row if ch != "."})
    for label in labels:
        cells = tuple(
            sorted(
                cell_of(x0 + dx, y0 + dy)
                for dy, row in enumerate(rows)
                for dx, ch in enumerate(row)
                if ch == label
            )
        )
        world.tiles.append(PlacedTile("sea", 0, 0, x0, y0, cells))
        for c in cells:
            world.terrain[c] = Terrain.SEA
    return world


def replayed_terrain(world: World) -> list[int]:
    """The terrain obtained by stacking the world's tiles in order."""
    layer = {"initial": 0, "sea": 0, "plain": 1, "forest": 2, "mountain": 3, "glacier": 4}
    terrain = [-1] * (GRID * GRID)
    for tile in world.tiles:
        for c in tile.cells:
            terrain[c] = layer[tile.kind]
    return terrain


def enclosed_empty_cells(world: World) -> int:
    """Empty cells not joined to the grid's edge through empty cells sharing sides."""
    reach = [False] * (GRID * GRID)
    todo = [
        c
        for c in range(GRID * GRID)
        if world.terrain[c] < 0 and (c % GRID in (0, GRID - 1) or c // GRID in (0, GRID - 1))
    ]
    for c in todo:
        reach[c] = True
    while todo:
        c = todo.pop()
        x, y = c % GRID, c // GRID
        for nx, ny in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
            if 0 <= nx < GRID and 0 <= ny < GRID:
                n = cell_of(nx, ny)
                if world.terrain[n] < 0 and not reach[n]:
                    reach[n] = True
                    todo.append(n)
    return sum(1 for c in range(GRID * GRID) if world.terrain[c] < 0 and not reach[c])


def accepted(world: World, placement: TilePlacement) -> bool:
    try:
        check_placement(world, placement)
    except RuleViolation:
        return False
    return True


def code_of(world: World, placement: TilePlacement) -> str:
    with pytest.raises(RuleViolation) as info:
        check_placement(world, placement)
    assert info.value.rule == "Création du Monde"
    return info.value.code


# -- set-up -------------------------------------------------------------------------------


def test_stage_counts_follow_the_rulebook_table() -> None:
    """Création du Monde: the table of tiles per player count (2p 12/10/8/6/2...)."""
    assert stage_counts(2) == {"sea": 12, "plain": 10, "forest": 8, "mountain": 6, "glacier": 2}
    assert stage_counts(3) == {"sea": 15, "plain": 14, "forest": 11, "mountain": 8, "glacier": 3}
    assert stage_counts(4) == {"sea": 19, "plain": 17, "forest": 15, "mountain": 11, "glacier": 4}
    with pytest.raises(ValueError):
        stage_counts(5)
    for players in (2, 3, 4):
        kinds = [kind for kind, _ in supply(players)]
        assert kinds == [k for k in STAGES for _ in range(stage_counts(players)[k])]
    assert supply(4)[:5] == [("sea", 0), ("sea", 1), ("sea", 2), ("sea", 3), ("sea", 0)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_initial_world(players: int) -> None:
    """Création du Monde: 2 to 4 initial 8-cell seas in the centre, forming one sea."""
    world = initial_world(players)
    assert [t.kind for t in world.tiles] == ["initial"] * players
    assert sum(1 for t in world.terrain if t == Terrain.SEA) == 8 * players
    assert world.terrain == replayed_terrain(world)
    assert len(geometry(world).regions) == 1
    assert enclosed_empty_cells(world) == 0


# -- seas ---------------------------------------------------------------------------------

POCKET = [
    "aaaaabbbbb",
    "aaaa.bbbbb",
]


def test_sea_accepted_touching_two_tiles() -> None:
    """Création du Monde (Mer): a sea touching 2 tiles and closing nothing is legal."""
    world = sea_world(POCKET)
    fill = TilePlacement("sea", 0, 2, 13, 11)  # the tab fills the pocket
    check_placement(world, fill)
    place(world, fill)
    assert world.at(cell_of(14, 11)) is Terrain.SEA
    assert enclosed_empty_cells(world) == 0


def test_sea_rejected_touching_one_tile() -> None:
    """Création du Monde (Mer): the new sea must touch at least 2 sea tiles of the world."""
    world = sea_world(POCKET)
    assert code_of(world, TilePlacement("sea", 0, 0, 10, 12)) == "SEA_MUST_TOUCH_TWO"
    big_single = sea_world(["aaaaaaaaaa", "aaaa.aaaaa"])
    assert code_of(big_single, TilePlacement("sea", 0, 2, 13, 11)) == "SEA_MUST_TOUCH_TWO"


def test_sea_rejected_closing_an_empty_area() -> None:
    """Création du Monde (Mer): a sea may not close an area of empty cells."""
    world = sea_world(POCKET)
    closing = TilePlacement("sea", 0, 0, 13, 12)  # the block seals the pocket from below
    assert code_of(world, closing) == "SEA_ENCLOSES_EMPTY"
    # A diagonal gap does not let the area out: cells must share a side (ASSUMED).
    diagonal = sea_world([".....c", "a.bbbc", "aaabbc"])
    assert enclosed_empty_cells(diagonal) == 0
    # covers (11, 10) above the pocket (11, 11) but leaves its diagonal (10, 10) empty
    assert code_of(diagonal, TilePlacement("sea", 2, 6, 11, 9)) == "SEA_ENCLOSES_EMPTY"


def test_sea_rejected_overlapping_or_off_grid() -> None:
    """Création du Monde (Mer): a sea lies on the empty table, inside the grid (ASSUMED)."""
    world = sea_world(POCKET)
    assert code_of(world, TilePlacement("sea", 0, 0, 11, 10)) == "SEA_OVERLAP"
    assert code_of(world, TilePlacement("sea", 0, 0, GRID - 2, 0)) == "OFF_GRID"
    assert code_of(world, TilePlacement("plain", 0, 2, 10, 10)) == "REPEATED_ORIENTATION"
    with pytest.raises(MalformedCommand):
        check_placement(world, TilePlacement("lake", 0, 0, 10, 10))
    with pytest.raises(MalformedCommand):
        check_placement(world, TilePlacement("sea", 9, 0, 10, 10))


def brute_force(world: World, kind: str, shapes: list[int], window: range) -> set[TilePlacement]:
    """Every placement without moves anchored in the window that check_placement accepts."""
    found = set()
    for shape in shapes:
        for rotation in range(8):
            for x in window:
                for y in window:
                    p = TilePlacement(kind, shape, rotation, x, y)
                    if accepted(world, p):
                        found.add(p)
    return found


def test_legal_seas_sound_and_complete() -> None:
    """Création du Monde (Mer): legal_placements lists exactly the accepted seas."""
    world = initial_world(2)  # cells x 17..22, y 19..21
    listed = [p for s in range(tiles.shape_count("sea")) for p in legal_placements(world, "sea", s)]
    assert len(listed) == len(set(listed)) > 0
    assert all(accepted(world, p) for p in listed)
    assert set(listed) == brute_force(
        world, "sea", list(range(tiles.shape_count("sea"))), range(12, 25)
    )


# -- plains -------------------------------------------------------------------------------


def test_plain_only_on_sea() -> None:
    """Création du Monde (Plaine): every cell covers a sea, never the void nor a plain."""
    world = sea_world(["aaaaaaa", "aaaaaaa", "aaaaaaa"])
    first = TilePlacement("plain", 0, 0, 10, 10)
    check_placement(world, first)
    place(world, first)
    assert code_of(world, TilePlacement("plain", 0, 0, 12, 10)) == "PLAIN_NOT_ON_SEA"  # plain
    assert code_of(world, TilePlacement("plain", 0, 0, 15, 12)) == "PLAIN_NOT_ON_SEA"  # void
    check_placement(world, TilePlacement("plain", 0, 0, 14, 10))  # an island: allowed
    assert set(legal_placements(world, "plain", 0)) == brute_force(
        world, "plain", [0], range(6, 18)
    )


def cramped() -> World:
    """A 3x4 sea with a 3x2 plain across its middle rows: a second plain cannot fit."""
    world = sea_world(["aaa", "aaa", "aaa", "aaa"])
    place(world, TilePlacement("plain", 0, 0, 10, 11))
    return world


def test_plain_forced_minimal_move() -> None:
    """Création du Monde (Plaine): with no room, the player MUST move a minimum of plains."""
    world = cramped()
    assert minimum_moves(world, 0) == 1
    options = legal_placements(world, "plain", 0)
    assert options == [
        TilePlacement("plain", 0, 0, 10, 10, (TileMove(1, 0, 10, 12),)),
        TilePlacement("plain", 0, 0, 10, 12, (TileMove(1, 0, 10, 10),)),
    ]
    assert code_of(world, TilePlacement("plain", 0, 0, 10, 10)) == "PLAIN_MOVES_NOT_MINIMAL"
    bad_move = TilePlacement("plain", 0, 0, 10, 10, (TileMove(1, 0, 10, 11),))
    assert code_of(world, bad_move) == "PLAIN_NOT_ON_SEA"
    not_plain = TilePlacement("plain", 0, 0, 10, 10, (TileMove(0, 0, 10, 12),))
    assert code_of(world, not_plain) == "MOVE_NOT_A_PLAIN"
    place(world, options[0])
    assert world.tiles[1].y == 12 and world.tiles[2].y == 10
    assert world.terrain == replayed_terrain(world)
    assert all(
        world.at(cell_of(10 + dx, 10 + dy)) is Terrain.PLAIN for dx in range(3) for dy in (0, 1)
    )


def test_plain_moves_complete_by_brute_force() -> None:
    """Création du Monde (Plaine): every accepted plain with 0 or 1 move is listed."""
    world = cramped()
    window = range(8, 14)
    accepted_set = set()
    for rotation in (0, 1):
        for x in window:
            for y in window:
                if accepted(world, TilePlacement("plain", 0, rotation, x, y)):
                    accepted_set.add(TilePlacement("plain", 0, rotation, x, y))
                for mr in (0, 1):
                    for mx in window:
                        for my in window:
                            move = (TileMove(1, mr, mx, my),)
                            p = TilePlacement("plain", 0, rotation, x, y, move)
                            if accepted(world, p):
                                accepted_set.add(p)
    assert accepted_set == set(legal_placements(world, "plain", 0))


def test_moves_are_refused_when_the_plain_fits() -> None:
    """Création du Monde (Plaine): moving plains is allowed only when the plain cannot fit."""
    world = sea_world(["aaa"] * 6)
    place(world, TilePlacement("plain", 0, 0, 10, 11))
    direct = TilePlacement("plain", 0, 0, 10, 13)
    check_placement(world, direct)
    moved = TilePlacement("plain", 0, 0, 10, 10, (TileMove(1, 0, 10, 14),))
    assert code_of(world, moved) == "PLAIN_MOVES_NOT_MINIMAL"
    assert code_of(world, TilePlacement("sea", 0, 0, 20, 20, (TileMove(1, 0, 10, 14),))) == (
        "MOVES_NOT_ALLOWED"
    )


def test_plain_needing_two_moves() -> None:
    """Création du Monde (Plaine): when one move is not enough, the minimum is two."""
    world = sea_world(["aaa"] * 6)
    place(world, TilePlacement("plain", 0, 0, 10, 11))
    place(world, TilePlacement("plain", 0, 0, 10, 13))
    assert minimum_moves(world, 0) == 2
    options = legal_placements(world, "plain", 0)
    assert len(options) == 6
    assert all(len(p.moves) == 2 and accepted(world, p) for p in options)
    one = TilePlacement("plain", 0, 0, 10, 10, (TileMove(1, 0, 10, 12),))
    assert code_of(world, one) == "PLAIN_NOT_ON_SEA"
    place(world, options[0])
    assert sum(1 for t in world.terrain if t == Terrain.PLAIN) == 18
    assert world.terrain == replayed_terrain(world)
    assert minimum_moves(world, 0) is None  # nowhere, even moving 2: set aside (ASSUMED)
    assert legal_placements(world, "plain", 0) == []
    assert code_of(world, TilePlacement("plain", 0, 0, 10, 10)) == "PLAIN_SET_ASIDE"


# -- forests, mountains, glaciers ---------------------------------------------------------


def test_layers_stack_forest_mountain_glacier() -> None:
    """Création du Monde: forests only on plains, mountains on forests, glaciers on mountains."""
    world = sea_world(["aaa", "aaa", "aaa"])
    place(world, TilePlacement("plain", 0, 0, 10, 10))
    assert code_of(world, TilePlacement("forest", 0, 0, 10, 11)) == "FOREST_NOT_ON_PLAIN"
    assert code_of(world, TilePlacement("mountain", 0, 0, 10, 10)) == "MOUNTAIN_NOT_ON_FOREST"
    forest = TilePlacement("forest", 0, 0, 10, 10)
    check_placement(world, forest)
    place(world, forest)
    assert code_of(world, TilePlacement("glacier", 0, 0, 10, 10)) == "GLACIER_NOT_ON_MOUNTAIN"
    assert code_of(world, TilePlacement("forest", 0, 0, 11, 10)) == "FOREST_NOT_ON_PLAIN"
    mountain = TilePlacement("mountain", 0, 0, 10, 10)
    check_placement(world, mountain)
    place(world, mountain)
    assert legal_placements(world, "glacier", 0) == [
        TilePlacement("glacier", 0, 0, 10, 10),
        TilePlacement("glacier", 0, 1, 10, 10),
    ]
    place(world, TilePlacement("glacier", 0, 0, 10, 10))
    top = [world.at(cell_of(x, y)).name for y in (10, 11, 12) for x in (10, 11, 12)]
    assert top == [
        "GLACIER",
        "GLACIER",
        "PLAIN",
        "MOUNTAIN",
        "FOREST",
        "PLAIN",
        "SEA",
        "SEA",
        "SEA",
    ]
    assert world.terrain == replayed_terrain(world)
    mountains = [r for r in geometry(world).regions if r.terrain is Terrain.MOUNTAIN]
    assert [len(r.cells) for r in mountains] == [3]
    assert legal_placements(world, "glacier", 0) == []  # no mountain left: set aside (ASSUMED)


@pytest.mark.parametrize("kind", ["forest", "mountain", "glacier"])
def test_layer_placements_sound_and_complete(kind: str) -> None:
    """Création du Monde: legal_placements lists exactly the accepted forests/mountains/glaciers."""
    placements = random_world(2, Chance(b"layers", 0))
    first = next(i for i, p in enumerate(placements) if p.kind == kind)
    world = initial_world(2)
    for p in placements[:first]:
        place(world, p)
    for shape in range(tiles.shape_count(kind)):
        listed = legal_placements(world, kind, shape)
        assert len(set(listed)) == len(listed) > 0
        assert set(listed) == brute_force(world, kind, [shape], range(GRID))


# -- the random builder -------------------------------------------------------------------


@settings(max_examples=6, deadline=None, derandomize=True)
@given(seed=st.binary(min_size=1, max_size=8), players=st.sampled_from([2, 3, 4]))
def test_random_world_is_legal_and_deterministic(seed: bytes, players: int) -> None:
    """Création du Monde: the random world is a legal build, the same for the same seed."""
    placements = random_world(players, Chance(seed, 0))
    assert placements == random_world(players, Chance(seed, 0))
    world = initial_world(players)
    todo = supply(players)
    for p in placements:
        while todo and todo[0] != (p.kind, p.shape):
            kind, shape = todo.pop(0)  # a tile set aside must fit nowhere
            assert legal_placements(world, kind, shape) == []
        todo.pop(0)
        check_placement(world, p)
        place(world, p)
    assert world.terrain == replayed_terrain(world)
    assert enclosed_empty_cells(world) == 0
    built = [t.kind for t in world.tiles]
    counts = stage_counts(players)
    assert built.count("sea") == counts["sea"]
    assert built.count("plain") == counts["plain"]
    assert all(built.count(k) <= counts[k] for k in STAGES)
