"""The 12 spaces of the EXPLORATION track, one test (or more) per space.

Rulebook: "Guide des pistes / EXPLORATION" (each space's benefit and bonus), "Tours de
développement" (cost, benefit, optional bonus once, landmark for the first into tiers II-IV),
"Exploration" and "Exploration de l'espace". Each test names the space (French name).
Seat 0 starts with 5 of each resource and pays the "any" units with coins.
"""

from __future__ import annotations

from domain.tapestry import events as ev
from domain.tapestry.commands import Choose, Decline, Explore, ExploreSpace, PayBonus
from domain.tapestry.mapping import tile_rotations
from domain.tapestry.rules import exploration_vp, explore_targets, rules_neighbours
from domain.tapestry.state import TapestryState
from tests.tapestry.helpers import decision, of
from tests.tapestry.test_tracks_support import (
    answer,
    at,
    enter,
    occupy,
    options,
    place,
    turn_passed,
    unexplored_neighbours,
)


def _explore_first(state: TapestryState, tile: int) -> tuple[int, int]:
    """Explore ``tile`` with the first offered hex/rotation; (hex index, VP expected)."""
    assert decision(state) == "explore"
    choice = next(o for o in options(state) if isinstance(o, Explore) and o.tile == tile)
    index = next(i for i, h in enumerate(state.hexes) if (h.q, h.r) == (choice.q, choice.r))
    vp = exploration_vp(state, index, tile, choice.rotation)
    answer(state, choice)
    assert state.hexes[index].tile == tile
    return index, vp


def test_space_1_scouting_gains_two_territory_tiles() -> None:
    """Exploration 1, Reconnaissance: 2 territory tiles into the supply; no bonus."""
    state = at("exploration", 1)
    events = enter(state, "exploration")
    assert [len(e.tiles) for e in of(events, ev.TerritoryTilesDrawn)] == [2]
    seat = state.seats[0]
    assert len(seat.territory) == 2
    assert seat.resources == [4, 5, 5, 5]
    assert seat.tracks[0] == [1] and seat.vp == 0
    assert turn_passed(state)


def test_space_2_rafts_explores_then_offers_a_tapestry_card() -> None:
    """Exploration 2, Radeaux: explore (VP per lined-up side, the tile's benefit), then pay 1
    resource for 1 tapestry card."""
    state = at("exploration", 2)
    state.seats[0].territory = [13]  # tile 13 gives 1 coin
    enter(state, "exploration")
    _, vp = _explore_first(state, 13)
    seat = state.seats[0]
    assert seat.vp == vp and seat.territory == []
    assert seat.resources == [4 + 1, 5, 5, 5]
    assert decision(state) == "bonus"
    assert options(state) == [
        PayBonus(payment=("coin",)),
        PayBonus(payment=("worker",)),
        PayBonus(payment=("food",)),
        PayBonus(payment=("culture",)),
        Decline(),
    ]
    events = answer(state, PayBonus(payment=("culture",)))
    assert len(of(events, ev.TapestryDrawn)[0].cards) == 1
    assert seat.resources == [5, 5, 5, 4] and len(seat.hand) == 1
    assert turn_passed(state)


def test_space_2_rafts_bonus_declined_and_nothing_to_explore_without_tiles() -> None:
    """Exploration 2, Radeaux: with no tile in supply there is nothing to explore ("Où puis-je
    explorer…": no tile placed, no gain); the bonus stays optional."""
    state = at("exploration", 2)
    enter(state, "exploration")
    assert decision(state) == "bonus"
    answer(state, Decline())
    assert state.seats[0].resources == [4, 5, 5, 5] and state.seats[0].hand == []
    assert turn_passed(state)


def test_space_3_wagons_explore_or_farm() -> None:
    """Exploration 3, Chariots: explore OR gain 1 farm (placed in the capital)."""
    state = at("exploration", 3)
    state.seats[0].territory = [13]
    enter(state, "exploration")
    assert decision(state) == "choose" and options(state) == [Choose(index=0), Choose(index=1)]
    events = answer(state, Choose(index=1))
    assert [e.building for e in of(events, ev.BuildingTaken)] == ["farm"]
    place(state)
    seat = state.seats[0]
    assert seat.taken == [0, 0, 1, 0] and seat.territory == [13]
    assert turn_passed(state)

    state = at("exploration", 3)
    state.seats[0].territory = [13]
    enter(state, "exploration")
    answer(state, Choose(index=0))
    _explore_first(state, 13)
    assert state.seats[0].taken == [0, 0, 0, 0]
    assert turn_passed(state)


def test_space_4_navigation_landmark_first_then_tile_then_explore() -> None:
    """Exploration 4, Navigation (tier II): the first player there takes landmark 9 and places
    it before the benefit (F.À.Q. "Pistes"), then 1 territory tile, then explore with it."""
    state = at("exploration", 4)
    events = enter(state, "exploration")
    assert [(e.seat, e.landmark) for e in of(events, ev.LandmarkClaimed)] == [(0, 9)]
    assert decision(state) == "place_building" and state.seats[0].territory == []
    events = place(state)
    drawn = of(events, ev.TerritoryTilesDrawn)
    assert len(drawn) == 1 and len(drawn[0].tiles) == 1
    tile = drawn[0].tiles[0]
    _explore_first(state, tile)
    assert tile not in state.seats[0].territory
    assert state.seats[0].resources[2] == 4  # tier II: 1 food + 1 any (a coin)
    assert state.seats[0].landmarks == [9]


def test_space_5_ships_vp_per_controlled_territory_and_farm_bonus() -> None:
    """Exploration 5, Navires: 1 VP per territory you control; pay 1 resource for 1 farm."""
    state = at("exploration", 5)
    for index in unexplored_neighbours(state)[:2]:
        state.hexes[index].printed = True
        occupy(state, index, 0)
    enter(state, "exploration")
    seat = state.seats[0]
    assert seat.vp == 3  # the start territory and the two others
    assert seat.resources == [4, 5, 4, 5]
    assert decision(state) == "bonus"
    events = answer(state, PayBonus(payment=("worker",)))
    assert [e.building for e in of(events, ev.BuildingTaken)] == ["farm"]
    place(state)
    assert seat.taken[2] == 1 and seat.resources == [4, 4, 4, 5]
    assert turn_passed(state)


def test_space_6_tunnels_tile_and_farm_then_pay_to_explore() -> None:
    """Exploration 6, Tunnels: 1 territory tile and 1 farm; pay 1 resource to explore."""
    state = at("exploration", 6)
    events = enter(state, "exploration")
    tile = of(events, ev.TerritoryTilesDrawn)[0].tiles[0]
    place(state)
    seat = state.seats[0]
    assert seat.taken[2] == 1 and seat.territory == [tile]
    assert decision(state) == "bonus"
    answer(state, PayBonus(payment=("coin",)))
    _explore_first(state, tile)
    assert seat.territory == []


def test_space_7_trains_landmark_two_tiles_then_explore() -> None:
    """Exploration 7, Trains (tier III): landmark 4 to the first there, 2 tiles, explore."""
    state = at("exploration", 7)
    events = enter(state, "exploration")
    assert [e.landmark for e in of(events, ev.LandmarkClaimed)] == [4]
    place(state)
    assert len(state.seats[0].territory) == 2
    assert decision(state) == "explore"
    assert state.seats[0].resources == [3, 5, 4, 5]  # 1 food + 2 any


def test_space_8_cars_farm_then_vp_per_farm_and_discard_two_tiles_bonus() -> None:
    """Exploration 8, Automobiles: 1 farm then 1 VP per farm; discard 2 territory tiles for
    5 VP."""
    state = at("exploration", 8)
    seat = state.seats[0]
    seat.taken = [0, 0, 2, 0]
    seat.territory = [13, 36, 37]
    enter(state, "exploration")
    place(state)
    assert seat.taken[2] == 3 and seat.vp == 3
    assert decision(state) == "bonus"
    assert options(state) == [
        PayBonus(discard=(13, 36)),
        PayBonus(discard=(13, 37)),
        PayBonus(discard=(36, 37)),
        Decline(),
    ]
    events = answer(state, PayBonus(discard=(13, 37)))
    assert of(events, ev.TilesDiscarded)[0].tiles == (13, 37)
    assert seat.territory == [36] and seat.vp == 3 + 5
    assert turn_passed(state)


def test_space_8_cars_bonus_not_offered_with_one_tile() -> None:
    """Exploration 8, Automobiles: with a single tile the bonus cannot be paid (no decision)."""
    state = at("exploration", 8)
    state.seats[0].territory = [13]
    enter(state, "exploration")
    place(state)
    assert state.seats[0].vp == 1 and state.seats[0].territory == [13]
    assert turn_passed(state)


def test_space_9_airplanes_two_tiles_explore_anywhere_and_card_bonus() -> None:
    """Exploration 9, Avions: 2 tiles then explore anywhere on the board; pay 1 resource for
    1 tapestry card."""
    state = at("exploration", 9)
    enter(state, "exploration")
    seat = state.seats[0]
    tiles = sorted(seat.territory)
    assert len(tiles) == 2 and decision(state) == "explore"
    anywhere = explore_targets(state, 0, True)
    near = explore_targets(state, 0, False)
    assert len(anywhere) > len(near)
    far = next(i for i in anywhere if i not in near)
    cell = state.hexes[far]
    assert Explore(q=cell.q, r=cell.r, tile=tiles[0], rotation=0) in options(state)
    answer(state, Explore(q=cell.q, r=cell.r, tile=tiles[0], rotation=0))
    while decision(state) != "bonus":  # the tile's own benefit may ask something
        answer(state, options(state)[0])
    hand, coins = len(seat.hand), seat.resources[0]
    events = answer(state, PayBonus(payment=("coin",)))
    assert [e.count for e in of(events, ev.TapestryDrawn)] == [1]
    assert len(seat.hand) == hand + 1 and seat.resources[0] == coins - 1
    assert state.hexes[far].tile == tiles[0] and seat.territory == [tiles[1]]


def test_space_10_space_shuttle_vp_per_technology_space_and_ten_vp_bonus() -> None:
    """Exploration 10, Navette spatiale (tier IV): landmark 11; 1 VP per space on the technology
    track; discard 3 territory tiles for 10 VP."""
    state = at("exploration", 10)
    seat = state.seats[0]
    seat.tracks[2] = [7]
    seat.territory = [13, 36, 37]
    events = enter(state, "exploration")
    assert [e.landmark for e in of(events, ev.LandmarkClaimed)] == [11]
    assert seat.resources == [5, 5, 3, 5]  # 2 food
    place(state)
    assert seat.vp == 7
    assert decision(state) == "bonus"
    assert options(state) == [PayBonus(discard=(13, 36, 37)), Decline()]
    answer(state, PayBonus(discard=(13, 36, 37)))
    assert seat.vp == 17 and seat.territory == []


def test_space_11_interstellar_travel_three_space_tiles_explore_one() -> None:
    """Exploration 11, Voyage interstellaire: 3 space tiles, then explore 1 of the supply (it
    lies by the income mat and gives its benefit; space tile 13: 13 VP)."""
    state = at("exploration", 11)
    seat = state.seats[0]
    seat.space = [13]
    events = enter(state, "exploration")
    drawn = of(events, ev.SpaceTilesDrawn)[0].tiles
    assert len(drawn) == 3 and 13 not in drawn
    assert decision(state) == "explore_space"
    assert options(state) == [ExploreSpace(tile=t) for t in sorted([13, *drawn])]
    events = answer(state, ExploreSpace(tile=13))
    assert seat.space_explored == [13] and sorted(seat.space) == sorted(drawn)
    assert seat.vp == 13
    assert turn_passed(state)


def test_space_12_warpgates_explore_space_and_pay_for_another() -> None:
    """Exploration 12, Portail dimensionnel: explore 1 space tile of the supply; pay 1 resource
    to explore another (space tile 5: 1 coin, 1 worker, 8 VP). Reaching space 12 fulfils the
    "complete a track" achievement (10 VP, first of 1-3 players)."""
    state = at("exploration", 12)
    seat = state.seats[0]
    seat.space = [5, 13]
    events = enter(state, "exploration")
    assert [e.vp for e in of(events, ev.AchievementEarned)] == [10]
    answer(state, ExploreSpace(tile=13))
    assert seat.vp == 10 + 13
    assert decision(state) == "bonus"
    answer(state, PayBonus(payment=("food",)))
    assert seat.space_explored == [13, 5]
    assert seat.vp == 10 + 13 + 8
    assert seat.resources == [5 + 1, 5 + 1, 5 - 2 - 1, 5]


def test_explore_offers_each_distinct_rotation_once() -> None:
    """ "Exploration": the tile may be turned any way; turns that lay the same terrains are the
    same placement, so a small-island tile (all corners sea) has one rotation, others six."""
    assert tile_rotations(5) == (0,)
    assert tile_rotations(13) == (0, 1, 2, 3, 4, 5)
    state = at("exploration", 2)
    state.seats[0].territory = [5, 13]
    enter(state, "exploration")
    found = options(state)
    hexes = explore_targets(state, 0, False)
    assert len(found) == len(hexes) * (1 + 6)
    assert all(isinstance(o, Explore) for o in found)
    assert sum(1 for o in found if isinstance(o, Explore) and o.tile == 5) == len(hexes)
    home = state.seats[0].home
    for index in hexes:
        assert home in rules_neighbours(state, index)
