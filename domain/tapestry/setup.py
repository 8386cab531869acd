"""Setting up a game: board, tech display, capitals, civilizations, first player, start.

Rules: "Mise en place générale" (board by player count, 3 face-up tech cards), "Mise en place
des joueurs" (A: 2 civilizations dealt, keep 1; capitals at random with 4-5 players, a random
pair to choose from with 1-3; 2 outposts on the start territory; B: income mat; F/G: civilization
setup and rebalancing), "Premier joueur" (at random). Only implemented civilizations are dealt.
"VARIANTES": the start on the nearest island instead of the capital's territory
(:func:`island_of`).
"""

from __future__ import annotations

from domain.core import Command
from domain.tapestry import civs
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.civ_catalogue import starting_civilization_id
from domain.tapestry.commands import ChooseCapital, ChooseCivilization
from domain.tapestry.engine import AUTO, OPENING, Ctx
from domain.tapestry.rules import hex_at
from domain.tapestry.solo.content import SETUP as SOLO
from domain.tapestry.solo.content import dealt_solo
from domain.tapestry.state import Frame, TapestryState
from domain.tapestry.tech import fill_display
from domain.tapestry.turns import start_turn

START_OUTPOSTS = 2


def fixed_civilizations(state: TapestryState) -> dict[int, int]:
    """Seat -> the civilization the ``starting_civilizations`` option gives it."""
    wanted = state.options.starting_civilizations[: state.n]
    boxes = state.rules.expansions
    return {seat: starting_civilization_id(text, boxes) for seat, text in enumerate(wanted) if text}


def dealt_count(state: TapestryState) -> int:
    """Civilizations dealt per seat: the option, fewer when implemented ones run short (the
    civilizations fixed by ``starting_civilizations`` are not dealt to anybody else)."""
    fixed = fixed_civilizations(state)
    dealt_to = state.n - len(fixed)
    if dealt_to <= 0:
        return 1
    available = len([c for c in civs.drawn_ids(state.rules) if c not in fixed.values()])
    return max(1, min(state.options.civilizations_dealt, available // dealt_to))


def island_of(seats: int, seat: int) -> int:
    """The island (its number clockwise from the top, ``map.json`` ``islands``) where ``seat``
    starts under the variant ``island_start`` ("VARIANTES": « placez vos avant-postes au centre
    de l'île la plus proche de vous. Lors d'une partie à 4 joueurs, espacez les positions de
    départ équitablement afin qu'aucun joueur n'ait pas de voisin »).

    The seats sit clockwise around the board in seat order (the next seat is the left
    neighbour), seat 0 facing the top island; the starts are spread as evenly as the islands
    allow: seat ``i`` of ``n`` takes island ``i * k // n`` of the board's ``k`` (3 on the small
    board, 6 on the large one). With 4 seats on 6 islands that is islands 0, 1, 3, 4: gaps of
    1 and 2 in turn, so every seat has a neighbouring island taken.

    >>> [island_of(4, s) for s in range(4)], [island_of(5, s) for s in range(5)]
    ([0, 1, 3, 4], [0, 1, 2, 3, 4])
    >>> [island_of(2, s) for s in range(2)], [island_of(3, s) for s in range(3)]
    ([0, 1], [0, 1, 2])
    """
    islands = len(C.board_for(seats).islands)
    return seat * islands // seats


def home_hex(state: TapestryState, capital: int, seat: int = 0) -> int:
    """Board index of ``seat``'s start territory on this game's board: its capital's, or with
    the variant ``island_start`` the centre of its island (:func:`island_of`)."""
    record = C.CAPITALS[capital]
    if state.n == 1:  # solo: the 2/4 territory whatever the capital (domain.tapestry.solo)
        return hex_at(state, *SOLO.human_home)
    if state.rules.island_start:
        island = C.board_for(state.n).islands[island_of(state.n, seat)]
        return hex_at(state, *island.centre)
    q, r = record.start_small if state.board == "small" else record.start_large
    return hex_at(state, q, r)


def choose_capital(ctx: Ctx, seat: int, capital: int) -> None:
    """``seat`` keeps ``capital``: its 2 starting outposts go on the start territory."""
    home = home_hex(ctx.state, capital, seat)
    ctx.emit(ev.CapitalChosen(seat=seat, capital=capital, home=home))
    ctx.emit(ev.OutpostsStarted(seat=seat, hex=home, count=START_OUTPOSTS))


def deal(ctx: Ctx) -> None:
    """The opening events (before any seat decides)."""
    state = ctx.state
    board = C.board_for(state.n)
    ctx.emit(ev.BoardPrepared(board=board.id))
    fill_display(ctx)
    if state.n <= 3:
        pairs = sorted({tuple(sorted((c.id, c.pair))) for c in C.CAPITALS.values()})
        for seat, index in enumerate(ctx.chance.permutation(len(pairs))[: state.n]):
            ctx.emit(ev.CapitalsDealt(seat=seat, capitals=pairs[index]))
    else:
        capitals = sorted(C.CAPITALS)
        for seat, index in enumerate(ctx.chance.permutation(len(capitals))[: state.n]):
            ctx.emit(ev.CapitalsDealt(seat=seat, capitals=(capitals[index],)))
            choose_capital(ctx, seat, capitals[index])
    fixed = fixed_civilizations(state)
    pool = [c for c in civs.drawn_ids(state.rules) if c not in fixed.values()]
    if state.n == 1:  # civilizations left out of solo games (domain.tapestry.solo)
        pool = [c for c in pool if dealt_solo(c)]
    count = dealt_count(state)
    order = ctx.chance.permutation(len(pool))
    dealt = 0
    for seat in range(state.n):
        if seat in fixed:  # the option: this seat starts with that civilization, no choice
            hand: tuple[int, ...] = (fixed[seat],)
        else:
            hand = tuple(sorted(pool[i] for i in order[dealt * count : (dealt + 1) * count]))
            dealt += 1
        ctx.emit(ev.CivilizationsDealt(seat=seat, civilizations=hand))
        if len(hand) == 1:
            ctx.emit(ev.CivilizationChosen(seat=seat, civilization=hand[0]))
    ctx.emit(ev.FirstPlayerChosen(seat=ctx.chance.below(state.n)))
    if ready(state):
        begin(ctx)


def setup_options(state: TapestryState, seat: int) -> list[Command]:
    """What ``seat`` may still choose during setup: a capital, then or first a civilization,
    among those dealt to it (empty once it has kept both)."""
    player = state.seats[seat]
    found: list[Command] = []
    if player.capital < 0:
        found.extend(ChooseCapital(capital=c) for c in player.capital_offer)
    if not player.civs:
        found.extend(ChooseCivilization(civilization=c) for c in player.civ_offer)
    return found


def ready(state: TapestryState) -> bool:
    """``True`` once every seat has kept a capital and a civilization."""
    return all(s.capital >= 0 and s.civs for s in state.seats)


def begin(ctx: Ctx) -> None:
    """Every seat has chosen: civilization setups in turn order, the opening frames
    (:data:`~domain.tapestry.engine.OPENING`), then the first turn."""
    state = ctx.state
    ctx.emit(ev.GameStarted(first_player=state.first_player))
    frames: list[Frame] = []
    for step in range(state.n):
        frames.extend(civs.setup_frames(state, (state.first_player + step) % state.n))
    opening = [frame for hook in OPENING for frame in hook(state)]
    ctx.push(*frames, *opening, Frame(kind="begin", seat=state.first_player))


def _begin(ctx: Ctx, top: Frame) -> None:
    start_turn(ctx, top.seat)


AUTO["begin"] = _begin
