"""Elder Ones (Anciens, Fantasies & Futures): a civilization that plays on after its fifth
income turn.

Sources: facts folder ``civilizations.json#42`` (income turns 2-4: a resource or 2 tapestry
cards; income turn 5: up to 6 cards discarded for 2 resources each, then advance turns go on;
the era-4 THIS ERA card persists; landmarks then score 10 VP), rulebook "Fin de la partie"
(a seat's game ends after its fifth income turn — the Elder Ones' exception),
"RÉÉQUILIBRAGE DES CIVILISATIONS" (no ANCIENS entry).
"""

from __future__ import annotations

from domain.core import Chance
from domain.tapestry import civ_elder_ones as eld
from domain.tapestry import civs
from domain.tapestry import events as ev
from domain.tapestry.civs import civ_id
from domain.tapestry.commands import Advance, Choose, ChooseResource, Decline, TakeIncome
from domain.tapestry.engine import END_TURN, Ctx, expr_frame, frame
from domain.tapestry.rules import PLAYS_ON, active_card, gain, plays_on
from domain.tapestry.state import Played, TapestryState
from tests.tapestry.box_civ_helpers import boxed_start, play_boxed
from tests.tapestry.helpers import decision, of, table
from tests.tapestry.test_cards_support import answer, card, options, run_frames, vp_of

KEY = "elder_ones"


def elder(era: int = 2) -> TapestryState:
    """Seat 0 holds the Elder Ones, at income turn ``era``."""
    state = table(2)
    state.seats[0].civs = [civ_id(KEY)]
    state.seats[0].income_turns = era
    return state


def test_income_turns_two_to_four_resource_or_two_cards() -> None:
    """Facts ``#42``: one resource of your choice, or two tapestry cards."""
    state = elder(3)
    run_frames(state, frame("civ_income", 0, token=KEY, ints=(3,)))
    assert decision(state) == "choose" and options(state) == [Choose(index=0), Choose(index=1)]
    answer(state, Choose(index=1))
    assert len(state.seats[0].hand) == 2


def test_income_turn_five_discards_for_two_resources_each() -> None:
    """Facts ``#42``: discard tapestry cards one by one for 2 resources each, stop at will."""
    state = elder(5)
    state.seats[0].hand = [card("academia"), card("golden_age")]
    run_frames(state, frame("civ_income", 0, token=KEY, ints=(5,)))
    assert options(state) == [
        Choose(index=card("academia")),
        Choose(index=card("golden_age")),
        Decline(),
    ]
    events = answer(state, Choose(index=card("academia")))
    while decision(state) == "resource":
        events += answer(state, ChooseResource(resource="coin"))
    assert of(events, ev.TapestryDiscarded)[0].cards == (card("academia"),)
    assert state.seats[0].resources[0] == eld.RESOURCES_PER_CARD == 2
    answer(state, Decline())
    assert state.seats[0].hand == [card("golden_age")]


def test_at_most_six_cards() -> None:
    """Facts ``#42``: "up to 6": after six discards nothing more is asked."""
    state = elder(5)
    state.seats[0].hand = [card("academia")] * 8
    run_frames(state, frame("civ_income", 0, token=KEY, ints=(5,)))
    discarded = 0
    while decision(state) in (eld.DISCARD, "resource"):
        if decision(state) == "resource":
            answer(state, ChooseResource(resource="food"))
        else:
            answer(state, options(state)[0])
            discarded += 1
    assert discarded == eld.MAX_DISCARDS == 6
    assert len(state.seats[0].hand) == 2


def test_playing_on_after_income_turn_five() -> None:
    """Facts ``#42``: after income turn 5 the seat is not finished; its turns offer advances
    only (no income turn)."""
    state = elder(5)
    ctx = Ctx(state, Chance(b"elder", 0))
    civs.after_income(ctx, 0, 5)
    assert plays_on(ctx.state.seats[0])
    state.seats[0].civ_tokens[PLAYS_ON] = [1]
    state.seats[0].resources = [3, 3, 3, 3]
    found = options(state)
    assert found and TakeIncome() not in found
    assert all(isinstance(c, Advance) for c in found)
    assert not state.seats[0].finished


def test_era_four_this_era_card_persists() -> None:
    """Facts ``#42``: the THIS ERA card on top of era 4 stays in force while playing on."""
    state = elder(5)
    state.seats[0].mat = [Played(card=card("academia"), era=4)]
    assert active_card(state.seats[0]) == -1
    state.seats[0].civ_tokens[PLAYS_ON] = [1]
    assert active_card(state.seats[0]) == card("academia")


def test_landmarks_score_ten_while_playing_on() -> None:
    """Facts ``#42``: each landmark gained after income turn 5 scores 10 VP."""
    state = elder(5)
    state.seats[0].civ_tokens[PLAYS_ON] = [1]
    events = run_frames(state, expr_frame(0, gain("gain_landmark_bakery"), "test"))
    assert vp_of(events, 0, "civ:elder_ones") == eld.LANDMARK_VP == 10


def test_game_ends_when_no_advance_is_possible() -> None:
    """Facts ``#42``: the game ends for the Elder Ones once no advance turn can be taken."""
    state = elder(5)
    state.seats[0].civ_tokens[PLAYS_ON] = [1]
    state.seats[1].finished = True
    state.current = 1
    state.agenda = []
    ctx = Ctx(state, Chance(b"elder", 0))
    for hook in END_TURN:
        hook(ctx)
        if ctx.state.agenda:
            break
    assert any(isinstance(e, ev.SeatFinished) and e.seat == 0 for e in ctx.events)


def test_no_rebalancing() -> None:
    """ "RÉÉQUILIBRAGE DES CIVILISATIONS": no ANCIENS entry: no setup frame."""
    state, _ = boxed_start(KEY, 2, b"eld")
    assert state.seats[0].civs == [civ_id(KEY)]
    assert civs.setup_frames(state, 0) == []


def test_seeded_games_with_starting_elder_ones_finish() -> None:
    """ "Fin de la partie": whole random games with starting Elder Ones end, every seat
    finished; the Elder Ones' own game ends after its fifth income turn, never before."""
    for seats, seed in ((2, 1), (3, 2), (4, 3)):
        state, log = play_boxed(KEY, seats, seed)
        assert all(s.finished for s in state.seats)
        fifth = next(
            i
            for i, e in enumerate(log)
            if isinstance(e, ev.IncomeTurnStarted) and e.seat == 0 and e.era == 5
        )
        done = next(i for i, e in enumerate(log) if isinstance(e, ev.SeatFinished) and e.seat == 0)
        assert done > fifth
        assert not of(log[fifth:], ev.TrapPlayed) or all(
            e.seat != 0 for e in of(log[fifth:], ev.TrapPlayed)
        )
