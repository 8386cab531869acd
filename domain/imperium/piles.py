"""Steps that look at, search and rearrange piles: take, look (and putting looked cards
back), move, shuffle and find.

Rules: MOTS-CLEFS "Regarder" (cards go back where they were, in the same order), "Pioche
Nation" (the accession card always stays at the bottom; looking at it does not take it),
"Trouver" (hand, discard, deck, then nation deck; both decks are shuffled afterwards).
"""

from __future__ import annotations

from domain.core import RuleViolation
from domain.imperium import cards as K
from domain.imperium import content_effects as E
from domain.imperium import events as ev
from domain.imperium import market as M
from domain.imperium.engine import AUTO, Ctx, steps_frame
from domain.imperium.ops import is_accession, move, take_nation_top, z
from domain.imperium.picks import (
    pick_frame,
    shuffle_searched,
    take_destination,
    where,
    zone_cards,
)
from domain.imperium.state import Frame
from domain.imperium.steps import on


@on(E.Take)
def _take(ctx: Ctx, top: Frame, step: E.Take) -> None:
    dst = take_destination(ctx.state, top.seat)  # decision ``take_destination``
    for _ in range(step.count):
        if step.pile == "unrest":
            M.take_unrest(ctx, top.seat, dst)
        elif step.pile == "fame":
            M.take_fame(ctx, top.seat, dst)
    if step.from_ == "looked_at":
        looked = [c for c in ctx.state.memo.looked_at if c in ctx.state.seats[top.seat].looked]
        if looked:
            ctx.push(pick_frame(top.seat, top.card, "take_looked", looked, step.count))


@on(E.Look)
def _look(ctx: Ctx, top: Frame, step: E.Look) -> None:
    state = ctx.state
    count = step.count
    seat = state.seats[top.seat]
    if step.pile == "fame":
        for block in K.blocks(seat.power, "passive"):
            if block.when is not None and "look" in block.when.names():
                count += sum(s.count for s in block.do if isinstance(s, E.LookAdditional))
                others = tuple(s for s in block.do if not isinstance(s, E.LookAdditional))
                ctx.push(steps_frame(top.seat, seat.power, others))
    state.memo.looked_at = []
    for _ in range(count):
        if step.pile == "fame":
            if not M.fame_left(state):
                if not state.memo.looked_at:
                    M.king_of_kings(ctx, top.seat)
                break
            card = M.take_fame(ctx, top.seat, z(top.seat, "looked"))
        else:
            card = take_nation_top(ctx, top.seat, z(top.seat, "looked")) if (
                seat.nation_top or seat.nation_deck or seat.nation_bottom
            ) else ""  # fmt: skip
        if card:
            state.memo.looked_at.append(card)


def _return_looked(ctx: Ctx, top: Frame) -> None:
    """Cards looked at go back where they were, in the same order ("Regarder"); the
    accession card back to the bottom of the nation deck ("Pioche Nation")."""
    return_looked(ctx, top.seat, top.data, z(top.seat, "nation_top"))


def return_looked(ctx: Ctx, seat_index: int, pile: str, nation_dst: str) -> None:
    """Put back the cards ``seat_index`` is looking at: fame cards on the fame deck, nation
    cards to ``nation_dst``, the accession card to its slot at the bottom."""
    seat = ctx.state.seats[seat_index]
    for card in reversed([c for c in ctx.state.memo.looked_at if c in seat.looked]):
        if pile == "fame":
            dst = "fame_top"
        elif is_accession(ctx.state, seat_index, card):
            dst = z(seat_index, "accession")
        else:
            dst = nation_dst
        ctx.emit(ev.CardMoved(seat=seat_index, card=card, src=z(seat_index, "looked"), dst=dst))


AUTO["return_looked"] = _return_looked


#: "Trouver": the zones searched, in this order, when the card names none.
FIND_ORDER: tuple[str, ...] = ("hand", "discard", "deck", "nation_deck")


def _find_zone(ctx: Ctx, seat: int, zone: str, card: str) -> list[str]:
    owner = ctx.state.seats[seat]
    if zone == "nation_deck":
        return [*owner.nation_top, *owner.nation_deck, *owner.nation_bottom]
    return zone_cards(ctx.state, seat, zone, card)


def _find_revised(ctx: Ctx, top: Frame, step: E.Find) -> None:
    """ "Trouver" (``imperium/2``): "Cherchez parmi les éléments suivants, et dans cet ordre
    [...] votre main, votre défausse, votre deck et votre pioche Nation"; "Si vous trouvez la
    carte spécifiée, cessez vos recherches". A card that offers a choice ("trouvez une ...")
    searches every zone. "Quand vous avez terminé vos recherches, que ce soit dans votre deck
    ou dans votre pioche Nation, mélangez-les": a deck searched is shuffled, found or not, so
    the order known of its cards is forgotten; a search that stopped earlier shuffles nothing.
    """
    zones = tuple(str(zone) for zone in step.search) or FIND_ORDER
    searched: list[str] = []
    found: list[str] = []
    for zone in zones:
        searched.append(zone)
        cards = _find_zone(ctx, top.seat, zone, top.card)
        if step.card is not None:
            found += [c for c in cards if c in step.card.ids or K.name(c) == step.card.name]
            if found:
                break
        else:
            found += [c for c in cards if K.matches(ctx.state, c, step.filter)]
    shuffled = ",".join(zone for zone in searched if zone in ("deck", "nation_deck"))
    if found:
        ctx.push(pick_frame(top.seat, top.card, "find_revised", found, 1,
                            data=f"{step.to}|{shuffled}"))  # fmt: skip
    else:
        shuffle_searched(ctx, top.seat, shuffled)


@on(E.Find)
def _find(ctx: Ctx, top: Frame, step: E.Find) -> None:
    if ctx.state.revision >= 2:
        _find_revised(ctx, top, step)
        return
    owner = ctx.state.seats[top.seat]
    pool = [*owner.hand, *owner.discard, *owner.deck, *owner.deck_top, *owner.nation_top,
            *owner.nation_deck, *owner.nation_bottom]  # fmt: skip
    if step.search:  # only the zones named (Peredur: discard pile and deck)
        pool = zone_cards(ctx.state, top.seat, step.search, top.card)
    found = [c for c in pool if K.matches(ctx.state, c, step.filter)]
    if step.card is not None:
        found = [c for c in pool if c in step.card.ids or K.name(c) == step.card.name]
    if found:
        ctx.push(pick_frame(top.seat, top.card, "find", found, 1, data=step.to))


@on(E.Move)
def _move(ctx: Ctx, top: Frame, step: E.Move) -> None:
    state = ctx.state
    if step.what == "nation_deck_top" and step.to == "discard":
        take_nation_top(ctx, top.seat, z(top.seat, "discard"))
    elif step.what == "looked_at" and step.to == "nation_deck_bottom":
        # The accession card always stays at the very bottom ("Pioche Nation").
        for card in [c for c in state.memo.looked_at if c in state.seats[top.seat].looked]:
            if not is_accession(state, top.seat, card):
                ctx.emit(ev.CardMoved(seat=top.seat, card=card, src=z(top.seat, "looked"),
                                      dst=z(top.seat, "nation_bottom")))  # fmt: skip
    elif step.what == "active_quest" and step.to == "discard":  # Morigena
        for card in K.active_quest(state.seats[top.seat]):
            move(ctx, top.seat, card, where(state, top.seat, card), z(top.seat, "discard"))
    elif step.what == "revealed" and step.to == "hand":
        for card in [c for c in state.memo.revealed if c in state.revealed]:
            ctx.emit(ev.CardMoved(seat=top.seat, card=card, src="revealed",
                                  dst=z(top.seat, "hand")))  # fmt: skip
    else:
        raise RuleViolation("NOT_IMPLEMENTED", f"Moving {step.what} is not implemented yet.")


@on(E.Shuffle)
def _shuffle(ctx: Ctx, top: Frame, step: E.Shuffle) -> None:
    # Cards being looked at are shuffled in too; the accession card stays at the bottom.
    return_looked(ctx, top.seat, "nation_deck", z(top.seat, "nation_deck"))
    owner = ctx.state.seats[top.seat]
    for zone in ("nation_top", "nation_bottom"):
        for card in list(getattr(owner, zone)):
            ctx.emit(ev.CardMoved(seat=top.seat, card=card, src=z(top.seat, zone),
                                  dst=z(top.seat, "nation_deck")))  # fmt: skip
