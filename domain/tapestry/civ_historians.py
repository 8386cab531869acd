"""Historians (Historiens): tokens given to opponents pay out when they gain landmarks.

Rules (player aid, "CIVILISATIONS / Historiens"; facts folder ``civilizations.json#7``):

* four tokens start on the mat, each covering one benefit (3 VP, worker, food, 3 VP);
* income turns 2 to 5: you may discard a territory tile from your supply to give one token
  of the mat to an opponent (:func:`_income`: an optional payment of a tile, then the choice
  of an opponent and a token, ``Choose(index=opponent * 10 + slot)``);
* whenever an opponent holding at least one of your tokens gains a landmark (from a track or
  a tech card), you gain every benefit uncovered on your mat (:func:`_after_emit`);
* gained during the game: give the four tokens to opponents at once (one choice per token).

After its fifth income turn a Historian still scores the VP of the mat but gains nothing
else ("Fin de la partie": passive civilization abilities may still give points).

Rebalancing: none. The rulebook's HISTORIENS entry of "RÉÉQUILIBRAGE DES CIVILISATIONS"
describes a rule for the Heralds; the content reads the headings as swapped (assumed,
``civilizations.json#7``, RULEBOOK_CROSSCHECK C6).

Mat state (``civ_tokens["historians"]``): per slot, -1 while the token is on the mat, else
the seat holding it (public).
"""

from __future__ import annotations

from domain.core import Command, Event
from domain.tapestry import civs
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.civs import civ_id, has_civ, set_tokens, tokens_of
from domain.tapestry.commands import Choose
from domain.tapestry.engine import AFTER_EMIT, DECISIONS, TOKENS, Ctx, expr_frame
from domain.tapestry.rules import gain
from domain.tapestry.state import Frame, TapestryState

KEY = "historians"
#: the decision giving a token (``ints``: the one slot to give, or any slot when empty).
GIVE = "historians_give"
ON_MAT = -1
START: tuple[int, ...] = (ON_MAT,) * 4
#: the internal token paid for by a territory tile on an income turn.
_GIVE_TOKEN = "_historians_give"


def holders(state: TapestryState, seat: int) -> list[int]:
    """Per slot of ``seat``'s Historians mat: -1 on the mat, else the seat holding it."""
    return tokens_of(state, seat, KEY, START)


def _slots() -> tuple[C.Benefit, ...]:
    return C.CIVILIZATIONS[civ_id(KEY)].slots


def _only_vp(benefit: C.Benefit) -> bool:
    return isinstance(benefit, C.Gain) and benefit.token == "vp"


# -- income turns 2-5 ----------------------------------------------------------------------
def _income(ctx: Ctx, seat: int, era: int) -> None:
    """Offer to discard a territory tile to give a token (nothing when none is left)."""
    if ON_MAT not in holders(ctx.state, seat):
        return
    ctx.push(
        Frame(
            kind="bonus",
            seat=seat,
            options=("territory_tile",),
            expr=gain(_GIVE_TOKEN),
            optional=True,
            source=f"civ:{KEY}",
        )
    )


civs.INCOME[KEY] = _income


def _give_token(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
    ctx.push(Frame(kind=GIVE, seat=seat, source=top.source))


TOKENS[_GIVE_TOKEN] = _give_token


def _give_options(state: TapestryState, top: Frame) -> list[Command]:
    """``Choose(index=opponent * 10 + slot)`` for each opponent and token still on the mat."""
    tokens = holders(state, top.seat)
    slots = [top.ints[0]] if top.ints else [i for i, h in enumerate(tokens) if h == ON_MAT]
    return [
        Choose(index=other * 10 + slot)
        for other in range(state.n)
        if other != top.seat
        for slot in slots
        if tokens[slot] == ON_MAT
    ]


def _give_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    other, slot = divmod(command.index, 10)
    tokens = holders(ctx.state, top.seat)
    tokens[slot] = other
    set_tokens(ctx, top.seat, KEY, tokens)


DECISIONS[GIVE] = (_give_options, _give_answer)


# -- landmarks gained by token holders; gaining the mat ------------------------------------
def _after_emit(ctx: Ctx, event: Event) -> None:
    if isinstance(event, ev.LandmarkClaimed):
        _landmark(ctx, event.seat)
    elif isinstance(event, ev.CivilizationGained) and event.civilization == civ_id(KEY):
        tokens = holders(ctx.state, event.seat)
        ctx.push(
            *(
                Frame(kind=GIVE, seat=event.seat, ints=(slot,), source=f"civ:{KEY}")
                for slot, holder in enumerate(tokens)
                if holder == ON_MAT
            )
        )


def _landmark(ctx: Ctx, claimer: int) -> None:
    """Every Historian with a token at ``claimer`` gains the benefits uncovered on its mat."""
    state = ctx.state
    frames: list[Frame] = []
    for seat in range(state.n):
        if seat == claimer or not has_civ(state, seat, KEY):
            continue
        tokens = holders(state, seat)
        if claimer not in tokens:
            continue
        finished = state.seats[seat].finished
        for slot, benefit in enumerate(_slots()):
            if tokens[slot] != ON_MAT and (not finished or _only_vp(benefit)):
                frames.append(expr_frame(seat, benefit, f"civ:{KEY}"))
    ctx.push(*frames)


AFTER_EMIT.append(_after_emit)
