"""Tinkerers (Bricoleurs, Plans & Ploys).

Sources: the facts folder's record (``civilizations.json#37``: « If starting civ, each opponent
gets a deck tech card. Income turns 2-5, use an unused option: gain a token's space cost in
resources; match the nearest opponent ahead on a track; regress exactly 3; jump to the next
bonus. »; ``benefits.json`` ``tinkerers_*``); "RÉÉQUILIBRAGE DES CIVILISATIONS" (« BRICOLEURS
Chaque adversaire gagne une carte Technologie et une carte Fresque de la pioche lorsque vous
commencez la partie avec les Bricoleurs. »); "PREMIÈRE MISE EN PLACE" (a box's components only
when it is in play); ``decisions.json#tinkerers_options``.
"""

from __future__ import annotations

import pytest

from domain.bots import make_bot
from domain.tapestry import civs
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.bot import TapestryBot
from domain.tapestry.civs import civ_id, setup_frames
from domain.tapestry.commands import Choose, Decline, PayBonus
from domain.tapestry.expansions import civ_tinkerers as tk
from domain.tapestry.state import TapestryState
from tests.tapestry.box_civ_helpers import play_bots, play_boxed, refold, state_bytes
from tests.tapestry.box_pp_helpers import income as pp_income
from tests.tapestry.box_pp_helpers import seated
from tests.tapestry.helpers import of
from tests.tapestry.test_cards_support import answer, options, run_frames

KEY = "tinkerers"
BOX = "plans_and_ploys"
EXPLORATION, SCIENCE, TECHNOLOGY, MILITARY = range(4)


def tinkerer(seats: int = 2) -> TapestryState:
    """Seat 0 holds the Tinkerers in a game with Plans & Ploys."""
    return seated(KEY, seats)


def income(state: TapestryState, era: int = 2) -> list[ev.Event]:
    """Step 1 of income turn ``era`` for seat 0."""
    return pp_income(state, KEY, era)


def pick(option: int, track: int, token: int = 0) -> Choose:
    """The command using ``option`` on token ``token`` of ``track``."""
    return Choose(index=option * tk.OPTION + track * tk.TRACK + token)


# -- content, dealing, setup ----------------------------------------------------------------
def test_record_and_dealing() -> None:
    """Facts folder ``civilizations.json#37`` (setup gift, four options) and "PREMIÈRE MISE EN
    PLACE": dealt and gained only with its box."""
    record = C.CIVILIZATIONS[civ_id(KEY)]
    assert record.box == BOX and record.name_fr == "Bricoleurs" and record.implemented
    assert record.setup == C.Gain(token="tinkerers_opponents_tech")
    assert tk.OPTIONS == ("refund", "match", "regress", "jump")
    assert civ_id(KEY) not in civs.implemented_ids() and civ_id(KEY) in civs.implemented_ids((BOX,))
    assert KEY not in civs.gainable() and KEY in civs.gainable((BOX,))


def test_setup_and_rebalancing_gift_each_opponent_a_tech_and_a_tapestry_card() -> None:
    """ "RÉÉQUILIBRAGE DES CIVILISATIONS" (BRICOLEURS): each opponent gains a tech card and a
    tapestry card from the decks; the Tinkerer gains nothing."""
    state = tinkerer(3)
    frames = setup_frames(state, 0)
    assert [f.source for f in frames] == [f"civ:{KEY}", f"adjustment:{KEY}"]
    before = [len(s.tech) for s in state.seats]
    events = run_frames(state, *frames)
    assert [e.seat for e in of(events, ev.TechInvented)] == [1, 2]
    assert all(e.from_deck for e in of(events, ev.TechInvented))
    assert [(e.seat, e.count) for e in of(events, ev.TapestryDrawn)] == [(1, 1), (2, 1)]
    assert [len(s.tech) for s in state.seats] == [before[0], before[1] + 1, before[2] + 1]
    assert state.seats[0].hand == [] and len(state.seats[1].hand) == 1


# -- income turns ------------------------------------------------------------------------------
def test_refund_gives_the_cost_of_the_tokens_space() -> None:
    """Option 1 (``tinkerers_refund_position_cost``): science space 5 costs a worker and a
    resource of choice ("Tours de développement"); both come back."""
    state = tinkerer()
    state.seats[0].tracks[SCIENCE] = [5]
    income(state)
    assert pick(tk.REFUND, SCIENCE) in options(state) and Decline() in options(state)
    answer(state, pick(tk.REFUND, SCIENCE))
    assert state.seats[0].resources == [0, 1, 0, 0]
    assert state.agenda[-1].kind == "resource"
    assert state.seats[0].civ_tokens[KEY] == [tk.REFUND]
    assert state.seats[0].tracks[SCIENCE] == [5]


def test_match_moves_to_the_nearest_opponent_ahead_with_the_benefit_only() -> None:
    """Option 2 (``tinkerers_match_opponent_benefit``): to the space of the nearest opponent
    ahead (seat 2 at 3, not seat 1 at 6), the benefit of that space, no bonus."""
    state = tinkerer(3)
    state.seats[1].tracks[EXPLORATION] = [6]
    state.seats[2].tracks[EXPLORATION] = [3]
    state.seats[0].tracks[EXPLORATION] = [1]
    income(state)
    events = answer(state, pick(tk.MATCH, EXPLORATION))
    moved = of(events, ev.TokenMoved)
    assert [(m.origin, m.to) for m in moved] == [(1, 3)]
    assert ev.SpaceActivated(seat=0, key="exploration:3") in events
    assert not any(f.kind == "bonus" for f in state.agenda)


def test_regress_exactly_three_spaces_with_benefit_and_bonus() -> None:
    """Option 3 (``tinkerers_regress_3_benefit_and_bonus``): back exactly 3 (a token on space 2
    cannot), then the benefit and the optional bonus of the space reached (exploration 2)."""
    state = tinkerer()
    state.seats[0].tracks[EXPLORATION] = [5]
    state.seats[0].tracks[SCIENCE] = [2]
    income(state)
    assert pick(tk.REGRESS, SCIENCE) not in options(state)
    events = answer(state, pick(tk.REGRESS, EXPLORATION))
    assert [(m.origin, m.to) for m in of(events, ev.TokenMoved)] == [(5, 2)]
    assert ev.SpaceActivated(seat=0, key="exploration:2") in events
    assert C.space("exploration", 2).bonus is not None


def test_jump_to_the_next_bonus_takes_it_free_without_benefit() -> None:
    """Option 4 (``tinkerers_jump_to_next_bonus``): from the start of exploration to space 2,
    the first with a bonus; the bonus is free (no resource asked), no benefit, no landmark."""
    state = tinkerer()
    income(state)
    events = answer(state, pick(tk.JUMP, EXPLORATION))
    assert [(m.origin, m.to) for m in of(events, ev.TokenMoved)] == [(0, 2)]
    top = state.agenda[-1]
    assert top.kind == "bonus" and top.options == ()
    assert PayBonus(payment=(), discard=()) in options(state)


def test_each_option_once_and_not_before_income_turn_two() -> None:
    """Facts folder: income turns 2-5, « each option can be used once (token left on it) »."""
    state = tinkerer()
    state.seats[0].tracks[SCIENCE] = [5]
    income(state, era=1)
    assert state.agenda[-1].kind != KEY
    state.seats[0].civ_tokens[KEY] = [tk.REFUND, tk.JUMP]
    income(state)
    used = {divmod(c.index, tk.OPTION)[0] for c in options(state) if isinstance(c, Choose)}
    assert used == {tk.REGRESS}  # nobody ahead to match
    answer(state, Decline())
    state.seats[0].civ_tokens[KEY] = [0, 1, 2, 3]
    income(state)
    assert state.agenda[-1].kind != KEY


# -- whole games -----------------------------------------------------------------------------
@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_whole_seeded_games_fold_to_the_state(seats: int) -> None:
    """ "Fin de la partie": seeded random games, seat 0 starting with the Tinkerers, finish; a
    fresh fold of the log equals the state held."""
    state, log = play_boxed(KEY, seats, 7)
    assert all(s.finished for s in state.seats)
    assert state_bytes(state) == refold(KEY, log, seats)


def test_the_bots_use_the_options() -> None:
    """The ``tapestry`` bot (seat 0) and ``greedy`` bots play a whole game; the Tinkerer uses
    its options."""
    bots = [TapestryBot(b"tk-0"), make_bot("greedy", b"tk-1"), make_bot("greedy", b"tk-2")]
    state, log = play_bots(KEY, bots, b"tinkerers-bots")
    assert state.seats[0].civ_tokens.get(KEY)
    assert state_bytes(state) == refold(KEY, log, 3)


def test_gained_mid_game_gives_no_gift_and_works_from_the_next_income() -> None:
    """The setup gift is for a starting Tinkerer only (« If starting civ »); a Tinkerer gained
    during the game ("Règles générales") uses its options at its next income turns."""
    state = tinkerer(3)
    state.seats[0].civs = [civ_id("heralds"), civ_id(KEY)]
    assert not any(f.source.endswith(KEY) for f in setup_frames(state, 0))
    state.seats[0].tracks[SCIENCE] = [4]
    income(state, era=3)
    assert pick(tk.REFUND, SCIENCE) in options(state)


def test_a_closed_track_takes_no_forward_option() -> None:
    """A track closed to the seat (an opponent's Dictatorship on science: ``tracks.blocked``) offers
    neither match nor jump there (``decisions.json#tinkerers_options``); refund still works."""
    state = tinkerer()
    state.seats[1].tracks[SCIENCE] = [6]
    state.seats[0].tracks[SCIENCE] = [1]
    state.seats[1].civ_tokens["_dictatorship"] = [SCIENCE, 1]
    income(state)
    offered = {c.index for c in options(state) if isinstance(c, Choose)}
    assert pick(tk.MATCH, SCIENCE).index not in offered
    assert pick(tk.JUMP, SCIENCE).index not in offered
    assert pick(tk.REFUND, SCIENCE).index in offered
