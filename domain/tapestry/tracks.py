"""Advancement tracks: moving tokens, landmarks, space benefits and bonuses, research.

Rules: "Tours de développement" (cost, benefit, optional bonus once, landmark for the first into
tiers II-IV), "Avancer sur une piste" (free advances with or without benefit; nothing happens
past the end), "Recherche" (science die, optional advance), "Règles générales" (a space is
activated at most once per turn; several tokens per track: each moves on its own, the
furthest gives the position), F.À.Q. "Pistes" (landmark first, then benefits, then the bonus).

With tokens on different spaces of one track, a free advance or a move back asks which token
moves (``token_pick``); an advance turn names it in :class:`~domain.tapestry.commands.Advance`.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.core import Command
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.commands import Choose, Decline, PayBonus
from domain.tapestry.engine import AUTO, DECISIONS, TOKENS, Ctx, expr_frame
from domain.tapestry.gains import TRACK_KEY, claim_landmark, earn, gain_resources, score
from domain.tapestry.rules import (
    combinations,
    delta,
    dump,
    extra_options,
    has_active,
    payments,
    split_cost,
    tier_of,
)
from domain.tapestry.state import TRACK_IDS, Frame, TapestryState

#: advance modes: benefit + optional bonus; benefit only; nothing; bonus free, no benefit;
#: optional advance without benefit (5 VP at the end); no benefit and no landmark (Futurists);
#: benefit and the bonus for free (Werefolk).
FULL, BENEFIT, NONE, FREE_BONUS, OVERFLOW, SILENT, FULL_FREE = range(7)
_SUFFIX = {
    "": FULL,
    "_benefit_no_bonus": BENEFIT,
    "_no_benefit": NONE,
    "_free_bonus_only": FREE_BONUS,
    "_no_benefit_optional_overflow_vp": OVERFLOW,
}


def blocked(state: TapestryState, seat: int, track: int) -> bool:
    """``True`` when a card closes ``track`` to the seat (Theocracy, Broker of Peace,
    Dictatorship)."""
    player = state.seats[seat]
    name = TRACK_IDS[track]
    for other, rival in enumerate(state.seats):
        closed = rival.civ_tokens.get("_dictatorship", [])
        if other != seat and closed and closed[0] == track:
            return True
    return (name == "science" and has_active(player, "theocracy")) or (
        name == "military" and has_active(player, "broker_of_peace")
    )


def advance_frame(seat: int, track: int, mode: int, source: str = "") -> Frame:
    """An automatic frame advancing ``seat`` one space on ``track`` in ``mode``."""
    return Frame(kind="advance", seat=seat, ints=(track, mode), source=source)


def token_choices(tokens: list[int], backward: bool = False) -> list[int]:
    """Indices of the tokens that may move (one per distinct position, furthest first).

    Forward: tokens below space 12; backward: tokens above the start space. Tokens on the same
    space are interchangeable, so only the first of them is offered ("Plusieurs pions par
    piste": each token moves on its own).
    """
    found: list[int] = []
    seen: set[int] = set()
    for index in sorted(range(len(tokens)), key=lambda i: (-tokens[i], i)):
        position = tokens[index]
        if position in seen or (position <= 0 if backward else position >= 12):
            continue
        seen.add(position)
        found.append(index)
    return found


def _advance(ctx: Ctx, top: Frame) -> None:
    seat, track, mode = top.seat, top.ints[0], top.ints[1]
    tokens = ctx.state.seats[seat].tracks[track]
    choices = token_choices(tokens)
    if not choices:
        # "Avancer sur une piste": past the end nothing happens (Alchemists: 5 VP for a
        # result that would take the token off the track).
        if mode == OVERFLOW:
            score(ctx, seat, 5, "overflow")
        return
    if blocked(ctx.state, seat, track):
        return
    if len(top.ints) > 2:
        index = top.ints[2]
    else:
        if len(choices) > 1:
            ctx.push(Frame(kind="token_pick", seat=seat, ints=(track, mode), source=top.source))
            return
        index = choices[0]
    move(ctx, seat, track, index, tokens[index] + 1, mode, top.source)


AUTO["advance"] = _advance


def _regress(ctx: Ctx, top: Frame) -> None:
    seat, track, mode = top.seat, top.ints[0], top.ints[1]
    tokens = ctx.state.seats[seat].tracks[track]
    if len(top.ints) > 2:
        index = top.ints[2]
    else:
        choices = token_choices(tokens, backward=True)
        if not choices:
            return
        if len(choices) > 1:
            ctx.push(
                Frame(
                    kind="token_pick",
                    seat=seat,
                    ints=(track, mode),
                    token="regress",
                    source=top.source,
                )
            )
            return
        index = choices[0]
    move(ctx, seat, track, index, tokens[index] - 1, mode, top.source)


AUTO["regress"] = _regress


def _token_pick_options(state: TapestryState, top: Frame) -> list[Command]:
    tokens = state.seats[top.seat].tracks[top.ints[0]]
    return [Choose(index=i) for i in token_choices(tokens, backward=top.token == "regress")]


def _token_pick_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    kind = "regress" if top.token == "regress" else "advance"
    ctx.push(
        Frame(kind=kind, seat=top.seat, ints=(*top.ints[:2], command.index), source=top.source)
    )


DECISIONS["token_pick"] = (_token_pick_options, _token_pick_answer)


def move(ctx: Ctx, seat: int, track: int, index: int, to: int, mode: int, source: str = "") -> None:
    """Move token ``index`` of ``track`` to ``to``, then landmarks, benefit and bonus."""
    name = TRACK_IDS[track]
    origin = ctx.state.seats[seat].tracks[track][index]
    to = max(0, min(12, to))
    if to == origin:
        return
    ctx.emit(ev.TokenMoved(seat=seat, track=name, token=index, origin=origin, to=to))
    after_move(ctx, seat, track, origin, to, mode, source)


#: hooks ``(ctx, seat, track, origin, to, mode, source) -> frames`` asked before a space's
#: benefit and bonus are given: the first frame returned replaces them (it may still give
#: them).
INSTEAD_OF_SPACE: list[Callable[[Ctx, int, int, int, int, int, str], list[Frame]]] = []


def after_move(
    ctx: Ctx, seat: int, track: int, origin: int, to: int, mode: int, source: str
) -> None:
    """Consequences of a token reaching ``to``: completion, landmarks, benefit and bonus."""
    name = TRACK_IDS[track]
    player = ctx.state.seats[seat]
    if to == 12 and not player.completed[track]:
        ctx.emit(ev.TrackCompleted(seat=seat, track=name))
    if to == 12:
        earn(ctx, seat, TRACK_KEY)
    if to > origin:
        if name == "science" and has_active(player, "empiricism"):
            score(ctx, seat, 2, "empiricism")
        if name == "military":
            for other in range(ctx.state.n):
                if other != seat and has_active(ctx.state.seats[other], "broker_of_peace"):
                    score(ctx, other, 3, "broker_of_peace")
    before = len(ctx.state.agenda)
    if mode != SILENT and to > origin:
        for tier in range(tier_of(origin) + 1, tier_of(to) + 1):
            if tier < 2:
                continue
            if has_active(player, "theocracy"):
                score(ctx, seat, 4, "theocracy")
            landmark = C.space(name, (tier - 1) * 3 + 1).landmark
            if landmark is not None:
                claim_landmark(ctx, seat, landmark, f"track:{name}")
    builds = ctx.state.agenda[before:]
    del ctx.state.agenda[before:]
    if mode in (FULL, BENEFIT, FREE_BONUS, FULL_FREE):
        instead = [
            f for hook in INSTEAD_OF_SPACE for f in hook(ctx, seat, track, origin, to, mode, source)
        ]
        if instead:  # a civilization offers something else in place of the space (Renegades)
            ctx.push(instead[0])
        else:
            ctx.push(*space_frames(ctx, seat, track, to, mode, source))
    ctx.state.agenda.extend(builds)


def space_frames(
    ctx: Ctx, seat: int, track: int, space: int, mode: int, source: str
) -> list[Frame]:
    """The frames gaining a space's benefit and offering its bonus (once per turn per space)."""
    if space <= 0:
        return []
    key = f"{TRACK_IDS[track]}:{space}"
    if key in ctx.state.seats[seat].activated:
        return []
    ctx.emit(ev.SpaceActivated(seat=seat, key=key))
    record = C.space(TRACK_IDS[track], space)
    where = source or f"track:{key}"
    frames: list[Frame] = []
    if mode in (FULL, BENEFIT, FULL_FREE):
        frames.append(expr_frame(seat, record.benefit, where))
    if record.bonus is not None and mode in (FULL, FREE_BONUS, FULL_FREE):
        cost = () if mode in (FREE_BONUS, FULL_FREE) else tuple(record.bonus.cost)
        if key == NANOTECHNOLOGY and ctx.state.rules.nanotechnology_two_cards and cost:
            cost = cost[1:]  # "VARIANTES": 2 tech cards instead of 3
        frames.append(
            Frame(
                kind="bonus",
                seat=seat,
                options=cost,
                expr=dump(record.bonus.benefit),
                optional=True,
                source=where,
            )
        )
    return frames


#: the space whose bonus the "VARIANTES" option ``nanotechnology_two_cards`` cheapens.
NANOTECHNOLOGY = "technology:11"


def _advance_token(track: int, mode: int) -> None:
    def handler(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
        ctx.push(*(advance_frame(seat, track, mode, top.source) for _ in range(count)))

    return_name = TRACK_IDS[track]
    suffix = next(s for s, m in _SUFFIX.items() if m == mode)
    TOKENS[f"advance_{return_name}{suffix}"] = handler


for _track in range(len(TRACK_IDS)):
    for _mode in _SUFFIX.values():
        _advance_token(_track, _mode)


def _regress_token(track: int, with_benefit: bool) -> None:
    def handler(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
        mode = FULL if with_benefit else NONE
        frame = Frame(kind="regress", seat=seat, ints=(track, mode), source=top.source)
        ctx.push(*(frame for _ in range(count)))

    suffix = "" if with_benefit else "_no_benefit"
    TOKENS[f"regress_{TRACK_IDS[track]}{suffix}"] = handler


for _track in range(len(TRACK_IDS)):
    _regress_token(_track, True)
    _regress_token(_track, False)


# -- bonuses and optional exchanges --------------------------------------------------------
def bonus_commands(state: TapestryState, top: Frame) -> list[Command]:
    """Ways to pay the cost of an optional bonus/exchange, then :class:`Decline`."""
    player = state.seats[top.seat]
    cost = list(top.options)
    if len(cost) == 1 and cost[0] == "any_resource" and has_active(player, "wartime_economy"):
        cost = []
    fixed, any_units, other = split_cost(cost)
    found: list[Command] = []
    ways = payments(player.resources, fixed, any_units)
    discards: list[tuple[int, ...]] = [()]
    for unit, count in other.items():
        pool = {
            "territory_tile": player.territory,
            "tapestry_card": player.hand,
            "tech_card": [t.card for t in player.tech],
        }.get(unit, [])
        discards = [d + c for d in discards for c in combinations(pool, count)]
    for way in ways:
        for discard in discards:
            found.append(PayBonus(payment=way, discard=tuple(sorted(discard))))
    found.append(Decline())
    return found


def _bonus_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    if isinstance(command, Decline):
        return
    assert isinstance(command, PayBonus)
    player = ctx.state.seats[top.seat]
    cost = list(top.options)
    if len(cost) == 1 and cost[0] == "any_resource" and has_active(player, "wartime_economy"):
        cost = []
    fixed, _, other = split_cost(cost)
    paid = [*fixed, *command.payment]
    if paid:
        gain_resources(ctx, top.seat, delta(paid, -1), "bonus cost")
    discard = list(command.discard)
    for unit, count in other.items():
        chosen = discard[:0]
        pool = {
            "territory_tile": list(player.territory),
            "tapestry_card": list(player.hand),
            "tech_card": [t.card for t in player.tech],
        }[unit]
        for item in list(discard):
            if item in pool and len(chosen) < count:
                chosen.append(item)
                pool.remove(item)
                discard.remove(item)
        if unit == "territory_tile":
            ctx.emit(ev.TilesDiscarded(seat=top.seat, tiles=tuple(chosen)))
        elif unit == "tapestry_card":
            ctx.emit(ev.TapestryDiscarded(seat=top.seat, cards=tuple(chosen)))
        else:
            ctx.emit(ev.TechDiscarded(seat=top.seat, cards=tuple(chosen)))
    ctx.push(expr_frame(top.seat, top.expr, top.source))


DECISIONS["bonus"] = (bonus_commands, _bonus_answer)


# -- research ------------------------------------------------------------------------------
RESEARCH_FULL, RESEARCH_NONE, RESEARCH_OVERFLOW = 0, 1, 2


#: hooks run after every roll of the science die: ``(ctx, roller, track index)``; frames
#: they push resolve after the roller's own (the Illuminati, :mod:`civ_illuminati`).
SCIENCE_ROLLED: list[Callable[[Ctx, int, int], None]] = []


def roll_science(ctx: Ctx, seat: int) -> int:
    """Roll the science die; the track index shown."""
    face = ctx.chance.below(len(C.SCIENCE_DIE))
    track = C.SCIENCE_DIE[face]
    ctx.emit(ev.ScienceDieRolled(seat=seat, face=face, track=track))
    for hook in SCIENCE_ROLLED:
        hook(ctx, seat, TRACK_IDS.index(track))
    return TRACK_IDS.index(track)


def _research_token(kind: int) -> None:
    def handler(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
        ctx.push(
            *(Frame(kind="roll", seat=seat, ints=(kind,), source=top.source) for _ in range(count))
        )

    name = {RESEARCH_FULL: "research", RESEARCH_NONE: "research_no_benefit"}.get(
        kind, "research_no_benefit_overflow_vp"
    )
    TOKENS[name] = handler


for _kind in (RESEARCH_FULL, RESEARCH_NONE, RESEARCH_OVERFLOW):
    _research_token(_kind)


def _roll(ctx: Ctx, top: Frame) -> None:
    seat, kind = top.seat, top.ints[0]
    first = roll_science(ctx, seat)
    rolls = [first]
    if has_active(ctx.state.seats[seat], "empiricism"):
        rolls.append(roll_science(ctx, seat))
    for _ in range(extra_options(ctx.state, seat)):  # the Psionics: one more roll to choose
        rolls.append(roll_science(ctx, seat))
    distinct = list(dict.fromkeys(rolls))
    if len(distinct) > 1:
        ctx.push(Frame(kind="research_pick", seat=seat, ints=(kind, *distinct)))
        return
    _after_roll(ctx, seat, kind, first, top.source)


AUTO["roll"] = _roll


def _after_roll(ctx: Ctx, seat: int, kind: int, track: int, source: str) -> None:
    if not token_choices(ctx.state.seats[seat].tracks[track]):
        # "Recherche": a result that would take the token past space 12 does nothing (Alien
        # Biology: 5 VP for each such result).
        if kind == RESEARCH_OVERFLOW:
            score(ctx, seat, 5, "research overflow")
        return
    if blocked(ctx.state, seat, track):
        return
    ctx.push(Frame(kind="research", seat=seat, ints=(kind, track), source=source))


def research_result(ctx: Ctx, seat: int, kind: int, track: int, source: str) -> None:
    """What a science roll showing ``track`` gives (``kind``: ``RESEARCH_FULL``,
    ``RESEARCH_NONE`` or ``RESEARCH_OVERFLOW``), as "Recherche" says."""
    _after_roll(ctx, seat, kind, track, source)


def _pick_options(state: TapestryState, top: Frame) -> list[Command]:
    return [Choose(index=i) for i in range(len(top.ints) - 1)]


def _pick_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    kind = top.ints[0]
    _after_roll(ctx, top.seat, kind, top.ints[1 + command.index], top.source)


DECISIONS["research_pick"] = (_pick_options, _pick_answer)


def _research_options(state: TapestryState, top: Frame) -> list[Command]:
    return [Choose(index=0), Choose(index=1)]


def _research_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    if command.index != 0:
        return
    kind, track = top.ints
    mode = FULL if kind == RESEARCH_FULL else NONE
    ctx.push(advance_frame(top.seat, track, mode, top.source))


DECISIONS["research"] = (_research_options, _research_answer)
