"""Turns: the choice of a turn, advance turns, income turns and the passing of turns.

Rules: "Déroulement du jeu" (your first turn is an income turn; clockwise), "Tours de
développement" (pay the cost of the space's tier, advance, benefit, optional bonus),
"Tours de revenus" (steps 1-4 by era: civilization 2-5, tapestry 2-4, upgrade and VP 2-5,
income 1-4; first of you and your neighbours into an era takes the space's resources),
"Fin de la partie" (a seat's game ends after its fifth income turn; the others play on).
"""

from __future__ import annotations

from collections.abc import Callable

from domain.core import Command
from domain.tapestry import cards, civs
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.cards import DICTATORSHIP
from domain.tapestry.commands import Advance, Choose, TakeIncome
from domain.tapestry.engine import AUTO, DECISIONS, END_TURN, Answer, Ctx, expr_frame
from domain.tapestry.gains import draw_tapestry, draw_territory, gain_resources, score
from domain.tapestry.rules import (
    advance_cost,
    delta,
    has_active,
    load,
    payments,
    play_on_mode,
    plays_on,
    split_cost,
    visible_spaces,
)
from domain.tapestry.scoring import end_game
from domain.tapestry.state import RESOURCES, TRACK_IDS, Frame, TapestryState
from domain.tapestry.tracks import FULL, blocked, token_choices

#: income turn steps ("Tours de revenus"): step -> the income turns (eras) it applies to.
STEP_ERAS: dict[int, tuple[int, ...]] = {
    1: (2, 3, 4, 5),
    2: (2, 3, 4),
    3: (2, 3, 4, 5),
    4: (1, 2, 3, 4),
}


def start_turn(ctx: Ctx, seat: int) -> None:
    """``seat``'s turn begins: it chooses an income turn or an advance."""
    closed = ctx.state.seats[seat].civ_tokens.get(DICTATORSHIP, [])
    if closed and closed[1] == 0:
        ctx.emit(ev.CivTokensSet(seat=seat, key=DICTATORSHIP, values=(closed[0], 1)))
    ctx.emit(ev.TurnStarted(seat=seat, turn=ctx.state.turn + 1))
    ctx.push(Frame(kind="turn", seat=seat))


def _end_turn(ctx: Ctx) -> None:
    state = ctx.state
    closed = state.seats[state.current].civ_tokens.get(DICTATORSHIP, [])
    if closed and closed[1] == 1:
        ctx.emit(ev.CivTokensSet(seat=state.current, key=DICTATORSHIP, values=()))
    for step in range(1, state.n + 1):
        nxt = (state.current + step) % state.n
        if state.seats[nxt].finished:
            continue
        if plays_on(state.seats[nxt]) and not _turn_commands(state, nxt):
            ctx.emit(ev.SeatFinished(seat=nxt))  # no advance turn left: its game ends
            continue
        start_turn(ctx, nxt)
        return
    if state.solo is not None and state.solo.automa:
        return  # solo: the bots' hook plays them on alone, then ends the game (end_solo)
    end_game(ctx)


END_TURN.append(_end_turn)


def advance_commands(state: TapestryState, seat: int) -> list[Command]:
    """Every affordable advance, with each distinct way to pay the "any resource" units.

    With several tokens on a track at different spaces, each may be advanced ("Plusieurs pions
    par piste") and pays the cost of its own next space; ``token`` then names it.
    """
    found: list[Command] = []
    player = state.seats[seat]
    for track, name in enumerate(TRACK_IDS):
        if blocked(state, seat, track):
            continue
        tokens = player.tracks[track]
        choices = token_choices(tokens)
        for index in choices:
            cost = advance_cost(name, tokens[index] + 1)
            fixed, any_units, _ = split_cost(cost)
            token = index if len(choices) > 1 else -1
            for way in payments(player.resources, fixed, any_units):
                found.append(Advance(track=name, payment=way, token=token))
    return found


#: turns of a seat playing on after its fifth income turn other than advance turns, by
#: :func:`~domain.tapestry.rules.play_on_mode`: ``(options, answer)`` of its turn decision (the
#: Merfolk's tapestry-card turns); the seat's game ends when no option is left.
PLAY_ON_TURNS: dict[int, tuple[Callable[[TapestryState, int], list[Command]], Answer]] = {}


def _turn_commands(state: TapestryState, seat: int) -> list[Command]:
    """What a seat playing on may do on its turn (its game ends when nothing)."""
    mode = play_on_mode(state.seats[seat])
    if mode in PLAY_ON_TURNS:
        return PLAY_ON_TURNS[mode][0](state, seat)
    return advance_commands(state, seat)


def _turn_options(state: TapestryState, top: Frame) -> list[Command]:
    player = state.seats[top.seat]
    if player.income_turns == 0:
        return [TakeIncome()]
    if plays_on(player):  # after the fifth income turn: advance turns only (or the civ's own)
        return _turn_commands(state, top.seat)
    return [TakeIncome(), *advance_commands(state, top.seat)]


def _turn_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    seat = top.seat
    mode = play_on_mode(ctx.state.seats[seat])
    if mode in PLAY_ON_TURNS:
        PLAY_ON_TURNS[mode][1](ctx, top, command)
        return
    if isinstance(command, TakeIncome):
        era = ctx.state.seats[seat].income_turns + 1
        ctx.emit(ev.IncomeTurnStarted(seat=seat, era=era))
        ctx.push(*(Frame(kind="income", seat=seat, ints=(step, era)) for step in (1, 2, 3, 4, 5)))
        return
    assert isinstance(command, Advance)
    track = TRACK_IDS.index(command.track)
    player = ctx.state.seats[seat]
    index = command.token if command.token >= 0 else token_choices(player.tracks[track])[0]
    cost = advance_cost(command.track, player.tracks[track][index] + 1)
    fixed, _, _ = split_cost(cost)
    gain_resources(ctx, seat, delta([*fixed, *command.payment], -1), f"advance:{command.track}")
    ctx.push(Frame(kind="advance", seat=seat, ints=(track, FULL, index)))


DECISIONS["turn"] = (_turn_options, _turn_answer)


def _first_into_era(state: TapestryState, seat: int, era: int) -> bool:
    bots = state.solo is None or state.solo.income_turns < era  # the bots count as neighbours
    return bots and all(state.seats[n].income_turns < era for n in state.neighbours(seat))


def _income(ctx: Ctx, top: Frame) -> None:
    seat, step, era = top.seat, top.ints[0], top.ints[1]
    if step == 5:
        civs.after_income(ctx, seat, era)
        if era >= 5 and not plays_on(ctx.state.seats[seat]):
            ctx.emit(ev.SeatFinished(seat=seat))
        return
    if era not in STEP_ERAS[step]:
        return
    if step == 1:
        civs.income_abilities(ctx, seat, era)
    elif step == 2:
        frames: list[Frame] = []
        if era in C.ERA_FIRST_BONUS and _first_into_era(ctx.state, seat, era):
            frames.append(expr_frame(seat, C.ERA_FIRST_BONUS[era], f"era:{era}"))
        frames.append(Frame(kind="income_play", seat=seat))
        ctx.push(*frames)
    elif step == 3:
        ctx.push(
            Frame(kind="upgrade", seat=seat, optional=True, source="income"),
            Frame(kind="income_vp", seat=seat),
        )
    else:
        _collect(ctx, seat)


AUTO["income"] = _income


def _income_play(ctx: Ctx, top: Frame) -> None:
    cards.income_play(ctx, top.seat)


AUTO["income_play"] = _income_play


def _visible(ctx: Ctx, seat: int, part: str) -> list[C.Benefit]:
    player = ctx.state.seats[seat]
    found: list[C.Benefit] = []
    for track in C.INCOME_TRACKS:
        for index in visible_spaces(player, track.building):
            space = track.spaces[index]
            found.extend(space.vp if part == "vp" else space.income)
    return found


def _income_vp(ctx: Ctx, top: Frame) -> None:
    ctx.push(*(expr_frame(top.seat, b, "income vp") for b in _visible(ctx, top.seat, "vp")))


AUTO["income_vp"] = _income_vp


#: hooks that may take over the territory tiles and tapestry cards an income turn's step 4
#: draws: ``(ctx, seat, tiles, cards) -> True`` when done (the Psionics' draws to keep one).
INCOME_DRAWS: list[Callable[[Ctx, int, int, int], bool]] = []


def _collect(ctx: Ctx, seat: int) -> None:
    """Step 4: every visible income icon (resources capped at 8, tiles, tapestry cards)."""
    gains = [0, 0, 0, 0]
    tiles = cards_drawn = 0
    for benefit in _visible(ctx, seat, "income"):
        items = benefit.items if isinstance(benefit, C.AllOf) else (benefit,)
        for item in items:
            item = load(item) if isinstance(item, str) else item
            if not isinstance(item, C.Gain):
                ctx.push(expr_frame(seat, item, "income"))
                continue
            name = item.token.removeprefix("gain_")
            if name in RESOURCES:
                gains[RESOURCES.index(name)] += item.count
            elif item.token == "gain_territory_tile":
                tiles += item.count
            elif item.token == "gain_tapestry_card":
                cards_drawn += item.count
            else:
                ctx.push(expr_frame(seat, item, "income"))
    before = ctx.state.seats[seat].resources[0]
    gain_resources(ctx, seat, (gains[0], gains[1], gains[2], gains[3]), "income")
    if has_active(ctx.state.seats[seat], "capitalism"):
        score(ctx, seat, 2 * (ctx.state.seats[seat].resources[0] - before), "capitalism")
    for hook in INCOME_DRAWS:
        if hook(ctx, seat, tiles, cards_drawn):
            return
    draw_territory(ctx, seat, tiles)
    player = ctx.state.seats[seat]
    if ctx.state.rules.draw_two_tapestry and player.income_turns == 1 and cards_drawn:
        # "VARIANTES": "Lors du tour de Revenus 1, piochez 2 cartes Fresque au lieu de 1.
        # Gardez-en 1 et défaussez l'autre."
        drawn = draw_tapestry(ctx, seat, cards_drawn + 1)
        if len(drawn) > cards_drawn:
            ctx.push(Frame(kind="keep_tapestry", seat=seat, ints=(len(drawn),)))
        return
    draw_tapestry(ctx, seat, cards_drawn)


def _keep_tapestry_options(state: TapestryState, top: Frame) -> list[Command]:
    """``tapestry/2`` variant: the card (its id) to discard among the ones just drawn (the
    last ``ints[0]`` of the hand); the others are kept. Only the discard becomes public."""
    drawn = state.seats[top.seat].hand[-top.ints[0] :]
    return [Choose(index=card) for card in sorted(set(drawn))]


def _keep_tapestry_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    ctx.emit(ev.TapestryDiscarded(seat=top.seat, cards=(command.index,)))


DECISIONS["keep_tapestry"] = (_keep_tapestry_options, _keep_tapestry_answer)
