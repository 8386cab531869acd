"""Cleanup ("Nettoyage") and reshuffles ("Mélanger votre deck"), each test naming the rule it
reproduces."""

from __future__ import annotations

from domain.imperium.commands import ChooseOrder, EndActivate, Pass, Pick, PlayCard
from domain.imperium.state import Frame
from tests.imperium.helpers import GAME, act, decision
from tests.imperium.positions import activate, effect, hand, legal, put, resolve, set_market

MR = ["macedonians", "romans"]


def _to_cleanup(state) -> None:  # type: ignore[no-untyped-def]
    act(state, EndActivate())
    assert decision(state) == "cleanup_token"


def test_cleanup_token_progress_on_a_market_card() -> None:
    """NETTOYAGE 1: 1 progress from the supply on a market card of your choice."""
    state = activate(MR)
    set_market(state)
    hand(state, 0, "MAC13", "MAC14")
    _to_cleanup(state)
    assert len(legal(state)) == 5
    act(state, Pick(card="1UNC15"))
    assert (state.market[2].materials, state.market[2].progress) == (0, 1)


def test_cleanup_token_carthaginians_materials_by_face() -> None:
    """NETTOYAGE 1 (Carthaginians): 1 material (face A) or 2 materials (face B) instead."""
    for face, amount in (("A", 1), ("B", 2)):
        state = activate(["carthaginians", "romans"], sides=[face, "B"])
        set_market(state)
        hand(state, 0, "CAR16", "CAR15")
        _to_cleanup(state)
        act(state, Pick(card="1CIV6"))
        slot = state.market[0]
        assert (slot.materials, slot.progress) == (amount, 0)


def test_cleanup_reset_discard_any_then_draw_up_to_hand_size() -> None:
    """NETTOYAGE 2-4: exhaust and action tokens back (3 and 5, tokens on cards, nation deck and
    development area removed), discard any number of cards, draw up to the hand size (5 plus
    passives)."""
    state = activate(MR)
    me = state.seats[0]
    put(state, 0, "play", "1CIV10", "ROM5")
    hand(state, 0, "MAC13", "MAC14", "MAC15")
    me.exhausted, me.nation_token, me.dev_token = ["1CIV10"], True, True
    me.actions, me.exhaust = 0, 2
    act(state, EndActivate())
    act(state, legal(state)[0])
    assert (me.actions, me.exhaust) == (3, 5)
    assert me.exhausted == [] and not me.nation_token and not me.dev_token
    assert decision(state) == "cleanup_discard"
    act(state, Pick(card="MAC13"))
    act(state, Pick(card="MAC14"))
    act(state, Pass())
    assert me.discard[-2:] == ["MAC13", "MAC14"]
    assert len(me.hand) == 6  # Legions: hand size 6


def test_cleanup_no_draw_with_a_full_hand() -> None:
    """NETTOYAGE 4: "Si vous avez déjà cinq cartes ou plus, vous ne piochez pas"."""
    state = activate(MR)
    me = state.seats[0]
    hand(state, 0, "MAC13", "MAC14", "MAC15", "MAC16", "MAC17", "MAC18", "MAC19")
    deck = len(me.deck)
    _to_cleanup(state)
    act(state, legal(state)[0])
    act(state, Pass())
    assert len(me.hand) == 7 and len(me.deck) == deck


def test_barbarian_reshuffle_top_nation_card_once_per_turn() -> None:
    """MÉLANGER (barbare) 1: the top nation card goes to the discard and an exhaust token on
    the nation deck; with a token already there, the step is skipped."""
    state = activate(MR)
    me = state.seats[0]
    me.hand, me.deck, me.deck_top = [], [], []
    me.discard = ["MAC13"]
    me.nation_top = ["MAC10", "MAC11"]
    effect(state, 0, "GRE2", {"draw": 3})
    assert me.nation_token and me.exhaust == 4
    assert sorted(me.hand) == ["MAC11", "MAC13"]  # second reshuffle: discard empty, stop
    assert me.nation_top == ["MAC10"]


def test_barbarian_reshuffle_without_exhaust_token_skips_the_nation_card() -> None:
    """MÉLANGER (barbare) 1: no exhaust token left on the state card: skip step 1."""
    state = activate(MR)
    me = state.seats[0]
    me.hand, me.deck, me.deck_top, me.discard = [], [], [], ["MAC13"]
    me.exhaust = 0
    effect(state, 0, "GRE2", {"draw": 1})
    assert me.hand == ["MAC13"] and not me.nation_token and len(me.nation_deck) == 3


def test_accession_card_flips_the_state_card() -> None:
    """MÉLANGER (barbare): the accession card, last of the nation deck, flips the state card
    to empire when it is put in the discard pile."""
    state = activate(MR)
    me = state.seats[0]
    me.hand, me.deck, me.deck_top, me.discard, me.nation_deck = [], [], [], ["MAC13"], []
    effect(state, 0, "GRE2", {"draw": 1})
    assert me.empire and me.accession == [] and "MAC2" in me.hand + me.deck


def test_vikings_zenith_triggers_the_end() -> None:
    """MÉLANGER (Vikings): the zenith card (Harald Hardrada) put in the discard triggers the
    end of the game; the state card is not flipped."""
    state = activate(["vikings", "romans"])
    me = state.seats[0]
    me.hand, me.deck, me.deck_top, me.discard, me.nation_deck = [], [], [], ["VIK16"], []
    effect(state, 0, "GRE2", {"draw": 1})
    assert not me.empire and state.end_trigger == "VIK2"
    assert state.final_round == state.round + 1


def test_empire_reshuffle_may_develop_once() -> None:
    """MÉLANGER (empire) 1: you may pay to develop a card before the reshuffle (token on the
    development area); a second reshuffle that turn cannot."""
    state = activate(MR)
    me = state.seats[0]
    me.empire = True
    me.hand, me.deck, me.deck_top, me.discard = [], [], [], ["MAC13"]
    me.materials, me.population, me.progress = 4, 1, 0
    effect(state, 0, "GRE2", {"draw": 3})
    assert decision(state) == "develop"
    assert Pass() in legal(state) and Pick(card="MAC3") in legal(state)
    act(state, Pick(card="MAC3"))
    assert me.dev_token and me.exhaust == 4 and (me.materials, me.population) == (0, 0)
    assert sorted(me.hand) == ["MAC13", "MAC3"]  # MAC3 shuffled in, then the deck ran out


def test_empire_reshuffle_develop_may_be_declined() -> None:
    """MÉLANGER (empire) 1 is optional ("vous pouvez")."""
    state = activate(MR)
    me = state.seats[0]
    me.empire = True
    me.hand, me.deck, me.deck_top, me.discard = [], [], [], ["MAC13"]
    me.materials, me.population = 9, 9
    effect(state, 0, "GRE2", {"draw": 1})
    act(state, Pass())
    assert me.hand == ["MAC13"] and not me.dev_token and len(me.dev) == 7


def test_reshuffle_during_another_players_turn() -> None:
    """MÉLANGER: "Vous devez toujours mélanger votre deck immédiatement quand vous en avez
    besoin, même pendant le tour d'un autre joueur" (Prosperity: each player may draw)."""
    state = activate(MR)
    rom = state.seats[1]
    rom.deck, rom.deck_top, rom.discard = [], [], ["ROM16"]
    hand(state, 0, "ROM15", "MAC13")
    act(state, PlayCard(card="ROM15"))
    act(state, legal(state)[0])  # seat 0 draws
    assert GAME.pending(state).seats == (1,)
    act(state, legal(state)[0])  # seat 1 draws: reshuffles, takes its top nation card
    assert rom.nation_token and rom.exhaust == 4
    assert len(rom.hand) == 6 and len(rom.deck) == 1


def test_innovate_order_discards_the_hand_and_forbids_exhausts() -> None:
    """INNOVER (ordre): discard the whole hand, innovate, then cleanup — no actions, no
    exhaust effects."""
    state = activate(MR)
    state.agenda = [Frame(kind="cleanup", seat=0), Frame(kind="order", seat=0)]
    state.order = ""
    put(state, 0, "play", "1CIV10")
    hand(state, 0, "MAC13", "MAC14")
    act(state, ChooseOrder(order="innovate"))
    assert state.seats[0].hand == [] and decision(state) == "pick_innovate"
    act(state, legal(state)[0])
    assert decision(state) == "cleanup_token"


def test_exhaust_reactions_only_in_your_own_activate_order() -> None:
    """UTILISER DES EFFETS ÉPUISABLES: only on your turn with the Activate order — not in
    another player's turn, nor during the Solstice (Wonder reacts to returning unrest)."""
    state = activate(MR)
    put(state, 1, "play", "1CIV9")
    hand(state, 1, "ROM22")
    effect(state, 1, "GRE18", {"return_unrest": {"from": "hand", "count": 1}})
    assert decision(state) == "activate" and GAME.pending(state).seats == (0,)
    put(state, 0, "play", "1CIV9")
    hand(state, 0, "MAC21", "MAC13")
    resolve(state, Frame(kind="steps", seat=0, card="GRE18",
                         steps='[{"op":"return_unrest","from":"hand","count":1}]'))  # fmt: skip
    assert decision(state) == "react"
    state.agenda = [Frame(kind="next_round", seat=0)]
    hand(state, 0, "MAC22")
    resolve(state, Frame(kind="steps", seat=0, card="GRE18",
                         steps='[{"op":"return_unrest","from":"hand","count":1}]'))  # fmt: skip
    assert decision(state) != "react"
