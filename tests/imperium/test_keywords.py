"""One test per keyword of the rulebook's "MOTS-CLEFS" pages (and the edge cases the issue
names), each naming the keyword it reproduces. Positions are hand-set (tests/imperium/
positions.py) on top of a real setup; the engine is driven through ``decide`` only.
"""

from __future__ import annotations

import pytest

from domain.imperium import content as C
from domain.imperium.commands import Choose, Exhaust, Pass, Pick, PlayCard
from domain.imperium.ops import payment_options
from domain.imperium.state import Frame
from tests.imperium.helpers import GAME, act, decision
from tests.imperium.positions import (
    activate,
    effect,
    garrison,
    hand,
    legal,
    market_card,
    put,
    set_market,
    tokens,
)

MR = ["macedonians", "romans"]


def test_abandonner_moves_a_persistent_card_and_what_it_garrisons() -> None:
    """ABANDONNER (+ RÉSERVER): Boudicca makes the other player abandon a region: it goes to
    the discard pile with the card garrisoned under it."""
    state = activate(MR)
    hand(state, 0, "CEL18")
    put(state, 1, "play", "ROM20")
    garrison(state, 1, "ROM20", "ROM22")
    act(state, PlayCard(card="CEL18"))
    foe = state.seats[1]
    assert foe.play == [] and foe.garrison == {}
    assert foe.discard[-2:] == ["ROM20", "ROM22"]
    assert "CEL18" in state.seats[0].history and state.seats[0].progress == 2


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


def test_action_gain_exceeds_three_and_an_action_cost_must_be_paid() -> None:
    """ACTION / GAGNER UNE ACTION: a gained action may exceed 3; an effect asking to spend
    actions cannot be used without them (Greeks face A pays 2 actions)."""
    state = activate(["greeks", "romans"], sides=["A", "B"])
    effect(state, 0, "1FAM2", {"gain": {"actions": 1}})
    assert state.seats[0].actions == 4
    tokens(state, 0, actions=1)
    assert Exhaust(card="GRE1A") not in legal(state)
    tokens(state, 0, actions=2)
    assert Exhaust(card="GRE1A") in legal(state)


def test_action_gratuite_once_per_turn_and_without_actions() -> None:
    """ACTION GRATUITE: played without an action token, even with none left; each such card
    only once per turn as a free action."""
    state = activate(MR)
    hand(state, 0, "1TRI2")
    put(state, 0, "play", "1CIV10")  # an exhaust effect keeps the Activate order open
    tokens(state, 0, actions=0)
    act(state, PlayCard(card="1TRI2"))
    me = state.seats[0]
    assert me.actions == 0 and me.population == 3 and "1TRI2" in me.discard
    put(state, 0, "hand", "1TRI2")
    assert PlayCard(card="1TRI2") not in legal(state)  # no action left, free use spent
    tokens(state, 0, actions=1)
    act(state, PlayCard(card="1TRI2"))
    assert me.actions == 0


def test_archiver_puts_cards_in_history_vikings_discard_instead() -> None:
    """ARCHIVER UNE CARTE: the card goes under the power card (history); the Vikings have no
    history and discard it instead."""
    state = activate(["macedonians", "vikings"])
    put(state, 0, "play", "PER12")
    effect(state, 0, "PER12", {"history": "self"})
    assert "PER12" in state.seats[0].history
    put(state, 1, "play", "VIK12")
    effect(state, 1, "VIK12", {"history": "self"})
    assert "VIK12" in state.seats[1].discard and not state.seats[1].history


def test_attaque_affects_every_other_player_and_protection_ignores_it() -> None:
    """ATTAQUE: the effect hits all other players; a protected player may ignore it
    (Wilderness: recall it to ignore the attack)."""
    state = activate(["macedonians", "romans", "greeks"])
    hand(state, 0, "PER7")
    state.seats[0].empire = True
    put(state, 2, "play", "1REG1")
    unrest = len(state.unrest)
    act(state, PlayCard(card="PER7"))
    assert decision(state) == "defend" and GAME.pending(state).seats == (2,)
    act(state, Choose(index=0))
    if decision(state) == "option":
        act(state, Choose(index=0))
    assert "1REG1" in state.seats[2].hand
    assert len(state.unrest) == unrest - 1
    assert sum("unrest" in C.CARDS[c].suits for c in state.seats[1].discard) >= 1
    assert not any("unrest" in C.CARDS[c].suits for c in state.seats[2].discard)


def test_attaque_standing_army_unless_the_attacker_gives_progress() -> None:
    """ATTAQUE (protection, Standing Army): the attacker may give 1 progress to hit anyway."""
    state = activate(MR)
    hand(state, 0, "1FAM3")
    put(state, 1, "play", "1UNC1")
    tokens(state, 1, progress=2)
    act(state, PlayCard(card="1FAM3"))
    act(state, Choose(index=0))  # the defender uses Standing Army
    assert decision(state) == "bribe" and GAME.pending(state).seats == (0,)
    act(state, Choose(index=0))  # the attacker gives 1 progress
    assert state.seats[1].progress == 2  # +1 given, -1 stolen
    assert state.seats[0].progress == 1


def test_barbare_empire_icons_limit_plays_not_exhausts() -> None:
    """BARBARE / EMPIRE: a card with the other state icon cannot be played from hand, but the
    exhaust effect of a barbarian card in play works for an empire."""
    state = activate(MR)
    hand(state, 0, "PER6", "MAC13")
    assert PlayCard(card="PER6") not in legal(state)
    assert PlayCard(card="MAC13") in legal(state)
    state.seats[0].empire = True
    put(state, 0, "play", "1UNC6")  # Shrine, barbarian: pay 1 material to draw 1
    options = legal(state)
    assert PlayCard(card="MAC13") not in options and Exhaust(card="1UNC6") in options


def test_barbare_si_empire_conditions() -> None:
    """« si Barbare » / « si Empire »: Egyptians move the top nation card (barbarian) or
    develop (empire)."""
    state = activate(MR)
    put(state, 0, "nation_top", "MAC10")
    effect(state, 0, "1TRI3", {"if": {"state": "barbarian"}, "then": [
        {"move": {"what": "nation_deck_top", "count": 1, "to": "discard"}}]},
        {"if": {"state": "empire"}, "then": [{"develop": {}}]})  # fmt: skip
    assert "MAC10" in state.seats[0].discard and len(state.seats[0].dev) == 7


def test_choisir_offers_only_options_that_can_be_resolved() -> None:
    """CHOISIR + PAYER: an option whose cost cannot be paid is not offered (Unrest card)."""
    state = activate(MR)
    hand(state, 0, "MAC21", "MAC13", "MAC14")
    tokens(state, 0, materials=2, population=0, progress=0)
    act(state, PlayCard(card="MAC21"))
    assert decision(state) == "pick_discard"  # the only option left: discard 2 cards
    state1 = activate(MR)
    hand(state1, 0, "MAC21", "MAC13")
    tokens(state1, 0, materials=2, population=0, progress=0)
    assert PlayCard(card="MAC21") not in legal(state1)  # no option can be resolved
    state2 = activate(MR)
    hand(state2, 0, "MAC21", "MAC13", "MAC14")
    tokens(state2, 0, materials=3, population=1)
    act(state2, PlayCard(card="MAC21"))
    assert legal(state2) == [Choose(index=0), Choose(index=1), Choose(index=2)]


def test_defausser_from_hand() -> None:
    """DÉFAUSSER: a card from hand, face up on the discard pile."""
    state = activate(MR)
    hand(state, 0, "MAC13", "MAC14")
    effect(state, 0, "1UNC6", {"discard": 1})
    act(state, Pick(card="MAC14"))
    assert state.seats[0].discard[-1] == "MAC14" and state.seats[0].hand == ["MAC13"]


def test_developper_by_effect_ignores_and_leaves_the_development_token() -> None:
    """DÉVELOPPER: from a card effect, allowed even with a token on the development area, and
    no token is placed."""
    state = activate(MR)
    me = state.seats[0]
    me.empire, me.dev_token = True, True
    tokens(state, 0, materials=4, population=1, progress=0)
    effect(state, 0, "MAC3", {"develop": {}})
    act(state, Pick(card="MAC3"))
    assert "MAC3" in me.discard and me.dev_token and me.exhaust == 5
    assert (me.materials, me.population) == (0, 0)


def test_epuiser_one_token_per_card_and_only_while_activating() -> None:
    """UTILISER DES EFFETS ÉPUISABLES: a token per use, never twice on one card, none left =
    no more exhausts; none while innovating."""
    state = activate(MR)
    put(state, 0, "play", "1CIV10")
    act(state, Exhaust(card="1CIV10"))
    me = state.seats[0]
    assert me.exhaust == 4 and "1CIV10" in me.exhausted
    assert Exhaust(card="1CIV10") not in legal(state)
    put(state, 0, "play", "SCY9")
    tokens(state, 0, exhaust=0)
    assert Exhaust(card="SCY9") not in legal(state)


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


def test_gagner_takes_tokens_from_the_supply() -> None:
    """GAGNER: tokens of the kinds shown, unlimited supply."""
    state = activate(MR)
    tokens(state, 0, materials=98)
    effect(state, 0, "1TRI8", {"gain": {"materials": 4}})
    assert state.seats[0].materials == 102


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


def test_regarder_puts_cards_back_in_the_same_order() -> None:
    """REGARDER: look privately, put back in the same order (Glory looks at 2 fame cards and
    takes 1; the other stays on top)."""
    state = activate(MR)
    state.fame_top = ["1FAM1", "1FAM2"]  # 1FAM2 on top
    effect(state, 0, "MAC12", {"look": {"pile": "fame", "count": 2}},
           {"take": {"from": "looked_at", "count": 1}})  # fmt: skip
    assert decision(state) == "pick_take_looked"
    act(state, Pick(card="1FAM2"))
    assert state.fame_top == ["1FAM1"] and "1FAM2" in state.seats[0].discard


def test_regarder_fame_with_none_left_resolves_king_of_kings() -> None:
    """REGARDER + card note "Roi des rois": looking at fame cards when none is face down
    resolves King of Kings instead."""
    state = activate(MR)
    state.fame_top, state.piles["fame"] = [], []
    before = state.seats[0].progress
    effect(state, 0, "MAC12", {"look": {"pile": "fame", "count": 2}})
    assert state.seats[0].progress == before + 6 and state.kok_face == "B"


def test_passif_power_card_and_card_in_play() -> None:
    """PASSIF: active while the card is in play (hand size +1); the power card's passive all
    game (Romans face A: look at one more fame card and gain 1 progress)."""
    state = activate(["romans", "macedonians"], sides=["A", "B"])
    from domain.imperium.cards import hand_size

    assert hand_size(state, 0) == 5
    put(state, 0, "play", "ROM5")
    assert hand_size(state, 0) == 6
    state.fame_top = ["1FAM1", "1FAM2", "1FAM3"]
    before = state.seats[0].progress
    effect(state, 0, "ROM14", {"look": {"pile": "fame", "count": 2}},
           {"take": {"from": "looked_at", "count": 1}})  # fmt: skip
    frame = state.agenda[-1]
    assert sorted(frame.options) == ["1FAM1", "1FAM2", "1FAM3"]
    assert state.seats[0].progress == before + 1


def test_payer_progress_stands_in_for_population_and_two_materials() -> None:
    """PAYER: each progress may replace 1 population or 2 materials (no change given back);
    materials and population never replace each other."""
    state = activate(MR)
    me = state.seats[0]
    tokens(state, 0, materials=0, population=0, progress=2)
    assert payment_options(me, 3, 0, 0) == [(0, 0, 2)]
    assert payment_options(me, 0, 2, 0) == [(0, 0, 2)]
    assert payment_options(me, 0, 3, 0) == []
    tokens(state, 0, materials=5, population=0, progress=0)
    assert payment_options(me, 0, 1, 0) == []
    tokens(state, 0, materials=0, population=5, progress=0)
    assert payment_options(me, 1, 0, 0) == []
    tokens(state, 0, materials=1, population=0, progress=1)
    assert payment_options(me, 3, 0, 0) == [(1, 0, 1)]


def test_payer_pays_with_the_chosen_conversion() -> None:
    """PAYER: the player chooses how to pay when several ways exist (Mosaics: 1 material)."""
    state = activate(MR)
    tokens(state, 0, materials=1, progress=1)
    put(state, 0, "play", "MAC7")
    put(state, 0, "discard", "MAC13")
    act(state, Exhaust(card="MAC7"))
    assert decision(state) == "payment"
    ways = payment_options(state.seats[0], 1, 0, 0)
    act(state, Choose(index=ways.index((0, 0, 1))))
    assert (state.seats[0].materials, state.seats[0].progress) == (1, 0)


def test_persistante_stays_in_play() -> None:
    """PERSISTANTE: a persistent card stays in the play area; others go to the discard."""
    state = activate(MR)
    hand(state, 0, "MAC19", "1TRI8")
    act(state, PlayCard(card="MAC19"))
    if decision(state) == "option":
        act(state, Pass())
    act(state, PlayCard(card="1TRI8"))
    me = state.seats[0]
    assert "MAC19" in me.play and "1TRI8" in me.discard and "1TRI8" not in me.play


def test_pioche_nation_accession_stays_at_the_bottom() -> None:
    """PIOCHE NATION: the accession card always stays at the bottom: the Vikings' power card
    may move the looked card to the bottom, but above the zenith card; a shuffle keeps it
    last."""
    state = activate(["vikings", "romans"])
    vik = state.seats[0]
    vik.nation_deck, vik.nation_top = ["VIK3", "VIK4"], ["VIK5"]
    effect(state, 0, "VIK1B", {"look": {"pile": "nation_deck", "count": 1}},
           {"may": [{"move": {"what": "looked_at", "to": "nation_deck_bottom"}}]})  # fmt: skip
    act(state, Choose(index=0))
    assert vik.nation_bottom == ["VIK5"] and vik.accession == ["VIK2"]
    effect(state, 0, "VIK16", {"look": {"pile": "nation_deck", "count": 1}},
           {"shuffle": "nation_deck"})  # fmt: skip
    assert sorted(vik.nation_deck) == ["VIK3", "VIK4", "VIK5"] and vik.accession == ["VIK2"]
    assert vik.looked == [] and vik.nation_top == [] and vik.nation_bottom == []


def test_pioche_nation_looking_at_the_accession_card_does_not_take_it() -> None:
    """PIOCHE NATION + REGARDER: looking at the accession card (last card) neither flips the
    state card nor triggers the Vikings' zenith; it goes back to its slot."""
    state = activate(["vikings", "greeks"])
    vik, gre = state.seats
    vik.nation_deck = []
    effect(state, 0, "VIK16", {"look": {"pile": "nation_deck", "count": 1}},
           {"may": [{"move": {"what": "looked_at", "to": "nation_deck_bottom"}}]})  # fmt: skip
    act(state, Choose(index=0))
    assert vik.accession == ["VIK2"] and not state.end_trigger and vik.nation_bottom == []
    gre.nation_deck = []
    effect(state, 1, "GRE11", {"look": {"pile": "nation_deck", "count": 1}})
    assert gre.accession == ["GRE2"] and not gre.empire


def test_piocher_reshuffles_when_the_deck_runs_out() -> None:
    """PIOCHER X CARTES: draw what is left, reshuffle (procedure of "Mélanger votre deck"),
    go on drawing."""
    state = activate(MR)
    me = state.seats[0]
    me.deck, me.deck_top, me.hand = ["MAC13"], [], []
    me.discard = ["MAC14", "MAC15"]
    me.nation_deck = ["MAC10"]
    effect(state, 0, "GRE2", {"draw": 2})
    assert len(me.hand) == 2 and "MAC13" in me.hand
    assert me.nation_token and len(me.deck) == 2  # 2 discards + the nation card, 1 drawn


def test_piocher_si_possible_never_reshuffles() -> None:
    """PIOCHER ... si possible: with an empty deck, nothing is drawn and no reshuffle."""
    state = activate(MR)
    me = state.seats[0]
    me.deck, me.deck_top, me.hand, me.discard = [], [], [], ["MAC14"]
    effect(state, 0, "1FAM4", {"draw": {"count": 1, "if_able": True}})
    assert me.hand == [] and me.discard == ["MAC14"] and not me.nation_token


def test_piocher_jusqua_may_reshuffle() -> None:
    """PIOCHER jusqu'à X (without « si possible »): missing cards may come from a reshuffle."""
    state = activate(MR)
    me = state.seats[0]
    me.deck, me.deck_top, me.hand, me.discard = ["MAC13"], [], [], ["MAC14", "MAC15"]
    effect(state, 0, "1FAM5", {"draw": {"up_to": 3}})
    act(state, Choose(index=3))
    assert len(me.hand) == 3


def test_piocher_une_renommee_and_king_of_kings_faces() -> None:
    """PIOCHER UNE RENOMMÉE + card note "Roi des rois": the top fame card to hand; with none
    face down, King of Kings is resolved instead: face A (barbarian: 6 progress) flips to B
    and triggers the end; face B (empire: free develop) stays; each player once."""
    state = activate(["macedonians", "romans", "greeks"])
    state.fame_top, state.piles["fame"] = ["1FAM8"], []
    effect(state, 0, "MAC12", {"draw_fame": 1})
    assert "1FAM8" in state.seats[0].hand
    before = state.seats[0].progress
    effect(state, 0, "MAC12", {"draw_fame": 1})
    assert state.seats[0].progress == before + 6
    assert state.kok_face == "B" and state.end_trigger == "KOK-A"
    effect(state, 0, "MAC12", {"draw_fame": 1})
    assert state.seats[0].progress == before + 6  # only once per player
    rom = state.seats[1]
    rom.empire = True
    effect(state, 1, "MAC12", {"draw_fame": 1})
    act(state, Pick(card="ROM3"))
    assert "ROM3" in rom.discard and state.kok_face == "B"


def test_rappeler_returns_the_card_and_its_garrison_to_hand() -> None:
    """RAPPELER: a persistent card back to hand with the cards garrisoned under it."""
    state = activate(MR)
    put(state, 1, "play", "ROM20")
    garrison(state, 1, "ROM20", "ROM14")
    effect(state, 1, "SCY13", {"recall": {"count": 1, "filter": {"suit": "region"}}})
    assert {"ROM20", "ROM14"} <= set(state.seats[1].hand) and state.seats[1].garrison == {}


def test_recuperer_chooses_the_card() -> None:
    """RÉCUPÉRER: choose the card in the pile (discard to hand, or to the top of the deck)."""
    state = activate(MR)
    me = state.seats[0]
    me.discard = ["MAC13", "MAC14"]
    effect(state, 0, "CEL21", {"recover": {"from": "discard", "count": 1, "to": "deck_top"}})
    act(state, Pick(card="MAC13"))
    assert me.deck_top == ["MAC13"] and me.discard == ["MAC14"]


def test_renvoyer_une_instabilite_from_hand_or_discard() -> None:
    """RENVOYER UNE INSTABILITÉ: from hand (default) or, when the card says so, from the
    discard pile."""
    state = activate(MR)
    hand(state, 0, "MAC21")
    put(state, 0, "discard", "MAC22")
    pile = len(state.unrest)
    effect(state, 0, "GRE18", {"return_unrest": {"from": "hand", "count": 1}})
    effect(state, 0, "1CIV14", {"return_unrest": {"from": "discard", "count": 1}})
    assert state.unrest[-2:] == ["MAC21", "MAC22"] and len(state.unrest) == pile + 2


def test_reserver_garrisoned_cards_are_out_of_play_but_scored() -> None:
    """RÉSERVER: a card from hand tucked under the card just played; it is not in the play
    area (no effect) but scores; Glory cannot be garrisoned."""
    state = activate(MR)
    hand(state, 0, "MAC19", "1UNC19", "MAC12", "MAC13")
    act(state, PlayCard(card="MAC19"))
    act(state, Choose(index=0))
    assert Pick(card="MAC12") not in legal(state)
    act(state, Pick(card="1UNC19"))
    me = state.seats[0]
    assert me.garrison == {"MAC19": ["1UNC19"]} and "1UNC19" not in me.play
    assert Exhaust(card="1UNC19") not in legal(state)
    from domain.imperium.cards import scored_cards

    assert "1UNC19" in scored_cards(me)


def test_solstice_every_player_resolves_in_chosen_order() -> None:
    """SOLSTICE: at the end of the round every player resolves the Solstice effects of its
    play area, in the order it chooses."""
    state = activate(MR)
    state.first = 0
    put(state, 0, "play", "1CIV10", "MAC8")
    put(state, 1, "play", "1CIV6")
    state.seats[1].empire = True
    state.agenda = [Frame(kind="next_round", seat=0), Frame(kind="solstice", seat=1),
                    Frame(kind="solstice", seat=0)]  # fmt: skip
    from tests.imperium.positions import resolve

    resolve(state)
    assert decision(state) == "pick_solstice"
    assert sorted(legal(state), key=str) == [Pick(card="1CIV10"), Pick(card="MAC8")]
    before = state.seats[0].materials
    act(state, Pick(card="1CIV10"))
    assert state.seats[0].materials == before + 2
    act(state, Choose(index=0))  # Alexandria in Egypt: 1 material
    assert GAME.pending(state).seats == (1,) and decision(state) == "option"


def test_trouver_searches_hand_discard_deck_then_nation_deck() -> None:
    """TROUVER: choose a matching card among hand, discard, deck and nation deck; the deck
    and nation deck are shuffled afterwards."""
    state = activate(["vikings", "romans"])
    vik = state.seats[0]
    vik.nation_top = ["VIK3"]
    vik.deck_top = ["VIK16"]
    effect(state, 0, "VIK21", {"find": {"filter": {"suit": "region"}, "to": "hand"}})
    options = {c.card for c in legal(state) if isinstance(c, Pick)}
    assert "VIK3" in options and all("region" in C.CARDS[c].suits for c in options)
    act(state, Pick(card="VIK3"))
    assert "VIK3" in vik.hand and vik.nation_top == [] and vik.deck_top == []


def test_voler_takes_as_much_as_possible_and_reports_who_could_not_pay() -> None:
    """VOLER: take the tokens from each other player as far as possible; Go a'Viking gives an
    unrest card to each player who could not pay in full."""
    state = activate(["vikings", "romans", "greeks"])
    tokens(state, 1, materials=5)
    tokens(state, 2, materials=1)
    hand(state, 0, "VIK13")
    act(state, PlayCard(card="VIK13"))
    assert state.seats[0].materials == 3 + 2 + 1
    assert (state.seats[1].materials, state.seats[2].materials) == (3, 0)
    assert any("unrest" in C.CARDS[c].suits for c in state.seats[2].discard)
    assert not any("unrest" in C.CARDS[c].suits for c in state.seats[1].discard)


def test_tous_les_joueurs_includes_you_tous_les_autres_does_not() -> None:
    """TOUS LES JOUEURS / TOUS LES AUTRES JOUEURS: Corruption: every player gains 2 materials
    (you too), every other player takes an unrest card (not you)."""
    state = activate(["macedonians", "romans", "greeks"])
    state.seats[0].empire = True
    hand(state, 0, "1CIV4")
    act(state, PlayCard(card="1CIV4"))
    assert [s.materials for s in state.seats] == [5, 5, 5]
    unrest = [sum("unrest" in C.CARDS[c].suits for c in s.discard) for s in state.seats]
    assert unrest[0] == 0 and unrest[1] >= 1 and unrest[2] >= 1


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
