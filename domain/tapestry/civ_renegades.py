"""Renegades (Renégats, Arts & Architecture): a private four-tier track taken in place of a
space's benefit.

Rules (facts folder ``civilizations.json#24``): a token starts on the mat's start space. When
you advance on a track into a space of tier T and the Renegades token stands just below tier T
(on tier T - 1, the start being tier 0), you may, instead of that space's benefit and bonus,
advance the Renegades token to tier T and take its reward (:data:`DECISION`: ``Choose(0)``,
or ``Decline`` for the space's own benefit and bonus). Landmarks are still claimed (they come
with entering the tier, not with the benefit). Tier rewards (the content's ``slots``): 1 a
tapestry card and an income building of your choice, 2 research and invent, 3 explore,
conquer and upgrade a tech card, 4 20 VP; reaching tier 4 counts as completing a track for the
achievement ("Objectifs").

Rebalancing: none ("RÉÉQUILIBRAGE DES CIVILISATIONS": RENÉGATS under "Pas de changement").

Assumed: the choice is offered whenever the move would give the space's benefit (advance
turns, and advances "with benefit" from other sources), never for a move back; taking the
Renegades reward leaves the space unused this turn.

Mat state (``civ_tokens["renegades"]``): ``[tier]``, the token's tier (0 = start .. 4).
"""

from __future__ import annotations

from domain.core import Command
from domain.tapestry import content as C
from domain.tapestry.civs import civ_id, has_civ, set_tokens, tokens_of
from domain.tapestry.commands import Choose, Decline
from domain.tapestry.engine import DECISIONS, Ctx, expr_frame
from domain.tapestry.gains import TRACK_KEY, earn
from domain.tapestry.rules import tier_of
from domain.tapestry.state import TRACK_IDS, Frame, TapestryState
from domain.tapestry.tracks import BENEFIT, FULL, FULL_FREE, INSTEAD_OF_SPACE, space_frames

KEY = "renegades"
DECISION = "renegades"
#: the last tier of the Renegades track.
TOP = 4


def tier(state: TapestryState, seat: int) -> int:
    """The tier (0..4) of ``seat``'s Renegades token."""
    return tokens_of(state, seat, KEY, (0,))[0]


def _instead(
    ctx: Ctx, seat: int, track: int, origin: int, to: int, mode: int, source: str
) -> list[Frame]:
    """Offers the Renegades track when entering the tier just above the token."""
    state = ctx.state
    if (
        mode not in (FULL, BENEFIT, FULL_FREE)
        or to <= origin
        or not has_civ(state, seat, KEY)
        or tier(state, seat) + 1 != tier_of(to)
        or f"{TRACK_IDS[track]}:{to}" in state.seats[seat].activated
    ):
        return []
    return [
        Frame(kind=DECISION, seat=seat, ints=(track, to, mode), token=source, source=f"civ:{KEY}")
    ]


INSTEAD_OF_SPACE.append(_instead)


def _options(state: TapestryState, top: Frame) -> list[Command]:
    """Advance the Renegades token (``Choose(0)``) or take the space (``Decline``)."""
    return [Choose(index=0), Decline()]


def _answer(ctx: Ctx, top: Frame, command: Command) -> None:
    seat, (track, to, mode) = top.seat, top.ints
    if isinstance(command, Decline):
        ctx.push(*space_frames(ctx, seat, track, to, mode, top.token))
        return
    reached = tier(ctx.state, seat) + 1
    set_tokens(ctx, seat, KEY, [reached])
    if reached >= TOP:
        earn(ctx, seat, TRACK_KEY)
    benefit = C.CIVILIZATIONS[civ_id(KEY)].slots[reached]
    ctx.push(expr_frame(seat, benefit, f"civ:{KEY}"))


DECISIONS[DECISION] = (_options, _answer)
