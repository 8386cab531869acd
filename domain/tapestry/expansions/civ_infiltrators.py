"""Infiltrators (Infiltrés, Plans & Ploys): shared territories and marks on rival capitals.

Facts: the facts folder's record (``civilizations.json#32``: « Start with 1 culture. Income
turns 2-5, either: add an outpost beside a lone opponent outpost (shared control,
unconquerable) and take its benefit; or token an opponent's capital hex for 1 VP per outpost
they have not placed. », notes « Third token on the same opponent capital grants another
civilization. Whenever you would gain a civilization: draw 3, keep 1. The shared territory is
ignored for the middle-island achievement. »; ``benefits.json``: the outpost goes « to a
territory holding exactly one opponent outpost (shared control, not a conquest) »), the
rulebook's "RÉÉQUILIBRAGE DES CIVILISATIONS" (« INFILTRÉS Ne gagnez pas [icon] si vous
commencez la partie avec les Infiltrés. »: the starting culture is not taken; a civilization
gained during the game takes no setup either, so the mat's culture is never gained). Our
content: ``content/civilizations_plans_and_ploys.json#32``; readings the sources leave open are
records of ``decisions.json`` (``infiltrators_*``).

On income turns 2-5 the seat picks one option (decision :data:`KEY`):

* ``Choose(index=hex)``: an outpost from its supply joins a territory whose only piece is an
  opponent's standing outpost (``PiecePlaced`` with piece ``"infiltrators"``); both seats
  control it (:data:`~domain.tapestry.state.SHARING_PIECES`), nobody may conquer it
  (:data:`~domain.tapestry.state.UNCONQUERABLE_PIECES`), and the seat gains the territory
  tile's benefit (a printed territory has none). The opponent keeps its control, so the
  central island's achievement (earned by conquering it) is not affected.
* ``Choose(index=CAPITAL + opponent)``: a mark on that opponent's capital territory scores 1 VP
  per outpost the opponent still holds in supply; the third mark on the same capital gains a
  civilization. The marks are the mat's counters (``civ_tokens["infiltrators"]``, one count
  per seat).

Whenever an Infiltrator gains a civilization it draws three and keeps one
(:data:`civs.CIV_DRAWS`, decision ``keep_civilization``).
"""

from __future__ import annotations

from domain.core import Command
from domain.tapestry import civs
from domain.tapestry import events as ev
from domain.tapestry.commands import Choose
from domain.tapestry.engine import DECISIONS, Ctx, expr_frame
from domain.tapestry.gains import score
from domain.tapestry.rules import gain
from domain.tapestry.state import Frame, TapestryState

KEY = "infiltrators"
BOX = "plans_and_ploys"
#: option code of a mark on an opponent's capital: ``CAPITAL + seat``.
CAPITAL = 1000
#: marks on one capital that gain a civilization; civilizations drawn to keep one.
MARKS_FOR_CIV, CIVS_DRAWN = 3, 3


def marks(state: TapestryState, seat: int) -> list[int]:
    """Marks ``seat`` put on each seat's capital territory (index: the marked seat)."""
    found = civs.tokens_of(state, seat, KEY, ())
    return found + [0] * (state.n - len(found))


def outpost_targets(state: TapestryState, seat: int) -> list[int]:
    """Territories whose only piece is an opponent's standing outpost (``seat`` needs an
    outpost in supply)."""
    if state.seats[seat].outposts <= 0:
        return []
    found = []
    for index, cell in enumerate(state.hexes):
        if not cell.explored or len(cell.outposts) != 1:
            continue
        piece = cell.outposts[0]
        if piece.piece == "" and not piece.toppled and 0 <= piece.seat != seat:
            found.append(index)
    return found


def _income(ctx: Ctx, seat: int, era: int) -> None:
    if 2 <= era <= 5 and _options(ctx.state, Frame(kind=KEY, seat=seat)):
        ctx.push(Frame(kind=KEY, seat=seat, source=f"civ:{KEY}"))


def _options(state: TapestryState, top: Frame) -> list[Command]:
    found: list[Command] = [Choose(index=h) for h in outpost_targets(state, top.seat)]
    found.extend(
        Choose(index=CAPITAL + other)
        for other in range(state.n)
        if other != top.seat and state.seats[other].home >= 0
    )
    return found


def _answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    seat = top.seat
    if command.index < CAPITAL:
        ctx.emit(ev.PiecePlaced(seat=seat, hex=command.index, piece=KEY))
        ctx.push(Frame(kind="tile_benefit", seat=seat, ints=(command.index,)))
        return
    other = command.index - CAPITAL
    counts = marks(ctx.state, seat)
    counts[other] += 1
    civs.set_tokens(ctx, seat, KEY, counts)
    score(ctx, seat, ctx.state.seats[other].outposts, f"civ:{KEY}")
    if counts[other] == MARKS_FOR_CIV:
        ctx.push(expr_frame(seat, gain("gain_random_civilization"), f"civ:{KEY}"))


DECISIONS[KEY] = (_options, _answer)


def _draws(state: TapestryState, seat: int) -> int:
    """« Whenever you would gain a civilization: draw 3, keep 1 »."""
    return CIVS_DRAWN if civs.has_civ(state, seat, KEY) else 1


civs.CIV_DRAWS.append(_draws)
civs.INCOME[KEY] = _income
civs.BOX_CIVILIZATIONS.setdefault(BOX, []).append(KEY)
civs.BOX_GAINABLE.setdefault(BOX, []).append(KEY)
