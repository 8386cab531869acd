"""Turns, income turns and advance turns ("Tours de revenus", "Tours de développement")."""

from __future__ import annotations

import pytest

from domain.core import RuleViolation
from domain.tapestry import events as ev
from domain.tapestry.commands import Advance, ChooseResource, Decline, TakeIncome
from domain.tapestry.engine import frame
from domain.tapestry.state import SETUP
from tests.tapestry.helpers import GAME, act, decision, first_choices, new_game, of, settle, table


def test_setup_deals_implemented_civilizations_and_capital_pairs() -> None:
    """ "Mise en place des joueurs" A: 2 civilizations dealt, capitals as pairs with 1-3 players."""
    state, events = new_game(3)
    assert state.phase == SETUP
    for seat in state.seats:
        assert len(seat.civ_offer) == 2
        assert len(seat.capital_offer) == 2
    assert len(of(events, ev.FirstPlayerChosen)) == 1
    assert len(state.tech_display) == 3
    first_choices(state)
    homes = {s.home for s in state.seats}
    assert len(homes) == 3
    for seat_no, seat in enumerate(state.seats):
        outposts = state.hexes[seat.home].outposts
        assert [o.seat for o in outposts] == [seat_no, seat_no]


def test_first_turn_is_income_turn_1() -> None:
    """ "Déroulement du jeu": your first turn is necessarily an income turn (step 4 only)."""
    state, _ = new_game(2)
    first_choices(state)
    settle(state)
    seat = GAME.pending(state).seats[0]
    assert GAME.legal_actions(state, seat) == [TakeIncome()]
    before = list(state.seats[seat].resources)
    events = act(state, seat, TakeIncome())
    assert of(events, ev.IncomeTurnStarted)[0].era == 1
    gained = [a - b for a, b in zip(state.seats[seat].resources, before, strict=True)]
    assert gained == [1, 1, 1, 1]
    assert len(state.seats[seat].territory) >= 1
    assert not of(events, ev.TapestryPlayed)


def test_income_example_three_coins_four_workers() -> None:
    """ "Gagner des revenus" example: 3 coins, 4 workers, 1 food, 1 territory tile, 2 culture
    and 1 tapestry card (markets 3, houses 4, farms 0, armories 1 taken off the mat)."""
    state = table(2)
    seat = state.seats[0]
    seat.taken = [3, 4, 0, 1]
    seat.hand = [42]
    act(state, 0, TakeIncome())
    assert decision(state) == "resource"  # first into era 2 among the neighbours
    events = act(state, 0, ChooseResource(resource="coin"))
    played = of(events, ev.TapestryPlayed)
    assert [(p.card, p.face_up) for p in played] == [(42, True)]  # the only card: a Trap
    assert seat.resources == [1 + 3, 4, 1, 2]
    assert len(seat.territory) == 1
    assert len(seat.hand) == 1
    assert seat.vp == 10  # the Trap played as a tapestry
    assert GAME.pending(state).seats == (1,)


def test_income_turn_five_ends_the_seat_game() -> None:
    """ "Fin de la partie": income turn 5 has steps 1 and 3 only, then the seat is finished."""
    state = table(2)
    seat = state.seats[0]
    seat.income_turns = 4
    seat.hand = [42]
    seat.taken = [0, 0, 0, 2]
    events = act(state, 0, TakeIncome())
    assert not of(events, ev.TapestryPlayed)
    assert not of(events, ev.ResourcesChanged)
    assert seat.finished
    assert GAME.legal_actions(state, 0) == []
    assert GAME.pending(state).seats == (1,)


def test_resource_cap_is_eight() -> None:
    """ "Gagner des revenus": 8 of each resource at most."""
    state = table(2)
    state.seats[0].resources = [7, 8, 0, 0]
    state.seats[0].taken = [3, 4, 0, 0]
    state.seats[0].income_turns = 3
    act(state, 0, TakeIncome())
    settle(state, pick=99)
    assert state.seats[0].resources[0] == 8
    assert state.seats[0].resources[1] == 8


@pytest.mark.parametrize(
    ("space", "cost"),
    [(1, 1), (4, 2), (7, 3), (10, 2)],
)
def test_advance_cost_per_tier(space: int, cost: int) -> None:
    """ "Tours de développement": tier I 1 any, II food + 1 any, III food + 2 any, IV 2 food."""
    state = table(2)
    state.seats[0].tracks[0] = [space - 1]
    state.seats[0].resources = [0, 0, 8, 0]
    payment = ("food",) * (cost - (2 if space >= 10 else 1 if space >= 4 else 0))
    act(state, 0, Advance(track="exploration", payment=payment))
    assert state.seats[0].resources[2] == 8 - cost
    assert state.seats[0].tracks[0] == [space]


def test_cannot_advance_without_paying() -> None:
    """ "Tours de développement": the cost must be paid."""
    state = table(2)
    assert GAME.legal_actions(state, 0) == [TakeIncome()]
    with pytest.raises(RuleViolation):
        act(state, 0, Advance(track="science", payment=("coin",)))


def test_landmark_for_first_into_tier_two_only() -> None:
    """ "Tours de développement": the first into tier II claims the landmark, not the second."""
    state = table(2)
    for seat in (0, 1):
        state.seats[seat].tracks[2] = [3]
        state.seats[seat].resources = [8, 8, 8, 8]
    events = act(state, 0, Advance(track="technology", payment=("coin",)))
    claimed = of(events, ev.LandmarkClaimed)
    assert [(c.seat, c.landmark) for c in claimed] == [(0, 10)]
    assert decision(state) == "place_building"
    settle(state)
    assert 10 in state.seats[0].landmarks
    state.agenda = [frame("turn", 1)]
    state.current = 1
    events = act(state, 1, Advance(track="technology", payment=("coin",)))
    assert not of(events, ev.LandmarkClaimed)


def test_bonus_is_optional_and_paid_once() -> None:
    """ "Tours de développement" step 3: the bonus may be bought once (Bladed Weapons)."""
    state = table(2)
    state.seats[0].tracks[3] = [1]
    state.seats[0].resources = [2, 0, 0, 0]
    act(state, 0, Advance(track="military", payment=("coin",)))
    assert decision(state) == "bonus"
    options = GAME.legal_actions(state, 0)
    assert Decline() in options
    act(state, 0, options[0])
    assert state.seats[0].taken[3] == 1
    assert state.seats[0].resources[0] == 0


def test_era_bonus_for_first_among_neighbours() -> None:
    """ "Jouer 1 carte Fresque": the first of you and your neighbours into era 2 takes 1
    resource of your choice before playing the card."""
    state = table(2)
    state.seats[0].hand = [42]
    act(state, 0, TakeIncome())
    assert decision(state) == "resource"
    act(state, 0, ChooseResource(resource="culture"))
    assert state.seats[0].resources[3] >= 1
