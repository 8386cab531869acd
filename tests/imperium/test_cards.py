"""Cards with their own rules: the rulebook's card notes ("Notes concernant certaines
cartes") and the steps only one or two Classics cards use. Each test names the card (and the
note or keyword) it reproduces."""

from __future__ import annotations

from domain.imperium import content as C
from domain.imperium.commands import Choose, Exhaust, Pass, Pick, PlayCard
from domain.imperium.state import ImperiumState
from tests.imperium.helpers import GAME, act, decision
from tests.imperium.positions import (
    activate,
    effect,
    hand,
    legal,
    market_card,
    put,
    put_shared,
    set_market,
    tokens,
)

MR = ["macedonians", "romans"]


def _unrest_in(cards: list[str]) -> int:
    return sum("unrest" in C.CARDS[c].suits for c in cards)


# -- Direct Democracy: cheaper unrest cards -------------------------------------------------------
def test_direct_democracy_lowers_unrest_card_options() -> None:
    """Direct Democracy (passive): unrest cards ask 1 material and 1 card less (never below
    1): discard 1 card or pay 2 materials; the population option stays at 1."""
    state = activate(["greeks", "romans"])
    me = state.seats[0]
    me.empire = True
    put(state, 0, "play", "GRE8")
    hand(state, 0, "GRE13", "GRE14")
    tokens(state, 0, materials=2, population=0, progress=0)
    act(state, PlayCard(card="GRE13"))
    assert decision(state) == "option"
    assert legal(state) == [Choose(index=1), Choose(index=2)]
    act(state, Choose(index=2))
    assert me.materials == 0 and "GRE13" in state.unrest


def test_direct_democracy_exhaust_plays_an_unrest_card_for_free() -> None:
    """Direct Democracy (exhaust): play an unrest card from hand as a free action; the
    passive discount applies (discard only 1 card)."""
    state = activate(["greeks", "romans"])
    me = state.seats[0]
    me.empire = True
    put(state, 0, "play", "GRE8")
    hand(state, 0, "GRE13", "GRE14")
    tokens(state, 0, materials=0, population=0, progress=0, actions=1)
    act(state, Exhaust(card="GRE8"))
    assert "GRE13" in state.unrest and "GRE14" in me.discard and me.actions == 1


def test_without_direct_democracy_unrest_options_are_printed_ones() -> None:
    """Unrest card (printed): pay 1 population, discard 2 cards or pay 3 materials."""
    state = activate(["greeks", "romans"])
    hand(state, 0, "GRE13", "GRE14")
    tokens(state, 0, materials=2, population=0, progress=0)
    assert PlayCard(card="GRE13") not in legal(state)


# -- Shaduf -----------------------------------------------------------------------------------
def _shaduf(state: ImperiumState) -> None:
    put(state, 0, "play", "1UNC12")


def test_shaduf_port_counting_a_river_card() -> None:
    """Card note "Chadouf": on your turn, exhaust it when a river card in play is used to gain
    materials by another card's effect (Port: 1 material per river icon) — +1 progress."""
    state = activate(MR)
    _shaduf(state)
    put(state, 0, "play", "1UNC19", "MAC18")
    before = state.seats[0].progress
    act(state, Exhaust(card="1UNC19"))
    assert decision(state) == "react"
    act(state, Pick(card="1UNC12"))
    if decision(state) == "option":
        act(state, Pass())
    assert state.seats[0].progress == before + 1 and state.seats[0].exhaust == 3


def test_shaduf_river_icon_irrelevant_to_the_effect() -> None:
    """Card note "Chadouf": "même si le [fleuve] n'est pas pertinent" — Prosperity counting
    production icons counts the River region, which also shows a river icon."""
    state = activate(MR)
    _shaduf(state)
    put(state, 0, "play", "1REG11")
    hand(state, 0, "ROM15")
    act(state, PlayCard(card="ROM15"))
    while decision(state) == "option" and Pass() in legal(state):
        act(state, Pass())
    act(state, Choose(index=0))  # materials per production icon
    assert decision(state) == "react"


def test_shaduf_not_for_a_card_without_river_icon() -> None:
    """Card note "Chadouf": a production card without river icon does not trigger it."""
    state = activate(MR)
    _shaduf(state)
    put(state, 0, "play", "GRE21")
    hand(state, 0, "ROM15", "MAC13")
    act(state, PlayCard(card="ROM15"))
    while decision(state) == "option" and Pass() in legal(state):
        act(state, Pass())
    act(state, Choose(index=0))
    assert decision(state) != "react"


def test_shaduf_own_effect_and_a_recalled_river_card() -> None:
    """Card note "Chadouf": a river region's own effect (Raetia gains 1 material) and Boats
    (recall a river card to gain 2 materials) both trigger it."""
    state = activate(MR)
    _shaduf(state)
    hand(state, 0, "ROM12", "MAC13")
    act(state, PlayCard(card="ROM12"))
    assert decision(state) == "react"
    act(state, Pass())
    state2 = activate(MR)
    _shaduf(state2)
    put(state2, 0, "play", "1UNC11", "1REG5")
    act(state2, Exhaust(card="1UNC11"))  # only option: recall the river card (2 materials)
    assert "1REG5" in state2.seats[0].hand and decision(state2) == "react"


def test_shaduf_only_on_your_turn() -> None:
    """Card note "Chadouf": "À votre tour" — not when another player's card makes you gain."""
    state = activate(MR)
    put(state, 1, "play", "1UNC12", "1REG11")
    effect(state, 1, "SCY14", {"gain": {"materials": {"per": {
        "filter": {"type_icon": "production"}, "zone": "play_area"}, "each": 1}}})  # fmt: skip
    assert decision(state) != "react"


# -- regaining an exhaust token ------------------------------------------------------------------
def test_regain_exhaust_token_frees_the_chosen_card() -> None:
    """ÉPUISER (regain, Olmecs): the token comes back from the card the player chooses, which
    may then be exhausted again."""
    state = activate(["macedonians", "romans", "greeks"])
    me = state.seats[0]
    put(state, 0, "play", "1CIV10", "SCY9")
    hand(state, 0, "1TRI6", "MAC13", "MAC14")
    act(state, Exhaust(card="1CIV10"))
    act(state, Exhaust(card="SCY9"))
    act(state, Pick(card="MAC13"))  # Tamga: discard a card to draw 2
    assert me.exhaust == 3 and Exhaust(card="1CIV10") not in legal(state)
    act(state, PlayCard(card="1TRI6"))
    assert decision(state) == "pick_regain"
    assert set(legal(state)) == {Pick(card="1CIV10"), Pick(card="SCY9")}
    act(state, Pick(card="1CIV10"))
    assert me.exhaust == 4 and me.exhausted == ["SCY9"]
    assert Exhaust(card="1CIV10") in legal(state)


def test_regain_exhaust_token_from_the_nation_deck() -> None:
    """ÉPUISER (regain): a token on the nation deck comes back too; the barbarian reshuffle
    step may then be used again this turn."""
    state = activate(MR)
    me = state.seats[0]
    me.nation_token, me.exhaust = True, 4
    effect(state, 0, "1TRI6", {"regain_exhaust_token": 1})
    assert not me.nation_token and me.exhaust == 5


# -- Agriculture, Windmills --------------------------------------------------------------------
def test_agriculture_fertile_card_counts_as_three_production_until_end_of_turn() -> None:
    """Agriculture (exhaust): a fertile card of your play area counts as showing 3 production
    icons until the end of the turn (Nomads then gains 3 materials)."""
    state = activate(MR)
    me = state.seats[0]
    put(state, 0, "play", "1UNC10", "MAC20")
    hand(state, 0, "SCY14", "MAC13")
    tokens(state, 0, materials=0)
    act(state, Exhaust(card="1UNC10"))
    assert me.treated == {"MAC20": {"production": 3}}
    act(state, PlayCard(card="SCY14"))
    while decision(state) == "option":
        act(state, Pass())
    assert me.materials == 3
    act(state, legal(state)[-1])  # end the Activate order
    act(state, legal(state)[0])  # cleanup token
    assert me.treated == {}


def test_windmills_free_play_and_same_exhaust() -> None:
    """Windmills: played as a free action (no effect), then the Agriculture exhaust effect."""
    state = activate(["persians", "romans"])
    me = state.seats[0]
    me.empire = True
    hand(state, 0, "PER5", "PER14")
    put(state, 0, "play", "1REG4")  # Coast: production, fertile
    tokens(state, 0, actions=0)
    act(state, PlayCard(card="PER5"))
    assert "PER5" in me.play and me.actions == 0
    act(state, Exhaust(card="PER5"))
    assert me.treated == {"1REG4": {"production": 3}}


# -- Ambassador ---------------------------------------------------------------------------------
def test_ambassador_uses_another_players_exhaust_effect() -> None:
    """Ambassador (exhaust): resolve the exhaust effect of a persistent card of another
    player as if it were yours (you pay its cost; its own token does not matter)."""
    state = activate(MR)
    me = state.seats[0]
    put(state, 0, "play", "1UNC14")
    put(state, 1, "play", "CEL20")
    state.seats[1].exhausted = ["CEL20"]
    tokens(state, 0, progress=1, population=0)
    act(state, Exhaust(card="1UNC14"))
    assert (me.progress, me.population) == (0, 2)
    assert state.seats[1].exhausted == ["CEL20"]


def test_ambassador_not_usable_without_a_target() -> None:
    """Ambassador: no other player's persistent exhaust effect it can resolve — not offered."""
    state = activate(MR)
    put(state, 0, "play", "1UNC14")
    put(state, 1, "play", "CEL20", "MAC18")
    tokens(state, 0, progress=0)
    assert Exhaust(card="1UNC14") not in legal(state)


# -- Sacred Pass (Voie sacrée) ---------------------------------------------------------------------
def test_sacred_pass_swaps_a_hand_card_with_the_top_nation_card() -> None:
    """Sacred Pass (exhaust): look at the top nation card; abandon Sacred Pass to swap a card
    of your hand with it."""
    state = activate(MR)
    me = state.seats[0]
    put(state, 0, "play", "1REG14")
    me.nation_top = ["MAC10"]
    hand(state, 0, "MAC21", "MAC13")
    act(state, Exhaust(card="1REG14"))
    act(state, Choose(index=0))  # look
    assert me.looked == ["MAC10"]
    act(state, Choose(index=0))  # abandon to swap
    act(state, Pick(card="MAC21"))
    assert "MAC10" in me.hand and me.nation_top == ["MAC21"]
    assert "1REG14" in me.discard and me.looked == []


def test_sacred_pass_never_brings_the_accession_card() -> None:
    """Card note "Voie sacrée": it cannot be used to take your accession card: with only the
    accession card left, no swap is offered and the card goes back under the nation deck."""
    state = activate(MR)
    me = state.seats[0]
    put(state, 0, "play", "1REG14")
    me.nation_deck = []
    hand(state, 0, "MAC21", "MAC13")
    act(state, Exhaust(card="1REG14"))
    act(state, Choose(index=0))  # look at the accession card
    assert me.accession == ["MAC2"] and me.looked == [] and "1REG14" in me.play
    assert not me.empire


# -- Lighthouse: exile swap ------------------------------------------------------------------------
def test_lighthouse_swaps_an_exiled_card_into_the_market() -> None:
    """EXILER (swap, Lighthouse): exile a market card (even with tokens), its unrest back to
    the pile; an exiled card of your choice takes its place with an unrest card under it if
    uncivilised/civilised/tributary, and the tokens move onto it."""
    state = activate(["greeks", "romans"])
    state.seats[0].empire = True
    put(state, 0, "play", "GRE9")
    set_market(state)
    market_card(state, 0, "1CIV6", unrest=1, materials=2)
    put_shared(state, "exile", "1REG2", "1CIV2")
    pile = len(state.unrest)
    act(state, Exhaust(card="GRE9"))
    if decision(state) == "option":
        act(state, Choose(index=1))
    act(state, Pick(card="1CIV6"))
    assert set(legal(state)) == {Pick(card="1REG2"), Pick(card="1CIV2")}
    act(state, Pick(card="1CIV2"))
    slot = state.market[0]
    assert slot.card == "1CIV2" and slot.materials == 2 and len(slot.unrest) == 1
    assert sorted(state.exile) == ["1CIV6", "1REG2"] and len(state.unrest) == pile


def test_lighthouse_swap_not_offered_with_an_empty_exile() -> None:
    """Lighthouse: with no exiled card, only its other option can be chosen."""
    state = activate(["greeks", "romans"])
    state.seats[0].empire = True
    put(state, 0, "play", "GRE9")
    put(state, 0, "discard", "GRE15")
    state.exile = []
    act(state, Exhaust(card="GRE9"))
    assert state.seats[0].deck_top == ["GRE15"]


# -- Gambling -----------------------------------------------------------------------------------
def test_gambling_right_guess_takes_the_card() -> None:
    """Gambling (free action): pay 1 material, name a category, reveal the top main-deck card:
    right = to hand; the main deck exhausted triggers the end."""
    state = activate(MR)
    hand(state, 0, "1UNC18", "MAC13")
    tokens(state, 0, progress=0)
    state.piles["main"] = ["1TRI4"]
    act(state, PlayCard(card="1UNC18"))
    assert decision(state) == "declare"
    act(state, Choose(index=3))  # tributary
    assert "1TRI4" in state.seats[0].hand and state.revealed == []
    assert state.seats[0].materials == 2 and state.end_trigger == "main_deck_empty"


def test_gambling_wrong_guess_exiles_the_card() -> None:
    """Gambling: a wrong guess exiles the revealed card."""
    state = activate(MR)
    hand(state, 0, "1UNC18", "MAC13")
    tokens(state, 0, progress=0)
    state.piles["main"] = ["1REG2", "1REG3"]
    act(state, PlayCard(card="1UNC18"))
    act(state, Choose(index=1))  # civilised
    assert len(state.exile) == 1 and state.exile[0] in ("1REG2", "1REG3")
    assert not state.end_trigger


# -- Combs -----------------------------------------------------------------------------------------
def test_combs_next_card_ignores_the_empire_icon() -> None:
    """Combs (exhaust) + EMPIRE: the Vikings may play the next card this turn as if it had no
    empire icon; only that one."""
    state = activate(["vikings", "romans"])
    put(state, 0, "play", "VIK4")
    hand(state, 0, "1CIV13", "PER6", "VIK16")
    assert PlayCard(card="1CIV13") not in legal(state)
    act(state, Exhaust(card="VIK4"))
    assert PlayCard(card="1CIV13") in legal(state) and PlayCard(card="PER6") in legal(state)
    act(state, PlayCard(card="1CIV13"))
    assert PlayCard(card="PER6") not in legal(state)


# -- Cataphract ------------------------------------------------------------------------------------
def test_cataphract_garrisons_itself_and_resolves_the_host() -> None:
    """Cataphract + RÉSERVER: tuck it under a region of your play area, then resolve that
    region's play effect (Orestis: 2 materials, may garrison)."""
    state = activate(MR)
    me = state.seats[0]
    me.empire = True
    put(state, 0, "play", "MAC19")
    hand(state, 0, "1CIV15", "MAC13")
    tokens(state, 0, materials=0)
    act(state, PlayCard(card="1CIV15"))
    while decision(state) == "option" and legal(state) != [Choose(index=0), Pass()]:
        act(state, Pass())
    act(state, Pass())  # no acquisition
    act(state, Choose(index=0))  # garrison Cataphract
    assert me.garrison == {"MAC19": ["1CIV15"]} and me.materials == 2
    assert "1CIV15" not in me.discard


# -- Exports, Monopoly -----------------------------------------------------------------------------
def test_exports_gives_a_card_to_each_other_player() -> None:
    """Exports (attack): every player gains 2 materials, then you give each other player one
    card of your hand or discard pile (it goes to their discard pile)."""
    state = activate(MR)
    state.seats[0].empire = True
    hand(state, 0, "1CIV11", "MAC21", "MAC13")
    act(state, PlayCard(card="1CIV11"))
    assert decision(state) == "pick_give"
    act(state, Pick(card="MAC21"))
    assert state.seats[1].discard[-1] == "MAC21" and state.seats[1].materials == 5


def test_monopoly_skips_a_protected_player() -> None:
    """Monopoly (attack) + ATTAQUE: a player ignoring the attack receives nothing."""
    state = activate(["carthaginians", "romans", "greeks"])
    state.seats[0].empire = True
    hand(state, 0, "CAR8", "CAR22", "CAR16")
    put(state, 2, "play", "1REG12")
    act(state, PlayCard(card="CAR8"))
    assert GAME.pending(state).seats == (2,)
    act(state, Choose(index=0))  # Cape: recall it to ignore
    if decision(state) == "option":
        act(state, Choose(index=0))
    while decision(state) == "pick_give":
        act(state, Pick(card="CAR22") if Pick(card="CAR22") in legal(state) else legal(state)[0])
    assert "CAR22" in state.seats[1].discard
    assert not any(c.startswith("CAR") for c in state.seats[2].discard)


# -- other card notes ------------------------------------------------------------------------------
def test_nomads_two_versions_only_one_barbarian() -> None:
    """Card note "Nomades": SCY15 shows the barbarian icon, SCY14 does not: an empire can play
    only SCY14."""
    state = activate(["scythians", "romans"])
    state.seats[0].empire = True
    hand(state, 0, "SCY14", "SCY15")
    options = legal(state)
    assert PlayCard(card="SCY14") in options and PlayCard(card="SCY15") not in options


def test_carthaginians_face_a_doubles_the_materials_of_a_market_card() -> None:
    """Carthaginians (face A, exhaust): when you acquire a market card carrying materials,
    double the materials gained."""
    state = activate(["carthaginians", "romans"], sides=["A", "B"])
    set_market(state)
    market_card(state, 2, "1REG3", materials=2)
    tokens(state, 0, materials=0)
    effect(state, 0, "CAR18", {"acquire": {"suits": ["region"]}})
    assert decision(state) == "react"
    act(state, Pick(card="CAR1A"))
    assert state.seats[0].materials == 4


def test_celts_face_a_unrest_to_others_on_uncivilised_acquisition() -> None:
    """Celts (face A, exhaust): acquiring an uncivilised card, every other player takes an
    unrest card."""
    state = activate(["celts", "romans"], sides=["A", "B"])
    set_market(state, "1CIV6", "1UNC3", "1REG2", "1TRI4", "1CIV10")
    effect(state, 0, "CEL3", {"acquire": {"suits": ["uncivilised"]}})
    act(state, Pick(card="CEL1A"))
    assert _unrest_in(state.seats[1].discard) >= 1


def test_king_of_kings_cannot_be_drawn_while_fame_cards_remain() -> None:
    """Card note "Roi des rois": while a fame card is face down it is drawn, never King of
    Kings; looking at more fame cards than remain looks at all of them."""
    state = activate(MR)
    state.fame_top, state.piles["fame"] = ["1FAM8"], []
    effect(state, 0, "MAC12", {"look": {"pile": "fame", "count": 2}},
           {"take": {"from": "looked_at", "count": 1}})  # fmt: skip
    assert "1FAM8" in state.seats[0].discard and state.kok_face == "A"
    assert not state.seats[0].kok_resolved


def test_direct_democracy_exhaust_not_offered_without_a_playable_unrest_card() -> None:
    """Direct Democracy (exhaust) + PAYER: with no unrest card in hand whose cost can be
    paid, the exhaust effect is not offered."""
    state = activate(["greeks", "romans"])
    state.seats[0].empire = True
    put(state, 0, "play", "GRE8")
    hand(state, 0, "GRE14", "GRE15")
    assert Exhaust(card="GRE8") not in legal(state)
    hand(state, 0, "GRE13", "GRE15")
    assert Exhaust(card="GRE8") in legal(state)


def test_phalanx_plays_a_region_from_the_discard_with_an_action() -> None:
    """Phalanx (exhaust) + ACTION: play a region from your discard pile, spending an action
    (Macedonians face A: +2 materials for a region played from the discard); not offered
    without an action token."""
    state = activate(["macedonians", "romans"], sides=["A", "B"])
    me = state.seats[0]
    put(state, 0, "play", "MAC17")
    put(state, 0, "discard", "MAC19")
    tokens(state, 0, materials=0, actions=0)
    assert Exhaust(card="MAC17") not in legal(state)
    tokens(state, 0, actions=1)
    act(state, Exhaust(card="MAC17"))
    if decision(state) == "option":
        act(state, Pass())
    assert "MAC19" in me.play and me.actions == 0 and me.materials == 4


def test_vikings_look_when_taking_an_unrest_card() -> None:
    """Vikings (passive): taking an unrest card (here with an acquired market card), look at
    the top nation card and you may put it at the bottom (above the zenith card)."""
    state = activate(["vikings", "romans"])
    vik = state.seats[0]
    set_market(state, "1CIV6", "1UNC3", "1REG2", "1TRI4", "1CIV10")
    vik.nation_deck, vik.nation_top = ["VIK3"], ["VIK5"]
    effect(state, 0, "VIK16", {"acquire": {"suits": ["uncivilised"]}})
    assert decision(state) == "option" and vik.looked == ["VIK5"]
    act(state, Choose(index=0))
    assert vik.nation_bottom == ["VIK5"] and vik.accession == ["VIK2"]
