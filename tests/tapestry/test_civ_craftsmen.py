"""Craftsmen (Artisans): income buildings on the mat's columns instead of the capital.

Sources: player aid "CIVILISATIONS / Artisans" (lowest available space of a column, gain the
benefit covered, the buildings belong to the capital except for rows and columns), facts
folder ``civilizations.json#3`` (the three columns), rulebook "RÉÉQUILIBRAGE DES
CIVILISATIONS" (ARTISANS: "Pas de changement", which wins over the aid's "one resource less",
RULEBOOK_CROSSCHECK C2), F.À.Q. "BÂTIMENTS ET MONUMENTS" (a gained building must be used where
it can be; beside the capital only when it fits nowhere).
"""

from __future__ import annotations

from domain.core import Event
from domain.tapestry import civ_craftsmen as craft
from domain.tapestry import civs
from domain.tapestry import events as ev
from domain.tapestry.civs import civ_id
from domain.tapestry.commands import Choose, ChooseResource, PlaceBuilding, TakeIncome
from domain.tapestry.engine import frame
from domain.tapestry.gains import OUTSIDE
from domain.tapestry.state import BUILDINGS, TapestryState
from tests.tapestry.helpers import act, decision, of, table
from tests.tapestry.test_cards_support import answer, benefit, options, run_frames, vp_of
from tests.tapestry.test_civ_architects import play_with, start_with

KEY = "craftsmen"


def craftsman(seats: int = 2) -> TapestryState:
    """Seat 0 holds the Craftsmen (an empty mat)."""
    state = table(seats)
    state.seats[0].civs = [civ_id(KEY)]
    return state


def to_column(state: TapestryState, building: str, column: int) -> list[Event]:
    """Seat 0 gains ``building`` and puts it on ``column`` of the mat."""
    events = benefit(state, 0, f"gain_{building}")
    assert Choose(index=column) in options(state)
    return events + answer(state, Choose(index=column))


def test_building_may_go_on_a_column_for_its_benefit() -> None:
    """Aid "Artisans": a building on the lowest free space of a column gains that benefit;
    the capital's placements stay on offer."""
    state = craftsman()
    benefit(state, 0, "gain_house")
    found = options(state)
    assert {Choose(index=c) for c in range(3)} <= set(found)
    assert any(isinstance(o, PlaceBuilding) and o.row != OUTSIDE for o in found)
    grid = list(state.seats[0].grid_filled)
    events = answer(state, Choose(index=0))
    assert state.seats[0].resources[1] == 1  # column 1, bottom: a worker
    assert state.seats[0].grid_filled == grid  # not in the capital
    assert state.seats[0].civ_tokens[KEY][0] == BUILDINGS.index("house") + 1
    assert of(events, ev.CivTokensSet)
    assert state.seats[0].taken[BUILDINGS.index("house")] == 1


def test_columns_fill_from_the_bottom() -> None:
    """Aid "Artisans": "la case disponible la plus basse": worker, tile, then 5 VP; a full
    column is no longer offered."""
    state = craftsman()
    to_column(state, "farm", 0)
    to_column(state, "market", 0)
    assert len(state.seats[0].territory) == 1
    events = to_column(state, "armory", 0)
    assert vp_of(events, 0, "civ:craftsmen") == 5
    benefit(state, 0, "gain_house")
    assert Choose(index=0) not in options(state)
    assert {Choose(index=1), Choose(index=2)} <= set(options(state))


def test_second_and_third_columns() -> None:
    """Facts folder ``civilizations.json#3``: column 2 starts with a coin, column 3 with a
    food, and their tops pay 10 and 15 VP."""
    state = craftsman()
    to_column(state, "house", 1)
    to_column(state, "house", 2)
    assert state.seats[0].resources[0] == 1 and state.seats[0].resources[2] == 1
    state.seats[0].civ_tokens[KEY] = [1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 0]
    assert vp_of(to_column(state, "farm", 1), 0, "civ:craftsmen") == 10
    assert vp_of(to_column(state, "farm", 2), 0, "civ:craftsmen") == 15
    benefit(state, 0, "gain_farm")
    assert not any(isinstance(o, Choose) for o in options(state))


def test_landmarks_never_go_on_the_mat() -> None:
    """Aid/facts: only income buildings go on the mat; a landmark is placed in the capital."""
    state = craftsman()
    run_frames(state, frame("build", 0, token="landmark", ints=(1,)))
    assert options(state) and not any(isinstance(o, Choose) for o in options(state))


def test_other_civilizations_have_no_mat() -> None:
    """Only a Craftsman is offered the columns."""
    state = table(2)
    benefit(state, 0, "gain_house")
    assert not any(isinstance(o, Choose) for o in options(state))


def test_full_capital_uses_the_mat_before_setting_aside() -> None:
    """F.À.Q. "BÂTIMENTS ET MONUMENTS": a building must be used if it can be: with no plot
    left it goes on the mat; beside the capital only when the mat is full too."""
    state = craftsman()
    state.seats[0].grid_filled = ["H" * 9] * 9
    state.seats[0].grid_blocked = ["0" * 9] * 9
    benefit(state, 0, "gain_house")
    assert options(state) == [Choose(index=0), Choose(index=1), Choose(index=2)]
    answer(state, Choose(index=2))
    state.seats[0].civ_tokens[KEY] = [1] * 12
    events = benefit(state, 0, "gain_house")  # the only option, taken at once
    assert of(events, ev.BuildingPlaced)[0].row == OUTSIDE
    assert decision(state) == "turn"


def test_mat_buildings_count_except_for_rows_and_columns() -> None:
    """Aid "Artisans": the mat's buildings belong to the capital for benefits (VP per house)
    but not when rows and columns are scored."""
    state = craftsman()
    state.seats[0].grid_blocked = ["0" * 9] * 9
    state.seats[0].grid_filled = ["H" * 9] + ["." * 9] * 8
    to_column(state, "house", 2)
    assert vp_of(benefit(state, 0, "vp_per_house"), 0, "vp_per_house") == 1
    assert vp_of(benefit(state, 0, "score_capital"), 0, "score_capital") == 1


def test_no_rebalancing_for_a_starting_craftsman() -> None:
    """ "RÉÉQUILIBRAGE DES CIVILISATIONS": ARTISANS "Pas de changement": no setup frame, and no
    resource lost after the first income turn (the aid's "1 en moins" is not applied)."""
    state = start_with(KEY, 2)
    assert civs.setup_frames(state, 0) == []
    while state.current != 0:
        act(state, state.current, TakeIncome())
        while decision(state) not in ("turn", "over"):
            answer(state, options(state)[0])
    events = act(state, 0, TakeIncome())
    while decision(state) not in ("turn", "over"):
        events += answer(state, options(state)[0])
    assert not [e for e in of(events, ev.ResourcesChanged) if "adjustment" in e.reason]
    assert state.seats[0].income_turns == 1


def test_no_income_ability() -> None:
    """Aid "Artisans": no income-turn ability (nothing asked at step 1)."""
    state = craftsman()
    state.seats[0].hand = [42]
    act(state, 0, TakeIncome())
    assert decision(state) != "civilization"


def test_gained_mid_game_is_used_from_then_on() -> None:
    """Gained during the game: no special rule; the next building may go on the mat."""
    state = table(2)
    state.civs_out = [civ_id(k) for k in civs.GAINABLE if k != KEY]
    events = benefit(state, 0, "gain_random_civilization")
    assert of(events, ev.CivilizationGained)[0].civilization == civ_id(KEY)
    assert decision(state) == "turn"
    benefit(state, 0, "gain_market")
    assert Choose(index=1) in options(state)
    answer(state, Choose(index=1))
    assert state.seats[0].resources[0] == 1


def test_research_slot_rolls_the_die() -> None:
    """Facts folder: column 3, fourth space: research (roll the science die)."""
    state = craftsman()
    state.seats[0].civ_tokens[KEY] = [0] * 7 + [1, 1, 1, 0, 0]
    events = to_column(state, "house", 2)
    while decision(state) == "research":
        events += answer(state, Choose(index=0))
    while decision(state) == "resource":
        events += answer(state, ChooseResource(resource="coin"))
    assert of(events, ev.ScienceDieRolled)


def test_seeded_games_with_starting_craftsmen_finish() -> None:
    """ "Fin de la partie": games with a starting Craftsman end, every seat finished."""
    for seats, seed in ((2, 1), (3, 2)):
        state = play_with(KEY, seats, seed)
        assert state.seats[0].civs[0] == civ_id(KEY)
        assert all(s.finished for s in state.seats)
        assert sum(1 for v in craft.mat(state, 0) if v) <= 12
