"""Folding Rise & Fall events into the state (``RiseAndFall.evolve``).

:func:`evolve` is total: it never raises and never draws. It trusts the events (they were
decided by :mod:`domain.riseandfall.game`) and ignores what it cannot apply (e.g. a redacted
card name). Everything an event implies is written in the event itself; the card-state
changes ("Changement d'état") and trophies are separate events, so folding is a plain update.
"""

from __future__ import annotations

from domain.core import Event
from domain.riseandfall import events as ev
from domain.riseandfall.content import KIND, MERCHANT, PIECES, SHIP
from domain.riseandfall.state import (
    ACTIONS,
    BUYBACK,
    CHOOSE,
    DECLINE,
    DEPLOY,
    OVER,
    WORLD,
    RiseFallState,
    SeatState,
)
from domain.riseandfall.worldbuild import place


def _kind(name: str) -> int:
    return KIND.get(name, -1)


def _put(state: RiseFallState, seat: int, kind: int, cell: int) -> None:
    """Add a piece of ``seat`` on ``cell`` (a merchant on a city rides on it)."""
    if kind == MERCHANT and state.owner[cell] >= 0:
        state.rider[cell] = seat
    else:
        state.owner[cell] = seat
        state.kind[cell] = kind
    state.seats[seat].pieces[kind] += 1


def _take(state: RiseFallState, kind: int, cell: int) -> None:
    """Remove the piece of ``kind`` from ``cell`` (it goes back to its owner's reserve)."""
    if kind == MERCHANT and state.rider[cell] >= 0:
        owner = state.rider[cell]
        state.rider[cell] = -1
    else:
        owner = state.owner[cell]
        state.owner[cell] = -1
        state.kind[cell] = -1
    if owner >= 0:
        state.seats[owner].pieces[kind] -= 1


def _remove_card(seat: SeatState, kind: int) -> None:
    if kind in seat.hand:
        seat.hand.remove(kind)
    if kind in seat.discard:
        seat.discard.remove(kind)


def _activated(state: RiseFallState, cell: int) -> None:
    state.activated.append(cell)


def _pay(state: RiseFallState, seat: int, coins: int = 0, wood: int = 0, stone: int = 0) -> None:
    """``seat`` pays the bank."""
    s = state.seats[seat]
    s.coins -= coins
    s.wood -= wood
    s.stone -= stone
    state.bank_coins += coins
    state.bank_wood += wood
    state.bank_stone += stone


def _fold_setup(state: RiseFallState, event: Event) -> bool:
    if isinstance(event, ev.WorldTilePlaced):
        place(state.world, event.placement)
        state.tiles_placed += 1
    elif isinstance(event, ev.TileSetAside):
        state.tiles_placed += 1
    elif isinstance(event, ev.FirstPlayerDrawn):
        state.first_player = event.seat
        state.actor = event.seat
        state.phase = WORLD if event.purpose == "world" else DEPLOY
    elif isinstance(event, ev.TurnStarted):
        state.actor = event.seat
        state.activated = []
    elif isinstance(event, ev.PieceDeployed):
        kind = _kind(event.piece)
        seat = state.seats[event.seat]
        if kind in seat.to_deploy:
            seat.to_deploy.remove(kind)
        _put(state, event.seat, kind, event.cell)
        state.actor = -1
    else:
        return False
    return True


def _fold_round(state: RiseFallState, event: Event) -> bool:
    if isinstance(event, ev.RoundStarted):
        quiet = event.round > 1 and state.trophies_this_round == 0
        state.quiet_rounds = state.quiet_rounds + 1 if quiet else 0
        state.phase = CHOOSE
        state.round = event.round
        state.first_player = event.first_player
        state.actor = -1
        state.activated = []
        state.trophies_this_round = 0
        for seat in state.seats:
            seat.chosen = -1
            seat.played = -1
            seat.done = False
            seat.decline_due = 0
            seat.decline_choice = None
    elif isinstance(event, ev.CardChosen):
        kind = _kind(event.card)
        seat = state.seats[event.seat]
        if kind >= 0 and kind in seat.hand:
            seat.hand.remove(kind)
            seat.chosen = kind
    elif isinstance(event, ev.CardsRevealed):
        for seat in state.seats:
            if seat.chosen >= 0:
                seat.discard.append(seat.chosen)
                seat.played = seat.chosen
                seat.chosen = -1
            seat.done = False
        state.phase = ACTIONS
        state.actor = -1
    elif isinstance(event, ev.TurnForfeited | ev.ActionsEnded | ev.BuyBackSkipped):
        state.seats[event.seat].done = True
        state.actor = -1
        state.activated = []
    elif isinstance(event, ev.TrophyWon):
        kind = _kind(event.piece)
        state.trophy_owner[kind] = event.seat
        state.seats[event.seat].trophies.append(kind)
        state.trophies_taken += 1
        state.trophies_this_round += 1
    elif isinstance(event, ev.CardToReserve):
        kind = _kind(event.card)
        seat = state.seats[event.seat]
        _remove_card(seat, kind)
        if kind not in seat.reserve:
            seat.reserve = sorted([*seat.reserve, kind])
    elif isinstance(event, ev.CardToHand):
        kind = _kind(event.card)
        seat = state.seats[event.seat]
        if kind in seat.reserve:
            seat.reserve.remove(kind)
        if kind not in seat.hand:
            seat.hand = sorted([*seat.hand, kind])
    else:
        return False
    return True


def _fold_action(state: RiseFallState, event: Event) -> bool:
    if isinstance(event, ev.PieceMoved):
        kind = _kind(event.piece)
        _take(state, kind, event.origin)
        _put(state, event.seat, kind, event.cell)
        _activated(state, event.cell)
    elif isinstance(event, ev.ResourceProduced):
        seat = state.seats[event.seat]
        if event.resource == "wood":
            seat.wood += 1
            state.bank_wood -= 1
        else:
            seat.stone += 1
            state.bank_stone -= 1
        _activated(state, event.cell)
    elif isinstance(event, ev.CityBuilt | ev.TempleBuilt | ev.ShipBuilt):
        wood = event.wood if isinstance(event, ev.CityBuilt | ev.ShipBuilt) else 0
        stone = event.stone if isinstance(event, ev.CityBuilt | ev.TempleBuilt) else 0
        _pay(state, event.seat, wood=wood, stone=stone)
        _take(state, _kind(event.builder), event.origin)
        built = "city" if isinstance(event, ev.CityBuilt) else "temple"
        _put(
            state, event.seat, SHIP if isinstance(event, ev.ShipBuilt) else KIND[built], event.cell
        )
    elif isinstance(event, ev.NomadGrown):
        _put(state, event.seat, KIND["nomad"], event.cell)
        _activated(state, event.city)
    elif isinstance(event, ev.PieceTrained):
        _pay(state, event.seat, coins=event.coins)
        _take(state, KIND["nomad"], event.cell)
        _put(state, event.seat, _kind(event.piece), event.cell)
        _activated(state, event.city)
    elif isinstance(event, ev.ShipTransformed):
        _pay(state, event.seat, coins=event.coins)
        _take(state, SHIP, event.origin)
        _put(state, event.seat, _kind(event.piece), event.cell)
    elif isinstance(event, ev.CoinsEarned):
        state.seats[event.seat].coins += event.paid
        state.bank_coins -= event.paid
        _activated(state, event.cell)
    elif isinstance(event, ev.ResourceSold):
        wood = 1 if event.resource == "wood" else 0
        _pay(state, event.seat, wood=wood, stone=1 - wood)
        state.seats[event.seat].coins += event.paid
        state.bank_coins -= event.paid
        _activated(state, event.cell)
    elif isinstance(event, ev.ResourceBought):
        wood = 1 if event.resource == "wood" else 0
        _pay(state, event.seat, coins=event.coins, wood=-wood, stone=wood - 1)
        _activated(state, event.cell)
    elif isinstance(event, ev.PieceConverted):
        kind = _kind(event.piece)
        _pay(state, event.seat, coins=event.coins)
        _take(state, kind, event.cell)
        _put(state, event.seat, kind, event.cell)
        _activated(state, event.temple)
    else:
        return False
    return True


def _extinct(state: RiseFallState, event: ev.CivilisationExtinct) -> None:
    seat = state.seats[event.seat]
    for cell in range(len(state.owner)):
        if state.rider[cell] == event.seat:
            state.rider[cell] = -1
        if state.owner[cell] == event.seat:
            state.owner[cell] = -1
            state.kind[cell] = -1
            if state.rider[cell] >= 0:  # a merchant cannot stay without its city
                state.owner[cell] = state.rider[cell]
                state.kind[cell] = MERCHANT
                state.rider[cell] = -1
    state.bank_coins += seat.coins
    state.bank_wood += seat.wood
    state.bank_stone += seat.stone
    seat.coins = seat.wood = seat.stone = 0
    seat.pieces = [0] * len(PIECES)
    seat.hand = []
    seat.discard = []
    seat.reserve = [k for k in range(len(PIECES)) if k not in seat.declined]
    seat.chosen = -1
    seat.played = -1
    seat.decline_due = 0
    seat.decline_choice = None
    seat.done = True
    seat.extinct = True
    if state.actor == event.seat:
        state.actor = -1


def _fold_end(state: RiseFallState, event: Event) -> bool:
    if isinstance(event, ev.DeclineStarted):
        state.phase = DECLINE
        state.actor = -1
        for index, seat in enumerate(state.seats):
            seat.decline_due = event.due[index] if index < len(event.due) else 0
            seat.decline_choice = None
    elif isinstance(event, ev.DeclineChosen):
        if event.cards and all(_kind(c) >= 0 for c in event.cards):
            state.seats[event.seat].decline_choice = [_kind(c) for c in event.cards]
    elif isinstance(event, ev.CardsDeclined):
        for index, cards in enumerate(event.cards):
            seat = state.seats[index]
            for name in cards:
                kind = _kind(name)
                _remove_card(seat, kind)
                if kind >= 0 and kind not in seat.declined:
                    seat.declined = sorted([*seat.declined, kind])
            seat.decline_choice = None
            seat.decline_due = 0
        state.declines += 1
    elif isinstance(event, ev.BuyBackStarted):
        state.phase = BUYBACK
        state.actor = -1
        for seat in state.seats:
            seat.done = False
    elif isinstance(event, ev.CardBoughtBack):
        kind = _kind(event.card)
        seat = state.seats[event.seat]
        _pay(state, event.seat, coins=event.price)
        if kind in seat.declined:
            seat.declined.remove(kind)
        target = seat.hand if event.to == "hand" else seat.reserve
        target.append(kind)
        target.sort()
        seat.done = True
        state.actor = -1
    elif isinstance(event, ev.CardsRecycled):
        seat = state.seats[event.seat]
        seat.hand = sorted({*seat.hand, *seat.discard})
        seat.discard = []
    elif isinstance(event, ev.FirstPlayerPassed):
        state.first_player = event.seat
    elif isinstance(event, ev.CivilisationExtinct):
        _extinct(state, event)
    elif isinstance(event, ev.GameEnded):
        state.phase = OVER
        state.actor = -1
        state.final_scores = list(event.scores)
        state.winners = list(event.winners)
    else:
        return False
    return True


def evolve(state: RiseFallState, event: Event) -> RiseFallState:
    """Fold ``event`` into ``state`` in place and return it (total; unknown events ignored)."""
    _ = (
        _fold_action(state, event)
        or _fold_round(state, event)
        or _fold_setup(state, event)
        or _fold_end(state, event)
    )
    return state
