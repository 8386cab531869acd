"""Random gains with extra options: draw more, keep one of each group (the Psionics).

A seat with extra options (:func:`domain.tapestry.rules.extra_options`) gaining ``count``
random tapestry cards, territory tiles, space tiles or tech cards from the deck draws
``count * (1 + extra)`` of them at once (one ``OptionsDrawn`` event, private to the seat),
then keeps one of each group of ``1 + extra`` in turn (decision :data:`KEEP`:
``Choose(index=item id)``, one ``OptionKept`` event each); the others go back into the deck or
the supply unseen ("Shuffle the other back into the supply"), or onto the tapestry discard pile
for the rulebook's "VARIANTES" draw at income turn 1 ("gardez-en 1 et défaussez l'autre").
Drawing every group at once is the F.À.Q.'s ("Reconnaissance", "Âge de la Navigation"): each
tile drawn in its own pair, the tiles not kept shuffled back at the end.

The draw is a frame (:data:`~domain.tapestry.tech.OPTIONS_DRAW`, ``token`` the kind, ``ints``
``(count, extra, discard, upgrade)``) so that two draws never overlap; the cards drawn live in
the seat's private ``civ_tokens`` entry (:data:`~domain.tapestry.evolve.OFFER`), never in the
public frame.
"""

from __future__ import annotations

from domain.core import Command
from domain.tapestry import events as ev
from domain.tapestry.commands import Choose
from domain.tapestry.engine import AUTO, DECISIONS, Ctx
from domain.tapestry.evolve import OFFER, OFFER_KINDS
from domain.tapestry.gains import pick_tapestry_cards, receive_tapestry
from domain.tapestry.rules import space_deck, territory_deck
from domain.tapestry.state import Frame, TapestryState
from domain.tapestry.tech import OPTIONS_DRAW, deck_pool, invented

#: the decision: keep one item of the first group of the pending draw.
KEEP = "options_keep"


def draw_frame(seat: int, kind: str, count: int, extra: int, discard: bool = False) -> Frame:
    """The frame drawing ``count`` items of ``kind`` with ``extra`` more options each."""
    return Frame(kind=OPTIONS_DRAW, seat=seat, token=kind, ints=(count, extra, int(discard), 0))


def _pick(ctx: Ctx, kind: str, count: int) -> list[int]:
    if kind == "tapestry":
        return pick_tapestry_cards(ctx, count)
    found: list[int] = []
    for _ in range(count):
        if kind == "territory":
            pool = territory_deck(ctx.state)
        elif kind == "space":
            pool = space_deck(ctx.state)
        else:
            pool = deck_pool(ctx.state)
        pool = [item for item in pool if item not in found]
        if not pool:
            break
        found.append(ctx.chance.choice(pool))
    return found


def _receive(ctx: Ctx, seat: int, kind: str, items: list[int], upgrade: bool) -> None:
    """``seat`` gains ``items`` of ``kind`` as the plain random gain would."""
    if not items:
        return
    if kind == "tapestry":
        receive_tapestry(ctx, seat, items)
    elif kind == "territory":
        ctx.emit(ev.TerritoryTilesDrawn(seat=seat, tiles=tuple(items)))
    elif kind == "space":
        ctx.emit(ev.SpaceTilesDrawn(seat=seat, tiles=tuple(items)))
    else:
        for card in items:
            invented(ctx, seat, card, True)
            if upgrade:
                ctx.push(Frame(kind="upgrade_card", seat=seat, ints=(card,)))


def _draw(ctx: Ctx, top: Frame) -> None:
    count, extra, discard, upgrade = top.ints
    kind, seat = top.token, top.seat
    group = 1 + extra
    items = _pick(ctx, kind, count * group)
    if len(items) <= count:  # nothing to choose from: every item drawn is gained
        _receive(ctx, seat, kind, items, bool(upgrade))
        return
    ctx.emit(
        ev.OptionsDrawn(
            seat=seat, kind=kind, items=tuple(items), group=group, discard=bool(discard)
        )
    )
    ctx.push(Frame(kind=KEEP, seat=seat, token=kind, ints=(upgrade,), source=top.source))


AUTO[OPTIONS_DRAW] = _draw


def pending(state: TapestryState, seat: int) -> list[int]:
    """The items of the first group of ``seat``'s pending draw (empty: none)."""
    offer = state.seats[seat].civ_tokens.get(OFFER, [])
    if len(offer) < 3:
        return []
    return list(offer[3 : 3 + offer[1]])


def _keep_options(state: TapestryState, top: Frame) -> list[Command]:
    """Keep one item (its id) of the first group drawn."""
    return [Choose(index=item) for item in sorted(set(pending(state, top.seat)))]


def _keep_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    seat = top.seat
    offer = ctx.state.seats[seat].civ_tokens[OFFER]
    kind, discard = OFFER_KINDS[offer[0]], bool(offer[2])
    others = pending(ctx.state, seat)
    others.remove(command.index)
    ctx.emit(ev.OptionKept(seat=seat, kind=kind, item=command.index))
    if discard and others:
        ctx.emit(ev.TapestryDiscarded(seat=seat, cards=tuple(others)))
    more = bool(pending(ctx.state, seat))
    _receive(ctx, seat, kind, [command.index], bool(top.ints[0]))
    if more:
        ctx.push(Frame(kind=KEEP, seat=seat, token=kind, ints=top.ints, source=top.source))


DECISIONS[KEEP] = (_keep_options, _keep_answer)
