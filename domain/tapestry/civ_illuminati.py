"""Illuminati (Fantasies & Futures): the three dice live on their mat.

Rules (facts folder ``civilizations.json#45``, ``setup_rule``, ``notes``): at setup the
Illuminati draw 3 tapestry cards, keep 1 and discard the other 2 (:data:`KEEP`:
``Choose(index=card)``), and put the three dice (science, red, black) on their mat.

* An opponent rolling the conquer dice while they are on the mat takes them: the Illuminati
  gain both faces rolled (after the conqueror's own benefits), and the dice stay off the mat.
  A conquer die thrown alone (a Treasure Hunters treasure, ``DieRolled``) is taken the same
  way: its face is gained and that die alone stays off the mat.
* An opponent rolling the science die while it is on the mat takes it: the Illuminati may
  advance on the track rolled, without benefit or bonus (:data:`ADVANCE`: ``Choose(0)`` or
  ``Decline``), and the die stays off the mat.
* The Illuminati's own rolls return the die to the mat: a die on the mat stays there, one off
  it stays off. An opponent's reroll finds the die already off the mat: only the first roll
  counts.
* Income turns 2-5: 6 VP per die still on the mat (:data:`VP_PER_DIE`), then all three dice
  go back onto it.

Mat state (``civ_tokens["illuminati"]``): ``[science, red, black]``, 1 for a die on the mat.

Gained during the game (``tapestry/3``; the mat: « or if you gain the Illuminati mid-game,
draw 3 [TAPESTRY], keep 1 [...] Then, place all 3 dice on this mat »): the setup's draw, and
the dice start on the mat.

The facts' "discard this civilization if each player has their own dice" does not arise: the
engine plays with one set of dice. Rebalancing: the rulebook's page has no Illuminati entry:
none. Not in solo games (facts folder: ``solo_allowed`` false).

A finished Illuminati (after income turn 5; ``decisions.json#illuminati_dice``): up to
``tapestry/3`` it gains nothing more from dice taken and the dice stay as they are; from
``tapestry/4`` it still takes the conquer dice an opponent rolls while they are on its mat and
scores their faces that are points, nothing else (« vous pouvez toujours gagner des points
grâce à des capacités passives de civilisation », FIN DE PARTIE, rulebook l.546); the science
die, which gives no points, stays where it is.
"""

from __future__ import annotations

from domain.core import Command
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry import mapping, tracks
from domain.tapestry.civs import ADJUSTMENTS, INCOME, ON_GAIN, has_civ, set_tokens, tokens_of
from domain.tapestry.commands import Choose, Decline
from domain.tapestry.engine import AUTO, DECISIONS, Ctx, expr_frame
from domain.tapestry.gains import draw_tapestry
from domain.tapestry.rules import dump, extra_options, gain
from domain.tapestry.state import Frame, TapestryState
from domain.tapestry.tracks import NONE, advance_frame, blocked, token_choices

KEY = "illuminati"
DRAW, KEEP, ADVANCE = "illuminati_draw", "illuminati_keep", "illuminati_advance"
#: indices of the dice in the mat state.
SCIENCE, RED, BLACK = 0, 1, 2
#: every die on the mat (the setup and each income turn's return).
ALL_ON: tuple[int, ...] = (1, 1, 1)
#: VP per die still on the mat at the start of income turns 2-5.
VP_PER_DIE = 6
#: tapestry cards drawn at setup (one kept).
DRAWN = 3


def dice_on_mat(state: TapestryState, seat: int) -> list[int]:
    """``[science, red, black]``: 1 for each die on ``seat``'s Illuminati mat."""
    return tokens_of(state, seat, KEY, ALL_ON)


def _holders(state: TapestryState, roller: int, points: bool = False) -> list[int]:
    """Seats other than ``roller`` holding the Illuminati, in seat order: those still playing,
    and with ``points`` (dice whose faces may be points) from ``tapestry/4`` the finished ones
    too (:func:`_scores`)."""
    late = points and state.rules.revision >= 4
    return [
        s
        for s in range(state.n)
        if s != roller and has_civ(state, s, KEY) and (late or not state.seats[s].finished)
    ]


def _points(benefit: C.Benefit) -> bool:
    """``True`` for a die face that is points (``vp``, ``vp_per_...``)."""
    return isinstance(benefit, C.Gain) and (
        benefit.token == "vp" or benefit.token.startswith("vp_per_")
    )


def _scores(state: TapestryState, seat: int, benefit: C.Benefit) -> bool:
    """``True`` when ``seat`` gains a taken die's face: always while it plays; once finished
    (``tapestry/4``) only a face that is points (FIN DE PARTIE, rulebook l.546)."""
    return not state.seats[seat].finished or _points(benefit)


# -- setup: draw 3 tapestry cards, keep 1 ---------------------------------------------------
def _setup(state: TapestryState, seat: int) -> list[Frame]:
    return [Frame(kind=DRAW, seat=seat, source=f"civ:{KEY}")]


ADJUSTMENTS[KEY] = _setup


def _gained(ctx: Ctx, seat: int) -> None:
    """Gained during the game (``tapestry/3``; the mat: « At the start of the game, or if you
    gain the Illuminati mid-game, draw 3 [TAPESTRY], keep 1 »): the setup's draw."""
    ctx.push(*_setup(ctx.state, seat))


ON_GAIN[KEY] = _gained


def _draw(ctx: Ctx, top: Frame) -> None:
    # the Psionics' extra option adds to the draw (held with the Illuminati from tapestry/3)
    cards = draw_tapestry(ctx, top.seat, DRAWN + extra_options(ctx.state, top.seat))
    if len(cards) > 1:
        # the frame (public, in AgendaSet) holds how many were drawn, never their ids: they
        # are the last cards of the seat's private hand
        ctx.push(Frame(kind=KEEP, seat=top.seat, ints=(len(cards),), source=top.source))


AUTO[DRAW] = _draw


def _drawn(state: TapestryState, top: Frame) -> list[int]:
    """The cards of the setup draw: the last ``ints[0]`` cards of the hand."""
    return list(state.seats[top.seat].hand[-top.ints[0] :])


def _keep_options(state: TapestryState, top: Frame) -> list[Command]:
    """Which drawn card to keep (its id); the others are discarded."""
    return [Choose(index=c) for c in sorted(set(_drawn(state, top)))]


def _keep_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    rest = _drawn(ctx.state, top)
    rest.remove(command.index)
    ctx.emit(ev.TapestryDiscarded(seat=top.seat, cards=tuple(rest)))


DECISIONS[KEEP] = (_keep_options, _keep_answer)


# -- an opponent takes a die -----------------------------------------------------------------
def _face(seat: int, index: int, benefit: C.Benefit) -> Frame:
    if isinstance(benefit, C.Gain) and benefit.token == "gain_conquered_tile_benefit":
        return Frame(kind="tile_benefit", seat=seat, ints=(index,), source=f"civ:{KEY}")
    return expr_frame(seat, dump(benefit), f"civ:{KEY}")


def _conquer_dice_rolled(ctx: Ctx, roller: int, index: int, red: int, black: int) -> None:
    """An opponent rolled the conquer dice: if they were on the mat, the Illuminati gain both
    faces and the dice stay off the mat."""
    for seat in _holders(ctx.state, roller, points=True):
        dice = dice_on_mat(ctx.state, seat)
        if dice[RED] or dice[BLACK]:
            dice[RED] = dice[BLACK] = 0
            set_tokens(ctx, seat, KEY, dice)
            faces = (C.RED_DIE[red], C.BLACK_DIE[black])
            ctx.push(*(_face(seat, index, f) for f in faces if _scores(ctx.state, seat, f)))


def _science_rolled(ctx: Ctx, roller: int, track: int) -> None:
    """An opponent rolled the science die: if it was on the mat, the Illuminati may advance on
    the track rolled (no benefit, no bonus) and the die stays off the mat."""
    for seat in _holders(ctx.state, roller):
        dice = dice_on_mat(ctx.state, seat)
        if dice[SCIENCE]:
            dice[SCIENCE] = 0
            set_tokens(ctx, seat, KEY, dice)
            ctx.push(Frame(kind=ADVANCE, seat=seat, ints=(track,), source=f"civ:{KEY}"))


def _die_rolled(ctx: Ctx, roller: int, index: int, die: int, face: int) -> None:
    """An opponent threw one conquer die alone (a Treasure Hunters treasure): if it was on the
    mat, the Illuminati gain its face and the die stays off the mat."""
    slot = RED if die == 0 else BLACK
    faces = C.RED_DIE if die == 0 else C.BLACK_DIE
    for seat in _holders(ctx.state, roller, points=True):
        dice = dice_on_mat(ctx.state, seat)
        if dice[slot]:
            dice[slot] = 0
            set_tokens(ctx, seat, KEY, dice)
            if _scores(ctx.state, seat, faces[face]):
                ctx.push(_face(seat, index, faces[face]))


mapping.DICE_ROLLED.append(_conquer_dice_rolled)
mapping.DIE_ROLLED.append(_die_rolled)
tracks.SCIENCE_ROLLED.append(_science_rolled)


def _advance_options(state: TapestryState, top: Frame) -> list[Command]:
    """Advance on the rolled track (``Choose(0)``) where a token can move, or decline."""
    track = top.ints[0]
    tokens = state.seats[top.seat].tracks[track]
    can = bool(token_choices(tokens)) and not blocked(state, top.seat, track)
    return [Choose(index=0), Decline()] if can else [Decline()]


def _advance_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    if isinstance(command, Choose):
        ctx.push(advance_frame(top.seat, top.ints[0], NONE, f"civ:{KEY}"))


DECISIONS[ADVANCE] = (_advance_options, _advance_answer)


# -- income turns 2-5 -------------------------------------------------------------------------
def _income(ctx: Ctx, seat: int, era: int) -> None:
    if era < 2:
        return
    on_mat = sum(dice_on_mat(ctx.state, seat))
    if on_mat:
        ctx.push(expr_frame(seat, gain("vp", VP_PER_DIE * on_mat), f"civ:{KEY}"))
    if on_mat < len(ALL_ON):
        set_tokens(ctx, seat, KEY, list(ALL_ON))


INCOME[KEY] = _income
