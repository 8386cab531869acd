"""Legends steps of the Utopians' journey cards (and the state-card flip they need).

Rulebook, "Les Utopiens et leur voyage": the journey cards are double-sided and always form a
stack; only the visible face of the top card is in play (``SeatState.play``; the cards below
are in ``SeatState.journey``). A journey card leaves play only through its own Solstice
effect: turning over (``flip``, in :mod:`domain.imperium.steps`) or ``replace_self_with`` (the
card leaves the game and the next journey card becomes the top one, its ``on_enter_play``
effect resolving at once). Shangri-La's passive replaces every gain of materials
(``replace_gain``, through :func:`domain.imperium.ops.replacement`).
"""

from __future__ import annotations

from domain.core import RuleViolation
from domain.imperium import cards as K
from domain.imperium import content as C
from domain.imperium import content_effects as E
from domain.imperium import events as ev
from domain.imperium.engine import Ctx, steps_frame
from domain.imperium.ops import move, z
from domain.imperium.state import Frame
from domain.imperium.steps import on


@on(E.ReplaceSelfWith)
def _replace_self_with(ctx: Ctx, top: Frame, step: E.ReplaceSelfWith) -> None:
    owner = ctx.state.seats[top.seat]
    if top.card not in owner.play:
        return
    found = [c for c in owner.journey if c in step.card.ids]
    if not found:
        raise RuleViolation(
            "NOT_IMPLEMENTED", f"{top.card} can only be replaced by the next journey card."
        )
    move(ctx, top.seat, top.card, z(top.seat, "play"), "removed")
    move(ctx, top.seat, found[-1], z(top.seat, "journey"), z(top.seat, "play"))
    for block in K.blocks(found[-1], "on_enter_play"):
        ctx.push(steps_frame(top.seat, found[-1], block.do))


@on(E.FlipStateCard)
def _flip_state_card(ctx: Ctx, top: Frame, step: E.FlipStateCard) -> None:
    """Turn the state card; never for the Vikings and the Arthurians ("Empire": "vous ne
    pouvez jamais retourner votre carte Statut"; their accession slot is zenith/nadir)."""
    empire = step.side == "empire"
    owner = ctx.state.seats[top.seat]
    if owner.nation and C.NATIONS[owner.nation].accession_role in ("zenith", "nadir"):
        return
    if owner.empire != empire:
        ctx.emit(ev.StateFlipped(seat=top.seat, empire=empire))


@on(E.ReplaceGain)
def _replace_gain(ctx: Ctx, top: Frame, step: E.ReplaceGain) -> None:
    """Resolved only through :func:`domain.imperium.ops.replacement` (the gain it replaces
    is not made)."""
    ctx.push(steps_frame(top.seat, top.card, step.do))
