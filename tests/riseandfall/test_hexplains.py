"""``riseandfall/2``: "TOUTES les tuiles de Plaine doivent être posées" (Création du Monde).

"Si un joueur ne dispose pas de l'espace nécessaire pour poser une tuile de Plaine, il DOIT
déplacer un nombre minimum de tuile de Plaine de son choix afin de pouvoir positionner sa
tuile." The engine's minimal relocations are checked against a brute force that tries every
subset of plains and every position of every lifted plain: same minimum, same set of legal
actions (complete and sound), and each is accepted by the game while a non-minimal one is
refused.
"""

from __future__ import annotations

from itertools import combinations, product

import pytest

from domain.core import Chance, RuleViolation
from domain.riseandfall import tiles as catalogue
from domain.riseandfall.commands import PlaceTile
from domain.riseandfall.game import RiseAndFallHex
from domain.riseandfall.world import PlacedTile, Terrain, World
from domain.riseandfall.worldbuild import (
    TileMove,
    TilePlacement,
    cells_at,
    legal_placements,
    minimum_moves,
)
from tests.riseandfall.helpers import world_from

GAME = RiseAndFallHex()
Pos = tuple[int, int, int, tuple[int, ...]]


def strip_world(length: int, plains_at: list[int]) -> World:
    """Two rows of ``length`` sea hexes with 3 x 2 plains (shape 1) anchored at ``plains_at``."""
    world = world_from(["~" * length, "~" * length], "hex")
    for x in plains_at:
        cells = cells_at("plain", 1, 0, x, 0, "hex")
        assert cells is not None
        world.tiles.append(PlacedTile("plain", 1, 0, x, 0, cells))
        for cell in cells:
            world.terrain[cell] = int(Terrain.PLAIN)
    return world


def _positions(shape: int, free: set[int]) -> list[Pos]:
    """Brute force: every distinct orientation at every anchor near the strip, on ``free``."""
    found = []
    for o in catalogue.orientations("plain", shape, "hex"):
        for x in range(0, 20):
            for y in range(0, 4):
                cells = cells_at("plain", shape, o.rotation, x, y, "hex")
                if cells is not None and set(cells) <= free:
                    found.append((o.rotation, x, y, cells))
    return found


def brute_force(world: World, shape: int) -> tuple[int, set[TilePlacement]]:
    """The least number of plains to move and every placement moving that many."""
    sea = {i for i, t in enumerate(world.terrain) if t == Terrain.SEA}
    plains = [i for i, t in enumerate(world.tiles) if t.kind == "plain"]
    for k in range(len(plains) + 1):
        found: set[TilePlacement] = set()
        for combo in combinations(plains, k):
            free = sea | {c for i in combo for c in world.tiles[i].cells}
            options = [_positions(world.tiles[i].shape, free) for i in combo]
            for new in _positions(shape, free):
                for chosen in product(*options):
                    used = [new[3], *(p[3] for p in chosen)]
                    if sum(len(u) for u in used) != len({c for u in used for c in u}):
                        continue
                    moves = tuple(
                        TileMove(i, p[0], p[1], p[2]) for i, p in zip(combo, chosen, strict=True)
                    )
                    found.add(TilePlacement("plain", shape, new[0], new[1], new[2], moves))
        if found:
            return k, found
    return -1, set()


@pytest.mark.parametrize(
    ("length", "plains_at", "needed"), [(6, [2], 1), (6, [0], 0), (9, [1, 5], 2)]
)
def test_minimal_plain_relocations_match_brute_force(
    length: int, plains_at: list[int], needed: int
) -> None:
    """The minimum number of plains moved and the legal actions equal the brute force."""
    world = strip_world(length, plains_at)
    k, expected = brute_force(world, 1)
    assert k == needed == minimum_moves(world, 1, None)
    assert set(legal_placements(world, "plain", 1, None)) == expected
    assert len(legal_placements(world, "plain", 1, None)) == len(expected)


def test_relocations_are_accepted_and_non_minimal_ones_refused() -> None:
    """Every minimal relocation is a legal command; moving more plains than needed, or none
    when one must move, is refused (PLAIN_MOVES_NOT_MINIMAL / PLAIN_NOT_ON_SEA)."""
    state = GAME.initial(GAME.decode_options({"world": "players"}), 2)
    state.world = strip_world(9, [1, 5])
    state.phase = "world"
    state.actor = 0
    state.tiles_placed = 13  # the second plain of the supply: shape 1
    shape = 1
    options = GAME.legal_actions(state, 0)
    assert options and all(isinstance(o, PlaceTile) for o in options)
    assert {len(o.placement.moves) for o in options} == {minimum_moves(state.world, shape, None)}  # type: ignore[union-attr]
    for option in options[:20]:
        GAME.decide(state, 0, option, Chance(b"t", 0))
    with pytest.raises(RuleViolation) as error:
        GAME.decide(
            state,
            0,
            PlaceTile(placement=TilePlacement("plain", shape, 0, 0, 0)),
            Chance(b"t", 0),
        )
    assert error.value.code in {"PLAIN_NOT_ON_SEA", "PLAIN_MOVES_NOT_MINIMAL"}


def test_a_plain_with_no_room_at_all_is_set_aside() -> None:
    """Assumed (content/world_setup_hex.json, "plain-no-room"): when no arrangement of every
    plain leaves room — here a sea one hex wide holding a plain-less strip — the plain has no
    legal placement (the game sets it aside); the search is cut short by the cells test."""
    world = world_from(["~" * 12, "", "~~~"], "hex")
    assert minimum_moves(world, 1, None) is None
    assert legal_placements(world, "plain", 1, None) == []
