"""Which cards lighten a requirement to discard cards (the ``required_to_discard`` reactions
of :mod:`domain.imperium.masks`), read from the notation: the queries the cost checks and the
``discard`` step need, without the decision that resolves such a requirement.

Step Pyramids' *exhaust* block ``reduce_requirement`` spares cards; Stone Heads' *passive*
block ``substitute`` lets a garrisoned card stand for one (``effects_dsl.md`` §6).
"""

from __future__ import annotations

import json

import msgspec

from domain.imperium import cards as K
from domain.imperium import content_effects as E
from domain.imperium.engine import Ctx
from domain.imperium.reactions import exhaust_ready
from domain.imperium.state import Frame, ImperiumState


def _reacting(state: ImperiumState, seat: int, flt: E.Filter | None) -> list[tuple[str, E.Block]]:
    """``(card, block)`` of the seat's play area reacting to a requirement to discard cards
    matching ``flt``."""
    if flt is None:
        return []
    found = []
    for card in K.play_area(state.seats[seat]):
        for block in K.card(card).effects:
            when = block.when
            if when is not None and "required_to_discard" in when.names() and when.filter == flt:
                found.append((card, block))
    return found


def _reduction(block: E.Block) -> int:
    return sum(s.discard for s in E.walk_steps(block.do) if isinstance(s, E.ReduceRequirement))


def _substitutes(block: E.Block) -> bool:
    return any(isinstance(s, E.Substitute) for s in E.walk_steps(block.do))


def reducers(state: ImperiumState, seat: int, flt: E.Filter | None, used: tuple[str, ...] = ()
             ) -> list[tuple[str, int]]:  # fmt: skip
    """Exhaustable reducing cards ``(card, cards spared)`` the seat may use now."""
    return [
        (card, _reduction(block))
        for card, block in _reacting(state, seat, flt)
        if block.trigger == "exhaust" and card not in used and exhaust_ready(state, seat, card)
    ]


def substitutes(state: ImperiumState, seat: int, flt: E.Filter | None) -> list[str]:
    """Cards garrisoned under substituting cards, each able to stand for one discard."""
    owner = state.seats[seat]
    return [
        under
        for card, block in _reacting(state, seat, flt)
        if block.trigger == "passive" and _substitutes(block)
        for under in owner.garrison.get(card, [])
    ]


def relief(state: ImperiumState, seat: int, flt: E.Filter | None) -> int:
    """How many of the required cards the seat's reactions can spare or stand for now."""
    spared = sum(n for _, n in reducers(state, seat, flt))
    return spared + len(substitutes(state, seat, flt))


def takes_over(ctx: Ctx, top: Frame, step: E.Discard) -> bool:
    """Turn a ``discard`` step with a filter into a ``discard_requirement`` decision when the
    seat holds a reacting card; ``False`` (the plain step applies) otherwise."""
    if step.filter is None or not isinstance(step.count, int) or step.count <= 0:
        return False
    if not _reacting(ctx.state, top.seat, step.filter):
        return False
    data = json.dumps({"filter": msgspec.to_builtins(step.filter), "used": []})
    ctx.push(Frame(kind="discard_requirement", seat=top.seat, card=top.card, count=step.count,
                   data=data))  # fmt: skip
    return True
