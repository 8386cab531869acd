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
a reducing card; each answer lowers what is left to discard until nothing is. Which cards
react, and how many cards they can stand for (what the cost check ``steps.payable`` asks), is
read by :mod:`domain.imperium.discard_relief`. Nothing names a card: the reactions are read
from the notation.
"""

from __future__ import annotations

import json

import msgspec

from domain.core import Command
from domain.imperium import cards as K
from domain.imperium import content_effects as E
from domain.imperium import events as ev
from domain.imperium.commands import Exhaust, Pick
from domain.imperium.discard_relief import reducers, substitutes
from domain.imperium.engine import DECISIONS, Ctx
from domain.imperium.ops import move, z
from domain.imperium.state import Frame, ImperiumState
from domain.imperium.steps import HANDLERS


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
