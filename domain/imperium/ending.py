"""The end of a game ("Fin de partie"): after the final round, or at once on a collapse.

A multiplayer game is scored by :func:`domain.imperium.scoring.finish_multiplayer`; a solo game
against the C.I.V. by :func:`domain.imperium.civ.scoring.civ_finish`.
"""

from __future__ import annotations

from domain.imperium.civ.scoring import civ_finish
from domain.imperium.engine import COLLAPSE, Ctx
from domain.imperium.scoring import finish_multiplayer


def finish(ctx: Ctx, collapse: bool) -> None:
    """Resolve game-end effects, score, and end the game (``collapse``: the unrest pile ran
    out, "Effondrement")."""
    if ctx.state.civ is not None:
        civ_finish(ctx, collapse)
    else:
        finish_multiplayer(ctx, collapse)


def _collapse(ctx: Ctx) -> None:
    finish(ctx, collapse=True)


COLLAPSE.append(_collapse)
