"""Steps that only one or two Classics cards use, and the decisions they need.

* ``regain_exhaust_token`` (Uxians, Rituals & Ceremonies, Olmecs): the player takes back the
  exhaust token of one card of its choice (or of its nation deck / development area), which
  frees that card's exhaust effect again ("Utiliser des effets épuisables": a card with a
  token on it cannot be exhausted; the token is the one taken back).
* ``treat_icon`` (Agriculture, Windmills): a chosen card counts as showing other icons until
  the end of the turn.
* ``ignore_state_icon`` (Combs): the next card played this turn ignores a state icon.
* ``use_exhaust_effect_of`` (Ambassador): resolve the exhaust effect of another player's
  persistent card as if it were yours (its token is the one put on Ambassador).
* ``swap`` (Sacred Pass): a card from hand and the nation card just looked at change places;
  never the accession card (card note "Voie sacrée").
* ``swap_exile_with_market`` (Lighthouse): the exile-swap procedure of "Exiler".
* ``declare`` / ``reveal`` (Gambling): name a category, reveal the top card of the main deck.
* ``garrison_self`` (Cataphract): tuck this card under a host, then resolve the host's play
  effect ("Réserver").
* ``give`` (Exports, Monopoly): give a card from your hand or discard pile to each other
  player (attacks: protected players are skipped).

Each registers in :data:`~domain.imperium.steps.POSSIBLE` when it can be done at all, so an
effect that could do nothing is not offered; ``free_play`` / ``play`` from a zone (Direct
Democracy, Phalanx) likewise need a card that may be played now.
"""

from __future__ import annotations

import json
from typing import Any

from domain.core import Command
from domain.imperium import cards as K
from domain.imperium import content_effects as E
from domain.imperium import events as ev
from domain.imperium import market as M
from domain.imperium.checks import POSSIBLE, candidates, feasible, implemented
from domain.imperium.commands import Choose
from domain.imperium.engine import AUTO, DECISIONS, Ctx, steps_frame
from domain.imperium.ops import is_accession, move, trigger_end, z
from domain.imperium.picks import action, pick_frame, where, zone_cards
from domain.imperium.state import Frame, ImperiumState
from domain.imperium.steps import on
from domain.imperium.turns import card_steps, playable


# -- regain an exhaust token -----------------------------------------------------------------
def exhaust_tokens_out(state: ImperiumState, seat: int) -> list[str]:
    """Where ``seat``'s used exhaust tokens lie: cards, ``"nation"``, ``"dev"``."""
    owner = state.seats[seat]
    found = list(dict.fromkeys(owner.exhausted))
    if owner.nation_token:
        found.append("nation")
    if owner.dev_token:
        found.append("dev")
    return found


@on(E.RegainExhaustToken)
def _regain(ctx: Ctx, top: Frame, step: E.RegainExhaustToken) -> None:
    found = exhaust_tokens_out(ctx.state, top.seat)
    if found:
        ctx.push(pick_frame(top.seat, top.card, "regain", found, step.count))


@action("regain")
def _regain_from(ctx: Ctx, top: Frame, card: str) -> None:
    ctx.emit(ev.ExhaustRegained(seat=top.seat, card=card))


POSSIBLE[E.RegainExhaustToken] = lambda state, seat, card, step: bool(
    exhaust_tokens_out(state, seat)
)


# -- treat an icon as others -------------------------------------------------------------------
@on(E.TreatIcon)
def _treat(ctx: Ctx, top: Frame, step: E.TreatIcon) -> None:
    owner = ctx.state.seats[top.seat]
    found = [c for c in K.play_area(owner) if step.icon in K.icons_now(ctx.state, c)]
    if found:
        data = json.dumps(dict(step.as_), sort_keys=True)
        ctx.push(pick_frame(top.seat, top.card, "treat", found, step.count, data=data))


@action("treat")
def _treat_card(ctx: Ctx, top: Frame, card: str) -> None:
    icons: dict[str, int] = json.loads(top.data)
    ctx.emit(ev.IconsTreated(seat=top.seat, card=card, icons=icons))


POSSIBLE[E.TreatIcon] = lambda state, seat, card, step: any(
    step.icon in K.icons_now(state, c) for c in K.play_area(state.seats[seat])
)


@on(E.IgnoreStateIcon)
def _ignore_icon(ctx: Ctx, top: Frame, step: E.IgnoreStateIcon) -> None:
    ctx.emit(ev.StateIconIgnored(seat=top.seat, icon=step.icon))


# -- another player's exhaust effect (Ambassador) -------------------------------------------------
def _own_exhaust(card: str) -> list[Any]:
    """The on-demand exhaust blocks of ``card`` that do not borrow another card's effect."""
    return [
        b
        for b in K.blocks(card, "exhaust")
        if b.when is None and not any(isinstance(s, E.UseExhaustEffectOf) for s in b.do)
    ]


def borrowable(state: ImperiumState, seat: int, step: E.UseExhaustEffectOf) -> list[str]:
    """Other players' cards (matching the filter) whose exhaust effect ``seat`` could use."""
    found = []
    for offset in range(1, state.n):
        owner = state.seats[(seat + offset) % state.n]
        for card in owner.play:
            if not K.matches(state, card, step.filter):
                continue
            for block in _own_exhaust(card):
                steps = block.do
                usable = K.condition(state, seat, block.condition)
                if usable and implemented(steps) and feasible(state, seat, card, steps):
                    found.append(card)
                    break
    return found


@on(E.UseExhaustEffectOf)
def _borrow(ctx: Ctx, top: Frame, step: E.UseExhaustEffectOf) -> None:
    found = borrowable(ctx.state, top.seat, step)
    if found:
        ctx.push(pick_frame(top.seat, top.card, "borrow", found, 1))


@action("borrow")
def _borrow_card(ctx: Ctx, top: Frame, card: str) -> None:
    for block in _own_exhaust(card):
        ctx.push(steps_frame(top.seat, card, block.do))
        return


POSSIBLE[E.UseExhaustEffectOf] = lambda state, seat, card, step: bool(borrowable(state, seat, step))


# -- Sacred Pass: swap a hand card with the top nation card ---------------------------------------
def _swap_target(state: ImperiumState, seat: int) -> str:
    """The nation card being looked at that a swap may take ("" when none may be)."""
    owner = state.seats[seat]
    looked = [c for c in state.memo.looked_at if c in owner.looked]
    if not looked or is_accession(state, seat, looked[0]):
        return ""
    return looked[0]


def _swap_possible(state: ImperiumState, seat: int, card: str, step: E.Swap) -> bool:
    owner = state.seats[seat]
    return bool(_swap_target(state, seat)) and any(c != card for c in owner.hand)


@on(E.Swap)
def _swap(ctx: Ctx, top: Frame, step: E.Swap) -> None:
    target = _swap_target(ctx.state, top.seat)
    hand = [c for c in ctx.state.seats[top.seat].hand if c != top.card]
    if target and hand:
        ctx.push(pick_frame(top.seat, top.card, "swap_in", hand, 1, data=target))


@action("swap_in")
def _swap_in(ctx: Ctx, top: Frame, card: str) -> None:
    seat = top.seat
    move(ctx, seat, card, z(seat, "hand"), z(seat, "nation_top"))
    move(ctx, seat, top.data, z(seat, "looked"), z(seat, "hand"))


POSSIBLE[E.Swap] = _swap_possible


# -- Lighthouse: swap an exiled card with a market card --------------------------------------------
@on(E.SwapExileWithMarket)
def _swap_exile(ctx: Ctx, top: Frame, step: E.SwapExileWithMarket) -> None:
    for _ in range(step.count):
        ctx.push(Frame(kind="swap_exile", seat=top.seat, card=top.card))


def _swap_exile_frame(ctx: Ctx, top: Frame) -> None:
    market = [s.card for s in ctx.state.market if s.card]
    if ctx.state.exile and market:
        ctx.push(pick_frame(top.seat, top.card, "swap_out", market, 1))


@action("swap_out")
def _swap_out(ctx: Ctx, top: Frame, card: str) -> None:
    """Exile a market card (tokens allowed: they stay for the incoming card)."""
    index = M.slot_index(ctx.state, card)
    choices = list(ctx.state.exile)
    for unrest in list(ctx.state.market[index].unrest):
        move(ctx, top.seat, unrest, f"market/{index}/unrest", "unrest")
    move(ctx, top.seat, card, f"market/{index}", "exile")
    ctx.push(pick_frame(top.seat, top.card, "swap_from_exile", choices, 1, data=str(index)))


@action("swap_from_exile")
def _swap_from_exile(ctx: Ctx, top: Frame, card: str) -> None:
    """The chosen exiled card fills the slot, with an unrest card under it when needed."""
    index = int(top.data)
    move(ctx, top.seat, card, "exile", f"market/{index}")
    if M.needs_unrest(card) and ctx.state.unrest:
        move(ctx, top.seat, ctx.state.unrest[-1], "unrest", f"market/{index}/unrest")


AUTO["swap_exile"] = _swap_exile_frame
POSSIBLE[E.SwapExileWithMarket] = lambda state, seat, card, step: bool(
    state.exile and any(s.card for s in state.market)
)


# -- Gambling: declare, then reveal ---------------------------------------------------------------
@on(E.Declare)
def _declare(ctx: Ctx, top: Frame, step: E.Declare) -> None:
    ctx.push(Frame(kind="declare", seat=top.seat, card=top.card, options=tuple(step.one_of)))


def _declare_options(state: ImperiumState, top: Frame) -> list[Command]:
    return [Choose(index=i) for i in range(len(top.options))]


def _declare_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    ctx.state.memo.declared = top.options[command.index]


DECISIONS["declare"] = (_declare_options, _declare_answer)


@on(E.Reveal)
def _reveal(ctx: Ctx, top: Frame, step: E.Reveal) -> None:
    """Reveal the top card(s) of the main deck (drawn at random: it is unordered), or show
    one's own zones (Ashoka: hand, deck, discard). Showing one's zones changes nothing in
    the state: the step that follows moves the cards concerned, publicly (decision
    ``reveal_own_zones``)."""
    state = ctx.state
    state.memo.revealed = []
    if step.zones:
        return
    for _ in range(step.count):
        pile = state.piles.get("main", [])
        if not pile:
            break
        card = ctx.chance.choice(pile)
        ctx.emit(ev.CardDrawn(seat=top.seat, card=card, src="pile/main", dst="revealed"))
        state.memo.revealed.append(card)
        if not state.piles.get("main"):
            trigger_end(ctx, "main_deck_empty")


# -- Cataphract: garrison this card, then resolve the host's play effect ---------------------------
def _hosts(state: ImperiumState, seat: int, card: str, step: E.GarrisonSelf) -> list[str]:
    """Persistent cards of the play area ``card`` may garrison itself under."""
    owner = state.seats[seat]
    if card not in owner.play or not K.can_garrison(card):
        return []
    return [
        c
        for c in owner.play
        if c != card and K.card(c).persistent and K.matches(state, c, step.host)
    ]


@on(E.GarrisonSelf)
def _garrison_self(ctx: Ctx, top: Frame, step: E.GarrisonSelf) -> None:
    hosts = _hosts(ctx.state, top.seat, top.card, step)
    if hosts:
        ctx.push(pick_frame(top.seat, top.card, "garrison_self", hosts, 1))


POSSIBLE[E.GarrisonSelf] = lambda state, seat, card, step: bool(_hosts(state, seat, card, step))


@action("garrison_self")
def _garrison_under(ctx: Ctx, top: Frame, host: str) -> None:
    seat = top.seat
    if top.card not in ctx.state.seats[seat].play:
        return
    move(ctx, seat, top.card, z(seat, "play"), z(seat, f"garrison/{host}"))
    ctx.push(steps_frame(seat, host, card_steps(ctx.state, seat, host)))


# -- Exports, Monopoly: give cards to each other player --------------------------------------------
@on(E.Give)
def _give(ctx: Ctx, top: Frame, step: E.Give) -> None:
    state = ctx.state
    attack = bool(K.card(top.card).attack)
    frames = []
    for offset in range(1, state.n):
        other = (top.seat + offset) % state.n
        if attack and other in state.memo.immune:
            continue
        data = json.dumps({"to": other, "from": _zones(step.from_)})
        for _ in range(step.count_each):
            frames.append(Frame(kind="give_to", seat=top.seat, card=top.card, data=data))
    ctx.push(*frames)


def _zones(value: Any) -> list[str]:
    return list(value) if isinstance(value, tuple) else [str(value)]


def _give_frame(ctx: Ctx, top: Frame) -> None:
    spec = json.loads(top.data)
    found = [c for c in zone_cards(ctx.state, top.seat, tuple(spec["from"])) if c != top.card]
    if found:
        ctx.push(pick_frame(top.seat, top.card, "give", found, 1, data=str(spec["to"])))


@action("give")
def _give_card(ctx: Ctx, top: Frame, card: str) -> None:
    """Assumption: a given card goes to the recipient's discard pile (no zone is printed; the
    same default as for a taken card)."""
    src = where(ctx.state, top.seat, card)
    if src:
        move(ctx, top.seat, card, src, z(int(top.data), "discard"))
        ctx.state.memo.given.append(f"{top.data}:{card}")


AUTO["give_to"] = _give_frame


# -- Direct Democracy, Phalanx: playing a card by an effect ------------------------------------
def _play_possible(state: ImperiumState, seat: int, card: str, step: Any) -> bool:
    """Playing a card by an effect needs a matching card that may be played now (its costs
    payable) and, unless free, an action token; a named card (``just_acquired``) is only
    known later."""
    if step.card is not None:
        return True
    if isinstance(step, E.Play) and state.seats[seat].actions <= 0:
        return False
    return any(playable(state, seat, c) for c in candidates(state, seat, card, step))


POSSIBLE[E.FreePlay] = _play_possible
POSSIBLE[E.Play] = _play_possible
