"""Reactive effects: ``passive`` and ``exhaust`` blocks with a ``when`` event (DSL §6).

:func:`fire` is called when a seat plays a card, takes an unrest card, returns one, acquires
or innovates a card, or takes a market card carrying materials; :func:`fire_gain` when cards
of its play area make it gain a resource (Shaduf). Passive reactions resolve at once; exhaust
reactions are offered to their owner (a ``react`` decision: ``Pick`` the card or ``Pass``),
only during that seat's own Activate order ("Utiliser des effets épuisables": "à votre tour
quand vous choisissez l'ordre Activer" — not during its cleanup nor the Solstice).
Attack defences (``other_player_plays_card``) are handled by :func:`defend_frames`.
"""

from __future__ import annotations

from domain.core import Command
from domain.imperium import cards as K
from domain.imperium import events as ev
from domain.imperium.commands import Choose, Pass, Pick
from domain.imperium.content_effects import Block, IgnoreAttack, May, walk_steps
from domain.imperium.engine import DECISIONS, Ctx, steps_frame
from domain.imperium.state import Frame, ImperiumState

#: reactive events this engine fires (others are never offered: see ``NOT_IMPLEMENTED``).
FIRED = ("play_card", "take_card", "return_unrest", "acquire", "innovate",
         "gain_market_card_with_tokens", "gain_resource_from_card", "deck_empty",
         "pay", "submerge", "leaves_play")  # fmt: skip


def _matches(state: ImperiumState, block: Block, event: str, card: str, src: str) -> bool:
    when = block.when
    if when is None or event not in when.names():
        return False
    if event == "take_card":
        return when.filter is None or when.filter.suit == card
    if event == "gain_market_card_with_tokens":
        return when.token == card
    if event == "pay":  # ``card`` is the resource paid (Embalming)
        return when.resource is None or when.resource == card
    if event == "leaves_play":  # ``card`` left the play area (Palace of Poseidon)
        ref = when.card
        return ref is None or card in ref.ids or K.name(card) == ref.name
    if event == "gain_resource_from_card":
        # ``src`` is the resource gained; ``card`` one of the cards used to gain it.
        if when.resource is not None and when.resource != src:
            return False
        return K.matches(state, card, when.card_filter)
    if when.from_ is not None and when.from_ != src:
        return False
    if event == "return_unrest":
        return True
    return K.matches(state, card, when.filter)


def exhaust_ready(state: ImperiumState, seat: int, card: str) -> bool:
    """``True`` when ``seat`` may put an exhaust token on ``card`` now (own Activate turn)."""
    owner = state.seats[seat]
    return (
        state.current == seat
        and state.order == "activate"
        and owner.exhaust > 0
        and card not in owner.exhausted
        and any(f.kind == "activate" and f.seat == seat for f in state.agenda)
    )


def reacts_to(state: ImperiumState, seat: int, event: str) -> bool:
    """``True`` when a card of ``seat``'s play area has a reaction to ``event``."""
    return any(
        b.when is not None and event in b.when.names()
        for c in K.play_area(state.seats[seat]) for b in K.card(c).effects
    )  # fmt: skip


def fire(ctx: Ctx, seat: int, event: str, card: str, src: str = "hand") -> None:
    """Resolve or offer ``seat``'s reactions to ``event`` about ``card``."""
    state = ctx.state
    for owner_card in K.play_area(state.seats[seat]):
        for block in K.card(owner_card).effects:
            if not _matches(state, block, event, card, src):
                continue
            if block.trigger == "passive":
                ctx.push(steps_frame(seat, owner_card, block.do))
            elif block.trigger == "exhaust" and exhaust_ready(state, seat, owner_card):
                ctx.push(Frame(kind="react", seat=seat, card=owner_card, optional=True,
                               action=event))  # fmt: skip


def fire_gain(ctx: Ctx, seat: int, resource: str, sources: list[str]) -> None:
    """Offer ``seat``'s reactions to gaining ``resource`` through ``sources`` (cards of its
    play area used by the effect), once per reacting card (card note "Chadouf")."""
    state = ctx.state
    for owner_card in K.play_area(state.seats[seat]):
        for block in K.card(owner_card).effects:
            if not any(
                _matches(state, block, "gain_resource_from_card", c, resource) for c in sources
            ):
                continue
            if block.trigger == "passive":
                ctx.push(steps_frame(seat, owner_card, block.do))
            elif block.trigger == "exhaust" and exhaust_ready(state, seat, owner_card):
                ctx.push(Frame(kind="react", seat=seat, card=owner_card, optional=True,
                               action="gain_resource_from_card"))  # fmt: skip


def _react_options(state: ImperiumState, top: Frame) -> list[Command]:
    if not exhaust_ready(state, top.seat, top.card):
        return []
    return [Pick(card=top.card), Pass()]


def _react_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    if not isinstance(command, Pick):
        return
    ctx.emit(ev.CardExhausted(seat=top.seat, card=top.card))
    ctx.emit(ev.TokensChanged(seat=top.seat, exhaust=-1))
    for block in K.card(top.card).effects:
        if (
            block.trigger == "exhaust"
            and block.when is not None
            and top.action in block.when.names()
        ):
            ctx.push(steps_frame(top.seat, top.card, block.do))
            return


DECISIONS["react"] = (_react_options, _react_answer)


# -- attack defences -----------------------------------------------------------------------------
def defences(state: ImperiumState, seat: int) -> list[tuple[str, Block]]:
    """``(card, block)`` of every defence ``seat`` holds against an attack."""
    found = []
    for card in K.play_area(state.seats[seat]):
        for block in K.card(card).effects:
            when = block.when
            if when is None or "other_player_plays_card" not in when.names():
                continue
            if block.trigger == "exhaust" and (
                state.seats[seat].exhaust <= 0 or card in state.seats[seat].exhausted
            ):
                continue
            found.append((card, block))
    return found


def defend_frames(state: ImperiumState, attacker: int) -> list[Frame]:
    """A ``defend`` decision for each other seat holding a defence (in turn order)."""
    frames = []
    for offset in range(1, state.n):
        seat = (attacker + offset) % state.n
        if defences(state, seat):
            frames.append(Frame(kind="defend", seat=seat, optional=True, data=str(attacker)))
    return frames


def _defend_options(state: ImperiumState, top: Frame) -> list[Command]:
    if top.seat in state.memo.immune:
        return []
    held = defences(state, top.seat)
    if state.revision >= 2:
        # imperium/2: a passive defence whose text offers no choice ("may") protects at once:
        # it is the only option, so the engine applies it without asking.
        for index, (_, block) in enumerate(held):
            if block.trigger == "passive" and not any(isinstance(s, May) for s in block.do):
                return [Choose(index=index)]
    return [Choose(index=i) for i in range(len(held))] + [Pass()]


def _defend_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    if not isinstance(command, Choose):
        return
    card, block = defences(ctx.state, top.seat)[command.index]
    if block.trigger == "exhaust":
        ctx.emit(ev.CardExhausted(seat=top.seat, card=card))
        ctx.emit(ev.TokensChanged(seat=top.seat, exhaust=-1))
    steps = block.do
    if len(steps) == 1 and isinstance(steps[0], May):
        steps = steps[0].steps
    bribe = [s for s in walk_steps(steps) if isinstance(s, IgnoreAttack)]
    if bribe and bribe[0].unless_attacker_gives is not None:
        ctx.push(Frame(kind="bribe", seat=int(top.data), data=str(top.seat), card=card))
        return
    ctx.push(steps_frame(top.seat, card, steps))


def _bribe_options(state: ImperiumState, top: Frame) -> list[Command]:
    if state.seats[top.seat].progress >= 1:
        return [Choose(index=0), Choose(index=1)]
    return [Choose(index=1)]


def _bribe_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    defender = int(top.data)
    if command.index == 0:
        ctx.emit(ev.TokensChanged(seat=top.seat, progress=-1))
        ctx.emit(ev.TokensChanged(seat=defender, progress=1))
    else:
        ctx.state.memo.immune.append(defender)


DECISIONS["defend"] = (_defend_options, _defend_answer)
DECISIONS["bribe"] = (_bribe_options, _bribe_answer)
