"""Riverfolk (Peuple de la Rivière, Plans & Ploys): buildings on the capital's impassable plots.

Facts: the facts folder's record (``civilizations.json#35``: « Setup: 4 VP per capital
district with 2+ impassable plots. You may build on impassable plots. Covering a district's
last impassable plot gives 1 any resource. Final income: lose 1 VP per uncovered impassable
plot. »; no income ability on turns 2-5), the rulebook's "RÉÉQUILIBRAGE DES CIVILISATIONS"
(« PEUPLE DE LA RIVIÈRE Vous ne pouvez pas choisir la Ville du Ciel [...] »: an advanced
capital none of our sources describes, so nothing to enforce). Our content:
``content/civilizations_plans_and_ploys.json#35``; readings the sources leave open are records
of ``decisions.json`` (``riverfolk_*``).

* Setup (token ``riverfolk_districts_vp``): 4 VP per district of the capital holding at least
  two impassable plots.
* Building: every placement a clear capital allows is offered (impassable plots count as
  empty); the impassable plots a building covers stop being impassable (``PlotsCleared``), and
  a district whose last impassable plot was just covered gives 1 resource of choice (on top of
  the district's own resource when the building also completes it).
* Final income (income turn 5): minus 1 VP per impassable plot left uncovered.

Gained during the game (``tapestry/3``; « May discard it and draw another »): decision
``keep_gained_civilization`` (:data:`~domain.tapestry.civs.RETURNABLE`); kept, nothing else
happens (the setup's VP are the starting mat's); given back, another is drawn. Under
``tapestry/2`` it is dealt only, never gained mid-game.
"""

from __future__ import annotations

from domain.core import Command
from domain.tapestry import capital as cap
from domain.tapestry import civs
from domain.tapestry import events as ev
from domain.tapestry.commands import PlaceBuilding
from domain.tapestry.engine import DECISIONS, TOKENS, Ctx
from domain.tapestry.gains import OUTSIDE, score
from domain.tapestry.rules import footprints, has_active
from domain.tapestry.state import Frame, TapestryState

KEY = "riverfolk"
BOX = "plans_and_ploys"
#: VP at the start per district holding :data:`MIN_PLOTS` impassable plots or more.
DISTRICT_VP = 4
MIN_PLOTS = 2
#: VP lost at the final income per impassable plot left uncovered.
PLOT_PENALTY = -1
_CLEAR = ("0" * cap.SIZE,) * cap.SIZE


def impassable(state: TapestryState, seat: int) -> list[tuple[int, int]]:
    """The capital's uncovered impassable plots, row-major."""
    rows = state.seats[seat].grid_blocked
    return [
        (r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == cap.IMPASSABLE
    ]


def per_district(state: TapestryState, seat: int) -> list[int]:
    """Uncovered impassable plots in each district (0..8)."""
    counts = [0] * 9
    for cell in impassable(state, seat):
        counts[cap.district_of(cell)] += 1
    return counts


def setup_vp(state: TapestryState, seat: int) -> int:
    """The setup's points: :data:`DISTRICT_VP` per district with 2+ impassable plots."""
    return DISTRICT_VP * sum(1 for n in per_district(state, seat) if n >= MIN_PLOTS)


def _districts_vp(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
    score(ctx, seat, setup_vp(ctx.state, seat), f"civ:{KEY}")


TOKENS["riverfolk_districts_vp"] = _districts_vp


# -- building on impassable plots ------------------------------------------------------------
_inner_options, _inner_answer = DECISIONS["build"]


def _terraforming(state: TapestryState, seat: int) -> bool:
    player = state.seats[seat]
    return not player.finished and has_active(player, "terraforming")


def _options(state: TapestryState, top: Frame) -> list[Command]:
    """A Riverfolk's capital placements ignore impassable plots; other answers (a Craftsman's
    column, a Nomad's map) are kept."""
    found = _inner_options(state, top)
    if not civs.has_civ(state, top.seat, KEY):
        return found
    open_grid = cap.CapitalGrid(blocked=_CLEAR, filled=tuple(state.seats[top.seat].grid_filled))
    shapes = footprints(top.token, top.ints[0] if top.ints else 0)
    spots = cap.distinct_placements(open_grid, shapes)
    others = [c for c in found if not isinstance(c, PlaceBuilding)]
    if not spots:
        return [*(c for c in found if isinstance(c, PlaceBuilding)), *others]
    return [*(PlaceBuilding(row=r, col=c, orientation=o) for r, c, o in spots), *others]


def _answer(ctx: Ctx, top: Frame, command: Command) -> None:
    """Covered impassable plots are cleared first; then the usual placement; then 1 resource
    per district whose last impassable plot was just covered."""
    seat = top.seat
    if not isinstance(command, PlaceBuilding) or not civs.has_civ(ctx.state, seat, KEY):
        _inner_answer(ctx, top, command)
        return
    before = per_district(ctx.state, seat)
    if command.row != OUTSIDE and not _terraforming(ctx.state, seat):
        shapes = footprints(top.token, top.ints[0] if top.ints else 0)
        placement = (command.row, command.col, command.orientation)
        blocked = ctx.state.seats[seat].grid_blocked
        rocky = tuple(
            (r, c)
            for r, c in cap.footprint_at(shapes, placement)
            if cap.on_grid((r, c)) and blocked[r][c] == cap.IMPASSABLE
        )
        if rocky:
            ctx.emit(ev.PlotsCleared(seat=seat, cells=rocky))
    _inner_answer(ctx, top, command)
    after = per_district(ctx.state, seat)
    for district in range(9):
        if before[district] and not after[district]:
            ctx.push(Frame(kind="resource", seat=seat, ints=(1,), source=f"civ:{KEY}"))


DECISIONS["build"] = (_options, _answer)


# -- final income ----------------------------------------------------------------------------
def _income(ctx: Ctx, seat: int, era: int) -> None:
    """Final income: minus 1 VP per impassable plot left uncovered."""
    if era >= 5:
        score(ctx, seat, PLOT_PENALTY * len(impassable(ctx.state, seat)), f"civ:{KEY}")


civs.INCOME[KEY] = _income
civs.BOX_CIVILIZATIONS.setdefault(BOX, []).append(KEY)
civs.BOX_GAINABLE.setdefault(BOX, []).append(KEY)
civs.GAINABLE_FROM[KEY] = 3
civs.RETURNABLE[KEY] = None
