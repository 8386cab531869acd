"""Riverfolk (Peuple de la Rivière, Plans & Ploys).

Sources: the facts folder's record (``civilizations.json#35``: « Setup: 4 VP per capital
district with 2+ impassable plots. You may build on impassable plots. Covering a district's
last impassable plot gives 1 any resource. Final income: lose 1 VP per uncovered impassable
plot. »); "RÉÉQUILIBRAGE DES CIVILISATIONS" (« PEUPLE DE LA RIVIÈRE Vous ne pouvez pas choisir
la Ville du Ciel [...] »: an advanced capital absent from our sources); "PREMIÈRE MISE EN
PLACE" (a box's components only when it is in play); ``decisions.json#riverfolk_*`` for the
readings the sources leave open.
"""

from __future__ import annotations

import msgspec
import pytest

from domain.bots import make_bot
from domain.registry import get_ruleset
from domain.tapestry import capital as cap
from domain.tapestry import civs
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.civs import civ_id, setup_frames
from domain.tapestry.commands import PlaceBuilding
from domain.tapestry.expansions import civ_riverfolk as rf
from domain.tapestry.rules import capital_grid
from domain.tapestry.state import Frame, TapestryState
from tests.harness import Table, play
from tests.tapestry.helpers import of, table
from tests.tapestry.test_cards_support import answer, options, run_frames
from tests.tapestry.test_expansion_games import check_finished

KEY = "riverfolk"
BOX = "plans_and_ploys"
CLEAR = "0" * 9
#: district 0: two impassable plots; district 4: one; district 8: three (rows 6-8, cols 6-8).
ROCKS = (
    "110000000",
    "000000000",
    "000000000",
    "000000000",
    "000010000",
    "000000000",
    "000000111",
    "000000000",
    "000000000",
)


def riverfolk(blocked: tuple[str, ...] = ROCKS) -> TapestryState:
    """Seat 0 holds the Riverfolk in a 2-seat game with Plans & Ploys, on capital ``blocked``."""
    state = table(2)
    state.rules = msgspec.structs.replace(state.rules, expansions=(BOX,))
    state.seats[0].civs = [civ_id(KEY)]
    state.seats[0].grid_blocked = list(blocked)
    state.seats[0].grid_filled = ["." * 9] * 9
    return state


def build(state: TapestryState, seat: int = 0, building: str = "house") -> list[ev.Event]:
    """A pending placement of ``building`` for ``seat``."""
    return run_frames(state, Frame(kind="build", seat=seat, token=building))


# -- content and dealing ----------------------------------------------------------------------
def test_record_setup_and_no_rebalancing_gain() -> None:
    """Facts folder ``civilizations.json#35``; "RÉÉQUILIBRAGE": only the Cloud City is refused
    to a starting Riverfolk (no advanced capital in our sources: nothing to gain or lose)."""
    record = C.CIVILIZATIONS[civ_id(KEY)]
    assert record.box == BOX and record.name_fr == "Peuple de la Rivière"
    assert record.implemented
    assert record.setup == C.Gain(token="riverfolk_districts_vp")
    assert record.adjustment_gain is None and record.adjustment_vp_per_opponent == 0
    assert rf.DISTRICT_VP == 4 and rf.MIN_PLOTS == 2 and rf.PLOT_PENALTY == -1


def test_dealt_only_with_the_box_and_gained_mid_game_from_tapestry_3() -> None:
    """ "PREMIÈRE MISE EN PLACE": dealt only with its box; gained during the game (its
    mid-game rule: « May discard it and draw another ») from ``tapestry/3`` only
    (``decisions.json#riverfolk_not_gained``; ``tests/tapestry/test_ruleset3.py``)."""
    assert civ_id(KEY) not in civs.implemented_ids()
    assert civ_id(KEY) in civs.implemented_ids((BOX,))
    assert KEY not in civs.gainable((BOX,), revision=2)
    assert KEY in civs.gainable((BOX,), revision=3) and KEY in civs.RETURNABLE
    game = get_ruleset("tapestry/2")
    with pytest.raises(ValueError, match="plans_and_ploys box"):
        game.initial(game.decode_options({"starting_civilizations": [KEY]}), 2)


# -- setup -------------------------------------------------------------------------------------
def test_setup_scores_four_per_district_with_two_impassable_plots() -> None:
    """Facts folder: « 4 VP per capital district with 2+ impassable plots »: districts 0 (two)
    and 8 (three) score, district 4 (one) does not."""
    state = riverfolk()
    assert rf.per_district(state, 0) == [2, 0, 0, 0, 1, 0, 0, 0, 3]
    events = run_frames(state, *setup_frames(state, 0))
    assert [e.vp for e in of(events, ev.VPScored) if e.reason == f"civ:{KEY}"] == [8]
    assert state.seats[0].vp == 8


def test_setup_on_every_printed_capital() -> None:
    """The setup's points follow each printed capital's grid (``capitals.json``)."""
    for capital in sorted(C.CAPITALS):
        state = riverfolk(tuple(capital_grid(capital)))
        counts = [0] * 9
        for r, row in enumerate(capital_grid(capital)):
            for c, ch in enumerate(row):
                counts[cap.district_of((r, c))] += ch == "1"
        run_frames(state, *setup_frames(state, 0))
        assert state.seats[0].vp == 4 * sum(1 for n in counts if n >= 2)


# -- building on impassable plots -----------------------------------------------------------------
def test_buildings_may_stand_on_impassable_plots() -> None:
    """Facts folder: « You may build on impassable plots »; another civilization may not."""
    state = riverfolk()
    build(state)
    assert PlaceBuilding(row=0, col=0, orientation=0) in options(state)
    other = riverfolk()
    other.seats[0].civs = [civ_id("heralds")]
    build(other)
    assert all((o.row, o.col) != (0, 0) for o in options(other) if isinstance(o, PlaceBuilding))


def test_covering_a_plot_clears_it_without_resource_while_others_remain() -> None:
    """A covered impassable plot is no longer visible; district 0 keeps one: no resource."""
    state = riverfolk()
    build(state)
    events = answer(state, PlaceBuilding(row=0, col=0, orientation=0))
    assert ev.PlotsCleared(seat=0, cells=((0, 0),)) in events
    assert state.seats[0].grid_blocked[0][0] == "0" and state.seats[0].grid_filled[0][0] != "."
    assert not [f for f in state.agenda if f.source == f"civ:{KEY}"]


def test_covering_the_last_impassable_plot_of_a_district_gives_a_resource() -> None:
    """Facts folder: « Covering a district's last impassable plot gives 1 any resource »."""
    state = riverfolk()
    build(state)
    answer(state, PlaceBuilding(row=4, col=4, orientation=0))
    top = state.agenda[-1]
    assert (top.kind, top.ints, top.source) == ("resource", (1,), f"civ:{KEY}")


def test_final_income_loses_a_point_per_visible_plot() -> None:
    """Facts folder: « Final income: lose 1 VP per uncovered impassable plot »; nothing on the
    earlier income turns."""
    state = riverfolk()
    events = run_frames(state, Frame(kind="civ_income", seat=0, token=KEY, ints=(4,)))
    assert not of(events, ev.VPScored)
    events = run_frames(state, Frame(kind="civ_income", seat=0, token=KEY, ints=(5,)))
    assert [e.vp for e in of(events, ev.VPScored)] == [-6]


# -- whole games ----------------------------------------------------------------------------------
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_whole_seeded_game_with_the_riverfolk(bot: str) -> None:
    """ "Fin de la partie": a seeded 3-seat game, seat 0 starting with the Riverfolk, finishes;
    the fold of the log equals the held state; its points: the setup's, minus the final
    income's one per impassable plot left."""
    chosen = {"expansions": [BOX], "starting_civilizations": [KEY]}
    t = Table("tapestry", 3, f"riverfolk-{bot}".encode(), chosen)
    bots = {i: make_bot(bot, f"rf-{bot}-{i}".encode()) for i in range(3)}
    play(t, bots, max_commands=20_000)
    assert t.is_over()
    check_finished(t)
    state = t.match.state
    assert state.seats[0].civs[0] == civ_id(KEY)
    grid = capital_grid(state.seats[0].capital)
    counts = [0] * 9
    for r, row in enumerate(grid):
        for c, ch in enumerate(row):
            counts[cap.district_of((r, c))] += ch == "1"
    events = [s.event for s in t.stored()]
    scored = [e.vp for e in events if isinstance(e, ev.VPScored) and e.reason == f"civ:{KEY}"]
    left = len(rf.impassable(state, 0))
    expected = [4 * sum(1 for n in counts if n >= 2)]
    assert [v for v in scored if v > 0] == [v for v in expected if v > 0]
    assert sum(scored) == sum(expected) - left
