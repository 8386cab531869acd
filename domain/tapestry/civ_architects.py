"""Architects (Architectes): capitals built from one type of income building pay more.

Rules (player aid, "CIVILISATIONS / Architectes"; facts folder ``civilizations.json#2``):

* completing a district whose income buildings (at least one) are all of one type gives 1
  extra resource of your choice, on top of the district's own resource;
* each time the capital is scored, every complete row or column whose income buildings (at
  least one) are all of one type gives 1 extra VP;
* gained during the game: swap the places of two income buildings of your capital, up to
  three times (:data:`SWAP`).

Rebalancing (rulebook, "RÉÉQUILIBRAGE DES CIVILISATIONS / ARCHITECTES", which wins over the
player aid's "+10 VP per opponent", see RULEBOOK_CROSSCHECK C1): a *starting* Architect puts
1 cube per opponent on empty plots of its capital, each in a different district; the cubes
are impassable plots (:data:`CUBE`). A cube that fills the last plot of a district completes
it, as a building would ("COMPLÉTER DES DISTRICTS": impassable plots count as filled).

Assumed (our reading of "Bâtiment" on the aid, following the facts folder's "income
buildings"): landmarks neither count as a type nor spoil a uniform district, row or column;
only income buildings (market, house, farm, armory) are compared.
"""

from __future__ import annotations

from domain.core import Command, Event
from domain.tapestry import capital as cap
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry import scoring  # noqa: F401  (its "score_capital" token is wrapped here)
from domain.tapestry.civs import ADJUSTMENTS, civ_id, has_civ
from domain.tapestry.commands import Choose, Decline, PlaceBuilding
from domain.tapestry.engine import AFTER_EMIT, DECISIONS, TOKENS, Ctx, TokenHandler
from domain.tapestry.gains import score
from domain.tapestry.rules import grid_of
from domain.tapestry.state import BUILDINGS, Frame, SeatState, TapestryState

KEY = "architects"
#: decision kinds: place one adjustment cube; swap two income buildings (gained mid-game).
CUBE, SWAP = "architects_cube", "architects_swap"
#: swaps allowed when the civilization is gained during the game.
SWAPS = 3
#: the capital marks of income buildings (``evolve``: first letter, upper case).
INCOME_MARKS: frozenset[str] = frozenset(b[0].upper() for b in BUILDINGS)
_CELLS = 81


def uniform(marks: list[str]) -> bool:
    """``True`` when the income buildings among ``marks`` are at least one and of one type."""
    income = {m for m in marks if m in INCOME_MARKS}
    return len(income) == 1


def _line_marks(grid: cap.CapitalGrid, cells: list[cap.Cell]) -> list[str] | None:
    """The marks of a line of plots, ``None`` when the line is not complete."""
    if any(grid.is_empty(c) for c in cells):
        return None
    return [grid.mark(c) for c in cells]


def uniform_lines(seat: SeatState) -> int:
    """Complete rows and columns of the capital whose income buildings are of one type."""
    grid = grid_of(seat)
    count = 0
    for i in range(cap.SIZE):
        for cells in (
            [(i, c) for c in range(cap.SIZE)],
            [(r, i) for r in range(cap.SIZE)],
        ):
            marks = _line_marks(grid, cells)
            if marks is not None and uniform(marks):
                count += 1
    return count


# -- capital scoring -----------------------------------------------------------------------
_score_capital: TokenHandler = TOKENS["score_capital"]


def _score_capital_architects(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
    """Capital scoring, then 1 VP per uniform complete row or column for an Architect."""
    _score_capital(ctx, seat, count, top)
    if has_civ(ctx.state, seat, KEY):
        score(ctx, seat, count * uniform_lines(ctx.state.seats[seat]), f"civ:{KEY}")


TOKENS["score_capital"] = _score_capital_architects


# -- districts and mid-game gain -----------------------------------------------------------
def _after_emit(ctx: Ctx, event: Event) -> None:
    """A uniform district completed pays a resource; gaining the mat offers the swaps."""
    if isinstance(event, ev.DistrictCompleted) and has_civ(ctx.state, event.seat, KEY):
        grid = grid_of(ctx.state.seats[event.seat])
        marks = [grid.mark(c) for c in cap.district_cells(event.district)]
        if uniform(marks):
            ctx.push(Frame(kind="resource", seat=event.seat, ints=(1,), source=f"civ:{KEY}"))
    elif isinstance(event, ev.CivilizationGained) and event.civilization == civ_id(KEY):
        ctx.push(Frame(kind=SWAP, seat=event.seat, ints=(SWAPS,), source=f"civ:{KEY}"))


AFTER_EMIT.append(_after_emit)


def _income_cells(seat: SeatState) -> list[tuple[int, str]]:
    """``(row * 9 + col, mark)`` of every income building in the capital, row-major."""
    return [
        (r * cap.SIZE + c, seat.grid_filled[r][c])
        for r in range(cap.SIZE)
        for c in range(cap.SIZE)
        if seat.grid_filled[r][c] in INCOME_MARKS
    ]


def swap_pairs(seat: SeatState) -> list[tuple[int, int]]:
    """Pairs of plots (``row * 9 + col``, ascending) holding income buildings of two types."""
    cells = _income_cells(seat)
    return [
        (a, b)
        for i, (a, mark_a) in enumerate(cells)
        for b, mark_b in cells[i + 1 :]
        if mark_a != mark_b
    ]


def _swap_options(state: TapestryState, top: Frame) -> list[Command]:
    """``Choose(first * 81 + second)`` for each swap (plots as ``row * 9 + col``), or stop."""
    pairs = swap_pairs(state.seats[top.seat])
    return [*(Choose(index=a * _CELLS + b) for a, b in pairs), Decline()]


def _swap_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    if isinstance(command, Decline):
        return
    assert isinstance(command, Choose)
    a, b = divmod(command.index, _CELLS)
    first, second = divmod(a, cap.SIZE), divmod(b, cap.SIZE)
    ctx.emit(ev.BuildingsSwapped(seat=top.seat, first=first, second=second))
    if top.ints[0] > 1:
        ctx.push(Frame(kind=SWAP, seat=top.seat, ints=(top.ints[0] - 1,), source=top.source))


DECISIONS[SWAP] = (_swap_options, _swap_answer)


# -- rebalancing: impassable cubes ---------------------------------------------------------
def cube_cells(seat: SeatState) -> list[cap.Cell]:
    """Plots made impassable by cubes: impassable now, buildable on the printed capital."""
    printed = C.CAPITALS[seat.capital].grid
    return [
        (r, c)
        for r in range(cap.SIZE)
        for c in range(cap.SIZE)
        if seat.grid_blocked[r][c] == cap.IMPASSABLE and printed[r][c] == cap.BUILDABLE
    ]


def _cube_frames(state: TapestryState, seat: int) -> list[Frame]:
    """One cube to place per opponent ("RÉÉQUILIBRAGE DES CIVILISATIONS / ARCHITECTES")."""
    return [Frame(kind=CUBE, seat=seat, source=f"adjustment:{KEY}") for _ in range(state.n - 1)]


ADJUSTMENTS[KEY] = _cube_frames


def _cube_options(state: TapestryState, top: Frame) -> list[Command]:
    """Every empty plot of a district without a cube yet."""
    player = state.seats[top.seat]
    used = {cap.district_of(cell) for cell in cube_cells(player)}
    return [
        PlaceBuilding(row=r, col=c)
        for r, c in cap.empty_cells(grid_of(player))
        if cap.district_of((r, c)) not in used
    ]


def _cube_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, PlaceBuilding)
    before = grid_of(ctx.state.seats[top.seat])
    ctx.emit(ev.PlotsBlocked(seat=top.seat, cells=((command.row, command.col),)))
    after = grid_of(ctx.state.seats[top.seat])
    for district in cap.completed_districts(before, after):
        ctx.emit(ev.DistrictCompleted(seat=top.seat, district=district))
        ctx.push(Frame(kind="resource", seat=top.seat, ints=(1,), source="district"))


DECISIONS[CUBE] = (_cube_options, _cube_answer)
