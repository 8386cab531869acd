"""The rulebook's "MOTS-CLEFS" that take cards from the market and the category decks, one
test per keyword, each naming the keyword it reproduces: ACQUÉRIR, EXILER, INNOVER (options
1 to 5), the unrest cards tucked under refilled cards; and the engine rulings the game lists
as assumptions. Positions are hand-set (tests/imperium/positions.py) on top of a real setup;
the engine is driven through ``decide`` only.
"""

from __future__ import annotations

import pytest

from domain.imperium import content as C
from domain.imperium.commands import Pick
from tests.imperium.helpers import GAME, act, decision
from tests.imperium.positions import activate, effect, legal, market_card, set_market

MR = ["macedonians", "romans"]


def test_acquerir_takes_tokens_and_tucked_unrest_then_refills() -> None:
    """ACQUÉRIR: the card comes with its tokens and tucked unrest card; the slot is refilled
    from its own deck and a refilled uncivilised card gets an unrest card tucked under it."""
    state = activate(MR)
    market_card(state, 1, "1UNC19", unrest=1, materials=2, progress=1)
    tucked = state.market[1].unrest[0]
    state.piles["uncivilised"] = ["1UNC6"]
    me = state.seats[0]
    before = (me.materials, me.progress)
    effect(state, 0, "MAC16", {"acquire": {"suits": ["uncivilised"]}})
    if decision(state) == "pick_acquire":
        act(state, Pick(card="1UNC19"))
    assert {"1UNC19", tucked} <= set(me.hand)
    assert (me.materials, me.progress) == (before[0] + 2, before[1] + 1)
    slot = state.market[1]
    assert slot.card == "1UNC6" and len(slot.unrest) == 1
    assert (slot.materials, slot.progress) == (0, 0)


def test_acquerir_empty_deck_falls_back_to_the_main_deck() -> None:
    """ACQUÉRIR: "Si la pioche d'une catégorie est vide, piochez la première carte de la
    pioche principale même si sa catégorie est différente"."""
    state = activate(MR)
    set_market(state, "1CIV6", "1UNC6", "1REG3")
    state.piles["region"] = []
    state.piles["main"] = ["1TRI8"]
    effect(state, 0, "MAC16", {"acquire": {"suits": ["region"]}})
    assert "1REG3" in state.seats[0].hand
    slot = state.market[2]
    assert slot.card == "1TRI8" and len(slot.unrest) == 1  # a tributary gets an unrest card
    assert state.end_trigger == "main_deck_empty"


def test_acquerir_several_cards_refills_between_them() -> None:
    """ACQUÉRIR: acquiring two cards refills between them; the new card may be taken next
    (Alexander the Great acquires 2 regions)."""
    state = activate(MR)
    set_market(state, "1CIV6", "1UNC6", "1REG3")
    state.piles["region"] = ["1REG2"]
    effect(state, 0, "MAC6", {"acquire": {"suits": ["region"], "times": 2}})
    assert {"1REG3", "1REG2"} <= set(state.seats[0].hand)


def test_exiler_a_market_card_returns_its_unrest_never_one_with_tokens() -> None:
    """EXILER: the tucked unrest goes back to the pile, the slot is refilled; a card carrying
    tokens cannot be exiled."""
    state = activate(MR)
    market_card(state, 0, "1CIV2", unrest=1)
    market_card(state, 1, "1UNC3", unrest=1, progress=1)
    pile = len(state.unrest)
    effect(state, 0, "1REG6", {"exile": {"from": "market", "count": 1}})
    assert decision(state) == "pick_exile_market"
    assert Pick(card="1UNC3") not in legal(state)
    act(state, Pick(card="1CIV2"))
    assert "1CIV2" in state.exile and state.market[0].card not in ("", "1CIV2")
    assert len(state.unrest) == pile + 1 - len(state.market[0].unrest)


def test_innover_option_1_market_card_its_unrest_back_to_the_pile() -> None:
    """INNOVER option 1: a market card with its tokens; its tucked unrest card goes back."""
    state = activate(MR)
    market_card(state, 1, "1UNC8", unrest=1, population=2)
    pile = len(state.unrest)
    effect(state, 0, "ROM18", {"innovate": {"suits": ["uncivilised"]}})
    act(state, Pick(card="1UNC8"))
    me = state.seats[0]
    assert "1UNC8" in me.hand and me.population == 4
    assert not any("unrest" in C.CARDS[c].suits for c in me.hand if c.startswith("UNR"))
    assert len(state.unrest) == pile + 1 - len(state.market[1].unrest)


@pytest.mark.parametrize(("suit", "card"), [("uncivilised", "1UNC8"), ("civilised", "1CIV8"),
                                           ("region", "1REG8")])  # fmt: skip
def test_innover_options_2_to_4_top_of_the_category_deck(suit: str, card: str) -> None:
    """INNOVER options 2-4: the top card of the uncivilised / civilised / region deck."""
    state = activate(MR)
    set_market(state, "1CIV6", "1UNC6", "1REG3")
    state.piles[suit] = [card]
    effect(state, 0, "ROM3", {"innovate": {"suits": [suit]}})
    assert Pick(card=f"deck:{suit}") in legal(state)
    act(state, Pick(card=f"deck:{suit}"))
    assert card in state.seats[0].hand and state.piles[suit] == []


def test_innover_option_5_reveals_from_the_main_deck() -> None:
    """INNOVER option 5: tributary (or an empty category deck): reveal main-deck cards until
    one of the category; the others are shuffled back."""
    state = activate(MR)
    set_market(state)
    state.piles["main"] = ["1REG2", "1TRI4", "1UNC3"]
    effect(state, 0, "1UNC20", {"innovate": {"suits": ["tributary"]}})  # the only option
    assert "1TRI4" in state.seats[0].hand
    assert sorted(state.piles["main"]) == ["1REG2", "1UNC3"]
    state.piles["region"] = []
    market_card(state, 2, "1REG2")
    effect(state, 0, "1TRI11", {"innovate": {"suits": ["region"]}})
    assert legal(state) == [Pick(card="1REG2"), Pick(card="main:region")]


def test_innover_option_5_none_found_gains_two_progress() -> None:
    """INNOVER option 5: "Si vous ne trouvez pas de carte de la catégorie recherchée, gagnez
    2 progrès"."""
    state = activate(MR)
    set_market(state)
    state.piles["main"] = ["1REG2", "1UNC3"]
    before = state.seats[0].progress
    effect(state, 0, "1UNC20", {"innovate": {"suits": ["tributary"]}})  # the only option
    assert state.seats[0].progress == before + 2


def test_refills_tuck_unrest_under_uncivilised_civilised_tributary_not_region() -> None:
    """ "Mise en place générale" 13/15, ACQUÉRIR, EXILER (ruling ``unrest_tucked``): a refilled
    uncivilised, civilised or tributary card gets an unrest card under it, a region never."""
    from domain.imperium.market import needs_unrest

    assert [needs_unrest(c) for c in ("1UNC3", "1CIV2", "1TRI4", "1UNC19", "1REG2")] == [
        True, True, True, True, False]  # fmt: skip
    state = activate(MR)
    set_market(state, "1CIV6", "1UNC6", "1REG3")
    state.piles["region"] = ["1REG2"]
    effect(state, 0, "MAC16", {"acquire": {"suits": ["region"]}})
    assert state.market[2].card == "1REG2" and state.market[2].unrest == []


def test_game_assumptions_list_the_engine_rulings() -> None:
    """The game's assumptions() lists the content's assumed records and the engine's assumed
    rulings (each with its note); rulebook rulings name their section."""
    from domain.imperium.rulings import RULINGS

    lines = GAME.assumptions()
    assert any(line.startswith("rulings: give_destination") for line in lines)
    assert any(line.startswith("decisions.json: take_destination") for line in lines)
    assert all(r.section for r in RULINGS if r.source == "rulebook")
