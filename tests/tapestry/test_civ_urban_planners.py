"""Urban Planners (Urbanistes, Arts & Architecture): landmarks parked on the mat and built later;
the largest group of connected landmarks scores at the last income turn.

Sources: facts folder ``civilizations.json#25`` (a gained landmark may wait on the mat and be
built in the capital on a later turn; final income turn: the largest orthogonally connected
group of landmarks scores 1/4/9/16/25/36/49 VP for 1-7), rulebook F.À.Q. "PLATEAUX
CIVILISATION PARTICULIERS" (Urbanistes: a parked landmark may be used at any time, several in
the same turn), "RÉÉQUILIBRAGE DES CIVILISATIONS" (URBANISTES, icons lost: one resource of your
choice, ``decisions.json#urban_planners_rebalancing``); the facts folder's "Urban Center" is a
stand-in of the source implementation, not given (GameSummary.notes).
"""

from __future__ import annotations

from domain.bots import RandomBot
from domain.tapestry import civ_urban_planners as up
from domain.tapestry import civs
from domain.tapestry import events as ev
from domain.tapestry.bot import TapestryBot
from domain.tapestry.civs import civ_id
from domain.tapestry.commands import Choose, PlaceBuilding, TakeIncome
from domain.tapestry.engine import frame
from domain.tapestry.rules import load
from domain.tapestry.state import PlacedBuilding, TapestryState
from tests.tapestry.box_civ_helpers import (
    GAME2,
    boxed_start,
    play_bots,
    play_boxed,
    refold,
    state_bytes,
)
from tests.tapestry.helpers import decision, of, table
from tests.tapestry.test_cards_support import answer, benefit, options, run_frames, vp_of

KEY = "urban_planners"
APOTHECARY, BARRACKS, LIGHTHOUSE = 2, 6, 9  # 2x2 landmarks


def planner(parked: tuple[int, ...] = ()) -> TapestryState:
    """Seat 0 holds the Urban Planners, about to choose its turn; ``parked`` on the mat."""
    state = table(2)
    state.seats[0].civs = [civ_id(KEY)]
    for landmark in parked:
        state.landmark_owner[str(landmark)] = 0
        state.seats[0].landmarks.append(landmark)
    if parked:
        state.seats[0].civ_tokens[KEY] = list(parked)
    return state


def test_a_landmark_gained_may_be_parked() -> None:
    """Facts ``#25``: a landmark gained may be set on the mat instead of the capital; it is
    still the seat's own."""
    state = planner()
    benefit(state, 0, "gain_landmark_apothecary")
    assert decision(state) == "place_building"
    assert options(state)[-1] == Choose(index=up.PARK)
    events = answer(state, Choose(index=up.PARK))
    assert not of(events, ev.BuildingPlaced)
    assert up.parked(state, 0) == [APOTHECARY]
    assert state.landmark_owner[str(APOTHECARY)] == 0 and not state.seats[0].buildings


def test_a_parked_landmark_is_built_at_the_start_of_a_later_turn() -> None:
    """Facts ``#25``: built in the capital on a later turn: offered before the turn's choice;
    once placed, the turn's choice comes back. It cannot be parked again."""
    state = planner(parked=(APOTHECARY,))
    assert Choose(index=APOTHECARY) in options(state)
    answer(state, Choose(index=APOTHECARY))
    assert decision(state) == "place_building" and up.parked(state, 0) == []
    placements = options(state)
    assert Choose(index=up.PARK) not in placements
    events = answer(state, placements[0])
    assert of(events, ev.BuildingPlaced)[0].landmark == APOTHECARY
    assert decision(state) == "turn" and TakeIncome() in options(state)


def test_several_parked_landmarks_in_the_same_turn() -> None:
    """F.À.Q. "PLATEAUX CIVILISATION PARTICULIERS" (Urbanistes): usable at any time, and
    several in the same turn."""
    state = planner(parked=(APOTHECARY, BARRACKS))
    for landmark in (APOTHECARY, BARRACKS):
        answer(state, Choose(index=landmark))
        answer(state, next(c for c in options(state) if isinstance(c, PlaceBuilding)))
    assert {b.landmark for b in state.seats[0].buildings} == {APOTHECARY, BARRACKS}
    assert decision(state) == "turn"


def _place(state: TapestryState, landmark: int, row: int, col: int) -> None:
    state.seats[0].buildings.append(
        PlacedBuilding(building="landmark", landmark=landmark, row=row, col=col)
    )


def test_largest_connected_group_scores_its_square() -> None:
    """Facts ``#25`` ``final_scoring``: two 2x2 landmarks side by side and one apart: the
    largest orthogonal group holds 2 landmarks: 4 VP at the end of the fifth income turn."""
    state = planner()
    _place(state, APOTHECARY, 0, 0)
    _place(state, BARRACKS, 0, 2)  # touches the Apothecary along a side
    _place(state, LIGHTHOUSE, 6, 6)  # apart
    assert up.largest_group(state.seats[0]) == 2
    state.seats[0].income_turns = 5
    events = run_frames(state, frame("income", 0, ints=(5, 5)))
    assert vp_of(events, 0, "civ:urban_planners") == 4


def test_diagonal_landmarks_are_not_connected() -> None:
    """ "Orthogonally connected": a corner contact does not join two landmarks."""
    state = planner()
    _place(state, APOTHECARY, 0, 0)
    _place(state, BARRACKS, 2, 2)
    assert up.largest_group(state.seats[0]) == 1


def test_group_vp_table() -> None:
    """Facts ``#25``: 1/4/9/16/25/36/49 VP for 1-7 landmarks, 49 beyond."""
    assert [up.group_vp(n) for n in range(9)] == [0, 1, 4, 9, 16, 25, 36, 49, 49]


def test_rebalancing_gives_a_resource_of_choice_at_every_player_count() -> None:
    """ "RÉÉQUILIBRAGE DES CIVILISATIONS", URBANISTES (icons lost): one resource of your choice
    at 1-3 and at 4-5 players (``decisions.json#urban_planners_rebalancing``); no landmark
    ("Urban Center") at setup."""
    for seats in (2, 4):
        state, _ = boxed_start(KEY, seats, b"up")
        frames = civs.setup_frames(state, 0)
        assert [load(f.expr) for f in frames] == [
            load('{"kind":"gain","token":"gain_any_resource"}')
        ]
        assert not state.seats[0].landmarks


def test_the_missing_urban_center_is_in_the_game_notes() -> None:
    """The facts folder's setup landmark is a stand-in of the source implementation in none of
    our sources: GameSummary.notes says the Urban Planners start without it."""
    state, _ = boxed_start(KEY, 2, b"up-notes")
    (line,) = GAME2.notes(state)
    assert line.startswith("arts_and_architecture:") and "Urban Center" in line


def test_seeded_games_with_starting_urban_planners_finish() -> None:
    """ "Fin de la partie": whole random games at 2 to 5 seats with starting Urban Planners
    end; a fresh fold of the events equals the state."""
    parked_any = False
    for seats, seed in ((2, 1), (3, 2), (4, 3), (5, 4)):
        state, log = play_boxed(KEY, seats, seed)
        assert all(s.finished for s in state.seats)
        parked_any |= any(e.key == KEY and e.values for e in of(log, ev.CivTokensSet))
        assert refold(KEY, log, seats) == state_bytes(state)
    assert parked_any


def test_the_tapestry_bot_plays_the_urban_planners() -> None:
    """The Tapestry bot answers the Urban Planners' decisions in a whole 3-seat game: its
    landmarks touch (the group scores), none is left parked."""
    seats, seed = 3, b"urban-bot"
    state, log = play_bots(
        KEY, [TapestryBot(b"up-smart"), RandomBot(b"up-1"), RandomBot(b"up-2")], seed
    )
    assert refold(KEY, log, seats) == state_bytes(state)
    scored = vp_of(log, 0, "civ:urban_planners")
    assert scored == up.group_vp(up.largest_group(state.seats[0])) > 0
    assert not up.parked(state, 0)
