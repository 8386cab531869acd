"""Olmecs (Legends box): every special rule and the rulebook's nation notes, one test each.

Rulebook sections: "Nations : Olmèques" ("Votre deck ne contient aucune carte Prospérité,
Conquête, Progrès ou Gloire ; à la place, vous dépendez de vos cartes Masques de pierre ...
elles ne vous rapportent des points que lorsqu'elles sont dans votre Histoire"), "Mise en
place des joueurs" (the Olmec unrest cards join the market unrest pile).
"""

from __future__ import annotations

from domain.imperium import content as C
from domain.imperium.commands import Choose, Exhaust, Pass, Pick, PlayCard
from domain.imperium.scoring import card_vp
from tests.imperium.helpers import GAME, act, decision
from tests.imperium.positions import (
    activate,
    garrison,
    hand,
    legal,
    put,
    set_market,
    tokens,
)

OR = ["olmecs", "romans"]
MASKS = ("OLM18", "OLM19", "OLM20")


def test_olmecs_content_matches_the_component_list() -> None:
    """Matériel: "26 cartes Olmèques" — power card, San Lorenzo in the accession slot, 5
    nation cards, 6 developments, 3 unrest cards for the market pile, 10 starting cards."""
    olm = C.NATIONS["olmecs"]
    assert "olmecs" in C.LEGENDS_NATIONS and olm.box == "legends"
    assert olm.accession == ("OLM2",) and len(olm.nation_deck) == 5
    assert len(olm.development) == 6 and len(olm.starting_deck) == 10
    assert olm.unrest_pile == ("OLM24", "OLM25", "OLM26")
    assert {"OLM24", "OLM25"} <= set(
        C.unrest_pile(3, ("olmecs", "romans", "celts"), nations_by_count=True)
    )


def test_olmecs_have_no_prosperity_conquer_advance_or_glory() -> None:
    """Nations : Olmèques — no Prosperity, Conquer, Advance (Progrès) or Glory card: Stone
    Masks instead (8 of them, each with the mask icon)."""
    names = {C.CARDS[c].name for c in C.NATIONS["olmecs"].all_ids()}
    assert not names & {"Prosperity", "Conquer", "Advance", "Glory"}
    masks = [c for c in C.NATIONS["olmecs"].all_ids() if C.CARDS[c].name == "Stone Mask"]
    assert len(masks) == 8 and all("mask" in C.CARDS[c].type_icons for c in masks)


def test_stone_masks_score_only_in_history() -> None:
    """Nations : Olmèques — "elles ne vous rapportent des points que lorsqu'elles sont dans
    votre Histoire": 1 VP in the history, nothing in hand, deck or discard."""
    state = activate(OR)
    for zone in ("hand", "deck", "discard"):
        put(state, 0, zone, "OLM18")
        assert card_vp(state, 0, "OLM18") == 0
    put(state, 0, "history", "OLM18")
    assert card_vp(state, 0, "OLM18") == 1


def test_stone_mask_draws_up_to_three_and_puts_one_back() -> None:
    """Stone Mask: draw up to 3 cards (no reshuffle), then put a card from hand on the deck."""
    state = activate(OR)
    me = state.seats[0]
    hand(state, 0, "OLM18", "OLM16")
    act(state, PlayCard(card="OLM18"))
    assert decision(state) == "draw_up_to"
    act(state, Choose(index=2))
    assert len(me.hand) == 3
    act(state, Pick(card="OLM16"))
    assert "OLM16" in me.deck_top + me.deck and len(me.hand) == 2


def test_mask_costs_need_the_masks() -> None:
    """Lodestone Compass (exhaust): discard 2 masks and pay an action to acquire a region or
    tributary — not usable with a single mask in hand."""
    state = activate(OR)
    put(state, 0, "play", "OLM14")
    hand(state, 0, "OLM18", "OLM16")
    assert Exhaust(card="OLM14") not in legal(state)
    hand(state, 0, "OLM18", "OLM19", "OLM16")
    assert Exhaust(card="OLM14") in legal(state)


def test_step_pyramids_lower_a_mask_requirement() -> None:
    """Step Pyramids (exhaust, when required to discard masks): discard one mask fewer — so
    Lodestone Compass works with a single mask, at the price of a second exhaust token."""
    state = activate(OR)
    set_market(state, "1REG5")
    me = state.seats[0]
    me.empire = True
    put(state, 0, "play", "OLM14", "OLM3")
    hand(state, 0, "OLM18", "OLM16")
    assert Exhaust(card="OLM14") in legal(state)
    act(state, Exhaust(card="OLM14"))
    assert decision(state) == "discard_requirement"
    assert set(legal(state)) == {Pick(card="OLM18"), Exhaust(card="OLM3")}
    act(state, Exhaust(card="OLM3"))  # one mask left to discard: the only one, at once
    assert "OLM18" in me.discard and {"OLM14", "OLM3"} <= set(me.exhausted)
    assert "1REG5" in me.hand and me.exhaust == 3


def test_stone_heads_garrisoned_card_stands_for_a_mask() -> None:
    """Stone Heads (passive, when required to discard masks): abandon a card garrisoned under
    Stone Heads instead of discarding a mask."""
    state = activate(OR)
    set_market(state, "1REG5")
    me = state.seats[0]
    me.empire = True
    put(state, 0, "play", "OLM14", "OLM7")
    garrison(state, 0, "OLM7", "OLM17")
    hand(state, 0, "OLM18", "OLM16")
    act(state, Exhaust(card="OLM14"))
    assert decision(state) == "discard_requirement"
    assert set(legal(state)) == {Pick(card="OLM18"), Pick(card="OLM17")}
    act(state, Pick(card="OLM17"))  # abandoned from under Stone Heads; then the mask
    assert {"OLM17", "OLM18"} <= set(me.discard) and "OLM7" not in me.garrison
    assert "1REG5" in me.hand


def test_olmec_traders_give_masks_as_unrest() -> None:
    """Olmec Traders: gain 3 materials, give a card (hand or discard) to each other player;
    a player given a mask takes an unrest card."""
    state = activate(OR)
    me = state.seats[0]
    me.empire = True
    hand(state, 0, "OLM5", "OLM18", "OLM16")
    tokens(state, 0, materials=0)
    unrest = len(state.unrest)
    act(state, PlayCard(card="OLM5"))
    while decision(state) == "defend":
        act(state, Pass())
    assert me.materials == 3
    act(state, Pick(card="OLM18"))
    assert "OLM18" in state.seats[1].discard
    assert len(state.unrest) == unrest - 1
    assert any("unrest" in C.CARDS[c].suits for c in state.seats[1].discard)


def test_olmec_traders_no_unrest_for_another_card() -> None:
    """Olmec Traders: a card without the mask icon costs the receiver nothing."""
    state = activate(OR)
    state.seats[0].empire = True
    hand(state, 0, "OLM5", "OLM18", "OLM16")
    unrest = len(state.unrest)
    act(state, PlayCard(card="OLM5"))
    while decision(state) == "defend":
        act(state, Pass())
    act(state, Pick(card="OLM16"))
    assert "OLM16" in state.seats[1].discard and len(state.unrest) == unrest


def test_cacao_progress_per_unrest_returned() -> None:
    """Cacao: every player may return an unrest card (hand or discard); gain 1 progress per
    unrest card returned."""
    state = activate(OR)
    hand(state, 0, "OLM9", "OLM24", "OLM16")
    tokens(state, 0, progress=0)
    act(state, PlayCard(card="OLM9"))
    assert decision(state) == "option" and GAME.pending(state).seats == (0,)
    act(state, Choose(index=0))
    while decision(state) == "option" or decision(state).startswith("pick"):
        options = legal(state)
        act(state, Pass() if Pass() in options else options[0])
    assert "OLM24" in state.unrest and state.seats[0].progress >= 1


def test_ritual_sacrifice_needs_step_pyramids() -> None:
    """Ritual Sacrifice: playable only with Step Pyramids in play."""
    state = activate(OR)
    state.seats[0].empire = True
    hand(state, 0, "OLM4", *MASKS)
    tokens(state, 0, population=2)
    assert PlayCard(card="OLM4") not in legal(state)
    put(state, 0, "play", "OLM3")
    assert PlayCard(card="OLM4") in legal(state)
