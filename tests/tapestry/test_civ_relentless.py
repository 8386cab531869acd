"""Relentless (Acharnés, Arts & Architecture): a streak of building turns cashed in by an
advance turn without one.

Sources: facts folder ``civilizations.json#23`` (a token after each income or advance turn
with a building gained, income building or landmark; after an advance turn without one, all
tokens removed for the reward of their number, 5 or more: the last space), rulebook
"RÉÉQUILIBRAGE DES CIVILISATIONS" (ACHARNÉS: "Pas de changement"), "Tours de développement",
"Tours de revenus".
"""

from __future__ import annotations

from domain.core import Event
from domain.tapestry import civ_relentless as rel
from domain.tapestry import civs
from domain.tapestry import events as ev
from domain.tapestry.civs import civ_id
from domain.tapestry.commands import Advance, Choose, TakeIncome
from domain.tapestry.engine import expr_frame
from domain.tapestry.rules import gain
from domain.tapestry.state import TapestryState
from tests.tapestry.box_civ_helpers import boxed_start, play_boxed
from tests.tapestry.helpers import act, decision, of, table
from tests.tapestry.test_cards_support import answer, options, run_frames, settle_turn, vp_of

KEY = "relentless"


def relentless(tokens: int = 0) -> TapestryState:
    """Seat 0 holds the Relentless with ``tokens`` on the mat, 5 of each resource, and is
    about to take an advance turn."""
    state = table(2)
    state.seats[0].civs = [civ_id(KEY)]
    state.seats[0].resources = [5, 5, 5, 5]
    if tokens:
        state.seats[0].civ_tokens[KEY] = [tokens, 0, 0, 0]
    return state


def advance(state: TapestryState, track: str, pick: int = 0) -> list[Event]:
    """Seat 0 advances on ``track`` (first payment offered) and settles its turn."""
    command = next(c for c in options(state) if isinstance(c, Advance) and c.track == track)
    events = act(state, 0, command)
    for _ in range(100):
        if state.current != 0 or decision(state) == "over":
            break
        found = options(state)
        events += answer(state, found[min(pick, len(found) - 1)])
    return events


def test_turn_with_an_income_building_adds_a_token() -> None:
    """Facts ``#23``: an advance turn that gains an income building (Stone Tools: a market)
    adds one token; nothing is cashed in."""
    state = relentless(tokens=2)
    state.seats[0].tracks[2] = [2]
    events = advance(state, "technology", pick=1)
    assert of(events, ev.BuildingTaken)
    assert rel.tokens(state, 0) == 3
    assert vp_of(events, 0, "civ:relentless") == 0


def test_turn_with_a_landmark_adds_a_token() -> None:
    """Facts ``#23``: a landmark counts as a building."""
    state = relentless(tokens=1)
    state.agenda = []
    events = run_frames(state, expr_frame(0, gain("gain_landmark_bakery"), "test"))
    while state.current == 0 and decision(state) != "turn":
        events += answer(state, options(state)[0])
    assert of(events, ev.LandmarkClaimed)
    assert rel.tokens(state, 0) == 2


def test_advance_without_a_building_cashes_in() -> None:
    """Facts ``#23``: two tokens and an advance turn without a building (Scouting: two
    territory tiles): the mat is cleared for 3 VP and a tapestry card."""
    state = relentless(tokens=2)
    events = advance(state, "exploration")
    assert not of(events, ev.BuildingTaken)
    assert rel.tokens(state, 0) == 0
    assert vp_of(events, 0, "civ:relentless") == 3
    assert len(state.seats[0].hand) == 1


def test_five_or_more_tokens_take_the_last_reward() -> None:
    """Facts ``#23`` (``tokens_removed`` "5+"): seven tokens pay 15 VP and one of tapestry
    card, resource, explore or invent."""
    assert rel.reward_slot(7) == rel.reward_slot(5) == 5
    state = relentless(tokens=7)
    events = act(state, 0, next(c for c in options(state) if isinstance(c, Advance)))
    while decision(state) != "choose" or state.agenda[-1].source != "civ:relentless":
        events += answer(state, options(state)[0])
    assert options(state) == [Choose(index=i) for i in range(4)]
    events += answer(state, Choose(index=0))
    assert vp_of(events, 0, "civ:relentless") == 15
    assert rel.tokens(state, 0) == 0


def test_no_token_nothing_to_cash() -> None:
    """An empty mat: an advance turn without a building gives nothing."""
    state = relentless()
    events = advance(state, "exploration")
    assert vp_of(events, 0, "civ:relentless") == 0
    assert not [e for e in of(events, ev.CivTokensSet) if e.key == KEY and e.values[0]]


def test_income_turn_without_a_building_keeps_the_tokens() -> None:
    """Facts ``#23``: only an *advance* turn without a building clears the mat."""
    state = relentless(tokens=3)
    events = act(state, 0, TakeIncome())
    settle_turn(state)
    assert not of(events, ev.BuildingTaken)
    assert rel.tokens(state, 0) == 3


def test_other_seats_turns_do_not_count() -> None:
    """The mat follows the Relentless seat's own turns only."""
    state = relentless(tokens=2)
    state.seats[1].resources = [5, 5, 5, 5]
    state.seats[0].tracks[2] = [2]
    advance(state, "technology", pick=1)
    assert state.current == 1 and rel.tokens(state, 0) == 3
    act(state, 1, next(c for c in options(state) if isinstance(c, Advance)))
    settle_turn(state)
    assert rel.tokens(state, 0) == 3


def test_no_rebalancing() -> None:
    """ "RÉÉQUILIBRAGE DES CIVILISATIONS": ACHARNÉS, "Pas de changement"."""
    state, _ = boxed_start(KEY, 2, b"rel")
    assert state.seats[0].civs == [civ_id(KEY)]
    assert civs.setup_frames(state, 0) == []
    assert civ_id(KEY) not in civs.implemented_ids()


def test_seeded_games_with_starting_relentless_finish() -> None:
    """ "Fin de la partie": whole random games with a starting Relentless end, every seat
    finished; the mat never holds a negative count."""
    for seats, seed in ((2, 1), (3, 2), (5, 3)):
        state, log = play_boxed(KEY, seats, seed)
        assert all(s.finished for s in state.seats)
        counts = [e.values[0] for e in of(log, ev.CivTokensSet) if e.key == KEY]
        assert counts and min(counts) >= 0
