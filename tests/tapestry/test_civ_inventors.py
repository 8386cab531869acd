"""Inventors (Inventeurs): tokens upgrade anyone's tech cards; a top-row upgrade takes the card.

Sources: player aid "CIVILISATIONS / Inventeurs" (four tokens; income turns 2-5, a token on
any tech card in play, upgraded at once ignoring the prerequisite; you gain the benefit, and
the opponent too when it is their card; an opponent's card with a token upgraded to the top:
they gain the benefit, then you take the card into your bottom row), F.À.Q. "Plateaux
civilisation particuliers" (the owner lifts a middle-row card holding your token to the top:
the owner gains the square, then you gain it too, then you take the card into your bottom
row), "Règles générales" (after the fifth income turn nothing more is gained), "Fin de la
partie" (seeded games finish).
"""

from __future__ import annotations

from domain.core import Chance
from domain.tapestry import civ_inventors as inventors
from domain.tapestry import civs
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.civs import civ_id
from domain.tapestry.commands import ChooseTech, TakeIncome, Upgrade
from domain.tapestry.engine import Ctx, frame
from domain.tapestry.evolve import evolve
from domain.tapestry.state import Frame, TapestryState, TechOwned
from tests.tapestry.helpers import GAME, act, decision, of, table
from tests.tapestry.test_cards_support import options, run_frames
from tests.tapestry.test_civ_heralds import play_with

KEY = "inventors"
CALENDAR, CANNED_FOOD, AIR_CONDITIONING = 8, 9, 1  # circle culture / food; square 7 VP


def inventor(seats: int = 2) -> TapestryState:
    """Seat 0 holds the Inventors (an era-1 table: every seat at zero)."""
    state = table(seats)
    state.seats[0].civs = [civ_id(KEY)]
    return state


def give(state: TapestryState, seat: int, card: int, row: int) -> None:
    """``seat`` holds tech ``card`` in ``row`` (taken out of the display if it was there)."""
    if card in state.tech_display:
        state.tech_display.remove(card)
    state.seats[seat].tech.append(TechOwned(card=card, row=row))


def income_ability(state: TapestryState, seat: int = 0, era: int = 2) -> list[object]:
    """Step 1 of income turn ``era`` for ``seat``: its civilization abilities."""
    return list(run_frames(state, Frame(kind="civ_income", seat=seat, token=KEY, ints=(era,))))


def vp_events(events: list[object]) -> list[tuple[int, int]]:
    """``(seat, vp)`` of the VP scored, in order."""
    return [(e.seat, e.vp) for e in events if isinstance(e, ev.VPScored)]


def row_of(state: TapestryState, seat: int, card: int) -> int:
    """The row of ``card`` in ``seat``'s tech (-1: not there)."""
    return next((t.row for t in state.seats[seat].tech if t.card == card), -1)


# -- income turns 2-5 ----------------------------------------------------------------------
def test_opponents_bottom_card_moves_up_and_both_gain_the_circle() -> None:
    """Aid "Inventeurs": the card is upgraded at once; « Vous gagnez le bénéfice, ainsi que
    votre adversaire si c'est sa carte » (Calendar's circle: a culture each)."""
    state = inventor(2)
    give(state, 1, CALENDAR, 0)
    events = income_ability(state)  # the only card: upgraded at once
    assert row_of(state, 1, CALENDAR) == 1
    assert state.seats[0].resources[3] == 1 and state.seats[1].resources[3] == 1
    assert state.seats[0].civ_tokens[KEY] == [CALENDAR]
    assert of(events, ev.TechUpgraded) == [ev.TechUpgraded(seat=1, card=CALENDAR, row=1)]


def test_every_bottom_and_middle_card_is_offered_and_the_token_is_compulsory() -> None:
    """Aid "Inventeurs": « déplacez 1 pion ... sur n'importe quelle Technologie en jeu »: any
    seat's card that can still move up (top-row cards cannot); no way to decline."""
    state = inventor(3)
    give(state, 0, AIR_CONDITIONING, 0)
    give(state, 1, CALENDAR, 1)
    give(state, 2, CANNED_FOOD, 2)
    income_ability(state)
    assert decision(state) == "inventors"
    assert options(state) == [ChooseTech(card=AIR_CONDITIONING), ChooseTech(card=CALENDAR)]


def test_own_card_is_an_ordinary_upgrade() -> None:
    """Aid "Inventeurs": on your own card you alone gain the benefit (once)."""
    state = inventor(2)
    give(state, 0, CANNED_FOOD, 0)
    income_ability(state)
    assert row_of(state, 0, CANNED_FOOD) == 1 and state.seats[0].resources[2] == 1


def test_prerequisite_is_ignored_and_a_top_row_upgrade_takes_the_card() -> None:
    """Aid "Inventeurs": upgraded « en ignorant les prérequis » (Calendar needs exploration 4:
    nobody has it); reaching the top row, both gain the square (you first, as the aid's
    sentence goes), then the card goes to your bottom row."""
    state = inventor(2)
    give(state, 1, CALENDAR, 1)
    events = income_ability(state)
    assert vp_events(events) == [(0, 7), (1, 7)]
    taken = of(events, ev.TechTaken)
    assert taken == [ev.TechTaken(seat=0, owner=1, card=CALENDAR)]
    assert row_of(state, 1, CALENDAR) == -1 and row_of(state, 0, CALENDAR) == 0
    assert state.seats[0].civ_tokens[KEY] == [CALENDAR]


def test_faq_owner_upgrades_a_card_holding_the_token_to_the_top() -> None:
    """F.À.Q. "Imaginons que ... je suis les Inventeurs et que j'ai un pion sur une carte
    Technologie de la ligne du milieu d'un adversaire": the opponent gains the square, then
    you gain it, then you take the card into your bottom row."""
    state = inventor(2)
    give(state, 1, CALENDAR, 1)
    state.seats[0].civ_tokens[KEY] = [CALENDAR]
    state.seats[1].tracks[0] = [4]  # the owner meets the prerequisite
    state.agenda = [frame("upgrade", 1)]
    events = act(state, 1, Upgrade(card=CALENDAR))
    assert vp_events(events) == [(1, 7), (0, 7)]
    assert of(events, ev.TechTaken) == [ev.TechTaken(seat=0, owner=1, card=CALENDAR)]
    assert row_of(state, 0, CALENDAR) == 0 and row_of(state, 1, CALENDAR) == -1


def test_a_card_without_token_stays_with_its_owner() -> None:
    """Aid "Inventeurs": only a card holding a token is taken at the top row."""
    state = inventor(2)
    give(state, 1, CALENDAR, 1)
    state.seats[1].tracks[0] = [4]
    state.agenda = [frame("upgrade", 1)]
    events = act(state, 1, Upgrade(card=CALENDAR))
    assert vp_events(events) == [(1, 7)] and not of(events, ev.TechTaken)
    assert row_of(state, 1, CALENDAR) == 2


def test_a_finished_owner_gains_nothing_but_the_card_still_moves() -> None:
    """ "Règles générales": after its fifth income turn a seat gains nothing more; the
    Inventors still gain the benefit."""
    state = inventor(2)
    state.seats[1].finished = True
    give(state, 1, CANNED_FOOD, 0)
    income_ability(state)
    assert row_of(state, 1, CANNED_FOOD) == 1
    assert state.seats[0].resources[2] == 1 and state.seats[1].resources[2] == 0


def test_finished_inventors_take_nothing_more() -> None:
    """ "Règles générales": finished Inventors neither gain the square nor take the card."""
    state = inventor(2)
    state.seats[0].finished = True
    give(state, 1, CALENDAR, 1)
    state.seats[0].civ_tokens[KEY] = [CALENDAR]
    state.seats[1].tracks[0] = [4]
    state.agenda = [frame("upgrade", 1)]
    events = act(state, 1, Upgrade(card=CALENDAR))
    assert vp_events(events) == [(1, 7)] and row_of(state, 1, CALENDAR) == 2


def test_four_tokens_only() -> None:
    """Aid "Inventeurs": « Posez 4 pions sur la fiche »: no token left, no upgrade."""
    state = inventor(2)
    give(state, 1, CALENDAR, 0)
    state.seats[0].civ_tokens[KEY] = [2, 3, 4, 5]
    events = income_ability(state)
    assert not of(events, ev.TechUpgraded)


def test_a_discarded_card_takes_its_token_along() -> None:
    """A tech card discarded (a bonus cost) leaves play with the token on it (``0``)."""
    state = inventor(2)
    give(state, 1, CALENDAR, 1)
    state.seats[0].civ_tokens[KEY] = [CANNED_FOOD, CALENDAR]
    ctx = Ctx(state, Chance(b"discard", 0))
    ctx.emit(ev.TechDiscarded(seat=1, cards=(CALENDAR,)))
    for event in ctx.events:
        evolve(state, event)
    assert state.seats[0].civ_tokens[KEY] == [CANNED_FOOD, 0]


def test_the_ability_comes_with_the_income_turn() -> None:
    """Aid "Inventeurs": « Tours de Revenus (2-5) » — the decision opens the income turn."""
    state = inventor(2)
    give(state, 0, AIR_CONDITIONING, 0)
    give(state, 1, CALENDAR, 0)
    state.seats[0].hand = [42]
    act(state, 0, TakeIncome())
    assert decision(state) == "inventors"


def test_tech_taken_folds_and_is_public() -> None:
    """The TechTaken event moves the card between seats and is not redacted."""
    state = inventor(2)
    give(state, 1, CALENDAR, 2)
    event = ev.TechTaken(seat=0, owner=1, card=CALENDAR)
    evolve(state, event)
    assert row_of(state, 0, CALENDAR) == 0 and row_of(state, 1, CALENDAR) == -1
    assert GAME.redact_event(state, event, 1) == event


def test_inventors_may_be_gained_mid_game() -> None:
    """ "Règles générales": the Inventors have no rule against a mid-game gain."""
    assert KEY in civs.GAINABLE and KEY in civs.IMPLEMENTED_CIVILIZATIONS
    assert C.CIVILIZATIONS[civ_id(KEY)].gainable_mid_game
    assert C.CIVILIZATIONS[civ_id(KEY)].adjustment_gain is None  # "Pas de changement"


def test_seeded_games_with_starting_inventors_finish() -> None:
    """ "Fin de la partie": games with starting Inventors end, every seat finished."""
    for seats, seed in ((2, 1), (4, 2), (5, 3)):
        state, met = play_with(KEY, seats, seed, ("inventors",))
        assert state.seats[0].civs[0] == civ_id(KEY)
        assert all(s.finished for s in state.seats)
        assert "inventors" in met
        assert len(inventors.tokens(state, 0)) <= inventors.MAT_TOKENS
