"""Militants gained during the game (the starting Militants live in :mod:`domain.tapestry.civs`).

Player aid, Militants: "Gain en cours de jeu : posez vos Avant-postes restants de droite à
gauche sur les lignes au choix" — the outposts left in the seat's supply (at most the mat's 8
spaces) go on the mat from right to left, the seat choosing the row of each. The spaces left
bare are uncovered at once; as for a starting Militant, their benefits come with the income
turns ("Lors d'un tour de Revenus, gagnez tous les bénéfices dévoilés"), and each later
conquest takes the leftmost outpost of a row (:func:`domain.tapestry.civs.after_conquer_outpost`).

The mat's counters (``civ_tokens["militants"]``) are the spaces uncovered per row, from the
left: a gained mat starts bare (4, 4) and each outpost placed covers the rightmost bare space of
the chosen row. The choice is asked only while both rows have a bare space. "Rééquilibrage des
civilisations": the Militants have no adjustment, and none applies to a gained civilization.
"""

from __future__ import annotations

from domain.core import Command, Event
from domain.tapestry import events as ev
from domain.tapestry.civs import civ_id, set_tokens, tokens_of
from domain.tapestry.commands import Choose
from domain.tapestry.engine import AFTER_EMIT, DECISIONS, Ctx
from domain.tapestry.rules import outposts_left
from domain.tapestry.state import Frame, TapestryState

KEY = "militants"
#: decision kind: put one more outpost of the supply on a row of a gained Militants mat.
PLACE = "militants_place"
#: spaces per row of the mat (two rows).
ROW = 4


def _after_emit(ctx: Ctx, event: Event) -> None:
    """Gaining the mat: it starts bare, then the outposts left go on it one by one."""
    if isinstance(event, ev.CivilizationGained) and event.civilization == civ_id(KEY):
        left = min(2 * ROW, outposts_left(ctx.state, event.seat))
        set_tokens(ctx, event.seat, KEY, [ROW, ROW])
        if left:
            ctx.push(Frame(kind=PLACE, seat=event.seat, ints=(left,), source=f"civ:{KEY}"))


AFTER_EMIT.append(_after_emit)


def _options(state: TapestryState, top: Frame) -> list[Command]:
    """The rows with a bare space (``Choose(index=row)``, 0 top, 1 bottom)."""
    bare = tokens_of(state, top.seat, KEY, (0, 0))
    return [Choose(index=row) for row in (0, 1) if bare[row] > 0]


def _answer(ctx: Ctx, top: Frame, command: Command) -> None:
    """The outpost covers the rightmost bare space of the row; the next one follows."""
    assert isinstance(command, Choose)
    bare = tokens_of(ctx.state, top.seat, KEY, (0, 0))
    bare[command.index] -= 1
    set_tokens(ctx, top.seat, KEY, bare)
    if top.ints[0] > 1:
        ctx.push(Frame(kind=PLACE, seat=top.seat, ints=(top.ints[0] - 1,), source=top.source))


DECISIONS[PLACE] = (_options, _answer)
