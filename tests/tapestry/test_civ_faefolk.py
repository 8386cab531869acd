"""Faefolk (Fantasies & Futures): a token walking a ring of seven spots.

Sources: facts folder ``civilizations.json#43`` (the ring, clockwise from the top, the token
on the top spot at the start; income turns 2-5: an optional tapestry card, then one spot per
visible tapestry card, the spot's benefit twice on income turn 5), README known gap 7 (icon
readings), rulebook "RÉÉQUILIBRAGE DES CIVILISATIONS" (no Faefolk entry: no adjustment),
"PREMIÈRE MISE EN PLACE" (the boxes one plays with).
"""

from __future__ import annotations

import pytest

from domain.core import Event
from domain.tapestry import civ_faefolk as fae
from domain.tapestry import civs
from domain.tapestry import events as ev
from domain.tapestry.civs import civ_id
from domain.tapestry.commands import Choose, Decline
from domain.tapestry.engine import frame
from domain.tapestry.rules import dump, gain
from domain.tapestry.state import Played, TapestryState
from tests.tapestry.box_civ_helpers import GAME2, boxed_start, play_boxed
from tests.tapestry.helpers import GAME, decision, of, table
from tests.tapestry.test_cards_support import answer, options, run_frames, vp_of

KEY = "faefolk"


def faefolk(eras: tuple[int, ...] = ()) -> TapestryState:
    """Seat 0 holds the Faefolk, with one face-up card on the mat per era in ``eras``."""
    state = table(2)
    state.seats[0].civs = [civ_id(KEY)]
    state.seats[0].mat = [Played(card=1, era=era) for era in eras]
    return state


def income_ability(state: TapestryState, era: int) -> list[Event]:
    """Step 1 of income turn ``era`` for seat 0."""
    return run_frames(state, frame("civ_income", 0, token=KEY, ints=(era,)))


def test_token_starts_on_the_top_spot_scoring_tapestry() -> None:
    """Facts ``#43`` ``setup_rule``: the token begins on spot 1 (VP per tapestry card)."""
    state = faefolk()
    assert fae.spot(state, 0) == fae.START == 0
    assert dump(fae.ring()[0]) == gain("vp_per_tapestry_card")
    assert len(fae.ring()) == 7


def test_optional_card_first_then_one_spot_per_visible_card() -> None:
    """Facts ``#43``: you may gain a tapestry card, then move one spot per visible card (two
    eras on the mat: two spots, to food and VP per territory tile)."""
    state = faefolk((1, 2))
    state.seats[0].territory = [3, 4, 5]
    income_ability(state, 2)
    assert decision(state) == "faefolk"
    assert options(state) == [Choose(index=0), Decline()]
    events = answer(state, Choose(index=0))
    assert len(state.seats[0].hand) == 1
    assert fae.spot(state, 0) == 2
    assert state.seats[0].resources[2] == 1  # one food
    assert vp_of(events, 0, "vp_per_territory_tile_in_supply") == 3


def test_declining_the_card_still_moves() -> None:
    """ "you may gain": declining skips the card; the move happens anyway (3 cards: 3
    spots, coin and VP per tech card)."""
    state = faefolk((1, 2, 3))
    income_ability(state, 3)
    answer(state, Decline())
    assert state.seats[0].hand == []
    assert fae.spot(state, 0) == 3
    assert state.seats[0].resources[0] == 1


def test_covered_cards_are_not_visible() -> None:
    """ "visible" tapestry cards: a card played over another in the same era covers it, so
    one spot per era stack."""
    state = faefolk((1, 2, 2))
    assert fae.visible_tapestry(state, 0) == 2


def test_ring_wraps_clockwise() -> None:
    """Seven spots around an ellipse: from spot 6 (index 5), three cards lead back to
    spot 2 (index 1)."""
    state = faefolk((1, 2, 3))
    state.seats[0].civ_tokens[KEY] = [5]
    income_ability(state, 4)
    answer(state, Decline())
    assert fae.spot(state, 0) == 1


def test_income_turn_five_pays_twice() -> None:
    """Facts ``#43`` ``ring_note``: on income turn 5 the benefit is taken twice (four
    cards from spot 1: spot 5, culture and VP per controlled territory, twice)."""
    state = faefolk((1, 2, 3, 4))
    events = income_ability(state, 5)
    events += answer(state, Decline())
    assert fae.spot(state, 0) == 4
    assert state.seats[0].resources[3] == 2
    assert vp_of(events, 0, "vp_per_controlled_territory") == 2  # home territory, twice


def test_no_rebalancing_and_not_dealt_in_the_base_game() -> None:
    """ "RÉÉQUILIBRAGE DES CIVILISATIONS" has no Faefolk entry: no setup frame. The base
    game's deck never deals it, nor may a seat start with it without its box."""
    state, _ = boxed_start(KEY, 2, b"fae")
    assert state.seats[0].civs == [civ_id(KEY)]
    assert civs.setup_frames(state, 0) == []
    assert civ_id(KEY) not in civs.implemented_ids()
    assert KEY not in civs.GAINABLE
    with pytest.raises(ValueError, match="fantasies_and_futures"):
        GAME2.decode_options({"starting_civilizations": [KEY]})
    with pytest.raises(ValueError, match="fantasies_and_futures"):
        GAME.initial(GAME.decode_options({"starting_civilizations": [KEY]}), 2)


def test_seeded_games_with_starting_faefolk_finish() -> None:
    """ "Fin de la partie": whole random games with a starting Faefolk end, every seat
    finished, the token moved on each income turn 2-5."""
    for seats, seed in ((2, 1), (3, 2), (4, 3)):
        state, log = play_boxed(KEY, seats, seed)
        assert all(s.finished for s in state.seats)
        moves = [e for e in of(log, ev.CivTokensSet) if e.key == KEY and e.seat == 0]
        assert len(moves) == 4
