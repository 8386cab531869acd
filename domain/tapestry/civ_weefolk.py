"""Weefolk (Fantasies & Futures): clans living in the opponents' capitals.

Rules (facts folder ``civilizations.json#48``, ``effect_summary`` and ``notes``):

* At the start of income turns 2-5 the Weefolk give a player token to an opponent of their
  choice (:data:`GIVE`: ``Choose(index=seat)``). That opponent chooses a plot of its capital
  for it (:data:`PLOT`: ``Choose(index=row * 9 + col)``): the plot is now filled and counts
  for that capital's districts, rows and columns (a completed district gives its resource as
  any filled plot). A full capital: the token replaces an income building of their choice,
  set beside the capital (:class:`~domain.tapestry.events.ClanPlaced`).
* Income turns 2-4: the Weefolk may spend a territory tile from their supply to gain an
  income building of their choice (:data:`SWAP`: ``Choose(index=tile)`` or ``Decline``).
* Income turn 5 (after that turn's token): 1 VP per income building or landmark in the row
  and in the column of each token, counted once per matching row or column of each token.

* Gained during the game (``tapestry/3``; the mat: « At the start of income turns 2-5, or if
  you gain Weefolk mid-game, give a player token to an opponent »): one token at once
  (:data:`GIVE`).

A token's plot is marked ``"W"`` in the opponent's grid. Rebalancing: the rulebook's page has
no Weefolk entry: none. Not in solo games (``solo_allowed`` false).

Assumed (``decisions.json``): a full capital's token replaces an income building (a landmark
covers several plots); with no empty plot and no income building in the grid the token is not
placed; a finished opponent gains no district resource ("FIN DE PARTIE").
"""

from __future__ import annotations

from domain.core import Command
from domain.tapestry import capital as cap
from domain.tapestry import events as ev
from domain.tapestry.civs import INCOME, ON_GAIN
from domain.tapestry.commands import Choose, Decline
from domain.tapestry.engine import AUTO, DECISIONS, Ctx, expr_frame
from domain.tapestry.rules import footprints, gain, grid_of
from domain.tapestry.state import BUILDINGS, Frame, SeatState, TapestryState

KEY = "weefolk"
GIVE, PLOT, SWAP, SCORE = "weefolk_give", "weefolk_plot", "weefolk_swap", "weefolk_score"
#: the mark of a Weefolk token in a capital grid.
MARK = "W"
#: income turns of the territory-for-building swap.
SWAP_TURNS: tuple[int, ...] = (2, 3, 4)
SOURCE = f"civ:{KEY}"


def _income(ctx: Ctx, seat: int, era: int) -> None:
    if era < 2 or ctx.state.n < 2:
        return
    frames = [Frame(kind=GIVE, seat=seat, source=SOURCE)]
    if era in SWAP_TURNS and ctx.state.seats[seat].territory:
        frames.append(Frame(kind=SWAP, seat=seat, source=SOURCE))
    elif era >= 5:
        frames.append(Frame(kind=SCORE, seat=seat, source=SOURCE))
    ctx.push(*frames)


INCOME[KEY] = _income


def _gained(ctx: Ctx, seat: int) -> None:
    """Gained during the game: a token for an opponent at once."""
    if ctx.state.n >= 2:
        ctx.push(Frame(kind=GIVE, seat=seat, source=SOURCE))


ON_GAIN[KEY] = _gained


# -- a token for an opponent -------------------------------------------------------------------
def _give_options(state: TapestryState, top: Frame) -> list[Command]:
    """The opponent (its seat) who receives the token."""
    return [Choose(index=s) for s in range(state.n) if s != top.seat]


def _give_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    ctx.push(Frame(kind=PLOT, seat=command.index, ints=(top.seat,), source=SOURCE))


DECISIONS[GIVE] = (_give_options, _give_answer)


def _income_plots(player: SeatState) -> list[tuple[int, int]]:
    """Plots holding an income building (a full capital's choices)."""
    marks = {b[0].upper() for b in BUILDINGS}
    return [
        (r, c)
        for r in range(cap.SIZE)
        for c in range(cap.SIZE)
        if player.grid_filled and player.grid_filled[r][c] in marks
    ]


def plots(player: SeatState) -> list[tuple[int, int]]:
    """Plots the token may take: the empty ones, else (a full capital) those of income
    buildings."""
    if not player.grid_filled:
        return []
    empty = list(cap.empty_cells(grid_of(player)))
    return sorted(empty) if empty else _income_plots(player)


def _plot_options(state: TapestryState, top: Frame) -> list[Command]:
    """The plot (``row * 9 + col``) of the capital that takes the token."""
    found = plots(state.seats[top.seat])
    return [Choose(index=r * cap.SIZE + c) for r, c in found] or [Decline()]


def _plot_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    if not isinstance(command, Choose):
        return
    seat, owner = top.seat, top.ints[0]
    player = ctx.state.seats[seat]
    row, col = divmod(command.index, cap.SIZE)
    mark = player.grid_filled[row][col]
    set_aside = next((b for b in BUILDINGS if b[0].upper() == mark), "")
    before = grid_of(player)
    ctx.emit(ev.ClanPlaced(seat=seat, owner=owner, row=row, col=col, set_aside=set_aside))
    for district in cap.completed_districts(before, grid_of(ctx.state.seats[seat])):
        ctx.emit(ev.DistrictCompleted(seat=seat, district=district))
        if not player.finished:
            ctx.push(Frame(kind="resource", seat=seat, ints=(1,), source="district"))


DECISIONS[PLOT] = (_plot_options, _plot_answer)


# -- income turns 2-4: a territory tile for an income building --------------------------------
def _swap_options(state: TapestryState, top: Frame) -> list[Command]:
    """Spend a territory tile (its id) for an income building of your choice, or decline."""
    tiles = sorted(set(state.seats[top.seat].territory))
    return [*(Choose(index=t) for t in tiles), Decline()]


def _swap_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    if isinstance(command, Choose):
        ctx.emit(ev.TilesDiscarded(seat=top.seat, tiles=(command.index,)))
        ctx.push(expr_frame(top.seat, gain("gain_any_income_building"), SOURCE))


DECISIONS[SWAP] = (_swap_options, _swap_answer)


# -- income turn 5: buildings in the tokens' rows and columns ---------------------------------
def building_cells(player: SeatState) -> list[tuple[tuple[int, int], ...]]:
    """The on-grid plots of each income building and landmark in ``player``'s capital."""
    found: list[tuple[tuple[int, int], ...]] = []
    for placed in player.buildings:
        if placed.row == -99:
            continue
        shapes = footprints(placed.building, placed.landmark)
        cells = cap.footprint_at(shapes, (placed.row, placed.col, placed.orientation))
        on = tuple(c for c in cells if cap.on_grid(c))
        if on:
            found.append(on)
    return found


def clan_vp(player: SeatState) -> int:
    """1 VP per building in the row and per building in the column of each token of
    ``player``'s capital."""
    if not player.grid_filled:
        return 0
    tokens = [
        (r, c) for r in range(cap.SIZE) for c in range(cap.SIZE) if player.grid_filled[r][c] == MARK
    ]
    buildings = building_cells(player)
    vp = 0
    for row, col in tokens:
        vp += sum(1 for cells in buildings if any(r == row for r, _ in cells))
        vp += sum(1 for cells in buildings if any(c == col for _, c in cells))
    return vp


def _score(ctx: Ctx, top: Frame) -> None:
    state = ctx.state
    vp = sum(clan_vp(state.seats[s]) for s in range(state.n) if s != top.seat)
    if vp:
        ctx.push(expr_frame(top.seat, gain("vp", vp), SOURCE))


AUTO[SCORE] = _score
