"""Recyclers (Recycleurs, Plans & Ploys).

Sources: the facts folder's record (``civilizations.json#34``: « Start by drawing 3 tech cards,
keeping 1 (no upgrade at income turn 1). Income turns 2-5: one extra upgrade. Upgrading may
send a top-row card back to the bottom for 5 VP. You may invent from the discard. »);
"RÉÉQUILIBRAGE DES CIVILISATIONS" (« RECYCLEURS Améliorez une carte Technologie si vous
commencez la partie avec les Recycleurs. »); F.À.Q. MM (« Déplacer une carte Technologie de la
ligne du haut vers la ligne du bas requiert une action Amélioration spécifiquement dédiée à ce
déplacement »); "PREMIÈRE MISE EN PLACE" (a box's components only when it is in play);
``decisions.json#recyclers_*`` for the readings the sources leave open.
"""

from __future__ import annotations

import msgspec
import pytest

from domain.bots import make_bot
from domain.registry import get_ruleset
from domain.tapestry import civs
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.civs import civ_id, setup_frames
from domain.tapestry.commands import Choose, Invent, Upgrade
from domain.tapestry.expansions import civ_recyclers as rc
from domain.tapestry.rules import tech_deck
from domain.tapestry.state import Frame, TapestryState, TechOwned
from tests.harness import Table, play
from tests.tapestry.helpers import of, table
from tests.tapestry.test_cards_support import answer, options, run_frames
from tests.tapestry.test_expansion_games import check_finished

KEY = "recyclers"
BOX = "plans_and_ploys"


def recycler(key: str = KEY) -> TapestryState:
    """Seat 0 holds civilization ``key`` in a 2-seat game with Plans & Ploys, no tech card."""
    state = table(2)
    state.rules = msgspec.structs.replace(state.rules, expansions=(BOX,))
    state.seats[0].civs = [civ_id(key)]
    state.seats[0].tech = []
    return state


# -- content and dealing ---------------------------------------------------------------------------
def test_record_setup_and_rebalancing() -> None:
    """Facts folder ``civilizations.json#34``: draw 3 keep 1 at the start; "RÉÉQUILIBRAGE":
    a starting Recycler upgrades one tech card (coded in :data:`civs.ADJUSTMENTS`)."""
    record = C.CIVILIZATIONS[civ_id(KEY)]
    assert record.box == BOX and record.name_fr == "Recycleurs" and record.implemented
    assert record.setup == C.Gain(token="recyclers_draw_3_keep_1")
    assert KEY in civs.ADJUSTMENTS
    state = recycler()
    assert [f.source for f in setup_frames(state, 0)] == [f"civ:{KEY}", f"adjustment:{KEY}"]


def test_dealt_and_gained_only_with_the_box() -> None:
    """ "PREMIÈRE MISE EN PLACE": in the deal and the mid-game pool only with its box."""
    assert civ_id(KEY) not in civs.implemented_ids()
    assert civ_id(KEY) in civs.implemented_ids((BOX,))
    assert KEY not in civs.gainable() and KEY in civs.gainable((BOX,))
    game = get_ruleset("tapestry/2")
    with pytest.raises(ValueError, match="plans_and_ploys box"):
        game.initial(game.decode_options({"starting_civilizations": [KEY]}), 2)


# -- setup -----------------------------------------------------------------------------------------
def test_setup_draws_three_keeps_one_then_upgrades_it() -> None:
    """Three cards drawn, one kept (decision ``recyclers_keep``), the two others to the tech
    discard (``decisions.json#recyclers_unkept``); then the rebalancing's upgrade (the kept
    card is the only one: it goes to the middle row)."""
    state = recycler()
    deck_before = len(tech_deck(state))
    events = run_frames(state, *setup_frames(state, 0))
    drawn = [e.card for e in of(events, ev.TechInvented)]
    assert len(drawn) == 3 and len(set(drawn)) == 3
    assert state.agenda[-1].kind == rc.KEEP
    assert options(state) == [Choose(index=c) for c in drawn]
    events = answer(state, Choose(index=drawn[1]))
    assert ev.TechDiscarded(seat=0, cards=(drawn[0], drawn[2])) in events
    assert [(t.card, t.row) for t in state.seats[0].tech] == [(drawn[1], 1)]
    assert {drawn[0], drawn[2]} <= set(state.tech_discard)
    assert len(tech_deck(state)) == deck_before - 3


# -- income turns ----------------------------------------------------------------------------------
def test_income_turns_two_to_five_bring_an_upgrade() -> None:
    """Facts folder: « Income turns 2-5: one extra upgrade » (none on income turn 1)."""
    state = recycler()
    card = min(C.TECH_CARDS)
    state.seats[0].tech = [TechOwned(card=card)]
    events = run_frames(state, Frame(kind="civ_income", seat=0, token=KEY, ints=(1,)))
    assert not of(events, ev.TechUpgraded)
    events = run_frames(state, Frame(kind="civ_income", seat=0, token=KEY, ints=(2,)))
    assert ev.TechUpgraded(seat=0, card=card, row=1) in events


# -- recycling -------------------------------------------------------------------------------------
def test_an_upgrade_may_carry_a_top_card_back_down_for_five_points() -> None:
    """Facts folder: « Upgrading may send a top-row card back to the bottom for 5 VP »; F.À.Q.
    MM: that move is an upgrade of its own (no benefit besides the points)."""
    state = recycler()
    low, high = sorted(C.TECH_CARDS)[:2]
    state.seats[0].tech = [TechOwned(card=low), TechOwned(card=high, row=2)]
    run_frames(state, Frame(kind="upgrade", seat=0))
    assert options(state) == [Upgrade(card=low), Upgrade(card=high)]
    events = answer(state, Upgrade(card=high))
    assert ev.TechUpgraded(seat=0, card=high, row=0) in events
    assert [e.vp for e in of(events, ev.VPScored)] == [rc.RECYCLE_VP]
    assert [(t.card, t.row) for t in state.seats[0].tech] == [(low, 0), (high, 0)]
    assert state.agenda[-1].kind == "turn"  # no circle or square gained


def test_another_civilization_cannot_recycle() -> None:
    """Only a Recycler carries a top-row card down: for others a top card is not upgradable."""
    state = recycler("heralds")
    high = min(C.TECH_CARDS)
    state.seats[0].tech = [TechOwned(card=high, row=2)]
    events = run_frames(state, Frame(kind="upgrade", seat=0))
    assert not of(events, ev.TechUpgraded) and state.agenda[-1].kind == "turn"


# -- inventing from the discard --------------------------------------------------------------------
def test_inventing_may_take_a_card_of_the_discard() -> None:
    """Facts folder: « You may invent from the discard »; others may not."""
    state = recycler()
    gone = tech_deck(state)[0]
    state.tech_discard = [gone]
    run_frames(state, Frame(kind="invent", seat=0))
    assert Invent(card=gone) in options(state)
    answer(state, Invent(card=gone))
    assert state.seats[0].tech[-1].card == gone and state.tech_discard == []
    other = recycler("heralds")
    other.tech_discard = [gone]
    run_frames(other, Frame(kind="invent", seat=0))
    assert Invent(card=gone) not in options(other)


# -- whole games -----------------------------------------------------------------------------------
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_whole_seeded_game_with_the_recyclers(bot: str) -> None:
    """ "Fin de la partie": a seeded 3-seat game, seat 0 starting with the Recyclers,
    finishes; the fold of the log equals the held state; the setup kept one card of three."""
    chosen = {"expansions": [BOX], "starting_civilizations": [KEY]}
    t = Table("tapestry", 3, f"recyclers-{bot}".encode(), chosen)
    bots = {i: make_bot(bot, f"rc-{bot}-{i}".encode()) for i in range(3)}
    play(t, bots, max_commands=20_000)
    assert t.is_over()
    check_finished(t)
    assert t.match.state.seats[0].civs[0] == civ_id(KEY)
    events = [s.event for s in t.stored()]
    first_discard = next(e for e in events if isinstance(e, ev.TechDiscarded) and e.seat == 0)
    assert len(first_discard.cards) == 2
