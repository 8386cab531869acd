"""The 12 spaces of the MILITARY track, one test (or more) per space.

Rulebook: "Guide des pistes / MILITAIRE", "Conquête" (an outpost on an adjacent territory with
at most one token, roll both dice, keep one; an opposing lone outpost is toppled), "Cartes
riposte", F.À.Q. "Militaire" (Nuclear Bomb without a card), "Tours de développement".
Conquer dice are forced by choosing the decision seed; faces are indices into the content
dice: red 0 = 5 VP, black 2 = 1 worker.
"""

from __future__ import annotations

from domain.tapestry import events as ev
from domain.tapestry.civs import civ_id, implemented_ids
from domain.tapestry.commands import Choose, Conquer, Decline, PayBonus
from domain.tapestry.rules import conquer_targets
from domain.tapestry.state import Played, TapestryState
from tests.tapestry.helpers import decision, of
from tests.tapestry.test_tracks_support import (
    answer,
    at,
    dice_show,
    enter,
    fill,
    forced,
    neighbour_territories,
    occupy,
    options,
    place,
    turn_passed,
)

RED_5VP, BLACK_WORKER = 0, 2


def _conquer(state: TapestryState, index: int) -> list[ev.Event]:
    """Conquer hex ``index``; the dice show 5 VP (red) and 1 worker (black)."""
    assert decision(state) == "conquer"
    cell = state.hexes[index]
    return forced(state, Conquer(q=cell.q, r=cell.r), dice_show(RED_5VP, BLACK_WORKER))


def test_space_1_archery_conquers_an_adjacent_territory_keeping_one_die() -> None:
    """Military 1, Archerie: an outpost from the supply on an adjacent territory; both dice are
    rolled and one is kept (red: 5 VP)."""
    state = at("military", 1)
    target = neighbour_territories(state)[0]
    enter(state, "military")
    assert options(state) == [
        Conquer(q=state.hexes[i].q, r=state.hexes[i].r) for i in conquer_targets(state, 0, False)
    ]
    events = _conquer(state, target)
    assert len(of(events, ev.ConquerDiceRolled)) == 1
    seat = state.seats[0]
    assert state.hexes[target].controller() == 0 and seat.outposts == 7
    assert decision(state) == "choose_die"
    assert options(state) == [Choose(index=0), Choose(index=1)]
    answer(state, Choose(index=0))
    assert seat.vp == 5 and seat.resources == [4, 5, 5, 5]
    assert turn_passed(state)


def test_space_1_archery_black_die_instead() -> None:
    """Military 1, Archerie: keeping the black die instead (1 worker), not both."""
    state = at("military", 1)
    enter(state, "military")
    _conquer(state, neighbour_territories(state)[0])
    answer(state, Choose(index=1))
    assert state.seats[0].vp == 0 and state.seats[0].resources == [4, 6, 5, 5]


def test_space_2_bladed_weapons_card_and_armory_bonus() -> None:
    """Military 2, Armes blanches: 1 tapestry card; pay 1 resource for 1 armory."""
    state = at("military", 2)
    enter(state, "military")
    seat = state.seats[0]
    assert len(seat.hand) == 1
    answer(state, PayBonus(payment=("culture",)))
    place(state)
    assert seat.taken == [0, 0, 0, 1] and seat.resources == [4, 5, 5, 4]


def test_space_3_walls_conquer_or_armory() -> None:
    """Military 3, Murailles: conquer OR 1 armory."""
    state = at("military", 3)
    enter(state, "military")
    answer(state, Choose(index=1))
    place(state)
    assert state.seats[0].taken[3] == 1 and state.seats[0].outposts == 8
    assert turn_passed(state)

    state = at("military", 3)
    enter(state, "military")
    answer(state, Choose(index=0))
    _conquer(state, neighbour_territories(state)[0])
    answer(state, Choose(index=0))
    assert state.seats[0].outposts == 7 and state.seats[0].taken[3] == 0


def test_space_4_standing_army_landmark_worker_and_vp_per_tile() -> None:
    """Military 4, Armée régulière (tier II): landmark 6; 1 worker and 1 VP per territory tile
    in your supply."""
    state = at("military", 4)
    seat = state.seats[0]
    seat.territory = [13, 36, 37]
    events = enter(state, "military")
    assert [e.landmark for e in of(events, ev.LandmarkClaimed)] == [6]
    assert seat.resources == [4, 5, 5, 4]  # 1 culture + 1 any
    place(state)
    assert seat.resources == [4, 6, 5, 4] and seat.vp == 3
    assert turn_passed(state)


def test_space_5_cavalry_conquer_and_armory_in_either_order() -> None:
    """Military 5, Cavalerie: conquer AND 1 armory, in the order of your choice."""
    state = at("military", 5)
    enter(state, "military")
    assert decision(state) == "order"
    answer(state, Choose(index=1))  # the armory first
    place(state)
    assert state.seats[0].taken[3] == 1
    _conquer(state, neighbour_territories(state)[0])
    answer(state, Choose(index=0))
    assert state.seats[0].vp == 5 and state.seats[0].outposts == 7
    assert turn_passed(state)


def test_space_6_gunpowder_conquer_card_and_armory_bonus() -> None:
    """Military 6, Poudre à canon: conquer and 1 tapestry card; pay 1 resource for 1 armory."""
    state = at("military", 6)
    enter(state, "military")
    _conquer(state, neighbour_territories(state)[0])
    answer(state, Choose(index=1))
    seat = state.seats[0]
    assert len(seat.hand) == 1 and seat.resources[1] == 6
    answer(state, PayBonus(payment=("worker",)))
    place(state)
    assert seat.taken[3] == 1 and seat.resources == [4, 5, 5, 4]


def test_space_7_tanks_one_die_on_an_empty_territory() -> None:
    """Military 7, Tanks (tier III): landmark 5; conquering an empty territory keeps one die."""
    state = at("military", 7)
    events = enter(state, "military")
    assert [e.landmark for e in of(events, ev.LandmarkClaimed)] == [5]
    place(state)
    _conquer(state, neighbour_territories(state)[0])
    assert decision(state) == "choose_die"
    answer(state, Choose(index=0))
    assert state.seats[0].vp == 5


def test_space_7_tanks_both_dice_against_an_opponent() -> None:
    """Military 7, Tanks: if the territory was controlled by an opponent, gain both dice (and
    the opponent's outpost is toppled; seat 1 may answer with a Trap, here it has none)."""
    state = at("military", 7)
    target = neighbour_territories(state)[0]
    occupy(state, target, 1)
    enter(state, "military")
    place(state)
    cell = state.hexes[target]
    answer(state, Conquer(q=cell.q, r=cell.r))
    assert decision(state) == "trap" and options(state) == [Decline()]
    forced(state, Decline(), dice_show(RED_5VP, BLACK_WORKER))
    assert [(o.seat, o.toppled) for o in cell.outposts] == [(1, True), (0, False)]
    seat = state.seats[0]
    assert seat.vp == 5 and seat.resources[1] == 5 - 0 + 1
    assert turn_passed(state)


def test_space_8_warplanes_conquer_anywhere_and_card_bonus() -> None:
    """Military 8, Avions de guerre: conquer a territory anywhere on the board; pay 1 resource
    for 1 tapestry card."""
    state = at("military", 8)
    enter(state, "military")
    anywhere = conquer_targets(state, 0, True)
    near = conquer_targets(state, 0, False)
    far = next(i for i in anywhere if i not in near)
    assert len(options(state)) == len(anywhere)
    _conquer(state, far)
    answer(state, Choose(index=0))
    assert state.hexes[far].controller() == 0
    answer(state, PayBonus(payment=("coin",)))
    assert len(state.seats[0].hand) == 1


def test_space_9_anti_aircraft_defense_armory_and_vp_per_tapestry_card() -> None:
    """Military 9, Défense anti-aérienne: 1 armory and 1 VP per tapestry card, in hand and on
    the income mat."""
    state = at("military", 9)
    seat = state.seats[0]
    seat.hand = [6, 12]
    seat.mat = [Played(card=15, era=2)]
    enter(state, "military")
    place(state)
    assert seat.taken[3] == 1 and seat.vp == 3
    assert turn_passed(state)


def test_space_10_nuclear_bomb_vp_per_exploration_space_and_play_over() -> None:
    """Military 10, Arme nucléaire (tier IV): landmark 12; 1 VP per exploration space, and play
    a tapestry card over your current one (only the new card is active; Monarchy, a THIS ERA
    card, has no immediate effect)."""
    state = at("military", 10)
    seat = state.seats[0]
    seat.tracks[0] = [6]
    seat.hand = [27, 27]
    seat.mat = [Played(card=15, era=1)]
    events = enter(state, "military")
    assert [e.landmark for e in of(events, ev.LandmarkClaimed)] == [12]
    assert seat.resources == [5, 5, 5, 3]  # 2 culture
    place(state)
    assert decision(state) == "order"
    answer(state, Choose(index=0))  # VP first; the only card in hand is then played
    assert seat.vp == 6
    assert [(p.card, p.era) for p in seat.mat] == [(15, 1), (27, 1)] and seat.hand == [27]
    assert turn_passed(state)


def test_space_10_nuclear_bomb_without_a_card_only_scores() -> None:
    """Military 10, Arme nucléaire, F.À.Q.: with no card in hand, just the VP (no blind card)."""
    state = at("military", 10)
    seat = state.seats[0]
    seat.tracks[0] = [3]
    enter(state, "military")
    place(state)
    while decision(state) == "order":
        answer(state, Choose(index=0))
    assert seat.vp == 3 and seat.mat == []
    assert turn_passed(state)


def test_space_11_drone_assassins_score_capital_and_ten_vp_bonus() -> None:
    """Military 11, Drones assassins: score your capital (1 VP per complete row and column);
    discard 3 tapestry cards for 10 VP."""
    state = at("military", 11)
    seat = state.seats[0]
    seat.hand = [6, 12, 15]
    cells = [(r, c) for r in (0, 1) for c in range(9)] + [(r, 0) for r in range(9)]
    fill(state, 0, cells)
    enter(state, "military")
    assert seat.vp == 3  # rows 0 and 1 and column 0 (the rulebook's 3 rows and columns)
    assert options(state) == [PayBonus(discard=(6, 12, 15)), Decline()]
    answer(state, PayBonus(discard=(6, 12, 15)))
    assert seat.vp == 13 and seat.hand == []


def test_space_12_mechs_conquer_with_both_dice_and_a_random_civilization() -> None:
    """Military 12, Mechas: conquer and gain both dice; gain a new civilization at random (from
    those not in play; here only Leaders is left among the ones the engine can add)."""
    state = at("military", 12)
    leaders = civ_id("leaders")
    state.civs_out = [c for c in implemented_ids() if c != leaders]
    enter(state, "military")
    assert decision(state) == "order"
    answer(state, Choose(index=0))  # conquer first
    events = _conquer(state, neighbour_territories(state)[0])
    seat = state.seats[0]
    assert seat.vp == 10 + 5 and seat.resources == [5, 6, 5, 3]  # achievement, 5 VP, worker
    assert seat.outposts == 7
    assert [e.civilization for e in of(events, ev.CivilizationGained)] == [leaders]
    assert seat.civs == [leaders]
    assert turn_passed(state)
