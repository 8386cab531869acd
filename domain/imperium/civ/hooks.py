"""How the engine runs the frames of the C.I.V.'s seat (registered in
:data:`domain.imperium.engine.CIV_FRAMES`).

* its turn: ``order`` (the die and its slots), ``cleanup`` (its cleanup), ``solstice`` (it
  ignores Solstice), its own ``civ_*`` frames;
* ``draw``: the top card of its deck goes to its discard, never a reshuffle
  ("MODIFICATIONS DES EFFETS DE CARTES");
* ``steps`` frames of its own cards are dropped (it resolves no card text); ``steps`` frames
  of the human's cards run without their discard and return-unrest steps (it ignores them);
* any other decision it would face (a human's effect asking every player) is answered by the
  rules: a discard pick is ignored, an optional decision is declined, else the first option
  (decision ``civ_auto_answer``).
"""

from __future__ import annotations

from domain.imperium import cards as K
from domain.imperium.civ import CIV
from domain.imperium.civ import ops as O
from domain.imperium.civ import turn as T
from domain.imperium.commands import Pass
from domain.imperium.content_effects import Discard, ReturnUnrest
from domain.imperium.engine import AUTO, CIV_FRAMES, DECISIONS, Ctx, dump_steps, load_steps
from domain.imperium.state import Frame


def _own(ctx: Ctx, card: str) -> bool:
    seat = ctx.state.seats[CIV]
    return bool(card) and card in (*K.play_area(seat), *seat.hand, *seat.history)


def handle(ctx: Ctx, top: Frame) -> None:
    """Run ``top`` (already popped), a frame of the C.I.V.'s seat."""
    kind = top.kind
    if kind == "order":
        T.start(ctx)
    elif kind == "cleanup":
        T.cleanup(ctx)
    elif kind == "civ_resolve":
        T._resolve_slot(ctx, top)
    elif kind == "civ_attack":
        T._attack(ctx, top)
    elif kind == "civ_hit":
        T._hit(ctx, top)
    elif kind == "draw":
        O.discard_top(ctx, top.count)
    elif kind == "solstice":
        return
    elif kind == "steps":
        if _own(ctx, top.card):
            return
        steps = tuple(s for s in load_steps(top.steps)
                      if not isinstance(s, (Discard, ReturnUnrest)))  # fmt: skip
        if steps:
            AUTO["steps"](ctx, Frame(kind="steps", seat=CIV, card=top.card,
                                     steps=dump_steps(steps), data=top.data))  # fmt: skip
    elif kind in DECISIONS:
        _auto_answer(ctx, top)
    elif kind in AUTO:
        AUTO[kind](ctx, top)


def _auto_answer(ctx: Ctx, top: Frame) -> None:
    if top.kind == "pick" and "discard" in top.action:
        return
    options, answer = DECISIONS[top.kind]
    found = options(ctx.state, top)
    if not found:
        return
    chosen = next((c for c in found if isinstance(c, Pass)), found[0])
    answer(ctx, top, chosen)


CIV_FRAMES.append(handle)
