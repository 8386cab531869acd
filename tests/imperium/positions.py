"""Hand-set positions for the Imperium rule tests: move cards anywhere, start an Activate
order, resolve effect steps, answer decisions.

Positions are built from a real setup (:func:`tests.imperium.helpers.new_game`), then cards are
moved by hand with :func:`put`, which first takes the card out of wherever it is, so that every
card stays in exactly one place.
"""

from __future__ import annotations

import json
from typing import Any

from domain.core import Chance, Command, Event
from domain.imperium import events as ev
from domain.imperium.commands import Pass
from domain.imperium.content_effects import tag_steps
from domain.imperium.engine import Ctx, run
from domain.imperium.state import Frame, ImperiumState
from tests.imperium.helpers import GAME, act, new_game

_SEAT_ZONES = ("hand", "deck", "deck_top", "discard", "play", "history", "dev", "nation_deck",
               "nation_top", "nation_bottom", "accession", "looked", "journey",
               "submerged")  # fmt: skip
_SHARED = ("fame_top", "unrest", "exile", "removed", "revealed")


def take_out(state: ImperiumState, card: str) -> None:
    """Remove every occurrence of ``card`` from the state (zones, piles, market)."""
    for seat in state.seats:
        for zone in _SEAT_ZONES:
            cards = getattr(seat, zone)
            while card in cards:
                cards.remove(card)
        for host in list(seat.garrison):
            seat.garrison[host] = [c for c in seat.garrison[host] if c != card]
            if not seat.garrison[host]:
                del seat.garrison[host]
        if card in seat.garrison:
            for under in seat.garrison.pop(card):
                seat.discard.append(under)
    for name in _SHARED:
        cards = getattr(state, name)
        while card in cards:
            cards.remove(card)
    for pile in state.piles.values():
        while card in pile:
            pile.remove(card)
    for slot in state.market:
        if slot.card == card:
            slot.card = ""
        while card in slot.unrest:
            slot.unrest.remove(card)


def put(state: ImperiumState, seat: int, zone: str, *cards: str) -> None:
    """Move ``cards`` (taken out of wherever they are) to ``zone`` of ``seat``."""
    for card in cards:
        take_out(state, card)
        getattr(state.seats[seat], zone).append(card)


def put_shared(state: ImperiumState, zone: str, *cards: str) -> None:
    """Move ``cards`` to a shared zone (``unrest``, ``exile``...) or a pile (``pile/<name>``)."""
    for card in cards:
        take_out(state, card)
        if zone.startswith("pile/"):
            state.piles.setdefault(zone[5:], []).append(card)
        else:
            getattr(state, zone).append(card)


def garrison(state: ImperiumState, seat: int, host: str, *cards: str) -> None:
    """Tuck ``cards`` under ``host`` (in ``seat``'s play area)."""
    for card in cards:
        take_out(state, card)
        state.seats[seat].garrison.setdefault(host, []).append(card)


def market_card(state: ImperiumState, index: int, card: str, unrest: int = 0, **tokens: int
                ) -> None:  # fmt: skip
    """Put ``card`` in market slot ``index`` with ``unrest`` tucked unrest cards and tokens."""
    slot = state.market[index]
    if slot.card:
        state.piles.setdefault("main", []).append(slot.card)
    for old in slot.unrest:
        state.unrest.append(old)
    take_out(state, card)
    slot.card, slot.unrest = card, []
    for _ in range(unrest):
        slot.unrest.append(state.unrest.pop())
    slot.materials = tokens.get("materials", 0)
    slot.population = tokens.get("population", 0)
    slot.progress = tokens.get("progress", 0)


def hand(state: ImperiumState, seat: int, *cards: str) -> None:
    """``seat``'s hand becomes exactly ``cards``; its old hand goes back to its deck."""
    owner = state.seats[seat]
    old = [c for c in owner.hand if c not in cards]
    owner.hand = []
    owner.deck.extend(old)
    put(state, seat, "hand", *cards)


def tokens(state: ImperiumState, seat: int, **amounts: int) -> None:
    """Set ``seat``'s tokens (materials, population, progress, actions, exhaust)."""
    for name, value in amounts.items():
        setattr(state.seats[seat], name, value)


def activate(nations: list[str], seat: int = 0, seed: bytes = b"tests", sides: list[str] | None
             = None) -> ImperiumState:  # fmt: skip
    """A game where ``seat`` is taking its Activate order (3 actions, 5 exhaust tokens), every
    other seat's tokens reset and no token on the market."""
    state, _ = new_game(nations, seed, sides)
    start_activate(state, seat)
    for slot in state.market:
        slot.materials = slot.population = slot.progress = 0
    return state


def start_activate(state: ImperiumState, seat: int) -> None:
    """``seat`` starts an Activate order now (then its cleanup)."""
    state.first = state.current = seat
    state.order = "activate"
    state.agenda = [Frame(kind="cleanup", seat=seat), Frame(kind="activate", seat=seat)]
    state.seats[seat].actions, state.seats[seat].exhaust = 3, 5


def steps(*notation: dict[str, Any]) -> str:
    """Effect steps from the notation (``{"draw": 1}``) as a ``steps`` frame holds them."""
    return json.dumps(tag_steps(list(notation)))


def resolve(state: ImperiumState, *frames: Frame, seed: bytes = b"tests") -> list[Event]:
    """Push ``frames`` (first runs first) on the agenda and run the engine until a decision."""
    ctx = Ctx(state, Chance(seed, 7_000 + len(state.agenda)))
    ctx.push(*frames)
    run(ctx)
    ctx.emit(ev.AgendaSet(frames=tuple(ctx.state.agenda), memo=ctx.state.memo))
    for event in ctx.events:
        GAME.evolve(state, event)
    return ctx.events


def effect(state: ImperiumState, seat: int, card: str, *notation: dict[str, Any]) -> list[Event]:
    """Resolve effect steps (notation) of ``card`` for ``seat``."""
    return resolve(state, Frame(kind="steps", seat=seat, card=card, steps=steps(*notation)))


def legal(state: ImperiumState) -> list[Command]:
    """The commands the pending seat may send."""
    seats = GAME.pending(state).seats
    return GAME.legal_actions(state, seats[0]) if seats else []


def pass_all(state: ImperiumState, kinds: tuple[str, ...]) -> None:
    """Pass (or take the only answer) while the pending decision is one of ``kinds``."""
    while state.agenda and state.agenda[-1].kind in kinds:
        options = legal(state)
        act(state, Pass() if Pass() in options else options[0])


def finish_turn(state: ImperiumState) -> None:
    """End the Activate order and go through cleanup with the first legal answers."""
    from domain.imperium.commands import EndActivate

    if EndActivate() in legal(state):
        act(state, EndActivate())
    start = state.turn
    while state.turn == start and GAME.pending(state).decision != "over":
        options = legal(state)
        act(state, Pass() if Pass() in options else options[0])


#: a market with no region, no tributary and no card carrying tokens (slot order).
PLAIN_MARKET = ("1CIV6", "1UNC6", "1UNC15", "1UNC16", "1CIV10")


def set_market(state: ImperiumState, *cards: str) -> None:
    """Fill the five market slots with ``cards`` (:data:`PLAIN_MARKET` for the rest), each
    uncivilised/civilised/tributary card with one unrest card tucked under it, no tokens."""
    from domain.imperium.market import needs_unrest

    chosen = list(cards) + list(PLAIN_MARKET[len(cards) :])
    for index, card in enumerate(chosen):
        market_card(state, index, card, unrest=1 if needs_unrest(card) else 0)
