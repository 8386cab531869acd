"""The C.I.V.'s turn ("LE TOUR DE LA C.I.V.", "RÉSOUDRE LES CARTES DE LA C.I.V.", "PHASE DE
NETTOYAGE DE LA C.I.V.", "NIVEAUX DE DIFFICULTÉ").

Its turn is a few automatic frames of seat :data:`~domain.imperium.civ.CIV`: the die and the
set-aside card (:func:`start`), one ``civ_resolve`` frame per slot in ascending order, then
its cleanup (:func:`cleanup`). A row that involves the human (an attack, "vous POUVEZ piocher")
pushes the human's decisions on top, so they are answered before the next slot resolves.
"""

from __future__ import annotations

import json

from domain.imperium import cards as K
from domain.imperium import events as ev
from domain.imperium.civ import CIV
from domain.imperium.civ import content as S
from domain.imperium.civ import ops as O
from domain.imperium.civ import voyage as V
from domain.imperium.civ.content import CivStep, Row
from domain.imperium.civ.events import CivCardResolved, CivDieRolled
from domain.imperium.content_effects import Abandon, Discard, If, Recall, Step
from domain.imperium.engine import Ctx, dump_steps, steps_frame
from domain.imperium.ops import gain, move, trigger_end, z
from domain.imperium.reactions import defend_frames
from domain.imperium.state import Frame, ImperiumState

#: human-side steps that are attacks when the C.I.V. makes them ("MODIFICATIONS DES EFFETS
#: DE CARTES": stealing, making you discard, abandon or recall).
ATTACK_STEPS = (Discard, Abandon, Recall)


def slot_zone(index: int) -> str:
    """The zone of location slot ``index`` (1-based)."""
    return f"civ/slot/{index}"


def start(ctx: Ctx) -> None:
    """Roll the die, set aside the card of the slot it names, queue the other slots."""
    civ = ctx.state.civ
    assert civ is not None
    face = ctx.chance.below(6) + 1
    ctx.emit(CivDieRolled(face=face))
    if face <= len(civ.slots) and civ.slots[face - 1]:
        move(ctx, CIV, civ.slots[face - 1][0], slot_zone(face), "civ/aside")
    ctx.push(*(Frame(kind="civ_resolve", seat=CIV, data=str(i + 1))
               for i in range(len(civ.slots))))  # fmt: skip


def matches(state: ImperiumState, card: str, match: str) -> bool:
    """Whether a table row's ``match`` names ``card`` (its name, a category, a state icon,
    the attack icon ``icon:attack`` or a type icon ``type:knight``; ``other`` matches every
    card)."""
    if match == "other":
        return True
    head, _, value = match.partition(":")
    record = K.card(card)
    if head == "name":
        return bool(record.name == value)
    if head == "suit":
        return value in K.suits(card)
    if head == "icon":
        return bool(value == "attack" and record.attack)
    if head == "type":
        return value in record.type_icons
    return bool(head == "state" and record.state_icon == value)


def possible(state: ImperiumState, step: CivStep) -> bool:
    """Whether a guard step can be met now."""
    seat = state.seats[CIV]
    kind, args = step.kind, step.args
    if kind == "spend":
        return seat.tokens(args[0]) >= int(args[1])
    if kind == "spend_all":
        return seat.tokens(args[0]) > 0
    if kind == "acquire":
        return bool(O.best_market_card(state, tuple(args[0].split("/"))))
    if kind == "return_unrest":
        return any("unrest" in K.suits(c) for c in seat.discard)
    if kind == "acquire_exiled":
        return bool(O.best_exiled(state, args[0]))
    if kind == "archive_discard":
        return bool(O.in_discard(state, args[0]))
    if kind == "discard_has":
        return len(O.in_discard(state, args[0])) >= int(args[1])
    if kind == "recover_quest":
        return bool(state.civ is not None and state.civ.quests)
    if kind == "acquire_tokened":
        return bool(O.best_market_card(state, S.SUITS, token=args[0]))
    if kind == "you_have":
        human = K.play_area(state.seats[0])
        return sum(O.shows(c, args[0]) for c in human) >= int(args[1])
    if kind == "you_state":
        return state.seats[0].empire == (args[0] == "empire")
    if kind == "abandon_for_fame" and not O.fame_drawable(state):
        return False  # imperium/5: no fame card left and King of Kings resolved: « sinon »
    if kind in ("abandon_for_fame", "abandon", "regions"):
        return len(O.regions_in_play(state)) >= int(args[0])
    return True


def resolvable(state: ImperiumState, row: Row) -> int:
    """The first alternative of ``row`` whose guards all hold (-1: none can be resolved)."""
    for index, steps in enumerate(row.alternatives_for(state.revision)):
        if all(possible(state, s) for s in steps if s.kind in S.GUARDS):
            return index
    return -1


def _resolve_slot(ctx: Ctx, top: Frame) -> None:
    slot = int(top.data)
    civ = ctx.state.civ
    assert civ is not None
    cards = civ.slots[slot - 1] if slot <= len(civ.slots) else []
    if not cards:
        return
    card = cards[0]
    side = "empire" if ctx.state.seats[CIV].empire else "barbarian"
    if "unrest" in K.suits(card):
        ctx.emit(CivCardResolved(slot=slot, card=card, side=side, row=-1,
                                 text="Renvoyée dans la pile des Instabilités."))  # fmt: skip
        move(ctx, CIV, card, slot_zone(slot), "unrest")
        if ctx.state.revision >= 3:
            O.supreme_bonus(ctx)
        return
    table = S.table_for(civ.nation, side)
    for row in table.rows_for(ctx.state.revision):
        if not matches(ctx.state, card, row.match):
            continue
        choice = resolvable(ctx.state, row)
        if choice < 0:
            continue
        ctx.emit(CivCardResolved(slot=slot, card=card, side=side, row=row.index, text=row.text))
        apply_row(ctx, slot, card, row, choice)
        return
    ctx.emit(CivCardResolved(slot=slot, card=card, side=side, row=-2,
                             text="Aucune action possible : défaussée."))  # fmt: skip
    move(ctx, CIV, card, slot_zone(slot), z(CIV, "discard"))


def apply_row(ctx: Ctx, slot: int, card: str, row: Row, choice: int) -> None:
    """Resolve alternative ``choice`` of ``row`` for ``card`` of ``slot`` as far as possible;
    the card goes to the discard unless a step put it elsewhere."""
    where = z(CIV, "discard")
    human: list[Frame] = []
    for step in row.alternatives_for(ctx.state.revision)[choice]:
        where = _civ_step(ctx, step, where, human)
    move(ctx, CIV, card, slot_zone(slot), where)
    revision = ctx.state.revision
    you: tuple[Step, ...] = row.you_for(revision) + (row.you_else_for(revision) if choice else ())
    steal = [f for f in human if f.kind == "civ_attack" and f.data]
    if you and revision >= 4 and steal:
        # one attack card, one defence: the human-side part goes with the theft
        # (« Volez 2 [matériaux]. Vous gagnez 1 [population]. »)
        index = human.index(steal[0])
        human[index] = Frame(kind="civ_attack", seat=CIV, card=card, steps=dump_steps(you),
                             data=steal[0].data)  # fmt: skip
    elif you:
        human.append(_human_frame(ctx, you, card))
    ctx.push(*human)


def _human_frame(ctx: Ctx, steps: tuple[Step, ...], card: str) -> Frame:
    """A frame resolving ``steps`` for the human; an attack lets the human defend first."""
    if _attacks(steps):
        return Frame(kind="civ_attack", seat=CIV, card=card, steps=dump_steps(steps))
    return steps_frame(0, "", steps)


def _attacks(steps: tuple[Step, ...]) -> bool:
    """Whether ``steps`` attack the human, also inside a conditional step (« Si vous avez au
    moins une [vassal] en jeu, vous rappelez une [région] »)."""
    for step in steps:
        if isinstance(step, ATTACK_STEPS):
            return True
        if isinstance(step, If) and _attacks(tuple(step.then) + tuple(step.else_)):
            return True
    return False


def _civ_step(ctx: Ctx, step: CivStep, where: str, human: list[Frame]) -> str:
    """Do one C.I.V. step; returns where the resolved card goes."""
    kind, args = step.kind, step.args
    seat = ctx.state.seats[CIV]
    if kind == "gain":
        gain(ctx, CIV, **{args[0]: int(args[1])})
    elif kind == "per_region":
        count = len(O.regions_in_play(ctx.state)) * int(args[1])
        if count:
            gain(ctx, CIV, **{args[0]: count})
    elif kind == "spend" and seat.tokens(args[0]) >= int(args[1]):
        ctx.emit(ev.TokensChanged(seat=CIV, **{args[0]: -int(args[1])}))
    elif kind == "convert" and seat.tokens(args[0]) >= int(args[1]):
        ctx.emit(ev.TokensChanged(seat=CIV, **{args[0]: -int(args[1])}))
        gain(ctx, CIV, **{args[2]: 1})
    elif kind == "spend_all":
        amount = seat.tokens(args[0])
        if amount:
            ctx.emit(ev.TokensChanged(seat=CIV, **{args[0]: -amount}))
            gain(ctx, CIV, **{args[1]: amount})
    elif kind == "discard_top":
        O.discard_top(ctx, int(args[0]))
    elif kind == "dynasty":
        for _ in range(int(args[0])):
            O.take_dynasty(ctx, z(CIV, "discard"))
    elif kind == "archive":
        return z(CIV, "history")
    elif kind == "play":
        return z(CIV, "play")
    elif kind == "to_top":
        return z(CIV, "deck_top")
    elif kind == "exile":
        O.civ_exile(ctx)
    elif kind == "acquire":
        O.civ_acquire(ctx, tuple(args[0].split("/")))
    elif kind == "innovate":
        O.civ_innovate(ctx, args[0])
    elif kind == "return_unrest":
        O.return_unrest(ctx)
    elif kind == "abandon_for_fame":
        for _ in range(int(args[0])):
            O.abandon_last(ctx)
        O.draw_fame(ctx)
    elif kind == "abandon":
        for _ in range(int(args[0])):
            O.abandon_last(ctx)
    elif kind == "take_unrest":
        O.civ_take_unrest(ctx)
    elif kind == "recover":
        O.recover(ctx, args[0])
    elif kind == "die_slot":
        O.die_slot_tokens(ctx, args[0], int(args[1]))
    elif kind == "acquire_exiled":
        O.acquire_exiled(ctx, args[0])
    elif kind == "archive_region":
        O.last_region_to(ctx, z(CIV, "history"))
    elif kind == "recall_region":
        O.last_region_to(ctx, z(CIV, "deck_top"))
    elif kind == "exile_quest":
        V.exile_quest(ctx)
    elif kind == "recover_quest":
        V.recover_quest(ctx)
    elif kind == "archive_discard":
        O.from_discard(ctx, args[0], z(CIV, "history"))
    elif kind == "play_discard":
        O.from_discard(ctx, args[0], z(CIV, "play"))
    elif kind == "archive_top":
        for _ in range(int(args[0])):
            if not O.take_top(ctx, z(CIV, "history")):
                break
    elif kind == "exile_self":
        return "exile"
    elif kind == "acquire_tokened":
        O.civ_acquire(ctx, S.SUITS, token=args[0])
    elif kind == "draw_fame":
        O.draw_fame(ctx)
    elif kind == "end_game":
        trigger_end(ctx, "civ_table")
    elif kind == "steal":
        human.append(Frame(kind="civ_attack", seat=CIV, data=json.dumps(args)))
    return where


def _attack(ctx: Ctx, top: Frame) -> None:
    """Let the human defend, then resolve the attack unless the human ignores it."""
    ctx.state.memo.immune = []
    ctx.push(*defend_frames(ctx.state, CIV), Frame(kind="civ_hit", seat=CIV, card=top.card,
                                                    steps=top.steps, data=top.data))  # fmt: skip


def _hit(ctx: Ctx, top: Frame) -> None:
    if 0 in ctx.state.memo.immune:
        return
    if top.data:
        resource, amount = json.loads(top.data)
        O.steal(ctx, resource, int(amount))
    if top.steps:
        ctx.push(Frame(kind="steps", seat=0, card="", steps=top.steps))


def cleanup(ctx: Ctx) -> None:
    """Its cleanup: tokens on the market card above the die's slot (none on a 6), the
    set-aside card into slot 1, slots refilled (an empty deck: top dynasty card into its
    discard, discard reshuffled), Seigneur de guerre: then its top card into its discard."""
    state = ctx.state
    civ = state.civ
    assert civ is not None
    if 1 <= civ.die <= min(5, len(state.market)) and state.market[civ.die - 1].card:
        tokens = S.nation_rule(civ.nation).cleanup_tokens
        ctx.emit(ev.SlotTokensChanged(slot=civ.die - 1, materials=tokens[0],
                                      population=tokens[1], progress=tokens[2]))  # fmt: skip
    seat = state.seats[CIV]
    for card in list(seat.hand):  # assumed: cards a human effect put in its hand
        move(ctx, CIV, card, z(CIV, "hand"), z(CIV, "discard"))
    if civ.aside:
        move(ctx, CIV, civ.aside[0], "civ/aside", slot_zone(1) if not civ.slots[0]
             else z(CIV, "discard"))  # fmt: skip
    refill(ctx)
    burn = S.level(civ.level).burn_after_refill
    if burn:
        O.discard_top(ctx, burn)


def refill(ctx: Ctx) -> None:
    """Fill every empty slot (but the token slot) from its deck, reshuffling when needed (an
    empty deck: the top dynasty card into its discard; the Utopians, ``imperium/3``: their
    voyage card's row first, see :mod:`domain.imperium.civ.voyage`)."""
    civ = ctx.state.civ
    assert civ is not None
    for index in range(1, len(civ.slots) + 1):
        if index == civ.token_slot or civ.slots[index - 1]:
            continue
        if not O.deck_size(ctx.state):
            unrest = False
            if V.applies(ctx, "utopians"):
                unrest = V.resolve_voyage(ctx)
            else:
                O.take_dynasty(ctx, z(CIV, "discard"))
            if not ctx.state.seats[CIV].discard:
                V.after_shuffle(ctx, unrest)
                if not O.deck_size(ctx.state):
                    return
            else:
                ctx.emit(ev.DeckShuffled(seat=CIV))
                V.after_shuffle(ctx, unrest)
        O.take_top(ctx, slot_zone(index))
