"""Genies (Fantasies & Futures): an opponent drawn at random makes a wish on the ring.

Rules (facts folder ``civilizations.json#44``, its ``ring`` and ``ring_note``): the Genies
hold one player token of each opponent. On income turns 2-4 one token is drawn at random (and
returned); that opponent chooses 1 circled benefit of the ring and scores it
(:data:`WISH`: ``Choose(index=circle)``); the Genies score that same circled benefit and gain a
squared benefit adjacent to it (:data:`GRANT`: ``Choose(index=0 or 1)``, the square before or
after it clockwise), in the order of their choice. At income turn 5 the Genies score 2
different circled benefits of their choice (:data:`FINAL`, one after the other).

The ring (the content's ``slots``, clockwise from the top, alternating): research without
benefit, score the capital, invent, VP per territory tile in supply, culture, VP per
controlled territory, explore, VP per tech card (icon readings: README gap 7). Circles are the
odd indices, squares the even ones; adjacency wraps around.

Gained during the game (``tapestry/3``; the mat: « At the start of the game, or when you
gain Genies mid-game, collect a player token from each opponent »): the tokens are every
opponent's, as at the start; nothing is recorded. Rebalancing: the rulebook's page has no
Genies entry: none. Not in solo games (facts folder: ``solo_allowed`` false).

Assumed: an opponent whose game is over still chooses but scores nothing ("FIN DE PARTIE":
after your last income turn you gain nothing more but passive civilization abilities).
"""

from __future__ import annotations

from domain.core import Command
from domain.tapestry import content as C
from domain.tapestry.civs import INCOME, civ_id
from domain.tapestry.commands import Choose
from domain.tapestry.engine import DECISIONS, Ctx, expr_frame
from domain.tapestry.rules import dump
from domain.tapestry.state import Frame, TapestryState

KEY = "genies"
WISH, GRANT, FINAL = "genies_wish", "genies_grant", "genies_final"
#: income turns of the wish (income turn 5: the final choice).
WISH_TURNS: tuple[int, ...] = (2, 3, 4)


def ring() -> tuple[C.Benefit, ...]:
    """The ring's 8 benefits, clockwise from the top (squares even, circles odd indices)."""
    return C.CIVILIZATIONS[civ_id(KEY)].slots


def circles() -> list[int]:
    """Ring indices of the circled (scored) benefits."""
    return list(range(1, len(ring()), 2))


def squares_beside(circle: int) -> tuple[int, int]:
    """The two squared benefits adjacent to ``circle`` (before it, after it)."""
    size = len(ring())
    return ((circle - 1) % size, (circle + 1) % size)


def _income(ctx: Ctx, seat: int, era: int) -> None:
    source = f"civ:{KEY}"
    if era in WISH_TURNS:
        opponents = [o for o in range(ctx.state.n) if o != seat]
        if not opponents:
            return
        drawn = ctx.chance.choice(opponents)
        ctx.push(Frame(kind=WISH, seat=drawn, ints=(seat,), source=source))
    elif era >= 5:
        ctx.push(Frame(kind=FINAL, seat=seat, ints=(-1,), source=source))


INCOME[KEY] = _income


def _circle_options(state: TapestryState, top: Frame) -> list[Command]:
    """A circled benefit (its ring index), the one already taken excepted (final choice)."""
    excluded = top.ints[0] if top.kind == FINAL else -1
    return [Choose(index=c) for c in circles() if c != excluded]


def _wish_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    genie, circle = top.ints[0], command.index
    frames: list[Frame] = []
    if not ctx.state.seats[top.seat].finished:
        frames.append(expr_frame(top.seat, ring()[circle], f"civ:{KEY}"))
    frames.append(Frame(kind=GRANT, seat=genie, ints=(circle,), source=f"civ:{KEY}"))
    ctx.push(*frames)


def _grant_options(state: TapestryState, top: Frame) -> list[Command]:
    """Which adjacent squared benefit (0: before the circle, 1: after it)."""
    return [Choose(index=0), Choose(index=1)]


def _grant_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    circle = top.ints[0]
    square = squares_beside(circle)[command.index]
    both = C.AnyOrder(items=(ring()[circle], ring()[square]))
    ctx.push(expr_frame(top.seat, dump(both), f"civ:{KEY}"))


def _final_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    frames = [expr_frame(top.seat, ring()[command.index], f"civ:{KEY}")]
    if top.ints[0] < 0:
        frames.append(Frame(kind=FINAL, seat=top.seat, ints=(command.index,), source=top.source))
    ctx.push(*frames)


DECISIONS[WISH] = (_circle_options, _wish_answer)
DECISIONS[GRANT] = (_grant_options, _grant_answer)
DECISIONS[FINAL] = (_circle_options, _final_answer)
