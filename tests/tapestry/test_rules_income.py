"""Income turns and the end of a seat's game: "Tours de revenus" (steps 1-4 by income turn: 1
civilization 2-5, 2 tapestry 2-4, 3 upgrade and VP 2-5, 4 income 1-4; the first of you and
your neighbours into an era takes the covered space's resources; 8 of a resource at most),
"Fin de la partie" (after income turn 5 a seat plays no more and gains nothing more; the
others play on), the worked examples of "Gagner des revenus" and "Améliorer 1 carte Techno".
"""

from __future__ import annotations

import pytest

from domain.tapestry import events as ev
from domain.tapestry.commands import Advance, ChooseResource, Decline, TakeIncome, Upgrade
from domain.tapestry.rules import gain
from domain.tapestry.state import TapestryState, TechOwned
from tests.tapestry.helpers import GAME, act, decision, of, table
from tests.tapestry.test_tracks_support import answer, fill, offer, options

MONARCHY = 27  # a THIS ERA card: no immediate effect when played


def _not_first(state: TapestryState, era: int) -> None:
    """Seat 0's neighbours already entered ``era`` (no first-into-era bonus for seat 0)."""
    for seat in state.neighbours(0):
        state.seats[seat].income_turns = era


def test_rulebook_example_income_three_coins_four_workers() -> None:
    """ "Gagner des revenus", example: 3 coins, 4 workers, 1 food, 1 territory tile, 2 culture
    and 1 tapestry card (3 markets, 4 houses, no farm and 1 armory taken off the mat)."""
    state = table(2)
    seat = state.seats[0]
    seat.taken = [3, 4, 0, 1]
    seat.hand = [MONARCHY]
    _not_first(state, 2)
    events = act(state, 0, TakeIncome())
    assert [e.era for e in of(events, ev.IncomeTurnStarted)] == [2]
    income = [e for e in of(events, ev.ResourcesChanged) if e.reason == "income"]
    assert [e.delta for e in income] == [(3, 4, 1, 2)]
    assert [len(e.tiles) for e in of(events, ev.TerritoryTilesDrawn)] == [1]
    assert [e.count for e in of(events, ev.TapestryDrawn)] == [1]
    assert seat.resources == [3, 4, 1, 2] and len(seat.territory) == 1
    assert [p.card for p in seat.mat] == [MONARCHY] and len(seat.hand) == 1
    assert GAME.pending(state).seats == (1,)


def test_income_turn_1_only_gains_income() -> None:
    """ "Tours de revenus" table: income turn 1 has step 4 only (no civilization, no tapestry
    card even with cards in hand, no upgrade or VP): 1 of each resource, 1 tile, 1 card."""
    state = table(2)
    seat = state.seats[0]
    seat.income_turns = 0
    seat.hand = [MONARCHY]
    seat.tech = [TechOwned(card=8), TechOwned(card=9)]  # 2 VP if step 3 happened
    events = act(state, 0, TakeIncome())
    assert not of(events, ev.TapestryPlayed) and not of(events, ev.VPScored)
    assert not of(events, ev.TechUpgraded)
    assert seat.resources == [1, 1, 1, 1] and len(seat.territory) == 1
    assert len(seat.hand) == 2 and seat.vp == 0
    assert GAME.pending(state).seats == (1,)


def test_rulebook_example_upgrade_zeppelins_then_income_mat_vp() -> None:
    """ "Améliorer 1 carte Techno & gagner des PV", example: upgrade Zeppelins to the middle
    row and take its circle (advance on exploration without benefit), then 1 VP per tech card
    (x2), 1 VP per complete row and column (x3) and 1 VP per controlled territory (x1)."""
    state = table(2)
    seat = state.seats[0]
    seat.tech = [TechOwned(card=33), TechOwned(card=8)]
    seat.taken = [0, 0, 0, 2]  # visible VP icons: tech cards, capital, territories
    seat.hand = [MONARCHY]
    fill(state, 0, [(r, c) for r in (0, 1) for c in range(9)] + [(r, 0) for r in range(9)])
    _not_first(state, 2)
    act(state, 0, TakeIncome())
    assert decision(state) == "upgrade"
    assert options(state) == [Upgrade(card=33), Upgrade(card=8), Decline()]
    events = answer(state, Upgrade(card=33))
    assert seat.tracks[0] == [1] and seat.territory != [] and not of(events, ev.SpaceActivated)
    step3 = [e.vp for e in of(events, ev.VPScored)]
    assert step3 == [2, 3, 1]
    assert seat.vp == 6


def test_upgrade_is_optional() -> None:
    """ "Améliorer 1 carte Techno": you may upgrade; declining still scores the VP icons."""
    state = table(2)
    seat = state.seats[0]
    seat.tech = [TechOwned(card=8)]
    seat.hand = [MONARCHY]
    _not_first(state, 2)
    act(state, 0, TakeIncome())
    events = answer(state, Decline())
    assert seat.tech[0].row == 0
    assert [e.vp for e in of(events, ev.VPScored)] == [1]  # 1 tech card, markets space 1


def test_income_steps_in_order() -> None:
    """ "Tours de revenus": the steps come in order: play a tapestry card, upgrade, VP icons,
    then income."""
    state = table(2)
    seat = state.seats[0]
    seat.tech = [TechOwned(card=8)]
    seat.hand = [MONARCHY]
    _not_first(state, 2)
    events = act(state, 0, TakeIncome())
    events += answer(state, Upgrade(card=8))
    kinds = [
        type(e).__name__
        for e in events
        if isinstance(e, ev.TapestryPlayed | ev.TechUpgraded | ev.VPScored | ev.TerritoryTilesDrawn)
    ]
    assert kinds == ["TapestryPlayed", "TechUpgraded", "VPScored", "TerritoryTilesDrawn"]


@pytest.mark.parametrize(("era", "resources"), [(2, 1), (3, 2), (4, 3)])
def test_first_of_the_neighbours_into_an_era_takes_resources(era: int, resources: int) -> None:
    """ "Jouer 1 carte Fresque": the first of you and your neighbours into era 2, 3, 4 takes
    1, 2, 3 resources of choice (the space the card covers), before playing the card."""
    state = table(3)
    for seat in state.seats:
        seat.income_turns = era - 1
    state.seats[0].hand = [MONARCHY]
    events = act(state, 0, TakeIncome())
    assert not of(events, ev.TapestryPlayed)
    for _ in range(resources):
        assert decision(state) == "resource"
        answer(state, ChooseResource(resource="culture"))
    assert state.seats[0].mat[-1].card == MONARCHY
    assert state.seats[0].resources == [1, 1, 1, resources + 1]  # + income of the bare mat


@pytest.mark.parametrize("era", [2, 3, 4])
def test_no_era_bonus_when_a_neighbour_is_already_there(era: int) -> None:
    """ "Jouer 1 carte Fresque": not the first of your neighbours: no resources."""
    state = table(3)
    for seat in state.seats:
        seat.income_turns = era - 1
    state.seats[2].income_turns = era
    state.seats[0].hand = [MONARCHY]
    events = act(state, 0, TakeIncome())
    assert not [e for e in of(events, ev.ResourcesChanged) if e.reason.startswith("era")]
    assert decision(state) != "resource"


def test_only_neighbours_count_for_the_era_bonus() -> None:
    """ "Voisins": only the players to your left and right count; with 4 players the one
    across the table being ahead does not matter."""
    state = table(4)
    for seat in state.seats:
        seat.income_turns = 1
    state.seats[2].income_turns = 2
    state.seats[0].hand = [MONARCHY]
    act(state, 0, TakeIncome())
    assert decision(state) == "resource"


def test_income_capped_at_eight() -> None:
    """ "Gagner des revenus": 8 of each resource at most (the excess is lost)."""
    state = table(2)
    seat = state.seats[0]
    seat.resources = [7, 8, 0, 6]
    seat.taken = [3, 4, 0, 1]
    seat.hand = [MONARCHY]
    _not_first(state, 2)
    act(state, 0, TakeIncome())
    assert seat.resources == [8, 8, 1, 8]


def test_income_turn_5_has_steps_1_and_3_then_the_seat_is_finished() -> None:
    """ "Fin de la partie": in income turn 5, the civilization, 1 upgrade and the visible VP,
    no tapestry card and no income; then the seat's game is over."""
    state = table(2)
    seat = state.seats[0]
    seat.income_turns = 4
    seat.hand = [MONARCHY]
    seat.tech = [TechOwned(card=8)]
    seat.taken = [0, 0, 3, 0]  # farms: 4 VP icon visible; food income not paid
    _not_first(state, 5)
    events = act(state, 0, TakeIncome())
    assert decision(state) == "upgrade"
    events += answer(state, Decline())
    assert not of(events, ev.TapestryPlayed) and not of(events, ev.ResourcesChanged)
    assert sorted(e.vp for e in of(events, ev.VPScored)) == [1, 4]
    assert seat.finished and seat.hand == [MONARCHY]
    assert GAME.legal_actions(state, 0) == []
    assert GAME.pending(state).seats == (1,)


def test_others_play_on_after_a_seat_finishes_and_the_game_ends_with_the_last() -> None:
    """ "Fin de la partie": the game ends at different times for each player: a finished seat
    is skipped; once everyone has finished, the game is over."""
    state = table(2)
    state.seats[0].income_turns = 4
    state.seats[1].income_turns = 4
    state.seats[1].resources = [3, 0, 0, 0]
    act(state, 0, TakeIncome())
    assert state.seats[0].finished
    for _ in range(2):
        assert GAME.pending(state).seats == (1,) and decision(state) == "turn"
        act(state, 1, Advance(track="exploration", payment=("coin",)))
        while GAME.pending(state).decision not in ("turn", "over"):
            act(state, 1, GAME.legal_actions(state, 1)[-1])
    events = act(state, 1, TakeIncome())
    while not GAME.is_over(state):
        events += act(state, 1, GAME.legal_actions(state, 1)[-1])
    ended = of(events, ev.GameEnded)
    assert len(ended) == 1 and ended[0].scores == (state.seats[0].vp, state.seats[1].vp)


def test_a_finished_seat_gains_nothing_more() -> None:
    """ "Fin de la partie": once finished you gain nothing but passive civilization VP (here
    Diplomacy's resource for every player skips the finished seat)."""
    state = table(3)
    state.seats[1].finished = True
    offer(state, 0, gain("all_players_gain_any_resource"))
    asked = []
    while decision(state) == "resource":
        seat = GAME.pending(state).seats[0]
        asked.append(seat)
        act(state, seat, ChooseResource(resource="coin"))
    assert asked == [0, 2]
    assert state.seats[1].resources == [0, 0, 0, 0]


def test_finished_seat_never_gets_a_turn() -> None:
    """ "Fin de la partie": turns pass over a seat whose game is over."""
    state = table(3)
    state.seats[1].finished = True
    state.seats[0].resources = [1, 0, 0, 0]
    act(state, 0, Advance(track="science", payment=("coin",)))
    while GAME.pending(state).decision != "turn":
        who = GAME.pending(state).seats[0]
        act(state, who, GAME.legal_actions(state, who)[-1])
    assert GAME.pending(state).seats == (2,)
