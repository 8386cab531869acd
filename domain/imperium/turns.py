"""The turn and round structure ("Comment jouer", "Nettoyage", "Solstice", "Fin de partie").

A turn: ``order`` (Activate, Innovate or Pacify), the order's decisions, then cleanup (a token
on a market card, reset tokens, discard any, draw up to the hand size). After the seat to the
right of the Solstice card, the round ends: every seat resolves its Solstice effects in the
order it chooses; after the final round the game is scored.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

from domain.core import Command, RuleViolation
from domain.imperium import cards as K
from domain.imperium import content_effects as E
from domain.imperium import events as ev
from domain.imperium.checks import feasible, implemented
from domain.imperium.commands import ChooseOrder, EndActivate, Exhaust, Pass, Pick, PlayCard
from domain.imperium.content_effects import ReduceCost, ReplaceCleanupToken
from domain.imperium.ending import finish
from domain.imperium.engine import AUTO, DECISIONS, END_TURN, Ctx, steps_frame
from domain.imperium.market import innovate_candidates
from domain.imperium.nation_rules import rules_for
from domain.imperium.ops import draw_frame, move, z
from domain.imperium.picks import PICK_ACTIONS, action, pick_frame, where
from domain.imperium.reactions import defend_frames, fire
from domain.imperium.state import Frame, ImperiumState

ORDERS = ("activate", "innovate", "pacify")


# -- playing cards -----------------------------------------------------------------------------
def play_block(card: str) -> tuple[tuple[E.Step, ...], bool]:
    """The steps of a card's play block and whether it is a free action."""
    for block in K.blocks(card, "play"):
        return block.do, block.free_action
    return (), False


def card_steps(state: ImperiumState, seat: int, card: str) -> tuple[Any, ...]:
    """The play steps of ``card`` for ``seat``, with passive cost reductions applied: the
    material and discard options printed on unrest cards are lowered by ``reduce_cost``
    passives (Direct Democracy), never below their ``min``."""
    steps, _ = play_block(card)
    result: tuple[Any, ...] = tuple(steps)
    if "unrest" not in K.suits(card):
        return result
    for _, step in K.passive_steps(state, seat):
        if isinstance(step, ReduceCost) and step.of == "unrest_card_options":
            result = tuple(_reduced(s, step) for s in result)
    return result


def _reduced(step: Any, cut: ReduceCost) -> Any:
    """``step`` with its material payments and discard counts lowered by ``cut``."""
    replace = msgspec.structs.replace
    if isinstance(step, E.Pay) and isinstance(step.materials, int) and step.materials > 0:
        return replace(step, materials=max(cut.min, step.materials - cut.materials))
    if isinstance(step, E.Discard) and isinstance(step.count, int) and step.count > 0:
        return replace(step, count=max(cut.min, step.count - cut.cards))
    if isinstance(step, (E.Choose, E.ChooseAny)):
        options = tuple(tuple(_reduced(s, cut) for s in o) for o in step.options)
        return replace(step, options=options)
    if isinstance(step, E.CostThen):
        return replace(step, cost=tuple(_reduced(s, cut) for s in step.cost))
    if isinstance(step, E.May):
        return replace(step, steps=tuple(_reduced(s, cut) for s in step.steps))
    return step


def playable(state: ImperiumState, seat: int, card: str, ignore_icon: str = "") -> bool:
    """``True`` when ``seat`` may play ``card`` now, ignoring the action cost (and the state
    icon ``ignore_icon``, for an effect allowing it: Guennuvar)."""
    if K.unplayable(card):
        return False
    icon = K.effective_state_icon(state, seat, card)
    owner = state.seats[seat]
    if icon is not None and icon != ignore_icon and (icon == "empire") != owner.empire:
        return False
    for rule in K.static_rules(card):
        condition = getattr(rule, "playable_only_if", None)
        if condition is not None and not K.condition(state, seat, condition):
            return False
    steps = card_steps(state, seat, card)
    return implemented(steps) and feasible(state, seat, card, steps)


def free_now(state: ImperiumState, seat: int, card: str) -> bool:
    """``True`` when playing ``card`` costs no action (a free action not used this turn): its
    play effect is a free action, or a passive makes it one (Masonry: cities, metropolises)."""
    _, free = play_block(card)
    if not free:
        free = any(
            isinstance(step, E.FreePlayAllowed) and K.matches(state, card, step.filter)
            for _, step in K.passive_steps(state, seat)
        )
    return bool(free) and card not in state.seats[seat].free_played


def play_card(ctx: Ctx, seat: int, card: str, free: bool, src: str, check: bool = False) -> None:
    """Put ``card`` into play from ``src`` and resolve its play effect ("Effectuer des actions")."""
    if check and not playable(ctx.state, seat, card):
        return
    if not free:
        ctx.emit(ev.TokensChanged(seat=seat, actions=-1))
    steps = card_steps(ctx.state, seat, card)
    ctx.state.memo.start()
    ctx.emit(ev.CardPlayed(seat=seat, card=card, src=src, free=free))
    move(ctx, seat, card, z(seat, src), z(seat, "play"))
    ctx.push(Frame(kind="finish_play", seat=seat, card=card))
    ctx.push(steps_frame(seat, card, steps))
    if K.card(card).attack:
        ctx.state.memo.immune = []
        ctx.push(*defend_frames(ctx.state, seat))
    fire(ctx, seat, "play_card", card, src)


@action("free_play")
def _free_play(ctx: Ctx, top: Frame, card: str) -> None:
    if card == "just_acquired":
        card = ctx.state.memo.just_acquired
    if card and card in ctx.state.seats[top.seat].hand:
        play_card(ctx, top.seat, card, free=True, src="hand", check=True)


@action("play_from")
def _play_from(ctx: Ctx, top: Frame, card: str) -> None:
    owner = ctx.state.seats[top.seat]
    if owner.actions <= 0:
        return
    src = where(ctx.state, top.seat, card).partition(":")[2]
    play_card(ctx, top.seat, card, free=False, src=src, check=True)


def _finish_play(ctx: Ctx, top: Frame) -> None:
    owner = ctx.state.seats[top.seat]
    if top.card in owner.play and not K.card(top.card).persistent:
        move(ctx, top.seat, top.card, z(top.seat, "play"), z(top.seat, "discard"))


AUTO["finish_play"] = _finish_play


def exhaust_blocks(card: str) -> list[object]:
    """The exhaust blocks usable on demand (no ``when`` event) of a card."""
    return [b for b in K.blocks(card, "exhaust") if b.when is None]


def exhaustable(state: ImperiumState, seat: int, card: str) -> bool:
    """``True`` when ``seat`` may use ``card``'s exhaust effect now."""
    owner = state.seats[seat]
    if owner.exhaust <= 0 or card in owner.exhausted:
        return False
    for block in exhaust_blocks(card):
        steps = block.do  # type: ignore[attr-defined]
        usable = K.condition(state, seat, block.condition)  # type: ignore[attr-defined]
        if usable and implemented(steps) and feasible(state, seat, card, steps):
            return True
    return False


# -- the turn -----------------------------------------------------------------------------------
def start_turn(ctx: Ctx, seat: int, round_: int) -> None:
    """Begin ``seat``'s turn: the order decision."""
    ctx.emit(ev.TurnStarted(seat=seat, round=round_, turn=ctx.state.turn + 1))
    ctx.push(Frame(kind="order", seat=seat), Frame(kind="cleanup", seat=seat))


def _order_options(state: ImperiumState, top: Frame) -> list[Command]:
    return [ChooseOrder(order=o) for o in ORDERS]


def _order_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, ChooseOrder)
    seat = top.seat
    ctx.emit(ev.OrderChosen(seat=seat, order=command.order))
    owner = ctx.state.seats[seat]
    if command.order == "activate":
        ctx.push(Frame(kind="activate", seat=seat))
    elif command.order == "innovate":
        for card in list(owner.hand):
            move(ctx, seat, card, z(seat, "hand"), z(seat, "discard"))
        found = innovate_candidates(ctx.state, ("uncivilised", "civilised", "region", "tributary"))
        ctx.push(pick_frame(seat, "", "innovate", found, 1))
    else:
        unrest = [c for c in owner.hand if "unrest" in K.suits(c)]
        if unrest:
            ctx.push(pick_frame(seat, "", "pacify", unrest, -1, optional=True))


DECISIONS["order"] = (_order_options, _order_answer)


def _pacify(ctx: Ctx, top: Frame, card: str) -> None:
    move(ctx, top.seat, card, z(top.seat, "hand"), "unrest")


def _activate_options(state: ImperiumState, top: Frame) -> list[Command]:
    seat = top.seat
    owner = state.seats[seat]
    found: list[Command] = []
    for card in sorted(set(owner.hand)):
        if (owner.actions > 0 or free_now(state, seat, card)) and playable(state, seat, card):
            found.append(PlayCard(card=card))
    for card in K.play_area(owner):
        if exhaustable(state, seat, card):
            found.append(Exhaust(card=card))
    found.append(EndActivate())
    return found


def _activate_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    if isinstance(command, EndActivate):
        return
    ctx.push(top)
    seat = top.seat
    if isinstance(command, PlayCard):
        play_card(ctx, seat, command.card, free_now(ctx.state, seat, command.card), "hand")
    elif isinstance(command, Exhaust):
        ctx.state.memo.start()
        ctx.emit(ev.CardExhausted(seat=seat, card=command.card))
        ctx.emit(ev.TokensChanged(seat=seat, exhaust=-1))
        for block in exhaust_blocks(command.card):
            ctx.push(steps_frame(seat, command.card, block.do))  # type: ignore[attr-defined]
            break


DECISIONS["activate"] = (_activate_options, _activate_answer)


# -- cleanup ------------------------------------------------------------------------------------
def cleanup_tokens(state: ImperiumState, seat: int) -> list[int]:
    """The tokens put on a market card in cleanup: 1 progress unless the power card says
    otherwise (Carthaginians, "Nettoyage")."""
    for _, step in K.passive_steps(state, seat):
        if isinstance(step, ReplaceCleanupToken):
            return [step.place.materials, step.place.population, step.place.progress]
    return [0, 0, 1]


def _cleanup(ctx: Ctx, top: Frame) -> None:
    seat = top.seat
    amounts = json.dumps(cleanup_tokens(ctx.state, seat))
    ctx.push(
        Frame(kind="cleanup_token", seat=seat, data=amounts),
        Frame(kind="reset", seat=seat),
        Frame(kind="cleanup_discard", seat=seat, optional=True),
        Frame(kind="draw_up", seat=seat),
    )


def _reset(ctx: Ctx, top: Frame) -> None:
    nation = ctx.state.seats[top.seat].nation
    ctx.emit(ev.TokensReset(seat=top.seat, actions=3, exhaust=rules_for(nation).exhaust_tokens))


def _cleanup_discard_options(state: ImperiumState, top: Frame) -> list[Command]:
    found: list[Command] = [Pick(card=c) for c in sorted(set(state.seats[top.seat].hand))]
    return [*found, Pass()] if found else []


def _cleanup_discard_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    if isinstance(command, Pick):
        move(ctx, top.seat, command.card, z(top.seat, "hand"), z(top.seat, "discard"))
        ctx.push(top)


def _draw_up(ctx: Ctx, top: Frame) -> None:
    missing = K.hand_size(ctx.state, top.seat) - len(ctx.state.seats[top.seat].hand)
    if missing > 0:
        ctx.push(draw_frame(top.seat, missing))


AUTO["cleanup"] = _cleanup
AUTO["reset"] = _reset
AUTO["draw_up"] = _draw_up
DECISIONS["cleanup_discard"] = (_cleanup_discard_options, _cleanup_discard_answer)


# -- rounds --------------------------------------------------------------------------------------
def _end_of_turn(ctx: Ctx) -> None:
    state = ctx.state
    last = (state.first - 1) % state.n
    if state.current == last:
        ctx.emit(ev.RoundEnded(round=state.round))
        frames = [Frame(kind="solstice", seat=(state.first + i) % state.n, optional=False)
                  for i in range(state.n)]  # fmt: skip
        ctx.push(*frames, Frame(kind="next_round", seat=state.first))
        return
    start_turn(ctx, (state.current + 1) % state.n, state.round)


END_TURN.append(_end_of_turn)


def solstice_cards(state: ImperiumState, seat: int) -> list[str]:
    """Cards in ``seat``'s play area with a Solstice effect whose condition holds (``if``:
    e.g. Shangri-La's 24 population), as the nation's special rules allow."""
    found = [
        c for c in K.play_area(state.seats[seat])
        if any(K.condition(state, seat, b.condition, c) for b in K.blocks(c, "solstice"))
    ]  # fmt: skip
    return rules_for(state.seats[seat].nation).solstice_cards(state, seat, found)


def _solstice(ctx: Ctx, top: Frame) -> None:
    cards = solstice_cards(ctx.state, top.seat)
    if cards:
        ctx.push(pick_frame(top.seat, "", "solstice", cards, len(cards)))


def _resolve_solstice(ctx: Ctx, top: Frame, card: str) -> None:
    if card not in K.play_area(ctx.state.seats[top.seat]):
        return
    ctx.state.memo.start()
    for block in K.blocks(card, "solstice"):
        if not K.condition(ctx.state, top.seat, block.condition, card):
            continue
        if not implemented(block.do):
            raise RuleViolation("NOT_IMPLEMENTED", f"The Solstice effect of {card} is not "
                                "implemented yet.")  # fmt: skip
        ctx.push(steps_frame(top.seat, card, block.do))


def _next_round(ctx: Ctx, top: Frame) -> None:
    state = ctx.state
    if state.final_round and state.round >= state.final_round:
        finish(ctx, collapse=False)
        return
    start_turn(ctx, state.first, state.round + 1)


AUTO["solstice"] = _solstice
AUTO["next_round"] = _next_round

PICK_ACTIONS["pacify"] = _pacify
PICK_ACTIONS["solstice"] = _resolve_solstice
