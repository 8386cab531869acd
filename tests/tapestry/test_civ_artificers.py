"""Artificers (Fantasies & Futures): buildings pulled along the income mat.

Sources: facts folder ``civilizations.json#40`` (income turns 2-4: one income track, its
leftmost building set aside out of the capital or slid left onto an empty space, revealing
the space it left; buildings still used from left to right; income turn 5: 1 VP per income
building in the capital or one track slid fully left), the income mat (``income_mat.json``:
space 1 always shows), rulebook "Tours de revenus" (step 1 first, then VP and income of the
spaces that show), "RÉÉQUILIBRAGE DES CIVILISATIONS" (no Artificers entry).
"""

from __future__ import annotations

from domain.bots import RandomBot
from domain.tapestry import civ_artificers as art
from domain.tapestry import civs
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.bot import TapestryBot
from domain.tapestry.civs import civ_id
from domain.tapestry.commands import Choose, Decline
from domain.tapestry.engine import expr_frame, frame
from domain.tapestry.rules import buildings_of, covered_spaces, gain, visible_spaces
from domain.tapestry.state import BUILDINGS, PlacedBuilding, TapestryState
from domain.tapestry.view import make_view
from tests.tapestry.box_civ_helpers import box_of, play_bots, play_boxed, refold, state_bytes
from tests.tapestry.helpers import decision, of, table
from tests.tapestry.test_cards_support import answer, options, run_frames, vp_of

KEY = "artificers"
HOUSE = BUILDINGS.index("house")
FARM = BUILDINGS.index("farm")


def artificers(seats: int = 2) -> TapestryState:
    """Seat 0 holds the Artificers."""
    state = table(seats)
    state.seats[0].civs = [civ_id(KEY)]
    return state


def test_set_aside_reveals_the_space_and_stays_out_of_the_capital() -> None:
    """Income turns 2-4: the leftmost building of the track chosen is set aside, not placed
    in the capital; the space it covered shows, and it is no income building of the seat."""
    state = artificers()
    run_frames(state, frame("civ_income", 0, token=KEY, ints=(2,)))
    assert decision(state) == art.MOVE
    assert Choose(index=HOUSE * 10 + art.SET_ASIDE) in options(state)
    assert Choose(index=HOUSE * 10 + art.SLIDE) not in options(state)  # no empty space left
    assert Decline() in options(state)
    events = answer(state, Choose(index=HOUSE * 10 + art.SET_ASIDE))
    assert of(events, ev.BuildingSetAside) == [ev.BuildingSetAside(seat=0, building="house")]
    assert not of(events, ev.BuildingPlaced)
    player = state.seats[0]
    assert visible_spaces(player, "house") == [0, 1]
    assert buildings_of(player, "house") == 0 and player.taken[HOUSE] == 1


def test_slide_left_covers_the_empty_space_and_reveals_the_next() -> None:
    """With an empty space to its left, the leftmost building slides onto it: that space is
    covered again and the space it stood on shows instead (a gap on the mat)."""
    state = artificers()
    state.seats[0].taken[FARM] = 2  # spaces 0-2 show, buildings on 3-5
    run_frames(state, frame("civ_income", 0, token=KEY, ints=(3,)))
    events = answer(state, Choose(index=FARM * 10 + art.SLIDE))
    assert of(events, ev.BuildingSlid) == [ev.BuildingSlid(seat=0, building="farm", origin=3, to=2)]
    player = state.seats[0]
    assert covered_spaces(player, "farm") == [2, 4, 5]
    assert visible_spaces(player, "farm") == [0, 1, 3]


def test_income_comes_from_the_spaces_that_show() -> None:
    """The income turn's VP and income are those of the visible spaces, gaps included: the
    slid farm's space 3 shows, space 2 no longer does."""
    state = artificers()
    player = state.seats[0]
    player.taken[FARM] = 2
    player.covered["farm"] = [2, 4, 5]
    from domain.core import Chance
    from domain.tapestry.engine import Ctx
    from domain.tapestry.turns import _visible

    shown = _visible(Ctx(state, Chance(b"a", 0)), 0, "income")
    farm = next(t for t in C.INCOME_TRACKS if t.building == "farm")
    wanted = [b for i in (0, 1, 3) for b in farm.spaces[i].income]
    others = [b for t in C.INCOME_TRACKS if t.building != "farm" for b in t.spaces[0].income]
    assert sorted(map(str, shown)) == sorted(map(str, [*others, *wanted]))


def test_buildings_are_still_taken_from_the_left() -> None:
    """ "Continue to use buildings from left to right": gaining a farm takes the leftmost one
    left after a slide."""
    state = artificers()
    player = state.seats[0]
    player.taken[FARM] = 2
    player.covered["farm"] = [2, 4, 5]
    run_frames(state, expr_frame(0, gain("gain_farm"), "test"))
    assert covered_spaces(state.seats[0], "farm") == [4, 5]
    assert visible_spaces(state.seats[0], "farm") == [0, 1, 2, 3]


def test_income_five_scores_capital_buildings() -> None:
    """Income turn 5: 1 VP per income building in the capital (not one set beside it)."""
    state = artificers()
    player = state.seats[0]
    player.buildings = [
        PlacedBuilding(building="house", row=1, col=1),
        PlacedBuilding(building="farm", row=2, col=2),
        PlacedBuilding(building="market", row=-99, col=-99),
    ]
    run_frames(state, frame("civ_income", 0, token=KEY, ints=(5,)))
    assert decision(state) == art.FINAL
    events = answer(state, Choose(index=art.SCORE))
    assert vp_of(events, 0, f"civ:{KEY}") == 2


def test_income_five_slides_a_whole_track_left() -> None:
    """Income turn 5: every building of one track slides as far left as it goes."""
    state = artificers()
    player = state.seats[0]
    player.taken[HOUSE] = 3  # buildings on 4 and 5
    run_frames(state, frame("civ_income", 0, token=KEY, ints=(5,)))
    assert Choose(index=10 + HOUSE) in options(state)
    events = answer(state, Choose(index=10 + HOUSE))
    assert [(e.origin, e.to) for e in of(events, ev.BuildingSlid)] == [(4, 1), (5, 2)]
    assert visible_spaces(state.seats[0], "house") == [0, 3, 4, 5]


def test_views_show_the_gaps_and_the_buildings_set_aside() -> None:
    """Every viewer sees where the buildings stand and what was set aside."""
    state = artificers()
    run_frames(state, frame("civ_income", 0, token=KEY, ints=(2,)))
    answer(state, Choose(index=HOUSE * 10 + art.SET_ASIDE))
    state.seats[0].covered["farm"] = [1, 3, 4, 5]
    view = make_view(state, 1, ((), "", ""))
    assert view.seats[0].buildings_aside == {"house": 1}
    assert view.seats[0].income_covered == {"farm": (1, 3, 4, 5)}


def test_no_rebalancing_box_and_gained_from_tapestry_3() -> None:
    """No Artificers entry on the rebalancing page; dealt with its box; gained mid-game from
    ``tapestry/3`` only."""
    state = artificers()
    assert civs.setup_frames(state, 0) == []
    assert box_of(KEY) == "fantasies_and_futures"
    assert KEY not in civs.gainable(["fantasies_and_futures"], revision=2)
    assert KEY in civs.gainable(["fantasies_and_futures"], revision=3)


def test_seeded_games_with_starting_artificers_finish() -> None:
    """ "Fin de la partie": whole random games with starting Artificers end at 2-5 seats;
    folding the events again gives the state held."""
    moved = 0
    for seats, seed in ((2, 1), (3, 2), (4, 3), (5, 4)):
        state, log = play_boxed(KEY, seats, seed)
        assert state.seats[0].civs[0] == civ_id(KEY)
        assert all(s.finished for s in state.seats)
        assert refold(KEY, log, seats) == state_bytes(state)
        moved += len(of(log, ev.BuildingSlid)) + len(of(log, ev.BuildingSetAside))
    assert moved > 0


def test_the_tapestry_bot_plays_the_artificers() -> None:
    """The Tapestry bot answers the Artificers' decisions in a whole 3-seat game that
    finishes and refolds exactly."""
    seats, seed = 3, b"artificers-bot"
    state, log = play_bots(
        KEY, [TapestryBot(b"art-smart"), RandomBot(b"art-1"), RandomBot(b"art-2")], seed
    )
    assert refold(KEY, log, seats) == state_bytes(state)
