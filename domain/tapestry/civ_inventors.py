"""Inventors (Inventeurs): upgrade anyone's tech card, share its benefit, take it at the top.

Rules: the player aid's summary "CIVILISATIONS / Inventeurs" (four tokens on the mat; on
income turns 2-5 move one onto any tech card in play: it is upgraded at once, ignoring the
prerequisite; you gain the benefit, and so does the opponent whose card it is; when an
opponent's card holding a token is upgraded to the top row, the opponent gains the benefit,
then you gain that card into your bottom row), F.À.Q. "Plateaux civilisation particuliers"
(a token on an opponent's middle-row card that its owner upgrades to the top row: the owner
gains the square benefit, then you gain it too, then you take the card into your bottom
row), "Règles générales" (after your fifth income turn you gain nothing more).

The mat: ``civ_tokens["inventors"]`` lists the tech cards holding an Inventors token, in the
order they were placed (``0``: a token lost with a discarded card); ``4 - len`` tokens are
still on the mat. The token stays on its card, also once the Inventors took it. Decision:
``inventors`` (``ChooseTech(card=...)``, any seat's bottom- or middle-row card; the aid's
« déplacez » makes it compulsory whenever a card can move up).
"""

from __future__ import annotations

from domain.core import Command, Event
from domain.tapestry import civs
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.commands import ChooseTech
from domain.tapestry.engine import AFTER_EMIT, AUTO, DECISIONS, Ctx, expr_frame
from domain.tapestry.state import Frame, TapestryState
from domain.tapestry.tech import upgrade

KEY = "inventors"
#: player tokens on the Inventors' mat ("Posez 4 pions sur la fiche").
MAT_TOKENS = 4
#: the top row of tech cards.
TOP = 2


def tokens(state: TapestryState, seat: int) -> list[int]:
    """The cards holding ``seat``'s Inventors tokens (``0``: a token lost with its card)."""
    return list(state.seats[seat].civ_tokens.get(KEY, []))


def owner_of(state: TapestryState, card: int) -> tuple[int, int]:
    """``(seat, row)`` of the tech card ``card`` (``(-1, -1)`` when nobody holds it)."""
    for seat, player in enumerate(state.seats):
        for owned in player.tech:
            if owned.card == card:
                return seat, owned.row
    return -1, -1


def targets(state: TapestryState) -> list[int]:
    """Tech cards an Inventors token may go on: every bottom- or middle-row card, by seat."""
    return [owned.card for player in state.seats for owned in player.tech if owned.row < TOP]


def _benefit(card: int, row: int) -> C.Benefit:
    record = C.TECH_CARDS[card]
    return record.circle if row == 1 else record.square


# -- income turns 2-5 ----------------------------------------------------------------------
def _income(ctx: Ctx, seat: int, era: int) -> None:
    if len(tokens(ctx.state, seat)) < MAT_TOKENS:
        ctx.push(Frame(kind="inventors", seat=seat, source="civ:inventors"))


def _options(state: TapestryState, top: Frame) -> list[Command]:
    return [ChooseTech(card=c) for c in targets(state)]


def _answer(ctx: Ctx, top: Frame, command: Command) -> None:
    """The token goes on the card, which moves up one row with no prerequisite.

    Your own card: an ordinary upgrade. An opponent's card: you gain its benefit, then its
    owner (the order of the aid's sentence); a card reaching the top row is then yours.
    """
    assert isinstance(command, ChooseTech)
    seat, card = top.seat, command.card
    ctx.emit(ev.CivTokensSet(seat=seat, key=KEY, values=(*tokens(ctx.state, seat), card)))
    owner, row = owner_of(ctx.state, card)
    if owner == seat:
        upgrade(ctx, seat, card, "civ:inventors")
        return
    ctx.emit(ev.TechUpgraded(seat=owner, card=card, row=row + 1))
    benefit = _benefit(card, row + 1)
    frames = [expr_frame(seat, benefit, f"tech:{card}")]
    if not ctx.state.seats[owner].finished:
        frames.append(expr_frame(owner, benefit, f"tech:{card}"))
    if row + 1 == TOP:
        frames.append(Frame(kind="inventors_take", seat=seat, ints=(card, owner)))
    ctx.push(*frames)


DECISIONS["inventors"] = (_options, _answer)


def _take(ctx: Ctx, top: Frame) -> None:
    """The card goes from its owner's top row to the Inventors' bottom row (if still there)."""
    card, owner = top.ints
    if owner_of(ctx.state, card) == (owner, TOP):
        ctx.emit(ev.TechTaken(seat=top.seat, owner=owner, card=card))


AUTO["inventors_take"] = _take


# -- an opponent upgrades a card holding a token, or discards it ---------------------------
def _on_event(ctx: Ctx, event: Event) -> None:
    """F.À.Q.: an opponent lifts a card holding a token to the top row: after its own square
    benefit (pushed after this hook, so it resolves first), the Inventors gain the square and
    take the card. A discarded card takes its tokens along."""
    state = ctx.state
    if isinstance(event, ev.TechUpgraded):
        if event.row != TOP or (ctx.current is not None and ctx.current.kind == "inventors"):
            return
        for seat in range(state.n):
            mine = civs.has_civ(state, seat, KEY) and not state.seats[seat].finished
            if mine and seat != event.seat and event.card in tokens(state, seat):
                ctx.push(
                    expr_frame(seat, C.TECH_CARDS[event.card].square, f"tech:{event.card}"),
                    Frame(kind="inventors_take", seat=seat, ints=(event.card, event.seat)),
                )
    elif isinstance(event, ev.TechDiscarded):
        for seat in range(state.n):
            held = tokens(state, seat)
            if any(card in event.cards for card in held):
                kept = tuple(0 if card in event.cards else card for card in held)
                ctx.emit(ev.CivTokensSet(seat=seat, key=KEY, values=kept))


civs.INCOME[KEY] = _income
AFTER_EMIT.append(_on_event)
