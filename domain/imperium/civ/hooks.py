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

From ``imperium/5`` the keyword rules of "MODIFICATIONS DES MOTS-CLEFS" apply to the human's
effects too: made to abandon or recall a card, it picks the one it played last (ABANDONNER:
into its discard; RAPPELER: « au-dessus de son deck »); a card it takes from the unrest or fame
pile goes on top of its deck (RÉCUPÉRER/PIOCHER DES CARTES), a fame card through
:func:`~domain.imperium.civ.ops.draw_fame` (its King of Kings).
"""

from __future__ import annotations

import msgspec

from domain.imperium import cards as K
from domain.imperium.civ import CIV
from domain.imperium.civ import ops as O
from domain.imperium.civ import turn as T
from domain.imperium.commands import Pass, Pick
from domain.imperium.content_effects import Discard, DrawFame, ReturnUnrest, Take
from domain.imperium.engine import AUTO, CIV_FRAMES, DECISIONS, Ctx, dump_steps, load_steps
from domain.imperium.picks import action, recall_to
from domain.imperium.state import Frame, ImperiumState

#: ``imperium/5``: pick actions the C.I.V. answers with the card it played last, and the
#: action it does with it (ABANDONNER: the generic abandon, into its discard; RAPPELER:
#: ``civ_recall``, onto its deck).
LAST_PLAYED: dict[str, str] = {"abandon": "abandon", "recall": "civ_recall",
                               "civ_recall": "civ_recall"}  # fmt: skip


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
        if not _own(ctx, top.card):
            _steps(ctx, top)
    elif kind in DECISIONS:
        _auto_answer(ctx, top)
    elif kind in AUTO:
        AUTO[kind](ctx, top)


def _steps(ctx: Ctx, top: Frame) -> None:
    """A human card's steps for the C.I.V., without the discards and returns it ignores; from
    ``imperium/5`` a step taking from the unrest or fame pile, or drawing a fame card, puts
    the card on its deck."""
    steps = tuple(s for s in load_steps(top.steps)
                  if not isinstance(s, (Discard, ReturnUnrest)))  # fmt: skip
    if not steps:
        return
    first = steps[0]
    from_pile = getattr(first, "from_", None) is None  # not Take's « one of the looked at »
    if ctx.state.revision >= 5 and isinstance(first, (Take, DrawFame)) and from_pile:
        if steps[1:]:
            ctx.push(Frame(kind="steps", seat=CIV, card=top.card, steps=dump_steps(steps[1:]),
                           data=top.data))  # fmt: skip
        _take(ctx, first)
        return
    AUTO["steps"](ctx, Frame(kind="steps", seat=CIV, card=top.card, steps=dump_steps(steps),
                             data=top.data))  # fmt: skip


def _take(ctx: Ctx, step: Take | DrawFame) -> None:
    """``imperium/5``: « Quand la C.I.V. récupère ou pioche des cartes, ajoutez-les au-dessus
    de son deck C.I.V. dans l'ordre dans lequel elle les récupère » (RÉCUPÉRER/PIOCHER DES
    CARTES): each card onto its deck, the last taken on top; a fame card as it draws one
    (:func:`~domain.imperium.civ.ops.draw_fame`: King of Kings once, its own effect)."""
    for _ in range(step.count):
        if isinstance(step, DrawFame) or step.pile == "fame":
            O.draw_fame(ctx)
        elif step.pile == "unrest":
            O.civ_take_unrest(ctx)


def _auto_answer(ctx: Ctx, top: Frame) -> None:
    if top.kind == "pick" and "discard" in top.action:
        return
    options, answer = DECISIONS[top.kind]
    found = options(ctx.state, top)
    if not found:
        return
    chosen = next((c for c in found if isinstance(c, Pass)), found[0])
    last = top.kind == "pick" and top.action in LAST_PLAYED and ctx.state.revision >= 5
    if last and not isinstance(chosen, Pass):
        chosen = Pick(card=last_played(ctx.state, top.options))
        top = msgspec.structs.replace(top, action=LAST_PLAYED[top.action])
    answer(ctx, top, chosen)


def last_played(state: ImperiumState, options: tuple[str, ...]) -> str:
    """The option it played last (ABANDONNER, RAPPELER: « Si elle a plusieurs [régions] en
    jeu, elle abandonne/rappelle la dernière qui a été jouée »); the first option when none is
    in its play area."""
    play = state.seats[CIV].play
    in_play = [card for card in options if card in play]
    return max(in_play, key=play.index) if in_play else options[0]


@action("civ_recall")
def _civ_recall(ctx: Ctx, top: Frame, card: str) -> None:
    """RAPPELER (``imperium/5``): « placez une de ses cartes en jeu au-dessus de son deck »."""
    recall_to(ctx, top, card, "deck_top")


CIV_FRAMES.append(handle)
