"""Phases C to F and the rare cases: decline, buy-back, recycling, first-player token,
extinction and the end of the game."""

from __future__ import annotations

import msgspec.structs
import pytest

from domain.core import Event, RuleViolation
from domain.riseandfall import events as ev
from domain.riseandfall.commands import (
    Activate,
    BuyBack,
    DeclineCards,
    EndActions,
    SkipBuyBack,
)
from domain.riseandfall.content import CITY, MERCHANT, MOUNTAINEER, NOMAD, SHIP, TEMPLE
from domain.riseandfall.state import RiseFallState
from domain.riseandfall.world import cell_of as c
from tests.riseandfall.helpers import GAME, of, put, run, settle, table


def trophy_table(seats: int = 2, trophies: int = 4) -> RiseFallState:
    """Seat 0 (nomads played, 2 stone) can build its third temple; seat 1 plays cities."""
    state = table(["pppp", "pppp", "pppp"], seats=seats, trophies=trophies)
    put(state, 0, "temple", 0, 0)
    put(state, 0, "temple", 1, 0)
    put(state, 0, "nomad", 2, 0)
    put(state, 0, "nomad", 3, 0)
    put(state, 1, "city", 0, 2)
    put(state, 1, "nomad", 1, 2)
    for seat in range(2, seats):
        put(state, seat, "nomad", seat, 2)
    settle(state, {0: "nomad", 1: "city"} | {s: "nomad" for s in range(2, seats)})
    state.seats[0].stone = 2
    return state


def win_temple(state: RiseFallState) -> tuple[list[Event], RiseFallState]:
    """Seat 0 builds its last temple and every seat ends its actions."""
    events, state = run(state, 0, Activate(cell=c(2, 0), action="build_temple"))
    every = list(events)
    while state.phase == "actions":
        more, state = run(state, state.actor, EndActions())
        every += more
    return every, state


def refused(state: RiseFallState, seat: int, command: object) -> str:
    with pytest.raises(RuleViolation) as err:
        run(state, seat, command)  # type: ignore[arg-type]
    assert command not in GAME.legal_actions(state, seat)
    return err.value.code


def test_decline_after_a_trophy() -> None:
    """C - Déclin: after a trophy each seat lays one card per trophy of the round, from hand
    or discard, face down; all are revealed together and stay in decline."""
    events, state = win_temple(trophy_table())
    assert ev.DeclineStarted(round=1, due=(1, 1)) in events
    assert GAME.pending(state).seats == (0, 1)
    assert refused(state, 0, DeclineCards(cards=("nomad", "temple"))) == "WRONG_COUNT"
    assert refused(state, 0, DeclineCards(cards=("ship",))) == "NOT_ACTIVE"
    assert DeclineCards(cards=("nomad",)) in GAME.legal_actions(state, 0)  # the discard
    assert DeclineCards(cards=("temple",)) in GAME.legal_actions(state, 0)  # the hand
    events, state = run(state, 0, DeclineCards(cards=("nomad",)))
    assert len(events) == 1 and len(events[0].salt) == 64  # salted against brute force
    assert msgspec.structs.replace(events[0], salt="") == ev.DeclineChosen(
        seat=0, round=1, cards=("nomad",)
    )
    assert refused(state, 0, DeclineCards(cards=("temple",))) == "ALREADY_CHOSEN"
    events, state = run(state, 1, DeclineCards(cards=("city",)))
    assert ev.CardsDeclined(round=1, cards=(("nomad",), ("city",))) in events
    assert ev.BuyBackStarted(round=1, price=5) in events
    assert state.seats[0].declined == [NOMAD] and state.seats[1].declined == [CITY]
    assert NOMAD not in state.seats[0].discard and state.declines == 1


def test_decline_cards_in_card_order() -> None:
    """C - Déclin (decision): several cards are listed once each, in card order."""
    state = trophy_table()
    state.phase = "decline"
    state.seats[0].decline_due = 2
    assert refused(state, 0, DeclineCards(cards=("temple", "nomad"))) == "CARDS_NOT_IN_ORDER"
    assert refused(state, 0, DeclineCards(cards=("nomad", "nomad"))) == "CARDS_NOT_IN_ORDER"
    assert refused(state, 1, DeclineCards(cards=("city",))) == "NOTHING_TO_DECLINE"
    run(state, 0, DeclineCards(cards=("nomad", "temple")))


def test_buy_back() -> None:
    """D - Rachat: one card per seat in turn order, 5 PO at the first decline; to the hand if
    the seat controls a piece of its type, else to the reserve."""
    _, state = win_temple(trophy_table())
    state.seats[0].coins = 12
    state.seats[1].coins = 4  # cannot pay: skipped
    _, state = run(state, 0, DeclineCards(cards=("nomad",)))
    _, state = run(state, 1, DeclineCards(cards=("city",)))
    assert state.phase == "buyback" and GAME.pending(state).seats == (0,)
    assert refused(state, 0, BuyBack(card="city")) == "NOT_IN_DECLINE"
    assert set(GAME.legal_actions(state, 0)) == {BuyBack(card="nomad"), SkipBuyBack()}
    events, state = run(state, 0, BuyBack(card="nomad"))
    assert ev.CardBoughtBack(seat=0, card="nomad", price=5, to="hand") in events
    assert NOMAD in state.seats[0].hand and state.seats[0].coins == 7
    assert state.phase == "choose" and state.round == 2


def test_buy_back_to_reserve_and_must_buy() -> None:
    """D - Rachat: a card whose pieces are all gone goes to the reserve; a seat with no active
    card must buy (no skip)."""
    state = trophy_table()
    state.phase = "buyback"
    state.actor = 0
    state.declines = 2
    state.seats[0].declined = [SHIP, MERCHANT]
    state.seats[0].reserve = [CITY, MOUNTAINEER]
    state.seats[0].coins = 10
    events, _after = run(state, 0, BuyBack(card="ship"))
    assert ev.CardBoughtBack(seat=0, card="ship", price=10, to="reserve") in events
    state.seats[0].hand = []
    state.seats[0].discard = []
    assert refused(state, 0, SkipBuyBack()) == "MUST_BUY_BACK"
    state.seats[0].coins = 9
    assert refused(state, 0, BuyBack(card="ship")) == "NOT_ENOUGH_COINS"


def test_extinction_when_a_seat_cannot_buy_back() -> None:
    """D - Rachat and Extinction d'une civilisation: with no active card and not enough coins
    the civilisation dies out; pieces leave the world, treasury back to the bank."""
    state = table(["pppp", "pppp", "pppp"], seats=3)
    put(state, 0, "temple", 0, 0)
    put(state, 0, "temple", 1, 0)
    put(state, 0, "nomad", 2, 0)
    put(state, 0, "nomad", 3, 0)
    put(state, 1, "city", 0, 2)
    put(state, 2, "nomad", 3, 2)
    put(state, 2, "city", 2, 2)
    settle(state, {0: "nomad", 1: "city", 2: "nomad"})
    state.seats[0].stone = 2
    state.seats[1].coins = 3
    state.seats[1].wood = 2
    bank = state.bank_coins
    _, state = win_temple(state)
    for seat, card in ((0, "temple"), (1, "city"), (2, "city")):
        events, state = run(state, seat, DeclineCards(cards=(card,)))  # type: ignore[arg-type]
    extinct = of(events, ev.CivilisationExtinct)
    assert extinct == [
        ev.CivilisationExtinct(seat=1, reason="cannot_buy_back", coins=3, wood=2, stone=0)
    ]
    assert state.seats[1].extinct and state.owner[c(0, 2)] == -1
    assert state.bank_coins == bank + 3 and state.bank_wood == 22
    assert state.seats[1].trophies == [] and GAME.legal_actions(state, 1) == []
    assert state.phase == "choose" and GAME.pending(state).seats == (0, 2)


def test_extinction_with_no_card_at_phase_a() -> None:
    """Extinction d'une civilisation: no card in hand at phase A; trophies stay counted."""
    state = table(["~pp", "ppp"], seats=3)
    put(state, 0, "temple", 1, 0)
    put(state, 1, "ship", 0, 0)
    put(state, 2, "nomad", 2, 1)
    settle(state, {0: "temple", 1: "ship", 2: "nomad"})
    state.seats[1].trophies = [CITY]
    state.trophy_owner[CITY] = 1
    state.trophies_taken = 1
    state.seats[0].coins = 5
    state.seats[1].coins = 7
    _, state = run(state, 0, Activate(cell=c(1, 0), action="convert", target=c(0, 0)))
    events: list[Event] = []
    while state.phase == "actions":
        events, state = run(state, state.actor, EndActions())
    assert ev.CivilisationExtinct(seat=1, reason="no_card", coins=7, wood=0, stone=0) in events
    assert state.trophies_taken == 1 and state.seats[1].trophies == [CITY]
    assert GAME.pending(state).seats == (0, 2)
    assert GAME.scores(state)[1] == 10


def test_last_civilisation_ends_the_game() -> None:
    """Extinction (decision): with fewer than two civilisations left the game ends; extinct
    seats lose."""
    state = table(["~pp"], seats=2)
    put(state, 0, "temple", 1, 0)
    put(state, 1, "ship", 0, 0)
    settle(state, {0: "temple", 1: "ship"})
    state.seats[0].coins = 5
    _, state = run(state, 0, Activate(cell=c(1, 0), action="convert", target=c(0, 0)))
    events, state = run(state, 0, EndActions())
    ended = of(events, ev.GameEnded)[0]
    assert ended.reason == "last_civilisation" and ended.winners == (0,)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0,)


def test_recycling_passes_the_first_player_token() -> None:
    """E - Recyclage: a seat with no card in hand takes back its discard, and the token passes
    to the left (once, however many seats recycle)."""
    state = table(["pppp"], seats=3)
    for seat in range(3):
        put(state, seat, "nomad", seat, 0)
    settle(state, {0: "nomad", 1: "nomad", 2: "nomad"})
    events: list[Event] = []
    while state.phase == "actions":
        more, state = run(state, state.actor, EndActions())
        events += more
    assert [e.seat for e in of(events, ev.CardsRecycled)] == [0, 1, 2]
    assert of(events, ev.FirstPlayerPassed) == [ev.FirstPlayerPassed(origin=0, seat=1)]
    assert state.first_player == 1 and state.seats[0].hand == [NOMAD]
    assert ev.RoundStarted(round=2, first_player=1) in events


def test_no_recycling_keeps_the_token() -> None:
    """E - Recyclage: when nobody recycles the first-player token stays."""
    state = trophy_table()
    events: list[Event] = []
    while state.phase == "actions":
        more, state = run(state, state.actor, EndActions())
        events += more
    assert of(events, ev.CardsRecycled) == [] and state.first_player == 0


@pytest.mark.parametrize("target", [4, 5, 6])
def test_game_ends_after_the_target_trophies(target: int) -> None:
    """F - Fin de tour: the round is finished, then the game ends once the trophies won reach
    the target (4 normal, 5 advanced, 6 epic)."""
    state = trophy_table(trophies=target)
    for kind in (NOMAD, CITY, SHIP, MOUNTAINEER, MERCHANT)[: target - 1]:
        state.trophy_owner[kind] = 1
        state.seats[1].trophies.append(kind)
    state.trophies_taken = target - 1
    events, state = win_temple(state)
    assert state.phase == "decline"
    _, state = run(state, 0, DeclineCards(cards=("temple",)))
    events, state = run(state, 1, DeclineCards(cards=("city",)))
    ended = of(events, ev.GameEnded)
    assert ended and ended[0].reason == "trophies" and GAME.is_over(state)
    assert ended[0].scores == GAME.scores(state)
    assert GAME.legal_actions(state, 0) == [] and GAME.pending(state).seats == ()


def test_game_goes_on_below_the_target() -> None:
    """F - Fin de tour: fewer trophies than the target start a new round."""
    state = trophy_table(trophies=5)
    state.trophy_owner[NOMAD] = 1
    state.trophies_taken = 3
    _events, state = win_temple(state)
    _, state = run(state, 0, DeclineCards(cards=("temple",)))
    _, state = run(state, 1, DeclineCards(cards=("city",)))
    assert state.phase == "choose" and state.round == 2 and TEMPLE in state.seats[0].declined
