"""Setup, orders, cleanup, reshuffle, end and scoring rules (sections named per test)."""

from __future__ import annotations

import pytest

from domain.core import Chance, RuleViolation
from domain.imperium import content as C
from domain.imperium.commands import Choose, ChooseOrder, Exhaust, Pass, Pick, PlayCard
from domain.imperium.ops import payment_options
from domain.imperium.scoring import card_vp
from domain.imperium.state import Frame
from tests.imperium.helpers import GAME, act, decision, new_game

NATIONS = {2: ["macedonians", "romans"], 3: ["macedonians", "romans", "greeks"],
           4: ["macedonians", "romans", "greeks", "persians"]}  # fmt: skip


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_by_player_count(players: int) -> None:
    """ "Mise en place générale" 3-16 and "Mise en place des joueurs" 1-11."""
    state, _ = new_game(NATIONS[players])
    size = {2: 6, 3: 7, 4: 8}[players]
    for pile in ("region", "uncivilised", "civilised"):
        in_market = sum(1 for s in state.market if s.kind == pile and s.card)
        assert len(state.piles[pile]) + in_market == size
    assert len(state.piles["fame"]) == 8 - {2: 2, 3: 1, 4: 0}[players]
    assert state.kok_face == "A"
    assert len([s for s in state.market if s.card]) == 5
    for slot in state.market:
        suits = C.CARDS[slot.card].suits
        tucked = any(s in ("uncivilised", "civilised", "tributary") for s in suits)
        assert len(slot.unrest) == (1 if tucked else 0)
        expect = 1 if "civilised" in suits and "uncivilised" not in suits else 0
        assert slot.progress == expect
    for seat in state.seats:
        assert len(seat.hand) == 5 and not seat.empire
        assert (seat.materials, seat.population, seat.progress) == (3, 2, 1)
        assert (seat.actions, seat.exhaust) == (3, 5)
        assert seat.accession and seat.power.endswith("B")
    assert GAME.pending(state).seats == (state.first,)


def _hand(state, seat: int, cards: list[str]) -> None:  # type: ignore[no-untyped-def]
    owner = state.seats[seat]
    owner.deck = sorted(set(owner.deck + owner.hand) - set(cards))
    owner.hand = list(cards)


def test_pacify_returns_unrest_from_hand() -> None:
    """ "Pacifier": return any number of unrest cards from hand, then cleanup."""
    state, _ = new_game(NATIONS[2])
    seat = state.current
    _hand(state, seat, ["MAC21", "MAC22", "MAC13"] if seat == 0 else ["ROM22", "ROM23", "ROM16"])
    pile = len(state.unrest)
    act(state, ChooseOrder(order="pacify"))
    assert decision(state) == "pick_pacify"
    first = GAME.legal_actions(state, seat)[0]
    act(state, first)
    act(state, Pass())
    assert len(state.unrest) == pile + 1
    assert decision(state) == "cleanup_token"


def test_innovate_discards_hand_then_takes_a_card() -> None:
    """ "Innover": discard the whole hand, then innovate in a category."""
    state, _ = new_game(NATIONS[2])
    seat = state.current
    act(state, ChooseOrder(order="innovate"))
    assert state.seats[seat].hand == [] and len(state.seats[seat].discard) == 5
    options = GAME.legal_actions(state, seat)
    assert Pick(card="deck:region") in options
    act(state, Pick(card="deck:region"))
    assert len(state.seats[seat].hand) == 1


def test_example_turn_macedonians() -> None:
    """ "Exemple d'un tour de jeu": Advance takes Port, Port and Haliacmon Valley played, Port
    exhausted for 1 material per river icon."""
    state, _ = new_game(NATIONS[2], sides=["B", "B"])
    state.first = state.current = 0
    state.agenda = [Frame(kind="order", seat=0), Frame(kind="cleanup", seat=0)][::-1]
    _hand(state, 0, ["MAC21", "MAC22", "MAC18", "MAC13", "MAC19"])
    state.market[1].card = "1UNC19"
    state.market[1].unrest = [state.unrest.pop()]
    for slot in state.market:
        slot.progress = 0
    act(state, ChooseOrder(order="activate"))
    act(state, PlayCard(card="MAC13"))
    assert decision(state) == "option"
    act(state, Choose(index=0))
    assert decision(state) == "payment"
    ways = payment_options(state.seats[0], 3, 0, 0)
    act(state, Choose(index=ways.index((3, 0, 0))))
    assert decision(state) == "pick_acquire"
    act(state, Pick(card="1UNC19"))
    me = state.seats[0]
    assert "1UNC19" in me.hand and me.materials == 0
    assert sum(1 for c in me.hand if "unrest" in C.CARDS[c].suits) == 3
    act(state, PlayCard(card="1UNC19"))
    act(state, PlayCard(card="MAC18"))
    if decision(state) == "option":
        act(state, Pass())
    assert (me.population, me.actions) == (3, 0)
    act(state, Exhaust(card="1UNC19"))
    if decision(state) == "option":
        act(state, Pass())
    assert me.materials == 1 and me.progress == 1
    assert set(me.play) == {"1UNC19", "MAC18"}
    # Only "end actions" is left, so the engine goes straight to cleanup.
    assert decision(state) == "cleanup_token"


def test_barbarian_reshuffle_takes_a_nation_card() -> None:
    """ "Mélanger votre deck" (barbare): the top nation card goes to the discard, a token on
    the nation deck; taking the accession card flips the state card to empire."""
    state, _ = new_game(NATIONS[2])
    seat = state.current
    owner = state.seats[seat]
    owner.deck, owner.discard = [], ["MAC13"] if seat == 0 else ["ROM16"]
    owner.nation_deck = []
    owner.hand = []
    act(state, ChooseOrder(order="innovate"))
    act(state, GAME.legal_actions(state, seat)[0])
    while decision(state) in ("cleanup_token", "cleanup_discard", "payment"):
        act(state, GAME.legal_actions(state, seat)[0])
    assert owner is state.seats[seat]
    assert state.seats[seat].empire
    assert state.seats[seat].nation_token and state.seats[seat].accession == []


def test_collapse_when_unrest_pile_empties() -> None:
    """ "Effondrement": the game ends at once when the unrest pile is empty."""
    state, _ = new_game(NATIONS[2])
    seat = state.current
    state.unrest = state.unrest[:1]
    state.seats[seat].hand = []
    act(state, ChooseOrder(order="activate"))
    state.agenda.append(Frame(kind="steps", seat=seat, card="1UNC7",
                              steps='[{"op":"take","pile":"unrest","count":1}]'))  # fmt: skip
    state.agenda.append(Frame(kind="option", seat=seat, options=("[]", "[]")))
    act(state, GAME.legal_actions(state, seat)[0])
    assert GAME.is_over(state) and state.collapse


def test_variable_vp_capped_at_ten() -> None:
    """ "Décompte": a variable card never scores more than 10 (Moneylenders: 1 per 10
    materials)."""
    state, _ = new_game(NATIONS[2])
    state.seats[0].materials = 250
    state.seats[0].hand.append("1CIV3")
    assert card_vp(state, 0, "1CIV3") == 10
    assert card_vp(state, 0, "MAC21") == -2


def test_illegal_command_refused() -> None:
    """Commands not listed are refused with a typed violation."""
    state, _ = new_game(NATIONS[2])
    other = 1 - state.current
    with pytest.raises(RuleViolation):
        GAME.decide(state, other, ChooseOrder(order="activate"), Chance(b"x", 1))
