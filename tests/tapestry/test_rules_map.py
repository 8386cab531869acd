"""The map: "Exploration" (a tile of your supply on an unexplored hex next to a territory you
control, any orientation, 1 VP per side with a lined-up terrain, then the tile's benefit),
"Conquête" (an outpost on an adjacent territory holding at most one token and not yours; roll
both dice, keep one; topple a lone opposing outpost; no conquest without outposts), "Cartes
riposte" (Trap), "Objectifs" (topple 2 outposts, conquer the central island) and F.À.Q.
"Militaire".
"""

from __future__ import annotations

import pytest

from domain.core import RuleViolation
from domain.tapestry import events as ev
from domain.tapestry import hexmap
from domain.tapestry.commands import Choose, ChooseResource, Conquer, Decline, Explore, PlayTrap
from domain.tapestry.rules import (
    conquer_targets,
    controlled,
    corners,
    exploration_vp,
    explore_targets,
    gain,
    is_central_island,
    rules_neighbours,
)
from domain.tapestry.state import TapestryState
from tests.tapestry.helpers import GAME, act, decision, of, table
from tests.tapestry.test_tracks_support import (
    answer,
    dice_show,
    forced,
    neighbour_territories,
    occupy,
    offer,
    options,
    turn_passed,
    unexplored_neighbours,
)

TRAP = 42
RED_5VP, RED_PER_TERRITORY, BLACK_COIN, BLACK_TILE = 0, 2, 0, 1


def _index(state: TapestryState, command: Explore | Conquer) -> int:
    return next(i for i, h in enumerate(state.hexes) if (h.q, h.r) == (command.q, command.r))


def _conquer(state: TapestryState, index: int, red: int = RED_5VP, black: int = BLACK_COIN) -> None:
    cell = state.hexes[index]
    forced(state, Conquer(q=cell.q, r=cell.r), dice_show(red, black))


# -- exploration -----------------------------------------------------------------------------
def test_explore_only_unexplored_hexes_next_to_controlled_territories() -> None:
    """ "Exploration": an unexplored hex adjacent to a territory you control (not a printed
    territory, not a hex with a piece on it)."""
    state = table(2)
    state.seats[0].territory = [13]
    targets = explore_targets(state, 0, False)
    assert targets == sorted(unexplored_neighbours(state))
    offer(state, 0, gain("explore"))
    assert {_index(state, o) for o in options(state) if isinstance(o, Explore)} == set(targets)


def test_explore_needs_control_not_just_presence() -> None:
    """ "Conquête" (control): a territory where your outpost is toppled is not yours, so it
    opens no exploration."""
    state = table(2)
    home = state.seats[0].home
    for outpost in state.hexes[home].outposts:
        outpost.toppled = True
    occupy(state, home, 1)
    assert explore_targets(state, 0, False) == []
    state.seats[0].territory = [13]
    offer(state, 0, gain("explore"))
    assert state.seats[0].territory == [13] and turn_passed(state)


def test_explore_scores_the_rulebook_example_two_vp_and_the_tile_benefit() -> None:
    """ "Exploration", worked example: 2 sides line up (mountains with mountains, water with
    water), so 2 VP; then the tile's benefit (tile 38: 1 culture). Built on the board: the
    new tile's neighbours are set so that exactly two sides share a terrain."""
    state = table(2)
    target = unexplored_neighbours(state)[0]
    home = state.seats[0].home
    placed = hexmap.rotate(("sea", "forest", "mountain", "sea", "sea", "sea"), 0)  # tile 38
    for n in rules_neighbours(state, target):
        if n < 0 or n == home:
            continue
        state.hexes[n].printed = False  # clear the surroundings: nothing lines up
        state.hexes[n].tile = -1
    # the home side: is anything lined up already?
    home_side = hexmap.edge_direction(
        (state.hexes[target].q, state.hexes[target].r),
        (state.hexes[home].q, state.hexes[home].r),
    )
    others: list[tuple[str, ...] | None] = [None] * 6
    others[home_side] = corners(state, home)
    base = hexmap.exploration_vp(placed, others)
    # add lined-up neighbours until two sides match, leaving a third mismatched one
    free = [
        (d, n)
        for d, n in enumerate(rules_neighbours(state, target))
        if n >= 0 and n != home and not state.hexes[n].explored
    ]
    matched = base
    for direction, n in free:
        if matched == 2:
            break
        for tile in (37, 13, 36, 39):
            for rotation in range(6):
                trial = list(others)
                trial[direction] = hexmap.rotate(_tile_corners(tile), rotation)
                if hexmap.exploration_vp(placed, trial) == matched + 1:
                    others = trial
                    state.hexes[n].tile, state.hexes[n].rotation = tile, rotation
                    matched += 1
                    break
            else:
                continue
            break
    assert matched == 2
    state.seats[0].territory = [38]
    offer(state, 0, gain("explore"))
    cell = state.hexes[target]
    events = answer(state, Explore(q=cell.q, r=cell.r, tile=38, rotation=0))
    assert [e.vp for e in of(events, ev.VPScored) if e.reason == "exploration"] == [2]
    assert state.seats[0].resources == [0, 0, 0, 1]
    assert cell.tile == 38 and state.seats[0].territory == []


def _tile_corners(tile: int) -> tuple[str, ...]:
    from domain.tapestry import content as C

    return tuple(C.TERRITORY_TILES[tile].corners)


def test_no_free_hex_no_exploration() -> None:
    """ "Où puis-je explorer s'il n'y a plus de case libre…": no tile placed, no gain."""
    state = table(2)
    for index in unexplored_neighbours(state):
        state.hexes[index].printed = True
    state.seats[0].territory = [13]
    events = offer(state, 0, gain("explore"))
    assert not of(events, ev.TileExplored) and state.seats[0].territory == [13]
    assert turn_passed(state)


# -- conquest --------------------------------------------------------------------------------
def test_conquer_targets_follow_the_rules() -> None:
    """ "Conquête": adjacent to a territory you control, at most one token, not already yours;
    two tokens (a start territory) or an unexplored hex cannot be conquered."""
    state = table(2)
    near = neighbour_territories(state)
    assert conquer_targets(state, 0, False) == sorted(near)
    occupy(state, near[0], 1)  # one opposing outpost: still conquerable
    occupy(state, near[1], 1)
    occupy(state, near[1], 1)  # two tokens: not
    occupy(state, near[2], 0)  # already yours: not
    assert conquer_targets(state, 0, False) == [near[0]]
    for index in unexplored_neighbours(state):
        assert index not in conquer_targets(state, 0, False)


def test_conquest_rolls_both_dice_keeps_one() -> None:
    """ "Conquête": roll both dice, gain the benefit of one (red: 1 VP per controlled
    territory, counted with the new one)."""
    state = table(2)
    target = neighbour_territories(state)[0]
    offer(state, 0, gain("conquer"))
    _conquer(state, target, red=RED_PER_TERRITORY)
    assert decision(state) == "choose_die"
    answer(state, Choose(index=0))
    assert controlled(state, 0) == sorted([state.seats[0].home, target])
    assert state.seats[0].vp == 2 and state.seats[0].outposts == 7


def test_black_die_gives_the_tile_benefit_only_on_a_tile() -> None:
    """ "Conquête" / F.À.Q.: the black die's "?" gives the conquered territory tile's printed
    benefit (tile 13: 1 coin); a printed territory of the board gives nothing."""
    state = table(2)
    target = unexplored_neighbours(state)[0]
    state.hexes[target].tile = 13
    offer(state, 0, gain("conquer"))
    _conquer(state, target, black=BLACK_TILE)
    answer(state, Choose(index=1))
    assert state.seats[0].resources == [1, 0, 0, 0]

    state = table(2)
    offer(state, 0, gain("conquer"))
    _conquer(state, neighbour_territories(state)[0], black=BLACK_TILE)
    answer(state, Choose(index=1))
    assert state.seats[0].resources == [0, 0, 0, 0]


def test_conquering_an_opponent_topples_its_outpost_and_locks_the_territory() -> None:
    """ "Conquête": the lone opposing outpost is toppled; with 2 pieces the territory cannot
    be conquered again."""
    state = table(2)
    target = neighbour_territories(state)[0]
    occupy(state, target, 1)
    offer(state, 0, gain("conquer"))
    cell = state.hexes[target]
    answer(state, Conquer(q=cell.q, r=cell.r))
    forced(state, Decline(), dice_show(RED_5VP, BLACK_COIN))
    assert [(o.seat, o.toppled) for o in cell.outposts] == [(1, True), (0, False)]
    assert target not in conquer_targets(state, 0, False)
    assert target not in conquer_targets(state, 1, True)


def test_no_conquest_without_outposts_left() -> None:
    """ "Conquête": not possible with no outpost left in your supply."""
    state = table(2)
    state.seats[0].outposts = 0
    events = offer(state, 0, gain("conquer"))
    assert not of(events, ev.OutpostPlaced) and turn_passed(state)


def test_the_defender_is_always_asked_even_without_a_trap() -> None:
    """ "Cartes riposte": the defender may discard a Trap; the question is asked even without
    one, so that nobody learns who holds a Trap."""
    state = table(2)
    target = neighbour_territories(state)[0]
    occupy(state, target, 1)
    offer(state, 0, gain("conquer"))
    cell = state.hexes[target]
    answer(state, Conquer(q=cell.q, r=cell.r))
    assert GAME.pending(state).seats == (1,) and decision(state) == "trap"
    assert options(state) == [Decline()]


def test_trap_topples_the_attacker_who_still_keeps_a_die() -> None:
    """ "Cartes riposte": with a Trap the attacker's outpost stays, toppled; the defender keeps
    control; the attacker still gains one die; the Trap is discarded."""
    state = table(2)
    target = neighbour_territories(state)[0]
    occupy(state, target, 1)
    state.seats[1].hand = [TRAP]
    offer(state, 0, gain("conquer"))
    cell = state.hexes[target]
    answer(state, Conquer(q=cell.q, r=cell.r))
    assert options(state) == [PlayTrap(), Decline()]
    events = answer(state, PlayTrap())
    assert [(e.seat, e.card) for e in of(events, ev.TrapPlayed)] == [(1, TRAP)]
    assert decision(state) == "resource"  # the Trap's resource for the defender (the card)
    forced(state, ChooseResource(resource="food"), dice_show(RED_5VP, BLACK_COIN))
    assert [(o.seat, o.toppled) for o in cell.outposts] == [(1, False), (0, True)]
    assert cell.controller() == 1 and state.seats[1].hand == [] and TRAP in state.tapestry_discard
    answer(state, Choose(index=0))
    assert state.seats[0].vp == 5 and state.seats[0].outposts == 7


def test_no_trap_after_the_defenders_last_income_turn() -> None:
    """ "Cartes riposte" / F.À.Q.: no Trap after your fifth income turn: the outpost falls
    without a question."""
    state = table(2)
    target = neighbour_territories(state)[0]
    occupy(state, target, 1)
    state.seats[1].hand = [TRAP]
    state.seats[1].finished = True
    offer(state, 0, gain("conquer"))
    _conquer(state, target)
    assert decision(state) == "choose_die"
    assert [(o.seat, o.toppled) for o in state.hexes[target].outposts] == [(1, True), (0, False)]


# -- achievements on the map --------------------------------------------------------------------
def _center(state: TapestryState) -> int:
    return next(i for i in range(len(state.hexes)) if is_central_island(state, i))


def _next_to_center(state: TapestryState, seat: int) -> None:
    """Give ``seat`` a territory next to the central island."""
    center = _center(state)
    step = next(
        n for n in rules_neighbours(state, center) if n >= 0 and not state.hexes[n].outposts
    )
    state.hexes[step].tile = 13
    occupy(state, step, seat)


@pytest.mark.parametrize("seats", [2, 4])
def test_conquering_the_central_island_scores_by_rank(seats: int) -> None:
    """ "Objectifs / Conquérir l'île centrale": 10 VP for the first, 5 for the second (every
    player count, facts README gap 4)."""
    state = table(seats)
    _next_to_center(state, 0)
    offer(state, 0, gain("conquer"))
    events: list[ev.Event] = []
    cell = state.hexes[_center(state)]
    events += forced(state, Conquer(q=cell.q, r=cell.r), dice_show(RED_5VP, BLACK_COIN))
    assert [e.vp for e in of(events, ev.AchievementEarned)] == [10]
    answer(state, Choose(index=1))
    # the second conqueror (after a Trap-less topple) scores 5
    _next_to_center(state, 1)
    offer(state, 1, gain("conquer"))
    events = forced(state, Conquer(q=cell.q, r=cell.r), lambda _: True)
    events += forced(state, Decline(), dice_show(RED_5VP, BLACK_COIN))
    assert [(e.seat, e.vp) for e in of(events, ev.AchievementEarned)] == [(1, 5)]


def test_a_trap_denies_the_central_island() -> None:
    """ "Conquérir l'île centrale": if a Trap foils the conquest, no achievement."""
    state = table(2)
    center = _center(state)
    occupy(state, center, 1)
    state.seats[1].hand = [TRAP]
    _next_to_center(state, 0)
    offer(state, 0, gain("conquer"))
    cell = state.hexes[center]
    answer(state, Conquer(q=cell.q, r=cell.r))
    events = answer(state, PlayTrap())
    events += forced(state, ChooseResource(resource="food"), dice_show(RED_5VP, BLACK_COIN))
    assert of(events, ev.ConquerDiceRolled) and not of(events, ev.AchievementEarned)


def test_toppling_two_opponent_outposts() -> None:
    """ "Renverser 2 avant-postes adverses": fulfilled when 2 opponent outposts (of any
    opponents) are toppled by you at the same time; 10 VP for the first with 1-3 players."""
    state = table(3)
    near = neighbour_territories(state)
    occupy(state, near[0], 1)
    occupy(state, near[1], 2)
    for number, target in enumerate(near[:2]):
        offer(state, 0, gain("conquer"))
        cell = state.hexes[target]
        answer(state, Conquer(q=cell.q, r=cell.r))
        events = forced(state, Decline(), dice_show(RED_5VP, BLACK_COIN))
        earned = [e.vp for e in of(events, ev.AchievementEarned)]
        assert earned == ([] if number == 0 else [10])
        answer(state, Choose(index=1))
    assert state.seats[0].achievements == [2]


def test_an_equivalent_rotation_is_offered_once_and_its_duplicates_refused() -> None:
    """ "Exploration": the 6 turns of a small-island tile (all corners sea) are one placement;
    only rotation 0 is offered and accepted, and it scores like any of them."""
    state = table(2)
    state.seats[0].territory = [5]
    offer(state, 0, gain("explore"))
    target = explore_targets(state, 0, False)[0]
    cell = state.hexes[target]
    assert Explore(q=cell.q, r=cell.r, tile=5, rotation=0) in options(state)
    assert Explore(q=cell.q, r=cell.r, tile=5, rotation=3) not in options(state)
    scores = {exploration_vp(state, target, 5, rotation) for rotation in range(6)}
    assert len(scores) == 1
    with pytest.raises(RuleViolation):
        act(state, 0, Explore(q=cell.q, r=cell.r, tile=5, rotation=3))
