"""Artificers (Fantasies & Futures): buildings pulled along the income mat.

Rules (facts folder ``civilizations.json#40``, ``effect_summary``, income turns 2-5):

* Income turns 2-4 (step 1): select one income track; its leftmost building may be set aside,
  out of the capital (``BuildingSetAside``), or, with an empty space to its left, slid left
  onto that space, uncovering the space it stood on (``BuildingSlid``). Decision
  :data:`MOVE`: ``Choose(index=track * 10 + action)`` (track in ``BUILDINGS`` order; action
  :data:`SET_ASIDE` or :data:`SLIDE`), or ``Decline``. Buildings are still taken from the left
  afterwards, the income and VP those of the spaces that show
  (:func:`~domain.tapestry.rules.visible_spaces`).
* Income turn 5: either 1 VP per income building in the capital (:data:`FINAL`:
  ``Choose(0)``), or every building of one track slid as far left as it goes
  (``Choose(index=10 + track)``), or ``Decline``.

The income mat keeps where each building stands (``SeatState.covered``): one mechanism for
every seat, unused by the others.

Rebalancing: the rulebook's page has no Artificers entry (its ARTISANS are the Craftsmen):
none. Gained during the game (``tapestry/3``): the mat prints no mid-game rule, nothing
more happens.

Assumed (``decisions.json`` ``artificers_mat``): a slide moves the building one space, onto the
space just left of it, when that space is empty; space 1 of a track (always showing, no
building printed on it) never takes a building; a building set aside is no longer the seat's
(no VP per income building, no capital plot); a track's position for a tech card's
requirement stays the count of buildings taken off it.
"""

from __future__ import annotations

from domain.core import Command
from domain.tapestry import events as ev
from domain.tapestry.civs import INCOME
from domain.tapestry.commands import Choose, Decline
from domain.tapestry.engine import DECISIONS, Ctx, expr_frame
from domain.tapestry.rules import covered_spaces, gain
from domain.tapestry.state import BUILDINGS, Frame, SeatState, TapestryState

KEY = "artificers"
MOVE, FINAL = "artificers_move", "artificers_final"
SOURCE = f"civ:{KEY}"
#: the actions of income turns 2-4 (the decision's units).
SET_ASIDE, SLIDE = 0, 1
#: income turn 5: score the capital's income buildings (else ``10 + track``: slide a track).
SCORE = 0
#: the first space a building may stand on (space 0 always shows).
FIRST = 1


def moves(player: SeatState) -> list[tuple[int, int]]:
    """``(track, action)``: each income track with a building on the mat may set its leftmost
    one aside, and slide it one space left onto an empty building space."""
    found: list[tuple[int, int]] = []
    for track, building in enumerate(BUILDINGS):
        spaces = covered_spaces(player, building)
        if not spaces:
            continue
        found.append((track, SET_ASIDE))
        if spaces[0] - 1 >= FIRST:
            found.append((track, SLIDE))
    return found


def packed(spaces: list[int]) -> list[int]:
    """The spaces covered once every building slid as far left as it goes."""
    return list(range(FIRST, FIRST + len(spaces)))


def slide_all_tracks(player: SeatState) -> list[int]:
    """The tracks whose buildings can slide further left."""
    found: list[int] = []
    for track, building in enumerate(BUILDINGS):
        spaces = covered_spaces(player, building)
        if spaces != packed(spaces):
            found.append(track)
    return found


def capital_buildings(player: SeatState) -> int:
    """Income buildings placed in the capital (not beside it, not landmarks)."""
    return sum(1 for b in player.buildings if b.building in BUILDINGS and b.row != -99)


def _income(ctx: Ctx, seat: int, era: int) -> None:
    if 2 <= era <= 4:
        if moves(ctx.state.seats[seat]):
            ctx.push(Frame(kind=MOVE, seat=seat, source=SOURCE))
    elif era >= 5:
        ctx.push(Frame(kind=FINAL, seat=seat, source=SOURCE))


INCOME[KEY] = _income


def _move_options(state: TapestryState, top: Frame) -> list[Command]:
    """Set aside or slide the leftmost building of a track (``track * 10 + action``), or
    decline."""
    found = moves(state.seats[top.seat])
    return [*(Choose(index=t * 10 + a) for t, a in found), Decline()]


def _move_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    if not isinstance(command, Choose):
        return
    track, action = divmod(command.index, 10)
    building = BUILDINGS[track]
    if action == SET_ASIDE:
        ctx.emit(ev.BuildingSetAside(seat=top.seat, building=building))
        return
    origin = covered_spaces(ctx.state.seats[top.seat], building)[0]
    ctx.emit(ev.BuildingSlid(seat=top.seat, building=building, origin=origin, to=origin - 1))


DECISIONS[MOVE] = (_move_options, _move_answer)


def _final_options(state: TapestryState, top: Frame) -> list[Command]:
    """Score 1 VP per income building in the capital (0), slide a whole track left
    (``10 + track``), or decline."""
    tracks = slide_all_tracks(state.seats[top.seat])
    return [Choose(index=SCORE), *(Choose(index=10 + t) for t in tracks), Decline()]


def _final_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    if not isinstance(command, Choose):
        return
    seat = top.seat
    player = ctx.state.seats[seat]
    if command.index == SCORE:
        vp = capital_buildings(player)
        if vp:
            ctx.push(expr_frame(seat, gain("vp", vp), SOURCE))
        return
    building = BUILDINGS[command.index - 10]
    spaces = covered_spaces(player, building)
    for origin, to in zip(spaces, packed(spaces), strict=True):
        if origin != to:
            ctx.emit(ev.BuildingSlid(seat=seat, building=building, origin=origin, to=to))


DECISIONS[FINAL] = (_final_options, _final_answer)
