"""Merfolk (Sirènes, Fantasies & Futures): tapestry cards sunk under the mat, then spent.

Sources: facts folder ``civilizations.json#46`` (income turns 2-4: a tapestry card, then all
but 2 hand cards under the mat; income turn 5: a card, the submerged ones back, 5 kept at its
end; afterwards discard for 5 VP each or play one onto era 4), rulebook F.À.Q. "TOURS DE
REVENUS" (a card played during or after income turn 5 goes on the era-4 stack; the Sirènes
keep playing after it), "FIN DE PARTIE", "RÉÉQUILIBRAGE DES CIVILISATIONS" (no entry).
"""

from __future__ import annotations

from domain.bots import RandomBot
from domain.tapestry import civ_merfolk as mer
from domain.tapestry import civs
from domain.tapestry import events as ev
from domain.tapestry.bot import TapestryBot
from domain.tapestry.civs import civ_id
from domain.tapestry.commands import Choose, Decline, PlayTapestry
from domain.tapestry.engine import expr_frame, frame
from domain.tapestry.game import CARD_TURN_PROMPT
from domain.tapestry.rules import CARD_TURNS, PLAYS_ON, SUNK, gain, tapestry_deck
from domain.tapestry.state import TapestryState
from domain.tapestry.view import make_view, redact
from tests.tapestry.box_civ_helpers import GAME2, box_of, play_bots, play_boxed, refold, state_bytes
from tests.tapestry.helpers import decision, of, table
from tests.tapestry.test_cards_support import (
    answer,
    card,
    options,
    run_frames,
    vp_of,
)

KEY = "merfolk"


def merfolk(seats: int = 2) -> TapestryState:
    """Seat 0 holds the Merfolk."""
    state = table(seats)
    state.seats[0].civs = [civ_id(KEY)]
    return state


def test_income_two_to_four_draws_then_sinks_all_but_two() -> None:
    """Income turns 2-4: a tapestry card, then every card of the hand but two goes under the
    mat, one chosen at a time; the cards stay out of the deck and hidden from others, their
    number public."""
    state = merfolk()
    state.seats[0].hand = [card("empiricism"), card("democracy"), card("alliance")]
    deck = len(tapestry_deck(state))
    events = run_frames(state, frame("civ_income", 0, token=KEY, ints=(2,)))
    assert len(of(events, ev.TapestryDrawn)) == 1 and len(state.seats[0].hand) == 4
    assert decision(state) == mer.SINK
    first = options(state)[0]
    assert isinstance(first, Choose)
    events = answer(state, first)
    sunk = of(events, ev.CardsSubmerged)[0]
    assert redact(state, sunk, 1) == ev.CardsSubmerged(seat=0, count=1)
    assert decision(state) == mer.SINK
    answer(state, options(state)[0])
    assert len(state.seats[0].hand) == 2 and len(mer.sunk(state, 0)) == 2
    assert decision(state) != mer.SINK
    other = make_view(state, 1, ((), "", "")).seats[0].civ_tokens
    assert SUNK not in other and other["merfolk"] == (2,)
    assert len(tapestry_deck(state)) == deck - 1  # the card drawn; the sunk ones stay out


def test_submerged_cards_are_not_scored() -> None:
    """Submerged cards "may not be played, spent or scored": not in the hand."""
    state = merfolk()
    state.seats[0].hand = [card("empiricism")]
    state.seats[0].civ_tokens[SUNK] = [card("democracy"), card("alliance")]
    events = run_frames(state, expr_frame(0, gain("vp_per_tapestry_card_in_hand"), "test"))
    assert sum(e.vp for e in of(events, ev.VPScored)) == 1


def test_income_five_returns_the_cards_and_keeps_five() -> None:
    """Income turn 5: a card, the submerged ones back in hand; at the end of that income turn
    five are kept, the rest discarded; then the Merfolk play on with card turns."""
    state = merfolk()
    state.seats[0].hand = [card("empiricism"), card("democracy")]
    state.seats[0].civ_tokens[SUNK] = [card("alliance"), card("renaissance"), card("trap")]
    state.seats[0].civ_tokens["merfolk"] = [3]
    events = run_frames(state, frame("civ_income", 0, token=KEY, ints=(5,)))
    assert of(events, ev.CardsSubmerged)[0].surfaced
    assert len(state.seats[0].hand) == 6 and not mer.sunk(state, 0)
    events = run_frames(state, frame("income", 0, ints=(5, 5)))
    assert state.seats[0].civ_tokens[PLAYS_ON] == [CARD_TURNS]
    assert not of(events, ev.SeatFinished)
    assert decision(state) == mer.TRIM
    answer(state, options(state)[0])
    assert len(state.seats[0].hand) == 5 and decision(state) != mer.TRIM


def test_after_income_five_discard_for_five_vp_each() -> None:
    """After income turn 5: a turn may discard any number of cards for 5 VP each."""
    state = merfolk()
    state.seats[0].income_turns = 5
    state.seats[0].civ_tokens[PLAYS_ON] = [CARD_TURNS]
    state.seats[0].hand = [card("empiricism"), card("democracy")]
    run_frames(state, frame("turn", 0))
    assert GAME2.pending(state).prompt == CARD_TURN_PROMPT
    found = options(state)
    assert Choose(index=card("democracy")) in found
    assert PlayTapestry(card=card("democracy")) in found  # a WHEN PLAYED card
    assert PlayTapestry(card=card("empiricism")) not in found  # a THIS ERA card
    events = answer(state, Choose(index=card("democracy")))
    assert vp_of(events, 0, mer.SOURCE) == 5
    assert decision(state) == mer.DISCARD
    events = answer(state, Choose(index=card("empiricism")))
    assert vp_of(events, 0, mer.SOURCE) == 5 and not state.seats[0].hand


def test_after_income_five_play_onto_era_four() -> None:
    """F.À.Q. "TOURS DE REVENUS": a card played after income turn 5 goes on the era-4 stack,
    its WHEN PLAYED ability resolved."""
    state = merfolk()
    state.seats[0].income_turns = 5
    state.seats[0].civ_tokens[PLAYS_ON] = [CARD_TURNS]
    state.seats[0].hand = [card("democracy")]
    run_frames(state, frame("turn", 0))
    events = answer(state, PlayTapestry(card=card("democracy")))
    played = of(events, ev.TapestryPlayed)[0]
    assert played.era == mer.LAST_ERA and played.card == card("democracy")


def test_game_ends_for_the_merfolk_when_the_hand_is_empty() -> None:
    """ "Your game ends when you have expended your cards": no card, no turn: finished."""
    state = merfolk()
    state.seats[0].income_turns = 5
    state.seats[0].civ_tokens[PLAYS_ON] = [CARD_TURNS]
    state.seats[0].hand = []
    from domain.tapestry.turns import _turn_commands

    assert _turn_commands(state, 0) == []
    state.seats[0].hand = [card("trap")]
    assert _turn_commands(state, 0) == [Choose(index=card("trap"))]


def test_no_rebalancing_box_and_decline_absent() -> None:
    """No Sirènes entry on the rebalancing page; dealt with its box; gained mid-game from
    ``tapestry/3`` only."""
    state = merfolk()
    assert civs.setup_frames(state, 0) == []
    assert box_of(KEY) == "fantasies_and_futures"
    assert KEY not in civs.gainable(["fantasies_and_futures"], revision=2)
    assert KEY in civs.gainable(["fantasies_and_futures"], revision=3)
    assert Decline() not in mer.turn_commands(state, 0)


def test_seeded_games_with_starting_merfolk_finish() -> None:
    """ "Fin de la partie": whole random games with starting Merfolk end at 2-5 seats (the
    Merfolk spending their cards after income turn 5); folding the events again gives the
    state held."""
    sunk = 0
    for seats, seed in ((2, 1), (3, 2), (4, 3), (5, 4)):
        state, log = play_boxed(KEY, seats, seed)
        assert state.seats[0].civs[0] == civ_id(KEY)
        assert all(s.finished for s in state.seats)
        assert not state.seats[0].hand
        assert refold(KEY, log, seats) == state_bytes(state)
        sunk += len(of(log, ev.CardsSubmerged))
    assert sunk > 0


def test_the_tapestry_bot_plays_the_merfolk() -> None:
    """The Tapestry bot answers the Merfolk's decisions and card turns in a whole 3-seat game
    that finishes and refolds exactly."""
    seats, seed = 3, b"merfolk-bot"
    state, log = play_bots(
        KEY, [TapestryBot(b"mer-smart"), RandomBot(b"mer-1"), RandomBot(b"mer-2")], seed
    )
    assert refold(KEY, log, seats) == state_bytes(state)
