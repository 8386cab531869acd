"""Faefolk (Fantasies & Futures): a token walking a ring of seven spots.

Rules (facts folder ``civilizations.json#43``, the ring and its ``ring_note``): the token
starts on the top spot (spot 1, :data:`START`), at setup or when the mat is gained during the
game (``tapestry/3``; the mat: « When you start the game (or gain Faefolk mid-game), place a
player token on the [SCORE TAPESTRY] at the top »). At the start of income turns 2-5 you may gain
1 tapestry card (:data:`DECISION`: ``Choose(0)`` or ``Decline``); then the token moves
clockwise one spot per visible tapestry card you have, those on your income mat included, and
you gain the benefit of the spot it reaches — twice on income turn 5.

Spots (the content's ``slots``, clockwise from the top): VP per tapestry card; tapestry card,
territory tile, invent and VP per income building; food and VP per territory tile in supply;
coin and VP per tech card; culture and VP per controlled territory; worker and score the
capital; space tile and explore a space tile. The icon readings are the facts folder's
(README, known gap 7).

Assumed: the visible tapestry cards are those on your income mat that no other card covers
(one per era stack, a blind card laid face down included), the only tapestry cards a player
shows in this engine; a hand is hidden. Rebalancing: the
rulebook's page ("RÉÉQUILIBRAGE DES CIVILISATIONS") has no Faefolk entry, so none applies.

Mat state (``civ_tokens["faefolk"]``): ``[spot]``, the token's spot index 0..6.
"""

from __future__ import annotations

from domain.core import Command
from domain.tapestry import content as C
from domain.tapestry.civs import INCOME, civ_id, set_tokens, tokens_of
from domain.tapestry.commands import Choose, Decline
from domain.tapestry.engine import AUTO, DECISIONS, Ctx, expr_frame
from domain.tapestry.rules import gain
from domain.tapestry.state import Frame, TapestryState

KEY = "faefolk"
#: the decision at the start of an income turn: gain a tapestry card first, or not.
DECISION = "faefolk"
#: the token's starting spot (the top of the ring).
START = 0
#: income turn on which the reached spot's benefit is gained twice.
TWICE_ON = 5


def spot(state: TapestryState, seat: int) -> int:
    """The spot (0..6) of ``seat``'s Faefolk token."""
    return tokens_of(state, seat, KEY, (START,))[0]


def ring() -> tuple[C.Benefit, ...]:
    """The ring's spots, clockwise from the top."""
    return C.CIVILIZATIONS[civ_id(KEY)].slots


def visible_tapestry(state: TapestryState, seat: int) -> int:
    """Visible tapestry cards of ``seat``: on its income mat, the top card of each era's
    stack (a card played over another covers it)."""
    return len({played.era for played in state.seats[seat].mat})


def _income(ctx: Ctx, seat: int, era: int) -> None:
    ctx.push(
        Frame(kind=DECISION, seat=seat, ints=(era,), source=f"civ:{KEY}"),
        Frame(kind="faefolk_move", seat=seat, ints=(era,), source=f"civ:{KEY}"),
    )


INCOME[KEY] = _income


def _options(state: TapestryState, top: Frame) -> list[Command]:
    """Gain a tapestry card (``Choose(0)``) before moving, or not (``Decline``)."""
    return [Choose(index=0), Decline()]


def _answer(ctx: Ctx, top: Frame, command: Command) -> None:
    if isinstance(command, Choose):
        ctx.push(expr_frame(top.seat, gain("gain_tapestry_card"), f"civ:{KEY}"))


DECISIONS[DECISION] = (_options, _answer)


def _move(ctx: Ctx, top: Frame) -> None:
    """The token moves one spot per visible tapestry card; the spot reached pays."""
    seat, era = top.seat, top.ints[0]
    spots = ring()
    reached = (spot(ctx.state, seat) + visible_tapestry(ctx.state, seat)) % len(spots)
    set_tokens(ctx, seat, KEY, [reached])
    times = 2 if era >= TWICE_ON else 1
    ctx.push(*(expr_frame(seat, spots[reached], f"civ:{KEY}") for _ in range(times)))


AUTO["faefolk_move"] = _move
