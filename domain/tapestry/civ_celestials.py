"""Celestials (Fantasies & Futures): a capital floating above the map.

Rules (facts folder ``civilizations.json#41``, ``setup_rule``, ``notes``):

* Setup: one of the two starting outposts is replaced by a player token, the floating capital
  (:class:`~domain.tapestry.events.SkyCapitalMoved` with ``start``). The token is a piece:
  a territory holding it and another piece may not be conquered ("Conquête": 2 items), but it
  gives no control.
* Income turns 2-4: the Celestials may move the token to an adjacent territory, even one
  holding 2 outposts (:data:`MOVE`: ``Choose(index=hex)`` or ``Decline``); if they do, they
  roll the red and black dice and gain both faces. This is no conquest: no control, no
  achievement, no Trap. A seat holding the Psionics too (from ``tapestry/3``) throws each die
  once more and keeps one red and one black face (:data:`PICK`, as ``dice_pick``).
* Income turn 5: -2 VP per landmark hanging off the side of the capital (part of its
  footprint off the grid), +5 VP per landmark wholly inside it (:data:`HANGING_VP`,
  :data:`INSIDE_VP`).

* Gained during the game (``tapestry/3``; the mat: « If you gain this civilization mid-game,
  replace one outpost of your starting territory with a player token » and « you may discard
  it to draw another »): decision ``keep_gained_civilization`` (:data:`~domain.tapestry.civs.
  RETURNABLE`); kept, the token replaces one of the seat's outposts on its starting territory
  (``SkyCapitalMoved`` with ``start``), if one still stands there.
* From ``tapestry/3`` the outpost the token replaces goes back to the seat's supply, at setup
  as mid-game (a player has 10 outposts, « 10 par couleur »; the mat: « instead of placing 2
  outposts [...] place 1 upright outpost and a player token »): under ``tapestry/2`` it was
  lost.

Rebalancing: the rulebook's page has no Celestials entry: none.

Assumed (``decisions.json``): a face showing the conquered tile's benefit gives the benefit of
the territory the token moved to; a landmark set beside the capital (no room at all) is
neither hanging off nor inside: it scores nothing.
"""

from __future__ import annotations

from domain.core import Command
from domain.tapestry import capital as cap
from domain.tapestry import civs, mapping
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.civs import ADJUSTMENTS, INCOME
from domain.tapestry.commands import Choose, Decline
from domain.tapestry.engine import AUTO, DECISIONS, Ctx, expr_frame
from domain.tapestry.rules import board_neighbours, dump, extra_options, footprints, gain
from domain.tapestry.state import Frame, SeatState, TapestryState

KEY = "celestials"
START, MOVE = "celestials_start", "celestials_move"
#: the faces kept when the dice were thrown more than once (a seat holding the Psionics too).
PICK = "celestials_dice_pick"
#: income turns on which the token may move.
MOVE_TURNS: tuple[int, ...] = (2, 3, 4)
#: income turn 5: VP per landmark hanging off the capital, per landmark inside it.
HANGING_VP, INSIDE_VP = -2, 5
SOURCE = f"civ:{KEY}"


def token_hex(state: TapestryState, seat: int) -> int:
    """The board hex holding ``seat``'s floating capital (-1: none)."""
    for index, cell in enumerate(state.hexes):
        if any(o.seat == seat and o.piece == KEY for o in cell.outposts):
            return index
    return -1


# -- setup -----------------------------------------------------------------------------------
def _setup(state: TapestryState, seat: int) -> list[Frame]:
    return [Frame(kind=START, seat=seat, source=SOURCE)]


ADJUSTMENTS[KEY] = _setup


def _start(ctx: Ctx, top: Frame) -> None:
    home = ctx.state.seats[top.seat].home
    if home >= 0:
        ctx.emit(ev.SkyCapitalMoved(seat=top.seat, hex=home, start=True))


AUTO[START] = _start


def _kept(ctx: Ctx, seat: int) -> None:
    """Gained during the game and kept: the token replaces an outpost of the seat's starting
    territory, if one of its outposts still stands there."""
    home = ctx.state.seats[seat].home
    if home >= 0 and any(o.seat == seat and not o.piece for o in ctx.state.hexes[home].outposts):
        ctx.emit(ev.SkyCapitalMoved(seat=seat, hex=home, start=True))


civs.RETURNABLE[KEY] = _kept


# -- income turns ----------------------------------------------------------------------------
def _income(ctx: Ctx, seat: int, era: int) -> None:
    if era in MOVE_TURNS and token_hex(ctx.state, seat) >= 0:
        ctx.push(Frame(kind=MOVE, seat=seat, source=SOURCE))
    elif era >= 5:
        vp = landmark_vp(ctx.state.seats[seat])
        if vp:
            ctx.push(expr_frame(seat, gain("vp", vp), SOURCE))


INCOME[KEY] = _income


def _move_options(state: TapestryState, top: Frame) -> list[Command]:
    """An explored territory next to the token (its board index), or decline."""
    here = token_hex(state, top.seat)
    near = board_neighbours(state.board)[here]
    found = sorted(n for n in near if n >= 0 and state.hexes[n].explored)
    return [*(Choose(index=n) for n in found), Decline()]


def _face(seat: int, index: int, benefit: C.Benefit) -> Frame:
    if isinstance(benefit, C.Gain) and benefit.token == "gain_conquered_tile_benefit":
        return Frame(kind="tile_benefit", seat=seat, ints=(index,), source=SOURCE)
    return expr_frame(seat, dump(benefit), SOURCE)


def _roll(ctx: Ctx, seat: int, index: int) -> tuple[int, int]:
    red = ctx.chance.below(len(C.RED_DIE))
    black = ctx.chance.below(len(C.BLACK_DIE))
    ctx.emit(ev.ConquerDiceRolled(seat=seat, red=red, black=black))
    for hook in mapping.DICE_ROLLED:
        hook(ctx, seat, index, red, black)
    return red, black


def _move_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    if not isinstance(command, Choose):
        return
    seat, index = top.seat, command.index
    ctx.emit(ev.SkyCapitalMoved(seat=seat, hex=index))
    red, black = _roll(ctx, seat, index)
    reds, blacks = [red], [black]
    for _ in range(extra_options(ctx.state, seat)):  # the Psionics: each die thrown again
        red, black = _roll(ctx, seat, index)
        reds.append(red)
        blacks.append(black)
    pairs = mapping.dice_pairs(reds, blacks)
    if len(pairs) > 1:
        ints = (index, len(reds), *reds, *blacks)
        ctx.push(Frame(kind=PICK, seat=seat, ints=ints, source=SOURCE))
        return
    _gain_faces(ctx, seat, index, *pairs[0])


def _gain_faces(ctx: Ctx, seat: int, index: int, red: int, black: int) -> None:
    ctx.push(_face(seat, index, C.RED_DIE[red]), _face(seat, index, C.BLACK_DIE[black]))


DECISIONS[MOVE] = (_move_options, _move_answer)


def _pick_options(state: TapestryState, top: Frame) -> list[Command]:
    """Keep one red and one black face among the throws: ``Choose(index=red * 10 + black)``."""
    return mapping.pair_choices(top.ints[1:])


def _pick_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    red, black = divmod(command.index, 10)
    _gain_faces(ctx, top.seat, top.ints[0], red, black)


DECISIONS[PICK] = (_pick_options, _pick_answer)


# -- income turn 5 ---------------------------------------------------------------------------
def landmark_vp(player: SeatState) -> int:
    """-2 VP per landmark hanging off the capital's side, +5 VP per landmark inside it."""
    vp = 0
    for placed in player.buildings:
        if placed.building != "landmark" or placed.row == -99:
            continue
        shapes = footprints(placed.building, placed.landmark)
        cells = cap.footprint_at(shapes, (placed.row, placed.col, placed.orientation))
        vp += INSIDE_VP if all(cap.on_grid(c) for c in cells) else HANGING_VP
    return vp
