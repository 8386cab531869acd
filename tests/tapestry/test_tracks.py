"""The 48 track spaces ("Guide des pistes") and research ("Recherche").

Every space is reached by an advance turn from the space before it, with plenty of resources,
a tech card, territory tiles and tapestry cards, and its decisions are answered until the
turn ends: the benefit resolves without error. Chosen spaces check their exact effect.
"""

from __future__ import annotations

import pytest

from domain.tapestry import events as ev
from domain.tapestry.commands import Advance, Choose, Decline
from domain.tapestry.content import TRACKS, space
from domain.tapestry.rules import payments, split_cost
from domain.tapestry.state import TapestryState, TechOwned
from tests.tapestry.helpers import GAME, act, decision, of, settle, table


def _ready(position: int, track: str) -> TapestryState:
    state = table(2)
    seat = state.seats[0]
    seat.resources = [8, 8, 8, 8]
    seat.tracks[TRACKS.index(track)] = [position]
    seat.territory = [1, 2, 3]
    seat.space = [1, 13]
    seat.hand = [6, 12, 42]
    seat.tech = [TechOwned(card=8, row=0), TechOwned(card=9, row=1)]
    return state


def _advance(state: TapestryState, track: str) -> list[ev.Event]:
    position = max(state.seats[0].tracks[TRACKS.index(track)])
    fixed, any_units, _ = split_cost(space(track, position + 1).cost)
    way = payments(state.seats[0].resources, fixed, any_units)[0]
    return act(state, 0, Advance(track=track, payment=way))


@pytest.mark.parametrize("track", TRACKS)
@pytest.mark.parametrize("number", range(1, 13))
@pytest.mark.parametrize("pick", [0, 1])
def test_every_space_resolves(track: str, number: int, pick: int) -> None:
    """ "Guide des pistes": each space's benefit (and bonus when bought) resolves fully."""
    state = _ready(number - 1, track)
    _advance(state, track)
    assert state.seats[0].tracks[TRACKS.index(track)][0] in (number, 0) or track == "technology"
    settle(state, pick=pick)
    assert GAME.pending(state).seats == (1,)


def test_scouting_gains_two_tiles() -> None:
    """Exploration 1, Reconnaissance: gain 2 territory tiles."""
    state = _ready(0, "exploration")
    _advance(state, "exploration")
    assert len(state.seats[0].territory) == 5


def test_standing_army() -> None:
    """Military 4, Armée régulière: 1 worker and 1 VP per territory tile in your supply."""
    state = _ready(3, "military")
    state.seats[0].resources = [8, 4, 8, 8]
    _advance(state, "military")
    settle(state)
    assert state.seats[0].resources[1] == 5
    assert state.seats[0].vp == 3


def test_computers_score_science_and_military_spaces() -> None:
    """Technology 10, Ordinateurs: 1 VP per space on the science and military tracks."""
    state = _ready(9, "technology")
    state.seats[0].tracks[1] = [5]
    state.seats[0].tracks[3] = [2]
    _advance(state, "technology")
    settle(state)
    assert state.seats[0].vp == 7


def test_ai_singularity_restarts_the_token_and_keeps_the_track_complete() -> None:
    """Technology 12, Singularité d'IA: 1 of each resource, the token restarts elsewhere; the
    track still counts as complete (12 spaces, achievement)."""
    state = _ready(11, "technology")
    state.seats[0].resources = [2, 0, 0, 0]
    events = _advance(state, "technology")
    assert of(events, ev.AchievementEarned)[0].vp == 10
    assert decision(state) == "track"
    act(state, 0, Choose(index=0))
    seat = state.seats[0]
    assert seat.tracks[2] == [] and seat.position(2) == 12
    assert seat.tracks[0] == [0, 0]
    assert seat.resources == [1, 1, 1, 1]


def test_same_space_only_once_per_turn() -> None:
    """ "Règles générales": Academic Research cannot repeat its own space this turn."""
    state = _ready(6, "science")
    state.seats[0].tracks[0] = [2]
    state.seats[0].tracks[3] = [2]
    _advance(state, "science")
    assert decision(state) == "place_building"  # the Academy landmark comes first (F.À.Q.)
    act(state, 0, GAME.legal_actions(state, 0)[0])
    assert decision(state) == "track"
    assert GAME.legal_actions(state, 0) == [Choose(index=0), Choose(index=3)]


def test_research_may_decline_to_advance() -> None:
    """ "Recherche": after the roll you may decide not to advance."""
    state = _ready(0, "science")
    events = _advance(state, "science")
    rolled = of(events, ev.ScienceDieRolled)
    assert len(rolled) == 1
    assert decision(state) == "research"
    before = [list(t) for t in state.seats[0].tracks]
    act(state, 0, Choose(index=1))
    assert [list(t) for t in state.seats[0].tracks] == before


def test_decline_bonus_keeps_resources() -> None:
    """Bonuses are optional ("Gains optionnels/obligatoires")."""
    state = _ready(1, "technology")
    _advance(state, "technology")
    coins = state.seats[0].resources[0]
    act(state, 0, Decline())
    assert state.seats[0].resources[0] == coins
