"""Imperium: Legends common cards: the box's content and the mechanisms only its common cards
use (innovating from the exile or for a card of any category, Mining's condition, Masonry's
free play, the new VP conditions). Each test names the card, and the rulebook note or keyword
it reproduces (French rulebook, ``shared/rules/imperium-rulebook-fr.txt``)."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec

from domain.imperium import content as C
from domain.imperium.checks import implemented
from domain.imperium.commands import Choose, Exhaust, Pick, PlayCard
from domain.imperium.scoring import card_vp
from tests.imperium.helpers import act, decision
from tests.imperium.positions import (
    activate,
    effect,
    garrison,
    hand,
    legal,
    put,
    put_shared,
    set_market,
    tokens,
)

REFERENCE = Path("/work/shared/reference/imperium")
MR = ["macedonians", "romans"]
LEGENDS = C.COMMON_SETS["legends"]


# -- content ------------------------------------------------------------------------------------
def test_legends_common_cards_total_83() -> None:
    """Matériel: '83 cartes communes' in the Legends box too: 70 market cards, King of Kings
    and the 12 unrest cards; every market card carries the box number 2 (Détail des cartes,
    'Numéro de la carte')."""
    market = [c for pile in LEGENDS.piles.values() for c in pile.cards]
    assert len(market) + 1 + len(LEGENDS.unrest) == 83
    assert all(c.startswith("2") and C.CARDS[c].box == "legends" for c in market)
    assert not set(market) & {c for p in C.COMMON.piles.values() for c in p.cards}


def test_legends_piles_by_player_count_icon() -> None:
    """Mise en place générale, étape 5: the Legends piles split by player-count icon as the
    reference counts them (the same figures as the Classics box)."""
    icons = {
        name: tuple(
            [C.CARDS[c].player_count for c in pile.cards].count(icon) for icon in (None, "3+", "4")
        )
        for name, pile in LEGENDS.piles.items()
    }
    assert icons == {
        "fame": (8, 0, 0), "uncivilised": (18, 3, 1), "civilised": (12, 1, 2),
        "region": (13, 1, 0), "tributary": (9, 1, 1),
    }  # fmt: skip
    assert [len(C.pile_cards("tributary", n, "legends")) for n in (2, 3, 4)] == [9, 10, 11]


def test_legends_king_of_kings_and_unrest_are_the_classics_copies() -> None:
    """Each box holds its own King of Kings and unrest cards, identical (reference
    ``common_shared.json``; decision ``legends_shared_components``)."""
    reference = {
        box: json.loads((REFERENCE / f"common_{box}.json").read_text())["piles"]["fame"][
            "king_of_kings"
        ]
        for box in C.BOXES
    }
    assert reference["classics"] == reference["legends"]
    assert LEGENDS.king_of_kings == C.COMMON.king_of_kings and LEGENDS.unrest == C.COMMON_UNREST
    assert "legends_shared_components" in {d.topic for d in C.DECISIONS}


def test_every_legends_common_card_is_implemented() -> None:
    """Every Legends common card's effects can be resolved: no step raises
    ``NOT_IMPLEMENTED`` (the Classics cards' guarantee, extended to the Legends box)."""
    for pile in LEGENDS.piles.values():
        for card in pile.cards:
            for block in C.CARDS[card].effects:
                assert implemented(block.do), (card, block.trigger)


def test_legends_card_notes_are_attached() -> None:
    """Notes concernant certaines cartes: Acclamé and Domestication (Legends common cards)."""
    assert any("main deck" in n for n in C.CARDS["2FAM8"].notes)
    assert any("fertile" in n for n in C.CARDS["2UNC10"].notes)


# -- innovate variants ---------------------------------------------------------------------------
def test_imperial_innovates_for_an_exiled_card() -> None:
    """Imperial (2FAM1): 'Innover', and an exiled card of those categories may be chosen; it
    comes from the exile to the hand with no unrest card."""
    state = activate(MR)
    set_market(state)
    put_shared(state, "exile", "1REG4")
    hand(state, 0, "2FAM1")
    act(state, PlayCard(card="2FAM1"))
    act(state, Choose(index=0))
    assert decision(state).startswith("pick") and Pick(card="1REG4") in legal(state)
    unrest = len(state.unrest)
    act(state, Pick(card="1REG4"))
    assert "1REG4" in state.seats[0].hand and "1REG4" not in state.exile
    assert len(state.unrest) == unrest


def test_a_plain_innovation_never_offers_exiled_cards() -> None:
    """Innover (Elders 2UNC3, no exile permission): exiled cards are not choices."""
    state = activate(MR)
    set_market(state)
    put_shared(state, "exile", "1UNC10")
    hand(state, 0, "2UNC3")
    act(state, PlayCard(card="2UNC3"))
    act(state, Choose(index=1))
    assert Pick(card="1UNC10") not in legal(state)


def test_acclaimed_innovates_for_a_variable_vp_card_of_any_category() -> None:
    """Acclaimed (2FAM8), card note 'Acclamé': choose a visible market card with variable VP
    (any category) or reveal main-deck cards until one has variable VP."""
    state = activate(MR)
    set_market(state, "1CIV6", "1UNC10")
    hand(state, 0, "2FAM8")
    act(state, PlayCard(card="2FAM8"))
    options = legal(state)
    assert Pick(card="1UNC10") in options and Pick(card="main:filter") in options
    assert Pick(card="1CIV6") not in options  # fixed VP
    act(state, Pick(card="main:filter"))
    me = state.seats[0]
    drawn = [c for c in me.hand if c != "2FAM8"]
    assert len(drawn) == 1 and C.CARDS[drawn[0]].vp.kind == "variable"
    assert "2FAM8" in me.history


def test_acclaimed_takes_the_market_card() -> None:
    """Acclaimed (2FAM8): the chosen market card is innovated (its unrest card goes back)."""
    state = activate(MR)
    set_market(state, "1CIV6", "1UNC10")
    hand(state, 0, "2FAM8")
    act(state, PlayCard(card="2FAM8"))
    act(state, Pick(card="1UNC10"))
    assert "1UNC10" in state.seats[0].hand
    assert not any("unrest" in C.CARDS[c].suits for c in state.seats[0].hand)


# -- Mining: the previous abandoned card -----------------------------------------------------
def _mining(region: str) -> int:
    state = activate(MR)
    put(state, 0, "play", "2UNC1", region)
    tokens(state, 0, progress=0)
    act(state, Exhaust(card="2UNC1"))
    if decision(state).startswith("pick"):
        act(state, Pick(card=region))
    assert region in state.seats[0].discard
    return state.seats[0].progress


def test_mining_abandoning_a_region_without_production() -> None:
    """Mining (2UNC1, condition 'the abandoned card lacks the production icon'): abandoning
    a region card without production gives 1 + 1 progress."""
    assert _mining("1REG1") == 2


def test_mining_abandoning_a_production_region() -> None:
    """Mining (2UNC1): a region card with production gives only the first progress."""
    assert _mining("1REG4") == 1


# -- Masonry: free play ----------------------------------------------------------------------
def test_masonry_makes_cities_free_actions() -> None:
    """Masonry (2CIV9, passive 'Action gratuite'): city and metropolis cards are played as
    free actions; other cards still cost an action."""
    state = activate(MR)
    me = state.seats[0]
    me.empire = True
    put(state, 0, "play", "2CIV9")
    hand(state, 0, "1UNC15", "1UNC16", "1REG2")
    act(state, PlayCard(card="1UNC15"))
    assert me.actions == 3 and "1UNC15" in me.play
    act(state, PlayCard(card="1UNC16"))
    assert me.actions == 3
    act(state, PlayCard(card="1REG2"))
    assert me.actions == 2


def test_without_masonry_a_city_costs_an_action() -> None:
    """Effectuer des actions: a city card without Masonry costs one action."""
    state = activate(MR)
    me = state.seats[0]
    hand(state, 0, "1UNC15")
    act(state, PlayCard(card="1UNC15"))
    assert me.actions == 2


def test_masonry_scores_cities_in_play() -> None:
    """Masonry (2CIV9): 2 VP per city or metropolis icon in the play area only."""
    state = activate(MR)
    put(state, 0, "play", "2CIV9", "1UNC15", "1CIV6")
    put(state, 0, "discard", "1UNC16")
    assert card_vp(state, 0, "2CIV9") == 4


# -- VP conditions -----------------------------------------------------------------------------
def test_sacred_grove_scores_players_with_fewer_progress() -> None:
    """Sacred Grove (2REG7): 2 VP per other player with fewer progress tokens than you."""
    state = activate(["macedonians", "romans", "greeks"])
    put(state, 0, "discard", "2REG7")
    tokens(state, 0, progress=5)
    tokens(state, 1, progress=4)
    tokens(state, 2, progress=5)
    assert card_vp(state, 0, "2REG7") == 2
    tokens(state, 2, progress=1)
    assert card_vp(state, 0, "2REG7") == 4


def test_proud_scores_by_where_it_ends() -> None:
    """Proud (2FAM5, unplayable): 12 VP garrisoned, 8 in history, otherwise 3."""
    state = activate(MR)
    hand(state, 0, "2FAM5")
    assert PlayCard(card="2FAM5") not in legal(state)
    assert card_vp(state, 0, "2FAM5") == 3
    put(state, 0, "history", "2FAM5")
    assert card_vp(state, 0, "2FAM5") == 8
    put(state, 0, "play", "1REG1")
    garrison(state, 0, "1REG1", "2FAM5")
    assert card_vp(state, 0, "2FAM5") == 12


def test_outstanding_archives_up_to_two_discarded_cards() -> None:
    """Outstanding (2FAM4, free action): put up to 2 cards of your discard pile into your
    history."""
    state = activate(MR)
    me = state.seats[0]
    put(state, 0, "discard", "1UNC15", "1UNC16", "1REG2")
    hand(state, 0, "2FAM4")
    act(state, PlayCard(card="2FAM4"))
    assert me.actions == 3
    act(state, Pick(card="1UNC15"))
    act(state, Pick(card="1REG2"))
    assert {"1UNC15", "1REG2"} <= set(me.history) and "1UNC16" in me.discard


def test_legends_common_cards_round_trip_their_records() -> None:
    """Every Legends common record of ``common_legends.json`` keeps the reference's facts
    (name, suits, icons, VP, effects) — our content file is a faithful re-encoding."""
    ref = json.loads((REFERENCE / "common_legends.json").read_text())
    for name, pile in ref["piles"].items():
        for record in pile["cards"]:
            for cid in record["ids"]:
                card = C.CARDS[cid]
                assert (card.name, card.pile, list(card.suits)) == (
                    record["name"], name, record["suits"],
                )  # fmt: skip
                assert msgspec.json.decode(msgspec.json.encode(card.vp)) == {
                    k: v for k, v in record["vp"].items() if v not in (0, [], None)
                } | {"kind": record["vp"]["kind"]}


def test_a_second_innovation_sees_the_emptied_deck() -> None:
    """Innover, twice in one effect (Kleito ATL9 innovates twice): the second innovation's
    choices are listed when it starts — the deck the first one emptied is no longer offered
    (found by the 240-pairing sweep: it used to draw from the empty deck)."""
    state = activate(MR)
    set_market(state)
    last = state.piles["civilised"][0]
    for card in state.piles["civilised"][1:]:
        put_shared(state, "pile/main", card)
    effect(state, 0, "ATL9", {"innovate": {"suits": ["civilised"], "times": 2}})
    assert Pick(card="deck:civilised") in legal(state)
    act(state, Pick(card="deck:civilised"))
    assert last in state.seats[0].hand and not state.piles["civilised"]
    options = legal(state)
    assert Pick(card="deck:civilised") not in options and Pick(card="main:civilised") in options
