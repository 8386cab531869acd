"""Relentless (Acharnés, Arts & Architecture): a streak of building turns, cashed in by a
turn without one.

Rules (facts folder ``civilizations.json#23``): after each of your income or advance turns in
which you gained any building (an income building or a landmark), add a token to the mat.
After an advance turn in which you gained none, remove every token from the mat and take the
reward of the space matching how many you removed (:func:`reward_slot`; the content's
``slots``: 0 nothing, 1: 1 VP, 2: 3 VP and a tapestry card, 3: 6 VP and a tapestry card or a
resource, 4: 10 VP and a tapestry card, a resource or explore, 5 or more: 15 VP and a
tapestry card, a resource, explore or invent). An income turn without a building leaves the
tokens where they are.

Rebalancing: none ("RÉÉQUILIBRAGE DES CIVILISATIONS": ACHARNÉS under "Pas de changement").

Assumed: a building is *gained* when it is taken off the income mat (``BuildingTaken``) or a
landmark is claimed (``LandmarkClaimed``), during your own turn; the tokens are settled when
your turn ends, before the next seat's turn (and before the Automa's in a solo game).

Mat state (``civ_tokens["relentless"]``): ``[tokens, gained_turn, income_turn,
settled_turn]``: the tokens on the mat, then the numbers of the last turn in which you gained a
building, took an income turn and had its tokens settled (0: never).
"""

from __future__ import annotations

from domain.core import Event
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.civs import civ_id, has_civ, set_tokens, tokens_of
from domain.tapestry.engine import AFTER_EMIT, END_TURN, Ctx, expr_frame
from domain.tapestry.solo import turn as _solo_turn  # noqa: F401  (its hook goes first)
from domain.tapestry.state import TapestryState

KEY = "relentless"
EMPTY: tuple[int, ...] = (0, 0, 0, 0)
TOKENS, GAINED, INCOME_TURN, SETTLED = range(4)


def mat(state: TapestryState, seat: int) -> list[int]:
    """``seat``'s Relentless counters: tokens, gained turn, income turn, settled turn."""
    return tokens_of(state, seat, KEY, EMPTY)


def tokens(state: TapestryState, seat: int) -> int:
    """Tokens on ``seat``'s Relentless mat."""
    return mat(state, seat)[TOKENS]


def reward_slot(removed: int) -> int:
    """The space whose reward ``removed`` tokens take (5 or more: the last)."""
    return min(removed, len(C.CIVILIZATIONS[civ_id(KEY)].slots) - 1)


def _after_emit(ctx: Ctx, event: Event) -> None:
    """Marks a building gained, or an income turn, during the Relentless seat's own turn."""
    state = ctx.state
    if isinstance(event, ev.BuildingTaken | ev.LandmarkClaimed):
        field = GAINED
    elif isinstance(event, ev.IncomeTurnStarted):
        field = INCOME_TURN
    else:
        return
    seat = event.seat
    if seat != state.current or not has_civ(state, seat, KEY):
        return
    values = mat(state, seat)
    if values[field] != state.turn:
        values[field] = state.turn
        set_tokens(ctx, seat, KEY, values)


AFTER_EMIT.append(_after_emit)


def _end_turn(ctx: Ctx) -> None:
    """The Relentless seat's turn is over: a token added, or the tokens cashed in."""
    state = ctx.state
    seat = state.current
    if seat < 0 or not has_civ(state, seat, KEY):
        return
    values = mat(state, seat)
    if values[SETTLED] == state.turn:
        return
    if values[GAINED] == state.turn:
        values[TOKENS] += 1
        values[SETTLED] = state.turn
        set_tokens(ctx, seat, KEY, values)
    elif values[INCOME_TURN] != state.turn and values[TOKENS] > 0:
        slot = reward_slot(values[TOKENS])
        values[TOKENS] = 0
        values[SETTLED] = state.turn
        set_tokens(ctx, seat, KEY, values)
        benefit = C.CIVILIZATIONS[civ_id(KEY)].slots[slot]
        ctx.push(expr_frame(seat, benefit, f"civ:{KEY}"))


END_TURN.insert(0, _end_turn)
