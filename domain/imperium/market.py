"""The market: refilling, acquiring, innovating, exiling; the unrest and fame piles.

Rules: MOTS-CLEFS "Acquérir", "Innover", "Exiler", "Piocher une Renommée", "Regarder",
card notes "Roi des rois". Unrest cards are tucked under uncivilised (tradition), civilised and
tributary (vassal) market cards, never regions: "Mise en place générale" 13 names the
tributary icon (the cards shuffled into the main deck), and "Acquérir", "Exiler" and step 15
list that icon with the tradition and civilised ones (ruling ``unrest_tucked`` in
:mod:`domain.imperium.rulings`).
"""

from __future__ import annotations

import json

from domain.core import Command
from domain.imperium import cards as K
from domain.imperium import events as ev
from domain.imperium.commands import Pass, Pick
from domain.imperium.content_effects import Filter
from domain.imperium.engine import DECISIONS, Ctx, steps_frame
from domain.imperium.ops import gain, move, trigger_end, z
from domain.imperium.reactions import fire
from domain.imperium.state import Frame, ImperiumState

#: categories whose market cards get an unrest card tucked under them.
TUCKED: tuple[str, ...] = ("uncivilised", "civilised", "tributary")
#: categories with their own deck ("Innover", options 2-4).
OWN_DECK: tuple[str, ...] = ("uncivilised", "civilised", "region")


def needs_unrest(card: str) -> bool:
    """``True`` for cards that come with an unrest card (uncivilised/civilised/tributary)."""
    return any(s in TUCKED for s in K.suits(card))


def take_unrest(ctx: Ctx, seat: int, dst: str) -> None:
    """``seat`` takes the top card of the unrest pile to ``dst`` (nothing if empty)."""
    if ctx.state.unrest:
        ctx.emit(ev.CardMoved(seat=seat, card=ctx.state.unrest[-1], src="unrest", dst=dst))
        react_take_unrest(ctx, seat)


def react_take_unrest(ctx: Ctx, seat: int) -> None:
    """Passive reactions to taking an unrest card (Vikings power card)."""
    fire(ctx, seat, "take_card", "unrest")


def refill(ctx: Ctx, index: int) -> None:
    """Refill market slot ``index`` from its deck (the main deck when that one is empty),
    tucking an unrest card under an uncivilised/civilised/tributary card."""
    state = ctx.state
    slot = state.market[index]
    pile = "main" if slot.kind == "main" else slot.kind
    if not state.piles.get(pile):
        pile = "main"
    cards = state.piles.get(pile, [])
    if not cards:
        return
    card = ctx.chance.choice(cards)
    ctx.emit(ev.CardDrawn(seat=-1, card=card, src=f"pile/{pile}", dst=f"market/{index}"))
    if needs_unrest(card) and state.unrest:
        ctx.emit(
            ev.CardMoved(seat=-1, card=state.unrest[-1], src="unrest", dst=f"market/{index}/unrest")
        )
    if pile == "main" and not state.piles.get("main"):
        trigger_end(ctx, "main_deck_empty")


def _tokens_to(ctx: Ctx, seat: int, index: int) -> tuple[int, int, int]:
    slot = ctx.state.market[index]
    got = (slot.materials, slot.population, slot.progress)
    if any(got):
        ctx.emit(ev.SlotTokensChanged(slot=index, materials=-got[0], population=-got[1],
                                      progress=-got[2]))  # fmt: skip
        gain(ctx, seat, *got)
    return got


def market_candidates(state: ImperiumState, suits: tuple[str, ...] | str, flt: object = None
                      ) -> list[str]:  # fmt: skip
    """Face-up market cards of the given categories matching ``flt``."""
    found = []
    for index, slot in enumerate(state.market):
        if not slot.card:
            continue
        if suits != "any" and not any(s in suits for s in K.suits(slot.card)):
            continue
        if flt is not None and not K.matches(state, slot.card, flt, index):  # type: ignore[arg-type]
            continue
        found.append(slot.card)
    return found


def slot_index(state: ImperiumState, card: str) -> int:
    """The market slot holding ``card`` (-1 if none)."""
    for index, slot in enumerate(state.market):
        if slot.card == card:
            return index
    return -1


def acquire(ctx: Ctx, seat: int, card: str, bonus: tuple[int, int, int] = (0, 0, 0)) -> None:
    """``seat`` acquires ``card`` (a market card, or an exiled one) into its hand ("Acquérir")."""
    state = ctx.state
    index = slot_index(state, card)
    state.memo.just_acquired = card
    if index >= 0:
        got = _tokens_to(ctx, seat, index)
        state.memo.tokens_gained = list(got)
        for unrest in list(state.market[index].unrest):
            move(ctx, seat, unrest, f"market/{index}/unrest", z(seat, "hand"))
            react_take_unrest(ctx, seat)  # ruling ``acquired_unrest_is_taken``
        move(ctx, seat, card, f"market/{index}", z(seat, "hand"))
        refill(ctx, index)
        _fire_tokens(ctx, seat, got)
    else:
        state.memo.tokens_gained = [0, 0, 0]
        move(ctx, seat, card, "exile", z(seat, "hand"))
        if needs_unrest(card):
            take_unrest(ctx, seat, z(seat, "hand"))
        gain(ctx, seat, *bonus)
    fire(ctx, seat, "acquire", card)


def _fire_tokens(ctx: Ctx, seat: int, got: tuple[int, ...] | list[int]) -> None:
    """Fire ``gain_market_card_with_tokens`` once per kind of token taken with a market card
    (materials: Carthaginians; population: Qin)."""
    for resource, amount in zip(("materials", "population", "progress"), got, strict=True):
        if amount:
            fire(ctx, seat, "gain_market_card_with_tokens", resource)


def innovate_candidates(
    state: ImperiumState, suits: tuple[str, ...], flt: Filter | None = None, exile: bool = False
) -> list[str]:
    """Choices of an innovation: market cards, ``deck:<suit>`` and ``main:<suit>`` ("Innover").

    ``flt`` (Acclaimed, "any category"): market cards matching it, or ``main:filter`` — reveal
    main-deck cards until one matches (card note "Acclamé"). ``exile`` (Imperial): exiled cards
    of those categories may be chosen too.
    """
    if flt is not None:
        return [*market_candidates(state, "any", flt), "main:filter"]
    found = market_candidates(state, suits)
    for suit in suits:
        if suit in OWN_DECK and state.piles.get(suit):
            found.append(f"deck:{suit}")
        elif suit != "fame":
            found.append(f"main:{suit}")
    if exile:
        found += [c for c in state.exile if any(s in suits for s in K.suits(c))]
    return found


def innovate(ctx: Ctx, seat: int, choice: str, flt: Filter | None = None, dst: str = "") -> None:
    """Resolve one innovation choice (options 1-5 of "Innover"; ``main:filter``: the first
    main-deck card matching ``flt``; an exiled card goes from the exile to the hand). The card
    goes to ``dst`` (default: the seat's hand; the C.I.V.'s deck, ``imperium/5``)."""
    state = ctx.state
    to = dst or z(seat, "hand")
    if choice == "main:filter" or (choice in state.exile and slot_index(state, choice) < 0):
        if choice in state.exile:
            card = choice
            move(ctx, seat, card, "exile", to)
        else:
            matching = [c for c in state.piles.get("main", []) if K.matches(state, c, flt)]
            if not matching:
                gain(ctx, seat, progress=2)
                return
            card = ctx.chance.choice(matching)
            ctx.emit(ev.CardDrawn(seat=seat, card=card, src="pile/main", dst=to))
            if not state.piles.get("main"):
                trigger_end(ctx, "main_deck_empty")
    elif choice.startswith("deck:"):
        pile = choice[len("deck:") :]
        card = ctx.chance.choice(state.piles[pile])
        ctx.emit(ev.CardDrawn(seat=seat, card=card, src=f"pile/{pile}", dst=to))
    elif choice.startswith("main:"):
        suit = choice[len("main:") :]
        matching = [c for c in state.piles.get("main", []) if suit in K.suits(c)]
        if not matching:
            gain(ctx, seat, progress=2)
            return
        card = ctx.chance.choice(matching)
        ctx.emit(ev.CardDrawn(seat=seat, card=card, src="pile/main", dst=to))
        if not state.piles.get("main"):
            trigger_end(ctx, "main_deck_empty")
    else:
        card = choice
        index = slot_index(state, card)
        got = _tokens_to(ctx, seat, index)
        state.memo.tokens_gained = list(got)
        for unrest in list(state.market[index].unrest):
            move(ctx, seat, unrest, f"market/{index}/unrest", "unrest")
        move(ctx, seat, card, f"market/{index}", to)
        refill(ctx, index)
        # Assumption: taking a market card with tokens by innovating is "gaining a market
        # card carrying" them too (Carthaginians and Qin, face A).
        _fire_tokens(ctx, seat, got)
    fire(ctx, seat, "innovate", card)


def exile_market(ctx: Ctx, seat: int, card: str) -> None:
    """Exile a market card without tokens; its unrest goes back to the pile ("Exiler")."""
    index = slot_index(ctx.state, card)
    for unrest in list(ctx.state.market[index].unrest):
        move(ctx, seat, unrest, f"market/{index}/unrest", "unrest")
    move(ctx, seat, card, f"market/{index}", "exile")
    refill(ctx, index)


def exilable(state: ImperiumState) -> list[str]:
    """Market cards that may be exiled: those carrying no token."""
    return [
        s.card for s in state.market if s.card and not (s.materials or s.population or s.progress)
    ]


# -- fame --------------------------------------------------------------------------------------
def fame_left(state: ImperiumState) -> int:
    """Face-down fame cards left (King of Kings excluded)."""
    return len(state.fame_top) + len(state.piles.get("fame", []))


def take_fame(ctx: Ctx, seat: int, dst: str) -> str:
    """Move the top fame card to ``dst``; with none left, resolve King of Kings instead."""
    state = ctx.state
    if state.fame_top:
        card, src = state.fame_top[-1], "fame_top"
    elif state.piles.get("fame"):
        card, src = ctx.chance.choice(state.piles["fame"]), "pile/fame"
    else:
        king_of_kings(ctx, seat)
        return ""
    ctx.emit(ev.CardDrawn(seat=seat, card=card, src=src, dst=dst))
    return card


def king_of_kings(ctx: Ctx, seat: int) -> None:
    """Resolve King of Kings once per player ("Roi des rois"); face A flips and ends the game."""
    state = ctx.state
    if state.seats[seat].kok_resolved:
        return
    ctx.emit(ev.KingOfKingsResolved(seat=seat))
    card = f"KOK-{state.kok_face}"
    for block in K.blocks(card, "on_gain"):
        ctx.push(steps_frame(seat, card, block.do))


# -- decisions -----------------------------------------------------------------------------------
def _cleanup_token_options(state: ImperiumState, top: Frame) -> list[Command]:
    return [Pick(card=s.card) for s in state.market if s.card]


def _cleanup_token_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Pick)
    amounts = json.loads(top.data) if top.data else [0, 0, 1]
    index = slot_index(ctx.state, command.card)
    ctx.emit(ev.SlotTokensChanged(slot=index, materials=amounts[0], population=amounts[1],
                                  progress=amounts[2]))  # fmt: skip


DECISIONS["cleanup_token"] = (_cleanup_token_options, _cleanup_token_answer)


def _unused(state: ImperiumState, top: Frame) -> list[Command]:
    return [Pass()]
