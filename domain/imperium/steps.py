"""The effect interpreter: one ``steps`` frame kind and one handler per step type.

A ``steps`` frame holds a list of steps of one card for one seat. The first step is handled,
after pushing a frame for the rest, so whatever the handler pushes (decisions, nested steps)
resolves before the rest ("résolus autant que possible", in order). Card choices are ``pick``
decisions (:mod:`domain.imperium.picks`); option choices are ``option`` decisions.

Costs ("Payer", ``cost``/``then``): :func:`payable` tells whether cost steps can be done in
full; an option or a card whose cost cannot be paid is not offered, nor one whose steps
:data:`POSSIBLE` says cannot be done at all (these checks live in :mod:`domain.imperium.checks`
). Steps with no handler raise ``NOT_IMPLEMENTED``. The pile steps (take, look, move,
shuffle, find) are in
:mod:`domain.imperium.piles`, the steps only one or two Classics cards use in
:mod:`domain.imperium.special`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import msgspec

from domain.core import Command, RuleViolation
from domain.imperium import cards as K
from domain.imperium import content as C
from domain.imperium import content_effects as E
from domain.imperium import events as ev
from domain.imperium import market as M
from domain.imperium.checks import (
    POSSIBLE,
    amount_count,
    candidates,
    feasible,
    payable,
    unsupported,
)
from domain.imperium.commands import Choose, Pass
from domain.imperium.discard_relief import takes_over
from domain.imperium.engine import AUTO, DECISIONS, Ctx, dump_steps, load_steps, steps_frame
from domain.imperium.ops import (
    developable,
    draw_frame,
    gain,
    paid,
    payment_frame,
    trigger_end,
    z,
)
from domain.imperium.picks import PICK_ACTIONS, pick_frame, zone_cards
from domain.imperium.reactions import fire_gain
from domain.imperium.state import Frame, ImperiumState

Handler = Callable[[Ctx, Frame, Any], None]
_ENCODE = msgspec.json.Encoder().encode
HANDLERS: dict[type, Handler] = {}


# -- the interpreter -------------------------------------------------------------------------
def _steps(ctx: Ctx, top: Frame) -> None:
    steps = load_steps(top.steps)
    if not steps:
        return
    first, rest = steps[0], steps[1:]
    if isinstance(first, E.Look):
        ctx.push(Frame(kind="return_looked", seat=top.seat, data=first.pile))
    if rest:
        ctx.push(Frame(kind="steps", seat=top.seat, card=top.card, steps=dump_steps(rest)))
    if isinstance(first, E.Discard):
        ctx.state.memo.discarded = 0  # "for each card discarded by the previous step"
        if takes_over(ctx, top, first):  # Step Pyramids, Stone Heads
            return
    handler = HANDLERS.get(type(first))
    if handler is None or unsupported(first):
        raise RuleViolation(
            "NOT_IMPLEMENTED", f"The effect step {type(first).__name__!r} is not implemented yet."
        )
    handler(ctx, top, first)


AUTO["steps"] = _steps


def on(kind: type) -> Callable[[Handler], Handler]:
    """Register a step handler."""

    def register(handler: Handler) -> Handler:
        HANDLERS[kind] = handler
        return handler

    return register


@on(E.Gain)
def _gain(ctx: Ctx, top: Frame, step: E.Gain) -> None:
    state = ctx.state
    values = [amount_count(state, top.seat, getattr(step, r), top.card)
              for r in ("materials", "population", "progress", "actions")]  # fmt: skip
    if step.progress == "all_on_this_card" and values[2]:  # the tokens leave the card
        ctx.emit(ev.CardTokensChanged(seat=top.seat, card=top.card, progress=-values[2]))
    gain(ctx, top.seat, *values)
    if values[0] > 0:
        fire_gain(ctx, top.seat, "materials", gain_sources(state, top.seat, top.card, step))


def gain_sources(state: ImperiumState, seat: int, card: str, step: E.Gain) -> list[str]:
    """Cards of the seat's play area used to gain materials by ``step`` of ``card``: the card
    itself when in play, the cards a per-amount counted, the cards the effect recalled or
    abandoned as its cost (card note "Chadouf")."""
    owner = state.seats[seat]
    in_play = K.play_area(owner)
    found = [card] if card in in_play else []
    amount = step.materials
    if isinstance(amount, E.Per) and amount.per.zone == "play_area":
        found += [c for c in in_play if K.icon_count(state, c, amount.per.filter) > 0]
    prefix = f"{seat}:{card}:"
    found += [u[len(prefix) :] for u in state.memo.used if u.startswith(prefix)]
    return list(dict.fromkeys(found))


@on(E.Pay)
def _pay(ctx: Ctx, top: Frame, step: E.Pay) -> None:
    owner = ctx.state.seats[top.seat]
    values = [getattr(step, r) for r in ("materials", "population", "progress")]
    if any(v == "all" for v in values):
        amounts = [
            owner.tokens(r) if v == "all" else v
            for r, v in zip(("materials", "population", "progress"), values, strict=True)
        ]
        ctx.emit(ev.TokensChanged(seat=top.seat, materials=-amounts[0],
                                  population=-amounts[1], progress=-amounts[2]))  # fmt: skip
        if amounts[1]:
            paid(ctx, top.seat, "population")
    elif any(isinstance(v, E.UpTo) for v in values):
        ctx.push(option_frame(top.seat, top.card, _up_to_payments(owner, values)))
        return
    elif any(values):
        ctx.push(payment_frame(top.seat, *values))
    ctx.state.memo.paid_progress = values[2] if isinstance(values[2], int) else 0
    if isinstance(step.actions, int) and step.actions:
        ctx.emit(ev.TokensChanged(seat=top.seat, actions=-min(step.actions, owner.actions)))


def _up_to_payments(owner: Any, values: list[Any]) -> list[tuple[Any, ...]]:
    """The options of a ``pay`` "up to" step: each amount the seat holds, 0 included (one
    resource at a time: King Wu of Qin pays up to 3 progress)."""
    names = ("materials", "population", "progress")
    options: list[tuple[Any, ...]] = []
    for name, value in zip(names, values, strict=True):
        if isinstance(value, E.UpTo):
            most = min(value.up_to, owner.tokens(name))
            options += [(E.Pay(**{name: amount}),) for amount in range(most + 1)]
    return options


@on(E.ForEach)
def _for_each(ctx: Ctx, top: Frame, step: E.ForEach) -> None:
    """Repeat ``do`` once per card discarded/abandoned or progress paid by the previous step."""
    memo = ctx.state.memo
    times = {
        "card_discarded_by_previous_step": memo.discarded,
        "card_abandoned_by_previous_step": memo.abandoned,
        "progress_paid_by_previous_step": memo.paid_progress,
    }[step.for_each]
    if times > 0:
        ctx.push(steps_frame(top.seat, top.card, step.do * times))


@on(E.Draw)
def _draw(ctx: Ctx, top: Frame, step: E.Draw) -> None:
    ctx.state.memo.just_drawn = []
    if step.per is not None:
        count = amount_count(ctx.state, top.seat, E.Per(per=step.per, each=step.each), top.card)
        ctx.push(draw_frame(top.seat, count, step.if_able, track=True))
    elif step.up_to is not None:
        ctx.push(Frame(kind="draw_up_to", seat=top.seat, count=step.up_to,
                       optional=step.if_able))  # fmt: skip
    else:
        ctx.push(draw_frame(top.seat, step.count, step.if_able, track=True))


def _draw_up_to_options(state: ImperiumState, top: Frame) -> list[Command]:
    return [Choose(index=i) for i in range(top.count + 1)]


def _draw_up_to_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    if command.index:
        ctx.push(draw_frame(top.seat, command.index, top.optional, track=True))


DECISIONS["draw_up_to"] = (_draw_up_to_options, _draw_up_to_answer)


@on(E.DrawFame)
def _draw_fame(ctx: Ctx, top: Frame, step: E.DrawFame) -> None:
    for _ in range(step.count):
        M.take_fame(ctx, top.seat, z(top.seat, "hand"))


@on(E.Acquire)
def _acquire(ctx: Ctx, top: Frame, step: E.Acquire) -> None:
    for _ in range(step.times):
        ctx.push(Frame(kind="acquire", seat=top.seat, card=top.card,
                       data=dump_steps((step,))))  # fmt: skip


def acquire_choices(state: ImperiumState, seat: int, step: E.Acquire) -> list[str]:
    """Cards an acquire step may take: market cards, and exiled cards when allowed."""
    found = [] if step.from_ == ("exile",) else M.market_candidates(state, step.suits, step.filter)
    exile_suits: set[str] = set()
    if "exile" in step.from_:
        exile_suits.update(step.suits if step.suits != "any" else K.SUITS_MARKET)
    for _, passive in K.passive_steps(state, seat):
        if isinstance(passive, E.AcquireFromExileAllowed):
            allowed = set(passive.suits)
            if step.suits != "any":
                allowed &= set(step.suits)
            exile_suits.update(allowed)
    found += [c for c in state.exile if any(s in exile_suits for s in K.suits(c))
              and K.matches(state, c, step.filter)]  # fmt: skip
    return found


def _acquire_frame(ctx: Ctx, top: Frame) -> None:
    (step,) = load_steps(top.data)
    assert isinstance(step, E.Acquire)
    choices = acquire_choices(ctx.state, top.seat, step)
    if choices:
        ctx.push(pick_frame(top.seat, top.card, "acquire", choices, 1))


AUTO["acquire"] = _acquire_frame


@on(E.Innovate)
def _innovate(ctx: Ctx, top: Frame, step: E.Innovate) -> None:
    # one frame per innovation, its choices listed when it runs: an earlier innovation may
    # have emptied a deck or taken a market card
    for _ in range(step.times):
        ctx.push(Frame(kind="innovate", seat=top.seat, card=top.card,
                       data=dump_steps((step,))))  # fmt: skip


def _innovate_frame(ctx: Ctx, top: Frame) -> None:
    (step,) = load_steps(top.data)
    assert isinstance(step, E.Innovate)
    flt = step.filter if step.any_category else None
    data = _ENCODE(flt).decode() if flt is not None else ""
    choices = M.innovate_candidates(ctx.state, step.suits, flt, step.exile_allowed)
    ctx.push(pick_frame(top.seat, top.card, "innovate", choices, 1, data=data))


AUTO["innovate"] = _innovate_frame


@on(E.Develop)
def _develop(ctx: Ctx, top: Frame, step: E.Develop) -> None:
    choices = developable(ctx.state, top.seat, step.free)
    if choices:
        ctx.push(pick_frame(top.seat, top.card, "develop_free" if step.free else "develop",
                            choices, 1))  # fmt: skip


def _develop_possible(state: ImperiumState, seat: int, card: str, step: E.Develop) -> bool:
    """From ``imperium/5`` an effect that develops is not offered to a barbarian (its costs
    would buy nothing: :func:`developable` gives a barbarian nothing)."""
    return state.revision < 5 or state.seats[seat].empire


POSSIBLE[E.Develop] = _develop_possible


def _moves(action: str) -> Handler:
    def handler(ctx: Ctx, top: Frame, step: Any) -> None:
        state = ctx.state
        if step.card == "self":
            _pick_now(ctx, top, action, top.card)
            return
        if step.card == "just_acquired":
            _pick_now(ctx, top, action, "just_acquired")
            return
        if step.card == "just_drawn":
            for card in state.memo.just_drawn:
                if card in state.seats[top.seat].hand:
                    _pick_now(ctx, top, action, card)
            return
        if isinstance(step.card, E.Ref):
            owner = state.seats[top.seat]
            pool = list(owner.play) + zone_cards(state, top.seat, "garrisoned")
            if step.from_ is not None:  # Cafall: Twrch Trwyth in play or the active quest
                pool = zone_cards(state, top.seat, step.from_, top.card)
            elif not isinstance(step, (E.Abandon, E.Recall)):  # only cards in play are abandoned
                pool += owner.hand
            for card in pool:
                if card in step.card.ids or K.name(card) == step.card.name:
                    _pick_now(ctx, top, action, card)
                    return
            return
        found = candidates(state, top.seat, top.card, step)
        count = step.count if step.count is not None else 1
        optional = False
        if isinstance(count, E.UpTo):
            count, optional = count.up_to, True
        elif count == "any":
            count, optional = -1, True
        elif count == "all":
            count = len(found)
        if found and count:
            ctx.push(pick_frame(top.seat, top.card, action, found, count, optional,
                                data=json.dumps(getattr(step, "to", "") or "")))  # fmt: skip

    return handler


def moves_handler(action: str) -> Handler:
    """The handler of a card-moving step doing pick action ``action`` with each card."""
    return _moves(action)


def _pick_now(ctx: Ctx, top: Frame, action: str, card: str) -> None:
    PICK_ACTIONS[action](ctx, Frame(kind="pick", seat=top.seat, card=top.card), card)


for _kind, _action in (
    (E.Discard, "discard"), (E.History, "history"), (E.Abandon, "abandon"),
    (E.Recall, "recall"), (E.Recover, "recover"), (E.ReturnUnrest, "return_unrest"),
    (E.Garrison, "garrison"), (E.PutOnDeck, "put_on_deck"), (E.FreePlay, "free_play"),
    (E.Play, "play_from"), (E.Submerge, "submerge"),
):  # fmt: skip
    HANDLERS[_kind] = _moves(_action)


@on(E.Exile)
def _exile(ctx: Ctx, top: Frame, step: E.Exile) -> None:
    if step.card == "self":
        _pick_now(ctx, top, "exile_own", top.card)
        return
    if step.card == "revealed":
        for card in [c for c in ctx.state.memo.revealed if c in ctx.state.revealed]:
            ctx.emit(ev.CardMoved(seat=top.seat, card=card, src="revealed", dst="exile"))
        return
    if step.from_ == "market":
        found = M.exilable(ctx.state)
        if found:
            ctx.push(pick_frame(top.seat, top.card, "exile_market", found, 1))
        return
    if step.from_ is not None:  # the seat's own zones (Monastery, Twrch Trwyth, Cafall)
        _moves("exile_own")(ctx, top, step)
        return
    raise RuleViolation("NOT_IMPLEMENTED", "Exiling from that zone is not implemented yet.")


@on(E.Steal)
def _steal(ctx: Ctx, top: Frame, step: E.Steal) -> None:
    state = ctx.state
    state.memo.failed = []
    for offset in range(1, state.n):
        victim = (top.seat + offset) % state.n
        if victim in state.memo.immune:
            continue
        if not K.condition(state, victim, step.from_.where):
            continue
        owner = state.seats[victim]
        got = [min(getattr(step, r), owner.tokens(r)) for r in ("materials", "population",
                                                                  "progress")]  # fmt: skip
        if got != [step.materials, step.population, step.progress]:
            state.memo.failed.append(victim)
        if any(got):
            ctx.emit(ev.TokensChanged(seat=victim, materials=-got[0], population=-got[1],
                                      progress=-got[2]))  # fmt: skip
            gain(ctx, top.seat, *got)


@on(E.PlaceTokens)
def _place_tokens(ctx: Ctx, top: Frame, step: E.PlaceTokens) -> None:
    if step.on == "self":  # Pottery: progress from the supply onto this card
        if step.amount.progress:
            ctx.emit(ev.CardTokensChanged(seat=top.seat, card=top.card,
                                          progress=step.amount.progress))  # fmt: skip
        return
    found = [s.card for s in ctx.state.market if s.card]
    if found:
        amount = [step.amount.materials, step.amount.population, step.amount.progress]
        ctx.push(pick_frame(top.seat, top.card, "place_tokens", found, 1,
                            data=json.dumps(amount)))  # fmt: skip


@on(E.Flip)
def _flip(ctx: Ctx, top: Frame, step: E.Flip) -> None:
    faces = C.CARDS[top.card].faces
    if top.card.startswith("KOK"):
        ctx.emit(ev.KingOfKingsFlipped(seat=top.seat, face="B"))
    elif len(faces) != 2:
        raise RuleViolation("NOT_IMPLEMENTED", f"Turning {top.card} over is not implemented yet.")
    elif top.card in ctx.state.seats[top.seat].play:  # a double-sided card in play
        other = faces[1] if top.card == faces[0] else faces[0]
        ctx.emit(ev.CardTurnedOver(seat=top.seat, zone=z(top.seat, "play"), card=top.card,
                                   face=other))  # fmt: skip


@on(E.TriggerGameEnd)
def _trigger(ctx: Ctx, top: Frame, step: E.TriggerGameEnd) -> None:
    trigger_end(ctx, top.card)


@on(E.InsteadOfGaining)
def _instead(ctx: Ctx, top: Frame, step: E.InsteadOfGaining) -> None:
    """King of Kings is resolved rather than gained: nothing more to do."""


@on(E.IgnoreAttack)
def _ignore_attack(ctx: Ctx, top: Frame, step: E.IgnoreAttack) -> None:
    if top.seat not in ctx.state.memo.immune:
        ctx.state.memo.immune.append(top.seat)


@on(E.DoubleTokensGained)
def _double(ctx: Ctx, top: Frame, step: E.DoubleTokensGained) -> None:
    index = ("materials", "population", "progress").index(step.resource)
    amount = ctx.state.memo.tokens_gained[index]
    gain(ctx, top.seat, *[amount if i == index else 0 for i in range(3)])


for _passive in (E.HandSize, E.RemoveStateIcon, E.ReduceCost, E.Redirect, E.ReplaceCleanupToken,
                 E.AcquireFromExileAllowed, E.FreePlayAllowed, E.CountsAs, E.DefinesZone,
                 E.Reminder, E.LookAdditional):  # fmt: skip
    HANDLERS[_passive] = lambda ctx, top, step: None


# -- control steps ------------------------------------------------------------------------------
def option_frame(seat: int, card: str, options: list[tuple[Any, ...]], optional: bool = False
                 ) -> Frame:  # fmt: skip
    """A decision among step lists (``Choose(index)``; ``Pass`` when ``optional``)."""
    return Frame(kind="option", seat=seat, card=card, optional=optional,
                 options=tuple(dump_steps(o) for o in options))  # fmt: skip


def _option_options(state: ImperiumState, top: Frame) -> list[Command]:
    found: list[Command] = [
        Choose(index=i)
        for i, text in enumerate(top.options)
        if feasible(state, top.seat, top.card, load_steps(text))
    ]
    if top.optional:
        found.append(Pass())
    return found


def _option_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    if isinstance(command, Choose):
        ctx.push(Frame(kind="steps", seat=top.seat, card=top.card,
                       steps=top.options[command.index]))  # fmt: skip


DECISIONS["option"] = (_option_options, _option_answer)


@on(E.May)
def _may(ctx: Ctx, top: Frame, step: E.May) -> None:
    ctx.push(option_frame(top.seat, top.card, [step.steps], optional=True))


@on(E.Choose)
def _choose(ctx: Ctx, top: Frame, step: E.Choose) -> None:
    ctx.push(option_frame(top.seat, top.card, list(step.options)))


@on(E.ChooseAny)
def _choose_any(ctx: Ctx, top: Frame, step: E.ChooseAny) -> None:
    options = list(step.options)
    combos: list[tuple[Any, ...]] = []
    for mask in range(1, 1 << len(options)):
        combo: tuple[Any, ...] = ()
        for i, option in enumerate(options):
            if mask & (1 << i):
                combo += tuple(option)
        combos.append(combo)
    ctx.push(option_frame(top.seat, top.card, combos))


@on(E.CostThen)
def _cost(ctx: Ctx, top: Frame, step: E.CostThen) -> None:
    if payable(ctx.state, top.seat, top.card, step.cost):
        ctx.push(steps_frame(top.seat, top.card, step.cost + step.then))


@on(E.If)
def _if(ctx: Ctx, top: Frame, step: E.If) -> None:
    chosen = step.then if K.condition(ctx.state, top.seat, step.condition) else step.else_
    if chosen:
        ctx.push(steps_frame(top.seat, top.card, chosen))


@on(E.Each)
def _each(ctx: Ctx, top: Frame, step: E.Each) -> None:
    state = ctx.state
    start = 0 if step.each == "player" else 1
    attack = bool(K.card(top.card).attack) if top.card in C.CARDS else False
    frames = []
    for offset in range(start, state.n):
        seat = (top.seat + offset) % state.n
        if attack and seat != top.seat and seat in state.memo.immune:
            continue
        frames.append(steps_frame(seat, top.card, step.do))
    ctx.push(*frames)
