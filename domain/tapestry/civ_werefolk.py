"""Werefolk (Loups-Garous, Fantasies & Futures): a space tile tossed like a coin each income
turn decides between a feral step back and a civilized step forward.

Rules (facts folder ``civilizations.json#49``; rulebook F.À.Q. "PLATEAUX CIVILISATION
PARTICULIERS", FF): at the start of income turns 2-5, discard the space tile on the mat if
there is one, then gain a random space tile and flip it.

* Face up: you may regress on 1 track, with neither benefit nor bonus (:data:`REGRESS`:
  ``Choose(index=track)`` or ``Decline``). If you regressed, you explore with the space tile by
  placing it on the mat (its benefit is gained as for any explored space tile); the F.À.Q.:
  only a token that actually moves back allows it, so a track whose tokens all stand on the
  start space is not offered. If you did not regress, gain 4 VP (:data:`NO_REGRESS_VP`).
* Face down: advance on 1 track (:data:`ADVANCE`: ``Choose(index=track)``), gaining the
  benefit and the bonus for free (``tracks.FULL_FREE``).

A tile not explored stays in your supply, as any space tile.

Assumed: the flip is a fair coin (one draw of two sides, the mat says "like a coin"); a
discarded mat tile leaves the game (it stays out of the space tile stack). With the stack
empty, no tile is gained and nothing else happens. Rebalancing: the rulebook's page has no
Werefolk entry: none.

Mat state (``civ_tokens["werefolk"]``): ``[mat_tile, tile, side]``: the space tile on the mat
(0: none), the tile flipped last and how it landed (:data:`FACE_UP` or :data:`FACE_DOWN`).
"""

from __future__ import annotations

from domain.core import Command
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.civs import INCOME, set_tokens, tokens_of
from domain.tapestry.commands import Choose, Decline
from domain.tapestry.engine import AUTO, DECISIONS, TOKENS, Ctx, expr_frame
from domain.tapestry.gains import score
from domain.tapestry.rules import extra_options
from domain.tapestry.state import TRACK_IDS, Frame, TapestryState
from domain.tapestry.tracks import FULL_FREE, NONE, advance_frame, blocked, token_choices

KEY = "werefolk"
REGRESS = "werefolk_regress"
ADVANCE = "werefolk_advance"
#: the flip of a tile chosen among several draws (a seat holding the Psionics too).
FLIP = "werefolk_flip"
#: VP when the tile lands face up and you do not regress.
NO_REGRESS_VP = 4
FACE_UP, FACE_DOWN = 1, 2
EMPTY: tuple[int, ...] = (0, 0, 0)


def mat(state: TapestryState, seat: int) -> list[int]:
    """``seat``'s Werefolk mat: tile on the mat, last tile flipped, its side."""
    return tokens_of(state, seat, KEY, EMPTY)


def _income(ctx: Ctx, seat: int, era: int) -> None:
    """Discard the mat's tile, gain a random one and flip it (one ``CivTokensSet``). A seat
    with extra options on random gains (the Psionics, held with the Werefolk from
    ``tapestry/3``) first chooses the tile among its draws: the flip waits for it
    (:data:`FLIP`)."""
    before = len(ctx.state.seats[seat].space)
    if extra_options(ctx.state, seat):
        ctx.push(Frame(kind=FLIP, seat=seat, ints=(before,), source=f"civ:{KEY}"))
        TOKENS["gain_space_tile"](ctx, seat, 1, Frame(kind="expr", seat=seat))
        return
    TOKENS["gain_space_tile"](ctx, seat, 1, Frame(kind="expr", seat=seat))
    _flip(ctx, seat, before)


def _flip_frame(ctx: Ctx, top: Frame) -> None:
    _flip(ctx, top.seat, top.ints[0])


def _flip(ctx: Ctx, seat: int, before: int) -> None:
    """The space tile just gained (if the supply grew past ``before``) is flipped."""
    values = mat(ctx.state, seat)
    supply = ctx.state.seats[seat].space
    if len(supply) == before:  # the stack is empty: the mat's tile is discarded all the same
        if values[0]:
            set_tokens(ctx, seat, KEY, [0, *values[1:]])
        return
    tile = supply[-1]
    side = FACE_UP if ctx.chance.below(2) == 0 else FACE_DOWN
    set_tokens(ctx, seat, KEY, [0, tile, side])
    kind = REGRESS if side == FACE_UP else ADVANCE
    ctx.push(Frame(kind=kind, seat=seat, ints=(tile,), source=f"civ:{KEY}"))


INCOME[KEY] = _income
AUTO[FLIP] = _flip_frame


def _regress_options(state: TapestryState, top: Frame) -> list[Command]:
    """Tracks with a token that can move back, and ``Decline`` (4 VP)."""
    tracks = state.seats[top.seat].tracks
    found: list[Command] = [
        Choose(index=t) for t in range(len(TRACK_IDS)) if token_choices(tracks[t], backward=True)
    ]
    return [*found, Decline()]


def _regress_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    seat = top.seat
    if isinstance(command, Decline):
        score(ctx, seat, NO_REGRESS_VP, f"civ:{KEY}")
        return
    assert isinstance(command, Choose)
    ctx.push(
        Frame(kind="regress", seat=seat, ints=(command.index, NONE), source=f"civ:{KEY}"),
        Frame(kind="werefolk_explore", seat=seat, ints=top.ints, source=f"civ:{KEY}"),
    )


DECISIONS[REGRESS] = (_regress_options, _regress_answer)


def _explore(ctx: Ctx, top: Frame) -> None:
    """The tile goes on the mat, explored: its benefit is gained."""
    seat, tile = top.seat, top.ints[0]
    if tile not in ctx.state.seats[seat].space:
        return
    ctx.emit(ev.SpaceTileExplored(seat=seat, tile=tile))
    values = mat(ctx.state, seat)
    values[0] = tile
    set_tokens(ctx, seat, KEY, values)
    ctx.push(expr_frame(seat, C.SPACE_TILES[tile].benefit, f"space:{tile}"))


AUTO["werefolk_explore"] = _explore


def _advance_options(state: TapestryState, top: Frame) -> list[Command]:
    """Tracks where a token can move forward (not closed by a card)."""
    tracks = state.seats[top.seat].tracks
    return [
        Choose(index=t)
        for t in range(len(TRACK_IDS))
        if token_choices(tracks[t]) and not blocked(state, top.seat, t)
    ]


def _advance_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    ctx.push(advance_frame(top.seat, command.index, FULL_FREE, f"civ:{KEY}"))


DECISIONS[ADVANCE] = (_advance_options, _advance_answer)
