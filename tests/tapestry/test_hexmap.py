"""Tests of the hex-map geometry (``domain/tapestry/hexmap.py``).

Rulebook sections: "EXPLORATION" (place a territory tile next to a territory you control,
1 VP per side with at least one lined-up terrain, at most 6) and the F.À.Q. "COMBIEN DE POINTS
PUIS-JE GAGNER EN EXPLORANT ?". Conventions and fixtures: the reference's ``README.md``,
``map.json`` and ``territory_tiles.json``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from domain.tapestry.hexmap import (
    DIRECTIONS,
    Hex,
    adjacent_hexes,
    are_adjacent,
    board_hexes,
    distance,
    distinct_rotations,
    edge_direction,
    exploration_vp,
    exploration_vp_at,
    neighbour,
    neighbours,
    neighbours_on,
    opposite,
    rotate,
    shared_corners,
    side_matches,
)

REFERENCE = Path("/work/shared/reference/tapestry")
MAP: dict[str, Any] = json.loads((REFERENCE / "map.json").read_text(encoding="utf-8"))
TILES: list[dict[str, Any]] = json.loads(
    (REFERENCE / "territory_tiles.json").read_text(encoding="utf-8")
)["tiles"]
SMALL_MISSING: list[Hex] = [(0, -3), (-3, 0), (3, 3)]


def printed(board: str) -> dict[Hex, tuple[str, ...]]:
    """Board-frame corners of the printed hexes of a reference board."""
    return {
        (h["q"], h["r"]): tuple(h["vertices"])
        for h in MAP["boards"][board]["hexes"]
        if h.get("printed")
    }


def tile(tile_id: int) -> tuple[str, ...]:
    """Printed corners of a reference territory tile."""
    return tuple(next(t for t in TILES if t["id"] == tile_id)["vertices"])


# ---------------------------------------------------------------- coordinates


def test_directions_follow_the_readme_screen_layout() -> None:
    """README "Map coordinates": down grows with q + r, right with r - q; edge 0 is the top,
    then clockwise. Check each step's screen offset."""
    screen = [(dq + dr, dr - dq) for dq, dr in DIRECTIONS]  # (down, right)
    assert screen == [(-2, 0), (-1, 1), (1, 1), (2, 0), (1, -1), (-1, -1)]


@pytest.mark.parametrize("h", [(0, 0), (2, -1), (-3, -3), (4, 3)])
def test_neighbour_relation_is_symmetric(h: Hex) -> None:
    """The neighbour across edge d sees h across the opposite edge d + 3."""
    for d, n in enumerate(neighbours(h)):
        assert n == neighbour(h, d)
        assert neighbour(n, opposite(d)) == h
        assert edge_direction(h, n) == d and edge_direction(n, h) == opposite(d)
        assert are_adjacent(h, n) and are_adjacent(n, h)
        assert distance(h, n) == 1


def test_edge_direction_rejects_non_adjacent_hexes() -> None:
    """(1, -1) is two steps from (0, 0) in this axial system."""
    assert not are_adjacent((0, 0), (1, -1))
    assert distance((0, 0), (1, -1)) == 2
    with pytest.raises(ValueError):
        edge_direction((0, 0), (1, -1))
    with pytest.raises(ValueError):
        edge_direction((0, 0), (0, 0))


@pytest.mark.parametrize(
    ("board", "radius", "missing", "count"),
    [("small", 3, SMALL_MISSING, 34), ("large", 4, [], 61)],
)
def test_board_hexes_match_reference_boards(
    board: str, radius: int, missing: list[Hex], count: int
) -> None:
    """README "Map coordinates": small board radius 3 minus three corners, large radius 4."""
    hexes = board_hexes(radius, missing)
    assert len(hexes) == count
    assert set(hexes) == {(h["q"], h["r"]) for h in MAP["boards"][board]["hexes"]}
    assert list(hexes) == sorted(hexes)


def test_neighbours_on_board_and_adjacent_hexes() -> None:
    """Edge hexes have fewer neighbours; exploring targets hexes next to your territories."""
    board = board_hexes(3, SMALL_MISSING)
    assert neighbours_on((-3, -3), board) == ((-3, -2), (-2, -2), (-2, -3))
    assert neighbours_on((-2, -2), board) == neighbours((-2, -2))
    near = adjacent_hexes([(-2, -2)], board)
    assert set(near) == set(neighbours_on((-2, -2), board))
    assert (-2, -2) not in adjacent_hexes([(-2, -2), (-1, -1)], board)


# ---------------------------------------------------------------- rotation


@pytest.mark.parametrize("rotation", range(6))
def test_rotation_moves_printed_corner_i_to_board_corner_i_plus_r(rotation: int) -> None:
    """README "Territory-tile terrain convention": turned clockwise by r x 60 degrees, printed
    corner i lands on board corner (i + r) mod 6."""
    corners = ("c0", "c1", "c2", "c3", "c4", "c5")
    board = rotate(corners, rotation)
    for i in range(6):
        assert board[(i + rotation) % 6] == corners[i]


def test_rotation_by_six_is_the_identity_and_rotations_compose() -> None:
    """Six sixth-turns are a full turn; turning by a then b is turning by a + b."""
    corners = tile(2)
    assert rotate(corners, 6) == rotate(corners, 0) == corners
    assert rotate(corners, -1) == rotate(corners, 5)
    for a in range(6):
        for b in range(6):
            assert rotate(rotate(corners, a), b) == rotate(corners, a + b)


def test_distinct_rotations_of_every_tile() -> None:
    """Tiles with a symmetry give fewer distinct results (all-sea island tiles: one); each kept
    rotation gives a different board-frame result and every rotation matches a kept one."""
    counts: dict[int, int] = {}
    for record in TILES:
        corners = tuple(record["vertices"])
        kept = distinct_rotations(corners)
        results = [rotate(corners, r) for r in kept]
        assert kept[0] == 0 and list(kept) == sorted(kept)
        assert len(set(results)) == len(results)
        assert {rotate(corners, r) for r in range(6)} == set(results)
        assert 6 % len(kept) == 0
        counts[len(kept)] = counts.get(len(kept), 0) + 1
        if record.get("center"):
            assert kept == (0,)
    assert counts.get(1, 0) >= 8  # the eight small-island tiles at least


# ---------------------------------------------------------------- exploration VP


def test_shared_corners_are_the_same_points_seen_from_both_sides() -> None:
    """README: corner d of a hex is corner d + 4 of its neighbour across edge d, and corner
    d + 1 is the neighbour's corner d + 3; seen from the neighbour the pairs swap."""
    for d in range(6):
        (a, b), (c, e) = shared_corners(d)
        assert (a, c) == (d, (d + 1) % 6)
        back = shared_corners(opposite(d))
        assert {(b, a), (e, c)} == set(back)


def test_printed_board_hexes_line_up_at_their_shared_corners() -> None:
    """The printed board art is continuous, so with the right corner convention neighbouring
    printed hexes (board frame) agree at nearly every shared corner (corner sampling loses a few
    three-terrain points)."""
    for board in ("small", "large"):
        hexes = printed(board)
        agree = total = 0
        for h, corners in hexes.items():
            for d, n in enumerate(neighbours(h)):
                if n in hexes:
                    for mine, theirs in shared_corners(d):
                        total += 1
                        agree += corners[mine] == hexes[n][theirs]
        assert total > 0 and agree / total >= 0.9


def test_rulebook_exploration_example_scores_2_vp() -> None:
    """Section "EXPLORATION", worked example: 2 sides of the explored tile have a lined-up
    terrain, so 2 VP. The picture is not in the text; rebuilt from its description: the new
    tile's mountains line up with mountains already placed (its desert does not); its water
    lines up with water (its mountains do not); its grassland lines up with nothing.
    New tile corners: 0 mountain, 1 desert, 2 sea, 3 mountain, 4 grassland, 5 grassland.
    Above (edge 0): corner 4 mountain meets our mountain, corner 3 forest meets our desert.
    Lower-right (edge 2): corner 0 sea meets our sea, corner 5 desert meets our mountain.
    Lower-left (edge 4): corner 2 mountain and corner 1 sea meet our two grassland corners."""
    new = ("mountain", "desert", "sea", "mountain", "grassland", "grassland")
    above = ("sea", "sea", "forest", "forest", "mountain", "sea")
    lower_right = ("sea", "forest", "forest", "desert", "desert", "desert")
    lower_left = ("forest", "sea", "mountain", "forest", "forest", "forest")
    neighbour_corners = [above, None, lower_right, None, lower_left, None]
    assert side_matches(new, above, 0)
    assert side_matches(new, lower_right, 2)
    assert not side_matches(new, lower_left, 4)
    assert exploration_vp(new, neighbour_corners) == 2


def test_exploration_vp_counts_sides_not_corners_and_caps_at_6() -> None:
    """F.À.Q. "COMBIEN DE POINTS PUIS-JE GAGNER EN EXPLORANT ?": 0 to 6 VP, one per side,
    whether the side lines up partly or fully."""
    sea = ("sea",) * 6
    assert exploration_vp(sea, [sea] * 6) == 6
    assert exploration_vp(sea, [None] * 6) == 0
    assert exploration_vp(sea, [("desert",) * 6] * 6) == 0
    # a side lined up at both corners still gives 1 VP
    assert exploration_vp(sea, [sea, None, None, None, None, None]) == 1


def test_unexplored_neighbours_and_board_edge_give_nothing() -> None:
    """Only a territory (printed hex or explored tile) across a side can line up with it."""
    sea = ("sea",) * 6
    territories = {(0, -1): sea, (1, 1): ()}
    assert exploration_vp_at((0, 0), sea, territories) == 1


def test_sea_counts_as_a_terrain_for_lining_up() -> None:
    """Section "EXPLORATION": sea, mountain, desert, etc. all line up (the example's water)."""
    new = ("sea", "desert", "desert", "desert", "desert", "desert")
    upper_left = ("forest", "forest", "sea", "forest", "forest", "forest")  # its corner 2 = our 0
    assert exploration_vp(new, [None, None, None, None, None, upper_left]) == 1


def test_exploration_on_the_small_board_with_reference_tiles() -> None:
    """Tile 1 (desert on corner 1, sea elsewhere) explored at (-1, -1) of the small board, no
    rotation. Territories around: (-2, -2) on top (forest/sea corners: no match),
    (-2, -1) upper-right (its corner 4 sea meets our corner 2 sea: 1 VP), (0, 0) the central
    island at the bottom (sea coast: 1 VP), (-1, -2) upper-left (forest and mountain: none);
    (-1, 0) and (0, -1) are unexplored. Total 2 VP; turning the tile changes the score."""
    territories = printed("small")
    placed = rotate(tile(1), 0)
    assert exploration_vp_at((-1, -1), placed, territories) == 2
    scores = [exploration_vp_at((-1, -1), rotate(tile(1), r), territories) for r in range(6)]
    assert max(scores) <= 4 and len(set(scores)) > 1


def test_exploration_vp_rejects_malformed_input() -> None:
    """Six corners and six neighbour slots are required."""
    with pytest.raises(ValueError):
        exploration_vp(("sea",) * 5, [None] * 6)
    with pytest.raises(ValueError):
        exploration_vp(("sea",) * 6, [None] * 5)
    with pytest.raises(ValueError):
        rotate(("sea",) * 7, 1)
