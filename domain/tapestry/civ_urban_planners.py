"""Urban Planners (Urbanistes, Arts & Architecture): landmarks parked on the mat and built
later; the largest group of touching landmarks scores at the last income turn.

Rules (facts folder ``civilizations.json#25``): a landmark you gain may be set on this mat
instead of being placed (``Choose(index=PARK)`` on its placement) and built in your capital on
a later turn. F.À.Q. "PLATEAUX CIVILISATION PARTICULIERS" (Urbanistes): a parked landmark may
be used at any time, and several in the same turn. At the end of your fifth income turn, your
largest group of orthogonally connected landmarks in the capital scores 1/4/9/16/25/36/49 VP
for 1-7 landmarks (the content's ``slots``: slot ``i`` is the VP for ``i + 1`` landmarks; 7 or
more score the last).

Rebalancing ("RÉÉQUILIBRAGE DES CIVILISATIONS", URBANISTES): "gagnez [icon] s'il s'agit d'une
partie à 1-3 joueurs ou [icon] au choix s'il s'agit d'une partie à 4-5 joueurs", both icons
lost in our text: read as one resource of your choice at any player count (the content's
``adjustment_gain``; ``decisions.json#urban_planners_rebalancing``).

Not implemented: the facts folder's ``setup_gain`` ("Urban Center", a 2x2 landmark) is a
stand-in of the source implementation for physical landmark cards that are in none of our
sources; the Urban Planners start without it (GameSummary.notes, :func:`notes`).

Assumed (``decisions.json#urban_planners_parking``): "at any time" is offered at the start of
each of your turns, before you choose it (``Choose(index=landmark)`` on the turn decision,
as many times as there are landmarks parked); a landmark from the mat is placed as when gained
(beside the capital when nothing fits) and cannot be parked again; a landmark still parked at
the end scores nothing; a parked landmark is yours (it counts as owned, e.g. for "VP per
landmark").

Mat state (``civ_tokens["urban_planners"]``): the ids of the landmarks parked, in order.
"""

from __future__ import annotations

from collections.abc import Iterable

from domain.core import Command
from domain.tapestry import capital as cap
from domain.tapestry import civ_collectors as _collectors  # noqa: F401  (its wrapper first)
from domain.tapestry import civs
from domain.tapestry import content as C
from domain.tapestry import turns as _turns  # noqa: F401  (registers the turn decision)
from domain.tapestry.civs import civ_id, has_civ, set_tokens, tokens_of
from domain.tapestry.commands import Choose
from domain.tapestry.engine import DECISIONS, Ctx
from domain.tapestry.gains import score
from domain.tapestry.rules import footprints
from domain.tapestry.state import Frame, SeatState, TapestryState

KEY = "urban_planners"
SOURCE = f"civ:{KEY}"
#: ``Choose`` index of "park it on the mat" on a landmark's placement.
PARK = 200


def parked(state: TapestryState, seat: int) -> list[int]:
    """The landmarks parked on ``seat``'s Urban Planners mat."""
    return tokens_of(state, seat, KEY, ())


def landmark_cells(player: SeatState) -> list[tuple[int, tuple[tuple[int, int], ...]]]:
    """Each landmark in ``player``'s capital with the plots it covers."""
    found = []
    for placed in player.buildings:
        if placed.landmark and placed.row >= 0:
            shapes = footprints("landmark", placed.landmark)
            where = (placed.row, placed.col, placed.orientation)
            cells = tuple(c for c in cap.footprint_at(shapes, where) if cap.on_grid(c))
            found.append((placed.landmark, cells))
    return found


def _touching(first: Iterable[tuple[int, int]], second: Iterable[tuple[int, int]]) -> bool:
    others = set(second)
    return any((r + dr, c + dc) in others for r, c in first for dr, dc in _STEPS)


_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def largest_group(player: SeatState) -> int:
    """The landmarks in ``player``'s largest orthogonally connected group of landmarks."""
    items = landmark_cells(player)
    seen: list[bool] = [False] * len(items)
    best = 0
    for start in range(len(items)):
        if seen[start]:
            continue
        seen[start], stack, size = True, [start], 0
        while stack:
            here = stack.pop()
            size += 1
            for other in range(len(items)):
                if not seen[other] and _touching(items[here][1], items[other][1]):
                    seen[other] = True
                    stack.append(other)
        best = max(best, size)
    return best


def group_vp(count: int) -> int:
    """VP for a group of ``count`` landmarks (the content's ``slots``)."""
    if count <= 0:
        return 0
    slots = C.CIVILIZATIONS[civ_id(KEY)].slots
    benefit = slots[min(count, len(slots)) - 1]
    return benefit.count if isinstance(benefit, C.Gain) else 0


# -- parking a landmark instead of placing it -----------------------------------------------------
_build_options, _build_answer = DECISIONS["build"]


def _build_opts(state: TapestryState, top: Frame) -> list[Command]:
    """The placements, and parking a landmark just gained on the mat."""
    found = _build_options(state, top)
    if top.token != "landmark" or top.source == SOURCE or not has_civ(state, top.seat, KEY):
        return found
    return [*found, Choose(index=PARK)]


def _build_ans(ctx: Ctx, top: Frame, command: Command) -> None:
    if isinstance(command, Choose) and command.index == PARK:
        set_tokens(ctx, top.seat, KEY, [*parked(ctx.state, top.seat), top.ints[0]])
        return
    _build_answer(ctx, top, command)


DECISIONS["build"] = (_build_opts, _build_ans)


# -- building a parked landmark at the start of a turn ---------------------------------------
_turn_options, _turn_answer = DECISIONS["turn"]


def _turn_opts(state: TapestryState, top: Frame) -> list[Command]:
    """The turn's choices, and building a parked landmark (its id) first."""
    found = _turn_options(state, top)
    if not has_civ(state, top.seat, KEY):
        return found
    return [*found, *(Choose(index=lm) for lm in sorted(set(parked(state, top.seat))))]


def _turn_ans(ctx: Ctx, top: Frame, command: Command) -> None:
    if not isinstance(command, Choose):
        _turn_answer(ctx, top, command)
        return
    rest = parked(ctx.state, top.seat)
    rest.remove(command.index)
    set_tokens(ctx, top.seat, KEY, rest)
    build = Frame(
        kind="build", seat=top.seat, token="landmark", ints=(command.index,), source=SOURCE
    )
    ctx.push(build, top)


DECISIONS["turn"] = (_turn_opts, _turn_ans)


# -- the last income turn ----------------------------------------------------------------------
def _after_income(ctx: Ctx, seat: int, era: int) -> None:
    """End of the fifth income turn: the largest group of connected landmarks scores."""
    if era >= 5 and has_civ(ctx.state, seat, KEY):
        score(ctx, seat, group_vp(largest_group(ctx.state.seats[seat])), SOURCE)


civs.AFTER_INCOME.append(_after_income)


def notes(lines: tuple[str, ...]) -> tuple[str, ...]:
    """A game's notes (GameSummary.notes, one line per box) with the Urban Planners' missing
    setup landmark added to the Arts & Architecture line."""
    box = "arts_and_architecture"
    extra = (
        "the 'Urban Center' landmark the source implementation gives the Urban Planners (a "
        "stand-in for landmark cards in none of our sources) is not given: they start without it"
    )
    return tuple(f"{line}; {extra}" if line.startswith(f"{box}:") else line for line in lines)
