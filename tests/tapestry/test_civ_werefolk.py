"""Werefolk (Loups-Garous, Fantasies & Futures): a space tile tossed like a coin each
income turn.

Sources: facts folder ``civilizations.json#49`` (income turns 2-5: discard the mat's space
tile, gain a random one and flip it; face up: regress once without benefit then explore it
onto the mat, or 4 VP; face down: advance once, benefit and bonus free), rulebook F.À.Q.
"PLATEAUX CIVILISATION PARTICULIERS" (FF: no exploring unless the token really moves back),
"RÉÉQUILIBRAGE DES CIVILISATIONS" (no Werefolk entry).
"""

from __future__ import annotations

from domain.core import Chance, Event
from domain.tapestry import civ_werefolk as were
from domain.tapestry import civs
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.civs import civ_id
from domain.tapestry.commands import Choose, Decline
from domain.tapestry.engine import Ctx, frame, run
from domain.tapestry.state import TapestryState
from tests.tapestry.box_civ_helpers import boxed_start, play_boxed
from tests.tapestry.helpers import GAME, decision, of, table
from tests.tapestry.test_cards_support import answer, options, vp_of

KEY = "werefolk"


def werefolk() -> TapestryState:
    """Seat 0 holds the Werefolk."""
    state = table(2)
    state.seats[0].civs = [civ_id(KEY)]
    return state


def flip(state: TapestryState, side: int) -> list[Event]:
    """Seat 0's income ability with the first seed whose toss lands on ``side``."""
    for attempt in range(200):
        ctx = Ctx(state, Chance(f"were-{attempt}".encode(), 0))
        ctx.push(frame("civ_income", 0, token=KEY, ints=(3,)))
        run(ctx)
        ctx.emit(ev.AgendaSet(frames=tuple(ctx.state.agenda)))
        sets = [e for e in ctx.events if isinstance(e, ev.CivTokensSet) and e.key == KEY]
        if sets and sets[-1].values[2] == side:
            for event in ctx.events:
                GAME.evolve(state, event)
            return ctx.events
    raise AssertionError("no seed gives that side")


def test_a_random_space_tile_is_gained_and_flipped() -> None:
    """Facts ``#49``: the ability draws one space tile into the supply and flips it."""
    state = werefolk()
    events = flip(state, were.FACE_DOWN)
    drawn = of(events, ev.SpaceTilesDrawn)
    assert len(drawn) == 1 and len(drawn[0].tiles) == 1
    assert state.seats[0].space == list(drawn[0].tiles)
    assert were.mat(state, 0)[1:] == [drawn[0].tiles[0], were.FACE_DOWN]


def test_face_down_advances_with_benefit_and_free_bonus() -> None:
    """Face down: advance on one track of your choice, benefit and bonus free (Science 1 to
    2, Mathematics: a tapestry card, and its bonus offered with nothing to pay)."""
    state = werefolk()
    state.seats[0].tracks[1] = [1]
    flip(state, were.FACE_DOWN)
    assert decision(state) == were.ADVANCE
    assert options(state) == [Choose(index=t) for t in range(4)]
    events = answer(state, Choose(index=1))
    assert state.seats[0].tracks[1] == [2]
    assert of(events, ev.TapestryDrawn) and len(state.seats[0].hand) == 1
    assert C.space("science", 2).bonus is not None
    bonus = state.agenda[-1]
    assert bonus.kind == "bonus" and bonus.options == ()


def test_face_up_regress_then_explore_onto_the_mat() -> None:
    """Face up: regress once (no benefit), then the tile is explored onto the mat and its
    benefit gained; it leaves the supply."""
    state = werefolk()
    state.seats[0].tracks[1] = [4]
    flip(state, were.FACE_UP)
    tile = were.mat(state, 0)[1]
    assert decision(state) == were.REGRESS
    assert options(state) == [Choose(index=1), Decline()]
    events = answer(state, Choose(index=1))
    assert state.seats[0].tracks[1] == [3]
    assert of(events, ev.SpaceTileExplored)[0].tile == tile
    assert were.mat(state, 0)[0] == tile
    assert tile not in state.seats[0].space


def test_face_up_without_regress_scores_four_and_keeps_the_tile() -> None:
    """Face up and no regress: 4 VP; the tile stays in the supply."""
    state = werefolk()
    state.seats[0].tracks[2] = [1]
    flip(state, were.FACE_UP)
    events = answer(state, Decline())
    assert vp_of(events, 0, "civ:werefolk") == were.NO_REGRESS_VP == 4
    assert state.seats[0].space == [were.mat(state, 0)[1]]
    assert were.mat(state, 0)[0] == 0


def test_faq_no_regress_from_the_start_space() -> None:
    """F.À.Q. (FF, Loups-Garous): with every token on the first space no track can be
    regressed, so the tile cannot be explored: only the 4 VP remain."""
    state = werefolk()
    events = flip(state, were.FACE_UP)
    events += answer(state, Decline()) if decision(state) == were.REGRESS else []
    assert vp_of(events, 0, "civ:werefolk") == 4
    assert not of(events, ev.SpaceTileExplored)


def test_the_mat_tile_is_discarded_next_income_turn() -> None:
    """Facts ``#49``: at the next ability the tile on the mat is discarded first."""
    state = werefolk()
    state.seats[0].civ_tokens[KEY] = [5, 5, were.FACE_UP]
    state.seats[0].space_explored = [5]
    flip(state, were.FACE_DOWN)
    assert were.mat(state, 0)[0] == 0
    assert 5 not in state.seats[0].space


def test_no_rebalancing() -> None:
    """ "RÉÉQUILIBRAGE DES CIVILISATIONS": no Werefolk entry: no setup frame."""
    state, _ = boxed_start(KEY, 2, b"were")
    assert state.seats[0].civs == [civ_id(KEY)]
    assert civs.setup_frames(state, 0) == []


def test_seeded_games_with_starting_werefolk_finish() -> None:
    """ "Fin de la partie": whole random games with a starting Werefolk end; a tile is
    flipped on each of income turns 2-5 while the stack lasts."""
    for seats, seed in ((2, 1), (3, 2), (4, 3)):
        state, log = play_boxed(KEY, seats, seed)
        assert all(s.finished for s in state.seats)
        flips = [e for e in of(log, ev.CivTokensSet) if e.key == KEY and e.values[0] == 0]
        assert 1 <= len(flips) <= 4
