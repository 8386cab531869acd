"""Genies (Fantasies & Futures): an opponent drawn at random makes a wish on the ring.

Sources: facts folder ``civilizations.json#44`` (a token per opponent; income turns 2-4: one
drawn at random chooses a circled benefit and scores it, the Genies score it and gain an
adjacent squared benefit, either order; income turn 5: two different circled benefits; the
8-position ring, adjacency wrapping), rulebook "FIN DE PARTIE" (a finished player gains
nothing more), "RÉÉQUILIBRAGE DES CIVILISATIONS" (no Genies entry).
"""

from __future__ import annotations

from domain.tapestry import civ_genies as gen
from domain.tapestry import civs
from domain.tapestry import events as ev
from domain.tapestry.civs import civ_id
from domain.tapestry.commands import Choose
from domain.tapestry.engine import frame
from domain.tapestry.rules import dump, gain
from domain.tapestry.state import TapestryState
from tests.tapestry.box_civ_helpers import boxed_start, play_boxed
from tests.tapestry.helpers import decision, of, table
from tests.tapestry.test_cards_support import answer, options, pending_seat, run_frames, vp_of

KEY = "genies"


def genies(seats: int = 3) -> TapestryState:
    """Seat 0 holds the Genies; every seat has two tech cards' worth of nothing yet."""
    state = table(seats)
    state.seats[0].civs = [civ_id(KEY)]
    return state


def test_ring_alternates_squares_and_circles() -> None:
    """Facts ``#44``: 8 positions, squares (gained) and circles (scored) alternating from a
    square at the top; the circle at the end wraps to the first square."""
    ring = [dump(b) for b in gen.ring()]
    assert ring[0] == gain("research_no_benefit") and ring[1] == gain("score_capital")
    assert gen.circles() == [1, 3, 5, 7]
    assert gen.squares_beside(7) == (6, 0)


def test_a_random_opponent_makes_the_wish() -> None:
    """Income turns 2-4: an opponent (never the Genies) is asked to choose a circle."""
    state = genies(3)
    run_frames(state, frame("civ_income", 0, token=KEY, ints=(2,)))
    assert decision(state) == gen.WISH
    assert pending_seat(state) in (1, 2)
    assert options(state) == [Choose(index=c) for c in (1, 3, 5, 7)]


def test_both_score_the_circle_and_the_genies_gain_a_square() -> None:
    """The wisher scores VP per controlled territory (their home: 1); the Genies score it
    too and take culture (the square before it), in the order they choose."""
    state = genies(2)
    run_frames(state, frame("civ_income", 0, token=KEY, ints=(3,)))
    events = answer(state, Choose(index=5))
    assert vp_of(events, 1, "vp_per_controlled_territory") == 1
    assert decision(state) == gen.GRANT and pending_seat(state) == 0
    events += answer(state, Choose(index=0))
    while decision(state) == "order":
        events += answer(state, options(state)[0])
    assert vp_of(events, 0, "vp_per_controlled_territory") == 1
    assert state.seats[0].resources[3] == 1


def test_a_finished_opponent_scores_nothing() -> None:
    """ "FIN DE PARTIE": an opponent whose game is over still chooses but gains nothing."""
    state = genies(2)
    state.seats[1].finished = True
    run_frames(state, frame("civ_income", 0, token=KEY, ints=(4,)))
    events = answer(state, Choose(index=5))
    assert vp_of(events, 1, "vp_per_controlled_territory") == 0
    assert decision(state) == gen.GRANT


def test_income_turn_five_two_different_circles() -> None:
    """Facts ``#44``: at income turn 5 the Genies score two different circled benefits."""
    state = genies(2)
    run_frames(state, frame("civ_income", 0, token=KEY, ints=(5,)))
    assert decision(state) == gen.FINAL and pending_seat(state) == 0
    events = answer(state, Choose(index=5))
    assert options(state) == [Choose(index=c) for c in (1, 3, 7)]
    events += answer(state, Choose(index=3))
    assert vp_of(events, 0, "vp_per_controlled_territory") == 1
    assert not of(events, ev.TerritoryTilesDrawn)


def test_no_rebalancing_and_no_solo() -> None:
    """No Genies entry on the rebalancing page; the mat needs live opponents (not solo)."""
    state, _ = boxed_start(KEY, 2, b"gen")
    assert state.seats[0].civs == [civ_id(KEY)]
    assert civs.setup_frames(state, 0) == []
    from domain.tapestry import content as C

    assert C.CIVILIZATIONS[civ_id(KEY)].solo is False


def test_seeded_games_with_starting_genies_finish() -> None:
    """ "Fin de la partie": whole random games with starting Genies end, every seat
    finished."""
    for seats, seed in ((2, 1), (3, 2), (5, 3)):
        state, _ = play_boxed(KEY, seats, seed)
        assert all(s.finished for s in state.seats)
