"""Legends steps the Arthurians' cards need beyond the general ones.

* ``put_into_play`` (Gwaith Camlan);
* ``free_play`` of a card with a state icon the player does not show (Twrch Trwyth,
  Guennuvar: "Empire": the Arthurians never turn their state card over, but "vous pouvez
  néanmoins utiliser les cartes ... Gwenhwyfar pour jouer des cartes Empire"): the card played
  ignores its state icon, as Combs does (``StateIconIgnored``).

The quest zones themselves (impending quests = the development area, the active quest =
the card garrisoned under King Arthur's Court) are read by :func:`domain.imperium.cards.
active_quest`; the Arthurians' hooks are in :mod:`domain.imperium.nations.arthurians`.
"""

from __future__ import annotations

from typing import Any

from domain.imperium import cards as K
from domain.imperium import content_effects as E
from domain.imperium import events as ev
from domain.imperium import special  # noqa: F401  (its POSSIBLE checks are wrapped below)
from domain.imperium.checks import POSSIBLE, candidates
from domain.imperium.engine import Ctx
from domain.imperium.ops import move, z
from domain.imperium.picks import PICK_ACTIONS, action, where
from domain.imperium.state import Frame, ImperiumState
from domain.imperium.steps import HANDLERS, moves_handler, on
from domain.imperium.turns import playable

_PLAIN_FREE_PLAY = HANDLERS[E.FreePlay]
_PLAIN_POSSIBLE = POSSIBLE[E.FreePlay]


def _free_play_possible(state: ImperiumState, seat: int, card: str, step: Any) -> bool:
    """A free play of a card with a state icon needs such a card playable but for its icon."""
    flt = step.filter
    if flt is None or flt.state_icon is None:
        return _PLAIN_POSSIBLE(state, seat, card, step)
    icon = str(flt.state_icon)
    found = candidates(state, seat, card, step)
    return any(playable(state, seat, c, ignore_icon=icon) for c in found)


POSSIBLE[E.FreePlay] = _free_play_possible


@on(E.FreePlay)
def _free_play(ctx: Ctx, top: Frame, step: Any) -> None:
    flt = step.filter
    if flt is not None and flt.state_icon is not None:
        moves_handler("free_play_icon")(ctx, top, step)
    else:
        _PLAIN_FREE_PLAY(ctx, top, step)


@on(E.PutIntoPlay)
def _put_into_play(ctx: Ctx, top: Frame, step: E.PutIntoPlay) -> None:
    """Gwaith Camlan (nadir card), gained another way than from the nation deck: it goes
    straight into play."""
    src = where(ctx.state, top.seat, top.card)
    if src and not src.endswith(":play"):
        move(ctx, top.seat, top.card, src, z(top.seat, "play"))


@action("free_play_icon")
def _free_play_icon(ctx: Ctx, top: Frame, card: str) -> None:
    icon = K.card(card).state_icon if card in ctx.state.seats[top.seat].hand else None
    if icon is not None:
        ctx.emit(ev.StateIconIgnored(seat=top.seat, icon=str(icon)))
    PICK_ACTIONS["free_play"](ctx, top, card)
