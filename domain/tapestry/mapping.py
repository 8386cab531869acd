"""The map: exploring territory and space tiles, conquering, traps and the conquer dice.

Rules: "Exploration" (a tile from your supply on an unexplored hex next to a territory you
control, any rotation — each physically distinct rotation is offered once —, 1 VP per matching
side, then the tile's benefit), "Exploration de
l'espace", "Conquête" (an outpost on a territory with at most one token, next to one you
control; roll both dice, keep one; a lone opposing outpost is toppled), "Cartes riposte"
(Trap), "Objectifs" (toppling 2 outposts, the central island), F.À.Q. "Militaire".
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from domain.core import Command
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry import hexmap
from domain.tapestry.civs import after_conquer_outpost
from domain.tapestry.commands import Choose, Conquer, Decline, Explore, ExploreSpace, PlayTrap
from domain.tapestry.engine import AUTO, DECISIONS, TOKENS, Ctx, expr_frame
from domain.tapestry.gains import ISLAND_KEY, check_toppled, earn, score
from domain.tapestry.rules import (
    ADVANCE_TURNS,
    conquer_targets,
    dump,
    exploration_vp,
    explore_targets,
    extra_options,
    has_active,
    is_central_island,
    play_on_mode,
)
from domain.tapestry.state import Frame, TapestryState

TRAP_KEY = "trap"
#: hooks run when a seat conquers a bot's territory: ``(ctx, hex, conqueror)``.
BOT_DEFENDS: list[Callable[[Ctx, int, int], None]] = []


# -- exploration ---------------------------------------------------------------------------
def _explore_token(anywhere: bool) -> None:
    def handler(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
        ctx.push(
            *(
                Frame(kind="explore", seat=seat, ints=(int(anywhere),), source=top.source)
                for _ in range(count)
            )
        )

    TOKENS["explore_anywhere" if anywhere else "explore"] = handler


_explore_token(False)
_explore_token(True)


@lru_cache(maxsize=64)
def tile_rotations(tile: int) -> tuple[int, ...]:
    """The physically distinct rotations of a territory tile (the smallest of equal ones).

    "Exploration": orient the tile as you like; rotations that lay the same terrains on the
    same corners are one and the same placement, so only one of them is offered.
    """
    return hexmap.distinct_rotations(C.TERRITORY_TILES[tile].corners)


def _explore_options(state: TapestryState, top: Frame) -> list[Command]:
    player = state.seats[top.seat]
    tiles = sorted(set(player.territory))
    if len(top.ints) > 1:
        tiles = [t for t in tiles if t == top.ints[1]]
    found: list[Command] = []
    if not tiles:
        return found
    for index in explore_targets(state, top.seat, bool(top.ints[0])):
        cell = state.hexes[index]
        for tile in tiles:
            for rotation in tile_rotations(tile):
                found.append(Explore(q=cell.q, r=cell.r, tile=tile, rotation=rotation))
    return found


def _explore_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Explore)
    state = ctx.state
    index = next(i for i, h in enumerate(state.hexes) if (h.q, h.r) == (command.q, command.r))
    vp = exploration_vp(state, index, command.tile, command.rotation)
    ctx.emit(
        ev.TileExplored(seat=top.seat, hex=index, tile=command.tile, rotation=command.rotation)
    )
    score(ctx, top.seat, vp, "exploration")
    militarism = has_active(state.seats[top.seat], "militarism")
    if militarism and state.rules.revision >= 2:
        # tapestry/2: "vous pouvez" — the outpost is the player's choice (answered below)
        ctx.push(Frame(kind="militarism", seat=top.seat, ints=(index,), optional=True))
    elif militarism and state.seats[top.seat].outposts > 0:
        ctx.emit(ev.OutpostPlaced(seat=top.seat, hex=index))
        after_conquer_outpost(ctx, top.seat)
    benefit = C.TERRITORY_TILES[command.tile].benefit
    if benefit is not None:
        ctx.push(expr_frame(top.seat, benefit, f"tile:{command.tile}"))


DECISIONS["explore"] = (_explore_options, _explore_answer)


def _militarism_options(state: TapestryState, top: Frame) -> list[Command]:
    """Militarism (``tapestry/2``): put an outpost on the territory just explored, or not."""
    if state.seats[top.seat].outposts <= 0:
        return []
    return [Choose(index=0), Decline()]


def _militarism_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    if isinstance(command, Choose):
        ctx.emit(ev.OutpostPlaced(seat=top.seat, hex=top.ints[0]))
        after_conquer_outpost(ctx, top.seat)


DECISIONS["militarism"] = (_militarism_options, _militarism_answer)


def _explore_space(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
    ctx.push(*(Frame(kind="explore_space", seat=seat, source=top.source) for _ in range(count)))


TOKENS["explore_space"] = _explore_space


def _space_options(state: TapestryState, top: Frame) -> list[Command]:
    return [ExploreSpace(tile=t) for t in sorted(set(state.seats[top.seat].space))]


def _space_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, ExploreSpace)
    ctx.emit(ev.SpaceTileExplored(seat=top.seat, tile=command.tile))
    ctx.push(expr_frame(top.seat, C.SPACE_TILES[command.tile].benefit, f"space:{command.tile}"))


DECISIONS["explore_space"] = (_space_options, _space_answer)


# -- conquest ------------------------------------------------------------------------------
#: conquer variants: keep one die; both dice; both if the target was an opponent's; anywhere.
ONE, BOTH, BOTH_IF_OPPONENT, ANYWHERE = range(4)
_CONQUER_TOKENS = {
    "conquer": ONE,
    "conquer_both_dice": BOTH,
    "conquer_both_dice_if_opponent": BOTH_IF_OPPONENT,
    "conquer_anywhere": ANYWHERE,
}


def _conquer_token(variant: int) -> None:
    def handler(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
        ctx.push(
            *(
                Frame(kind="conquer", seat=seat, ints=(variant,), source=top.source)
                for _ in range(count)
            )
        )

    name = next(k for k, v in _CONQUER_TOKENS.items() if v == variant)
    TOKENS[name] = handler


for _variant in _CONQUER_TOKENS.values():
    _conquer_token(_variant)


def _conquer_options(state: TapestryState, top: Frame) -> list[Command]:
    anywhere = top.ints[0] == ANYWHERE
    return [
        Conquer(q=state.hexes[i].q, r=state.hexes[i].r)
        for i in conquer_targets(state, top.seat, anywhere)
    ]


def _conquer_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Conquer)
    state = ctx.state
    seat = top.seat
    index = next(i for i, h in enumerate(state.hexes) if (h.q, h.r) == (command.q, command.r))
    defender = state.hexes[index].controller()
    ctx.emit(ev.OutpostPlaced(seat=seat, hex=index))
    if defender < -1:  # an automated opponent's territory (domain.tapestry.solo)
        for hook in BOT_DEFENDS:
            hook(ctx, index, seat)
    variant = top.ints[0]
    both = variant == BOTH or (variant == BOTH_IF_OPPONENT and defender != -1)
    if defender >= 0 and has_active(state.seats[seat], "pillage_and_plunder"):
        both = True
    dice = Frame(kind="dice", seat=seat, ints=(index, int(both), defender), source=top.source)
    can_trap = (
        defender >= 0
        and not state.seats[defender].finished
        and play_on_mode(state.seats[defender]) != ADVANCE_TURNS
        and not has_active(state.seats[seat], "pillage_and_plunder")
    )
    if can_trap:
        ctx.push(Frame(kind="trap", seat=defender, ints=(index, seat)), dice)
    else:
        if defender >= 0:
            ctx.emit(ev.OutpostToppled(owner=defender, hex=index))
            check_toppled(ctx)
        ctx.push(dice)
    after_conquer_outpost(ctx, seat)


DECISIONS["conquer"] = (_conquer_options, _conquer_answer)


def _trap_cards(state: TapestryState, seat: int) -> list[int]:
    return [c for c in state.seats[seat].hand if C.TAPESTRY_CARDS[c].key == TRAP_KEY]


def _trap_options(state: TapestryState, top: Frame) -> list[Command]:
    found: list[Command] = [PlayTrap()] if _trap_cards(state, top.seat) else []
    return [*found, Decline()]


def _trap_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    index, attacker = top.ints
    if isinstance(command, PlayTrap):
        card = _trap_cards(ctx.state, top.seat)[0]
        ctx.emit(ev.TrapPlayed(seat=top.seat, hex=index, card=card))
        ctx.emit(ev.OutpostToppled(owner=attacker, hex=index))
    else:
        ctx.emit(ev.OutpostToppled(owner=top.seat, hex=index))
    check_toppled(ctx)


DECISIONS["trap"] = (_trap_options, _trap_answer)


#: hooks run after every roll of the two conquer dice: ``(ctx, conqueror, hex, red face,
#: black face)``; frames they push resolve after the conqueror's own (the Illuminati,
#: :mod:`civ_illuminati`).
DICE_ROLLED: list[Callable[[Ctx, int, int, int, int], None]] = []


#: hooks run after every throw of one conquer die alone: ``(ctx, thrower, hex, die: 0 red /
#: 1 black, face)``, ``hex`` the territory whose tile a "?" face names (-1: none); frames they
#: push resolve after the thrower's own (the Illuminati, :mod:`civ_illuminati`).
DIE_ROLLED: list[Callable[[Ctx, int, int, int, int], None]] = []
#: the conquer dice, by index (:data:`DIE_ROLLED`'s ``die``).
DIE_NAMES: tuple[str, ...] = ("red", "black")


def roll_die(ctx: Ctx, seat: int, die: int, index: int) -> int:
    """``seat`` throws one conquer die alone (``die``: 0 red, 1 black) for territory
    ``index``; the face shown (one ``DieRolled`` event, then the :data:`DIE_ROLLED` hooks)."""
    faces = C.RED_DIE if die == 0 else C.BLACK_DIE
    face = ctx.chance.below(len(faces))
    ctx.emit(ev.DieRolled(seat=seat, die=DIE_NAMES[die], face=face))
    for hook in DIE_ROLLED:
        hook(ctx, seat, index, die, face)
    return face


def _dice(ctx: Ctx, top: Frame) -> None:
    seat = top.seat
    index, both, _defender = top.ints
    red = ctx.chance.below(len(C.RED_DIE))
    black = ctx.chance.below(len(C.BLACK_DIE))
    ctx.emit(ev.ConquerDiceRolled(seat=seat, red=red, black=black))
    for hook in DICE_ROLLED:
        hook(ctx, seat, index, red, black)
    reds, blacks = [red], [black]
    for _ in range(extra_options(ctx.state, seat)):  # the Psionics: each die thrown again
        red = ctx.chance.below(len(C.RED_DIE))
        black = ctx.chance.below(len(C.BLACK_DIE))
        ctx.emit(ev.ConquerDiceRolled(seat=seat, red=red, black=black))
        for hook in DICE_ROLLED:
            hook(ctx, seat, index, red, black)
        reds.append(red)
        blacks.append(black)
    pairs = dice_pairs(reds, blacks)
    if len(pairs) > 1:
        ctx.push(
            Frame(
                kind="dice_pick",
                seat=seat,
                ints=(*top.ints[:2], len(reds), *reds, *blacks),
            )
        )
        return
    after_dice(ctx, seat, index, both, pairs[0][0], pairs[0][1])


AUTO["dice"] = _dice


def dice_pairs(reds: list[int], blacks: list[int]) -> list[tuple[int, int]]:
    """The (red, black) faces a seat may keep when each die was thrown more than once (one
    value of each die, "roll it twice and choose 1"), ascending."""
    return sorted({(r, b) for r in reds for b in blacks})


def pair_choices(throws: tuple[int, ...]) -> list[Command]:
    """Keep one red and one black face among the throws ``(count, *reds, *blacks)``:
    ``Choose(index=red * 10 + black)``, ascending."""
    count = throws[0]
    reds, blacks = list(throws[1 : 1 + count]), list(throws[1 + count :])
    return [Choose(index=r * 10 + b) for r, b in dice_pairs(reds, blacks)]


def _dice_pick_options(state: TapestryState, top: Frame) -> list[Command]:
    """Keep one red and one black face among the throws: ``Choose(index=red * 10 + black)``."""
    return pair_choices(top.ints[2:])


def _dice_pick_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    red, black = divmod(command.index, 10)
    after_dice(ctx, top.seat, top.ints[0], top.ints[1], red, black)


DECISIONS["dice_pick"] = (_dice_pick_options, _dice_pick_answer)


def after_dice(ctx: Ctx, seat: int, index: int, both: int, red: int, black: int) -> None:
    """What the conquer dice kept (``red``, ``black`` faces) give the conqueror of board hex
    ``index`` (``both``: gain both faces, else choose one)."""
    won = ctx.state.hexes[index].controller() == seat
    if won and is_central_island(ctx.state, index):
        earn(ctx, seat, ISLAND_KEY)
    frames: list[Frame] = []
    tile = ctx.state.hexes[index].tile
    if won and tile >= 0 and has_active(ctx.state.seats[seat], "pirate_rule"):
        benefit = C.TERRITORY_TILES[tile].benefit
        if benefit is not None:
            frames.append(expr_frame(seat, benefit, f"tile:{tile}"))
    if both:
        frames.append(_face(seat, index, red, black, 0))
        frames.append(_face(seat, index, red, black, 1))
    else:
        frames.append(Frame(kind="die", seat=seat, ints=(index, red, black)))
    ctx.push(*frames)


def _face(seat: int, index: int, red: int, black: int, die: int) -> Frame:
    benefit = C.RED_DIE[red] if die == 0 else C.BLACK_DIE[black]
    if isinstance(benefit, C.Gain) and benefit.token == "gain_conquered_tile_benefit":
        return Frame(kind="tile_benefit", seat=seat, ints=(index,))
    return expr_frame(seat, dump(benefit), "conquer die")


def _tile_benefit(ctx: Ctx, top: Frame) -> None:
    tile = ctx.state.hexes[top.ints[0]].tile
    if tile >= 0:
        benefit = C.TERRITORY_TILES[tile].benefit
        if benefit is not None:
            ctx.push(expr_frame(top.seat, benefit, f"tile:{tile}"))


AUTO["tile_benefit"] = _tile_benefit


def _die_options(state: TapestryState, top: Frame) -> list[Command]:
    return [Choose(index=0), Choose(index=1)]


#: hooks run when a conqueror keeps one of the two conquer dice, before its face resolves:
#: ``(ctx, conqueror, hex, red face, black face, kept die: 0 red / 1 black)``; frames they push
#: resolve after the kept face (the Traders take the other die, :mod:`civ_traders`).
DIE_KEPT: list[Callable[[Ctx, int, int, int, int, int], None]] = []


def _die_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    index, red, black = top.ints
    for hook in DIE_KEPT:
        hook(ctx, top.seat, index, red, black, command.index)
    ctx.push(_face(top.seat, index, red, black, command.index))


DECISIONS["die"] = (_die_options, _die_answer)


def _stand_up(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
    """Revolution: up to 3 territories with your toppled outpost: yours stand, theirs fall.

    ``tapestry/1`` raises them in board order; ``tapestry/2`` lets the player choose them,
    one at a time (``revolution`` decision)."""
    if ctx.state.rules.revision >= 2:
        ctx.push(Frame(kind="revolution", seat=seat, ints=(3,), optional=True))
        return
    done = 0
    for index, cell in enumerate(ctx.state.hexes):
        if done >= 3:
            break
        mine = [o for o in cell.outposts if o.seat == seat and o.toppled]
        others = [o for o in cell.outposts if o.seat != seat and not o.toppled]
        if mine and others:
            ctx.emit(ev.OutpostRaised(owner=seat, hex=index))
            for other in others:
                ctx.emit(ev.OutpostToppled(owner=other.seat, hex=index))
            done += 1
    check_toppled(ctx)


TOKENS["tapestry_revolution_stand_up_outposts"] = _stand_up


def revolution_targets(state: TapestryState, seat: int) -> list[int]:
    """Board hexes where ``seat`` has a toppled outpost and an opponent a standing one."""
    return [
        index
        for index, cell in enumerate(state.hexes)
        if any(o.seat == seat and o.toppled for o in cell.outposts)
        and any(o.seat != seat and not o.toppled for o in cell.outposts)
    ]


def _revolution_options(state: TapestryState, top: Frame) -> list[Command]:
    """Revolution (``tapestry/2``): a territory (its board index) to revolt in, or stop."""
    targets = revolution_targets(state, top.seat)
    if not targets or top.ints[0] <= 0:
        return []
    return [*(Choose(index=index) for index in targets), Decline()]


def _revolution_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    if not isinstance(command, Choose):
        return
    cell = ctx.state.hexes[command.index]
    others = [o.seat for o in cell.outposts if o.seat != top.seat and not o.toppled]
    ctx.emit(ev.OutpostRaised(owner=top.seat, hex=command.index))
    for other in others:
        ctx.emit(ev.OutpostToppled(owner=other, hex=command.index))
    check_toppled(ctx)
    ctx.push(Frame(kind="revolution", seat=top.seat, ints=(top.ints[0] - 1,), optional=True))


DECISIONS["revolution"] = (_revolution_options, _revolution_answer)
