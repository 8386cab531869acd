"""Folding Imperium events into the state (``ImperiumGame.evolve``).

:func:`evolve` is total: it never raises and never draws. A move names its zones (see
:mod:`domain.imperium.state`); a redacted move (card ``""``) or a card missing from its source
zone changes nothing there, so folding never fails.
"""

from __future__ import annotations

import msgspec

from domain.core import Event
from domain.imperium import events as ev
from domain.imperium.civ.fold import civ_fold, civ_zone
from domain.imperium.state import OVER, ImperiumState, Memo, Slot

_SEAT_ZONES = {
    "hand",
    "deck",
    "deck_top",
    "discard",
    "play",
    "history",
    "dev",
    "nation_deck",
    "nation_top",
    "nation_bottom",
    "accession",
    "looked",
    "journey",
    "submerged",
}


def zone(state: ImperiumState, name: str) -> list[str] | None:
    """The mutable card list of zone ``name`` (``None`` for an unknown zone).

    ``market/<slot>`` has no list (a slot holds one card); use :func:`slot_of`.
    """
    head, _, rest = name.partition(":")
    if rest:
        if not head.isdigit() or not 0 <= int(head) < len(state.seats):
            return None
        seat = state.seats[int(head)]
        if rest.startswith("garrison/"):
            return seat.garrison.setdefault(rest[len("garrison/") :], [])
        if rest in _SEAT_ZONES:
            value: list[str] = getattr(seat, rest)
            return value
        return None
    if name.startswith("pile/"):
        return state.piles.setdefault(name[len("pile/") :], [])
    if name.startswith("market/") and name.endswith("/unrest"):
        slot = slot_of(state, name[: -len("/unrest")])
        return slot.unrest if slot is not None else None
    if name.startswith("civ/"):
        return civ_zone(state.civ, name)
    if name in ("fame_top", "unrest", "exile", "removed", "revealed"):
        value2: list[str] = getattr(state, name)
        return value2
    return None


def slot_of(state: ImperiumState, name: str) -> Slot | None:
    """The market slot named ``market/<index>`` (``None`` otherwise)."""
    if not name.startswith("market/"):
        return None
    index = name[len("market/") :]
    if not index.isdigit() or int(index) >= len(state.market):
        return None
    return state.market[int(index)]


def _take(state: ImperiumState, name: str, card: str) -> None:
    slot = slot_of(state, name)
    if slot is not None and "/unrest" not in name:
        if slot.card == card:
            slot.card = ""
        return
    cards = zone(state, name)
    if cards is not None and card in cards:
        cards.remove(card)
    if ":garrison/" in name and cards is not None and not cards:
        seat, _, host = name.partition(":garrison/")
        state.seats[int(seat)].garrison.pop(host, None)


def _put(state: ImperiumState, name: str, card: str) -> None:
    slot = slot_of(state, name)
    if slot is not None and "/unrest" not in name:
        slot.card = card
        return
    cards = zone(state, name)
    if cards is not None:
        cards.append(card)


def move(state: ImperiumState, card: str, src: str, dst: str) -> None:
    """Move ``card`` from ``src`` to ``dst`` (a blank card is ignored)."""
    if not card:
        return
    _take(state, src, card)
    _put(state, dst, card)
    if src.endswith(":play"):
        seat = state.seats[int(src.partition(":")[0])]
        if card in seat.exhausted:
            seat.exhausted.remove(card)
        # Garrisoned cards follow their host (RÉSERVER).
        for garrisoned in seat.garrison.pop(card, []):
            _put(state, dst, garrisoned)


def _setup(state: ImperiumState, event: Event) -> bool:
    if isinstance(event, ev.SeatPrepared):
        seat = state.seats[event.seat]
        seat.nation = event.nation
        seat.power = event.power
        seat.empire = event.empire
        seat.deck = list(event.deck)
        seat.nation_deck = list(event.nation_deck)
        seat.accession = list(event.accession)
        seat.dev = list(event.development)
        seat.play = list(event.in_play)
        seat.materials, seat.population, seat.progress = (
            event.materials,
            event.population,
            event.progress,
        )
        seat.actions, seat.exhaust = event.actions, event.exhaust
    elif isinstance(event, ev.MarketPrepared):
        state.piles = {name: list(cards) for name, cards in event.piles.items()}
        state.unrest = list(event.unrest)
        state.removed = list(event.removed)
        state.market = [Slot(kind=kind) for kind in event.slots]
        state.box = event.box
    elif isinstance(event, ev.SolsticePlaced):
        state.first = event.first
        state.current = event.first
    else:
        return False
    return True


def evolve(state: ImperiumState, event: Event) -> ImperiumState:
    """Fold one event into ``state`` in place and return it."""
    if _setup(state, event):
        return state
    if type(event).__name__.startswith("Civ"):
        civ_fold(state, event)
        return state
    if isinstance(event, (ev.CardDrawn, ev.CardMoved)):
        move(state, event.card, event.src, event.dst)
        if event.dst.endswith(":play"):  # a card entering play carries no old tokens
            for seat in state.seats:
                seat.card_tokens.pop(event.card, None)
    elif isinstance(event, ev.DeckShuffled):
        seat = state.seats[event.seat]
        seat.deck.extend(seat.discard)
        seat.discard = []
    elif isinstance(event, ev.TokensChanged):
        seat = state.seats[event.seat]
        seat.materials += event.materials
        seat.population += event.population
        seat.progress += event.progress
        seat.actions += event.actions
        seat.exhaust += event.exhaust
    elif isinstance(event, ev.SlotTokensChanged):
        if 0 <= event.slot < len(state.market):
            slot = state.market[event.slot]
            slot.materials += event.materials
            slot.population += event.population
            slot.progress += event.progress
    elif isinstance(event, ev.CardTokensChanged):
        tokens = state.seats[event.seat].card_tokens
        tokens[event.card] = tokens.get(event.card, 0) + event.progress
        if tokens[event.card] <= 0:
            del tokens[event.card]
    elif isinstance(event, ev.CardExhausted):
        seat = state.seats[event.seat]
        if event.card == "nation":
            seat.nation_token = True
        elif event.card == "dev":
            seat.dev_token = True
        else:
            seat.exhausted.append(event.card)
    elif isinstance(event, ev.ExhaustRegained):
        seat = state.seats[event.seat]
        if event.card == "nation":
            seat.nation_token = False
        elif event.card == "dev":
            seat.dev_token = False
        elif event.card in seat.exhausted:
            seat.exhausted.remove(event.card)
        seat.exhaust += 1
    elif isinstance(event, ev.IconsTreated):
        state.seats[event.seat].treated[event.card] = dict(event.icons)
    elif isinstance(event, ev.StateIconIgnored):
        state.seats[event.seat].ignore_icon = event.icon
    elif isinstance(event, ev.StateFlipped):
        state.seats[event.seat].empire = event.empire
    elif isinstance(event, ev.CardTurnedOver):
        cards = zone(state, event.zone)
        if cards is not None and event.card in cards:
            cards[cards.index(event.card)] = event.face
            exhausted = state.seats[event.seat].exhausted
            if event.card in exhausted:
                exhausted[exhausted.index(event.card)] = event.face
    elif isinstance(event, ev.OrderChosen):
        state.order = event.order
    elif isinstance(event, ev.CardPlayed):
        seat = state.seats[event.seat]
        seat.ignore_icon = ""
        if event.free:
            seat.free_played.append(event.card)
    elif isinstance(event, ev.TokensReset):
        seat = state.seats[event.seat]
        seat.actions, seat.exhaust = event.actions, event.exhaust
        seat.exhausted = []
        seat.nation_token = seat.dev_token = False
        seat.free_played = []
        seat.treated = {}
        seat.ignore_icon = ""
    elif isinstance(event, ev.TurnStarted):
        state.current, state.round, state.turn = event.seat, event.round, event.turn
        state.order = ""
    elif isinstance(event, ev.KingOfKingsFlipped):
        state.kok_face = event.face
    elif isinstance(event, ev.KingOfKingsResolved):
        state.seats[event.seat].kok_resolved = True
    elif isinstance(event, ev.GameEndTriggered):
        state.end_trigger = event.reason
        state.final_round = event.final_round
    elif isinstance(event, ev.GameEnded):
        state.phase = OVER
        state.collapse = event.collapse
        state.final_scores = list(event.scores)
        state.winners = list(event.winners)
        state.score_details = [dict(d) for d in event.details]
        state.agenda = []
    elif isinstance(event, ev.AgendaSet):
        state.agenda = list(event.frames)
        state.memo = msgspec.convert(msgspec.to_builtins(event.memo), Memo)
    return state
