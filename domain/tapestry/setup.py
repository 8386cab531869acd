"""Setting up a game: board, tech display, capitals, civilizations, first player, start.

Rules: "Mise en place générale" (board by player count, 3 face-up tech cards), "Mise en place
des joueurs" (A: 2 civilizations dealt, keep 1; capitals at random with 4-5 players, a random
pair to choose from with 1-3; 2 outposts on the start territory; B: income mat; F/G: civilization
setup and rebalancing), "Premier joueur" (at random). Only implemented civilizations are dealt.
"""

from __future__ import annotations

from domain.tapestry import civs
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.engine import AUTO, Ctx
from domain.tapestry.rules import hex_at
from domain.tapestry.solo.content import REMOVED_CIVILIZATIONS as SOLO_REMOVED_CIVILIZATIONS
from domain.tapestry.solo.content import SETUP as SOLO
from domain.tapestry.state import Frame, TapestryState
from domain.tapestry.tech import fill_display
from domain.tapestry.turns import start_turn

START_OUTPOSTS = 2


def starting_civilization_id(text: str, boxes: tuple[str, ...] = ()) -> int:
    """The id of an implemented civilization named by its key or its id as text (the
    ``starting_civilizations`` option), an expansion's only when its box is in ``boxes``;
    raises ``ValueError`` for any other text.

    >>> starting_civilization_id("militants") == starting_civilization_id("12") == 12
    True
    """
    implemented = civs.startable_ids(boxes)
    by_key = {C.CIVILIZATIONS[c].key: c for c in implemented}
    if text in by_key:
        return by_key[text]
    if text.isdigit() and int(text) in implemented:
        return int(text)
    boxed = {c.key: c.box for c in C.CIVILIZATIONS.values() if c.box}
    if text in boxed and text in civs.EXPANSION_CIVILIZATIONS:
        raise ValueError(
            f"starting_civilizations: {text!r} needs the expansion {boxed[text]!r} in expansions"
        )
    raise ValueError(
        f"starting_civilizations: {text!r} is not an implemented civilization "
        f"(known: {', '.join(sorted(by_key))})"
    )


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
    available = len([c for c in civs.implemented_ids() if c not in fixed.values()])
    return max(1, min(state.options.civilizations_dealt, available // dealt_to))


def home_hex(state: TapestryState, capital: int) -> int:
    """Board index of a capital's start territory on this game's board."""
    record = C.CAPITALS[capital]
    if state.n == 1:  # solo: the 2/4 territory whatever the capital (domain.tapestry.solo)
        return hex_at(state, *SOLO.human_home)
    q, r = record.start_small if state.board == "small" else record.start_large
    return hex_at(state, q, r)


def choose_capital(ctx: Ctx, seat: int, capital: int) -> None:
    """``seat`` keeps ``capital``: its 2 starting outposts go on the start territory."""
    home = home_hex(ctx.state, capital)
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
    pool = [c for c in civs.implemented_ids() if c not in fixed.values()]
    if state.n == 1:  # civilizations left out of solo games (domain.tapestry.solo)
        pool = [c for c in pool if C.CIVILIZATIONS[c].key not in SOLO_REMOVED_CIVILIZATIONS]
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


def ready(state: TapestryState) -> bool:
    """``True`` once every seat has kept a capital and a civilization."""
    return all(s.capital >= 0 and s.civs for s in state.seats)


def begin(ctx: Ctx) -> None:
    """Every seat has chosen: civilization setups in turn order, then the first turn."""
    state = ctx.state
    ctx.emit(ev.GameStarted(first_player=state.first_player))
    frames: list[Frame] = []
    for step in range(state.n):
        frames.extend(civs.setup_frames(state, (state.first_player + step) % state.n))
    ctx.push(*frames, Frame(kind="begin", seat=state.first_player))


def _begin(ctx: Ctx, top: Frame) -> None:
    start_turn(ctx, top.seat)


AUTO["begin"] = _begin
