"""The rulebook's "MOTS-CLEFS" about what a player may do and pay, one test per keyword, each
naming the keyword it reproduces: ACTION, ACTION GRATUITE, BARBARE / EMPIRE, CHOISIR,
DÉVELOPPER, ÉPUISER, GAGNER, PASSIF, PAYER, SOLSTICE. Positions are hand-set
(tests/imperium/positions.py) on top of a real setup; the engine is driven through ``decide``
only.
"""

from __future__ import annotations

from domain.imperium.commands import Choose, Exhaust, Pick, PlayCard
from domain.imperium.ops import payment_options
from domain.imperium.state import Frame
from tests.imperium.helpers import GAME, act, decision
from tests.imperium.positions import activate, effect, hand, legal, put, tokens

MR = ["macedonians", "romans"]


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


def test_gagner_takes_tokens_from_the_supply() -> None:
    """GAGNER: tokens of the kinds shown, unlimited supply."""
    state = activate(MR)
    tokens(state, 0, materials=98)
    effect(state, 0, "1TRI8", {"gain": {"materials": 4}})
    assert state.seats[0].materials == 102


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
