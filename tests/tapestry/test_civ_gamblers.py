"""Gamblers (Joueurs de Casino, Arts & Architecture): three tapestry cards revealed, a WHEN
PLAYED one played over the era slot.

Sources: facts folder ``civilizations.json#22`` (income turns 2-4, and after income turn 1
onto Maker of Fire for a starting Gambler — README gap 13; reveal 3, play a WHEN PLAYED card
and resolve it, else keep one), rulebook "RÉÉQUILIBRAGE DES CIVILISATIONS" (JOUEURS DE CASINO:
"Pas de changement"), "Tours de revenus" (step 1 before step 2's card).
"""

from __future__ import annotations

from domain.core import Chance
from domain.tapestry import civ_gamblers as gam
from domain.tapestry import civs
from domain.tapestry import events as ev
from domain.tapestry.civs import civ_id
from domain.tapestry.commands import Choose, PlayTapestry
from domain.tapestry.engine import Ctx, frame
from domain.tapestry.state import TapestryState
from tests.tapestry.box_civ_helpers import boxed_start, play_boxed
from tests.tapestry.helpers import decision, of, table
from tests.tapestry.test_cards_support import answer, card, options, run_frames

KEY = "gamblers"


def gambler(era: int = 2) -> TapestryState:
    """Seat 0 holds the Gamblers and has started income turn ``era``."""
    state = table(2)
    state.seats[0].civs = [civ_id(KEY)]
    state.seats[0].income_turns = era
    return state


def reveal(state: TapestryState, *keys: str) -> list[ev.Event]:
    """The decision after revealing the cards ``keys`` (put in hand as a draw would)."""
    ids = [card(k) for k in keys]
    state.seats[0].hand.extend(ids)
    era = state.seats[0].income_turns
    return run_frames(state, frame(gam.DECISION, 0, ints=(era, *ids)))


def test_income_ability_reveals_three_cards() -> None:
    """Facts ``#22``: at income turns 2-4 three tapestry cards are revealed."""
    state = gambler(3)
    events = run_frames(state, frame("civ_income", 0, token=KEY, ints=(3,)))
    drawn = of(events, ev.TapestryDrawn)
    assert drawn and drawn[0].count == gam.REVEALED == 3
    if decision(state) == gam.DECISION:
        assert list(state.agenda[-1].ints[1:]) == list(drawn[0].cards)


def test_no_ability_at_income_turn_five() -> None:
    """Facts ``#22`` ``income_ability_turns`` [1, 2, 3, 4]: nothing at income turn 5."""
    state = gambler(5)
    events = run_frames(state, frame("civ_income", 0, token=KEY, ints=(5,)))
    assert not of(events, ev.TapestryDrawn)


def test_the_when_played_card_is_played_over_the_era_slot() -> None:
    """Facts ``#22``: the WHEN PLAYED card among the three is played on the current era's slot
    and resolved; the two THIS ERA cards are discarded."""
    state = gambler(2)
    events = reveal(state, "feudalism", "academia", "golden_age")
    played = of(events, ev.TapestryPlayed)
    assert [(p.card, p.era) for p in played] == [(card("feudalism"), 2)]
    assert of(events, ev.TapestryDiscarded)[0].cards == (card("academia"), card("golden_age"))
    assert state.seats[0].hand == []


def test_a_choice_between_when_played_cards() -> None:
    """Several WHEN PLAYED cards: the player picks which one is played."""
    state = gambler(2)
    reveal(state, "feudalism", "revolution", "academia")
    assert options(state) == [
        PlayTapestry(card=card("feudalism")),
        PlayTapestry(card=card("revolution")),
    ]


def test_none_qualifies_keep_one() -> None:
    """Facts ``#22``: with no WHEN PLAYED card revealed, one of the three is kept in hand."""
    state = gambler(4)
    reveal(state, "academia", "golden_age", "theocracy")
    assert options(state) == [
        Choose(index=card(k)) for k in ("academia", "golden_age", "theocracy")
    ]
    events = answer(state, Choose(index=card("golden_age")))
    assert state.seats[0].hand == [card("golden_age")]
    assert not of(events, ev.TapestryPlayed)


def test_starting_gambler_plays_onto_maker_of_fire() -> None:
    """README gap 13: a starting Gambler uses the ability at the end of income turn 1 (the
    era-1 slot, Maker of Fire); as a second civilization it does not."""
    state = gambler(1)
    ctx = Ctx(state, Chance(b"gamble", 0))
    civs.after_income(ctx, 0, 1)
    assert any(isinstance(e, ev.TapestryDrawn) for e in ctx.events)
    state = gambler(1)
    state.seats[0].civs = [civ_id("leaders"), civ_id(KEY)]
    ctx = Ctx(state, Chance(b"gamble", 0))
    civs.after_income(ctx, 0, 1)
    assert not any(isinstance(e, ev.TapestryDrawn) for e in ctx.events)
    frames = [f for f in ctx.state.agenda if f.kind == gam.DECISION]
    assert frames == []


def test_no_rebalancing() -> None:
    """ "RÉÉQUILIBRAGE DES CIVILISATIONS": JOUEURS DE CASINO, "Pas de changement"."""
    state, _ = boxed_start(KEY, 2, b"gam")
    assert state.seats[0].civs == [civ_id(KEY)]
    assert civs.setup_frames(state, 0) == []


def test_seeded_games_with_starting_gamblers_finish() -> None:
    """ "Fin de la partie": whole random games with a starting Gambler end; cards were
    revealed three at a time after income turn 1 and at income turns 2-4."""
    for seats, seed in ((2, 1), (3, 2), (4, 3)):
        state, log = play_boxed(KEY, seats, seed)
        assert all(s.finished for s in state.seats)
        threes = [e for e in of(log, ev.TapestryDrawn) if e.seat == 0 and e.count == 3]
        assert len(threes) >= 4  # other benefits may draw three cards too
