"""Discard requirements that other cards lighten: the ``required_to_discard`` reactions.

Some Olmec cards ask you to discard cards with a given icon (masks) as a cost, and two Olmec
developments change such a requirement (``effects_dsl.md`` §6, ``required_to_discard``):

* Step Pyramids — an *exhaust* reaction with ``reduce_requirement``: exhaust it to discard
  that many fewer cards (once per requirement: one exhaust token);
* Stone Heads — a *passive* reaction with ``substitute``: each card required may instead be a
  card garrisoned under Stone Heads, abandoned (to the discard pile).

When a ``discard`` step with a filter is resolved for a seat holding such a card in play, the
step becomes a ``discard_requirement`` decision: ``Pick`` a matching card of the hand (it is
discarded) or a card garrisoned under a substituting card (it is abandoned), or ``Exhaust``
a reducing card; each answer lowers what is left to discard until nothing is. :func:`relief`
tells the cost check (``steps.payable``) how many cards these reactions can stand for.
Nothing names a card: the reactions are read from the notation.
"""

from __future__ import annotations

import json

import msgspec

from domain.core import Command
from domain.imperium import cards as K
from domain.imperium import content_effects as E
from domain.imperium import events as ev
from domain.imperium.commands import Exhaust, Pick
from domain.imperium.engine import DECISIONS, Ctx
from domain.imperium.ops import move, z
from domain.imperium.state import Frame, ImperiumState
from domain.imperium.steps import HANDLERS


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
    from domain.imperium.reactions import exhaust_ready

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


def _spec(top: Frame) -> tuple[E.Filter, tuple[str, ...]]:
    spec = json.loads(top.data)
    flt = msgspec.convert(spec["filter"], E.Filter)
    return flt, tuple(spec["used"])


def _options(state: ImperiumState, top: Frame) -> list[Command]:
    flt, used = _spec(top)
    owner = state.seats[top.seat]
    found: list[Command] = []
    for card in dict.fromkeys(c for c in owner.hand if K.matches(state, c, flt)):
        found.append(Pick(card=card))
    found += [Pick(card=c) for c in substitutes(state, top.seat, flt)]
    found += [Exhaust(card=c) for c, _ in reducers(state, top.seat, flt, used)]
    return found


def _answer(ctx: Ctx, top: Frame, command: Command) -> None:
    flt, used = _spec(top)
    seat = top.seat
    owner = ctx.state.seats[seat]
    left = top.count - 1
    if isinstance(command, Exhaust):
        ctx.emit(ev.CardExhausted(seat=seat, card=command.card))
        ctx.emit(ev.TokensChanged(seat=seat, exhaust=-1))
        spared = dict(reducers(ctx.state, seat, flt, used)).get(command.card, 1)
        left = top.count - spared
        used = (*used, command.card)
    else:
        assert isinstance(command, Pick)
        if command.card in owner.hand:
            ctx.state.memo.discarded += 1
            move(ctx, seat, command.card, z(seat, "hand"), z(seat, "discard"))
        else:
            host = next(h for h, cards in owner.garrison.items() if command.card in cards)
            ctx.state.memo.abandoned += 1
            move(ctx, seat, command.card, z(seat, f"garrison/{host}"), z(seat, "discard"))
    if left > 0:
        data = json.dumps({"filter": json.loads(top.data)["filter"], "used": list(used)})
        ctx.push(Frame(kind="discard_requirement", seat=seat, card=top.card, count=left,
                       data=data))  # fmt: skip


DECISIONS["discard_requirement"] = (_options, _answer)


def _read_here(ctx: Ctx, top: Frame, step: object) -> None:
    """``reduce_requirement`` and ``substitute`` are read by this module when a requirement is
    resolved; as steps on their own they do nothing."""


HANDLERS[E.ReduceRequirement] = _read_here
HANDLERS[E.Substitute] = _read_here
