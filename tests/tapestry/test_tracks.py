"""Track mechanics shared by every space ("Tours de développement", "Avancer sur une piste",
"Règles générales"): landmarks, the once-per-turn rule, several tokens on a track, the end of a
track, completing a track. The exact effect of each of the 48 spaces is checked in
``test_tracks_exploration.py``, ``test_tracks_science.py``, ``test_tracks_technology.py`` and
``test_tracks_military.py``; here every space is also driven to the end of the turn with both
"first option" and "last option" answers (nothing is left pending, nothing raises).
"""

from __future__ import annotations

import pytest

from domain.tapestry import events as ev
from domain.tapestry.commands import Advance, Choose, PayBonus, TakeIncome
from domain.tapestry.content import TRACKS, space
from domain.tapestry.engine import frame
from domain.tapestry.rules import payments, split_cost
from domain.tapestry.state import TapestryState, TechOwned
from tests.tapestry.helpers import GAME, act, decision, of, settle, table
from tests.tapestry.test_tracks_support import (
    answer,
    at,
    enter,
    forced,
    offer,
    options,
    place,
    science_shows,
    tokens,
    turn_passed,
)


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


@pytest.mark.parametrize("track", TRACKS)
@pytest.mark.parametrize("number", range(1, 13))
@pytest.mark.parametrize("pick", [0, 1])
def test_every_space_resolves_to_the_end_of_the_turn(track: str, number: int, pick: int) -> None:
    """ "Guide des pistes": each space's benefit (and bonus when bought) resolves fully and the
    next seat's turn begins."""
    state = _ready(number - 1, track)
    fixed, any_units, _ = split_cost(space(track, number).cost)
    way = payments(state.seats[0].resources, fixed, any_units)[0]
    act(state, 0, Advance(track=track, payment=way))
    assert number in state.seats[0].tracks[TRACKS.index(track)] or track == "technology"
    settle(state, pick=pick)
    assert GAME.pending(state).seats == (1,)


# -- landmarks ------------------------------------------------------------------------------
def test_landmark_goes_to_the_first_into_a_tier_for_any_reason() -> None:
    """ "Tours de développement" / "Recherche": the first player into a new tier (II-IV), by any
    means (here a research roll), takes that tier's landmark; F.À.Q. "Pistes": before the
    benefit."""
    state = at("science", 5)
    state.seats[0].tracks[3] = [3]
    forced(state, Advance(track="science", payment=("coin",)), science_shows("military"))
    events = answer(state, Choose(index=0))
    assert [(e.seat, e.landmark) for e in of(events, ev.LandmarkClaimed)] == [(0, 6)]
    assert decision(state) == "place_building"  # before Standing Army's worker
    assert state.seats[0].resources[1] == 4  # Chemistry cost a worker
    place(state)
    assert state.seats[0].resources[1] == 5


def test_landmark_is_not_taken_twice() -> None:
    """ "Bâtiments & Capitales": each landmark exists once; the second into tier II gets none."""
    state = at("military", 4)
    state.landmark_owner["6"] = 1
    events = enter(state, "military")
    assert not of(events, ev.LandmarkClaimed)
    assert state.seats[0].landmarks == []


@pytest.mark.parametrize(
    ("track", "landmarks"),
    [
        ("exploration", (9, 4, 11)),
        ("science", (2, 3, 7)),
        ("technology", (10, 8, 1)),
        ("military", (6, 5, 12)),
    ],
)
def test_each_tier_has_its_landmark(track: str, landmarks: tuple[int, int, int]) -> None:
    """ "Tours de développement": tiers II, III and IV (spaces 4, 7, 10) each carry a landmark,
    none for tier I."""
    assert [space(track, n).landmark for n in (4, 7, 10)] == list(landmarks)
    assert all(space(track, n).landmark is None for n in range(1, 13) if n not in (4, 7, 10))


def test_moving_back_into_a_tier_claims_nothing() -> None:
    """ "Tours de développement": landmarks are for advancing into a tier; regressing does not
    claim (Neuroscience, military 4 -> 3)."""
    state = at("science", 10)
    state.landmark_owner["7"] = 1
    state.seats[0].tracks[3] = [4]
    events = enter(state, "science")
    events += answer(state, Choose(index=0))
    assert not of(events, ev.LandmarkClaimed)
    assert state.seats[0].tracks[3] == [3]


# -- once per turn ---------------------------------------------------------------------------
def test_a_space_is_activated_once_per_turn() -> None:
    """ "Règles générales / Réactiver une case": the same space cannot be activated twice in a
    turn. Military 2 -> 3 (Walls: a choice), back to 2 (Bladed Weapons: a card), then 3 again:
    no second Walls."""
    state = table(2)
    state.seats[0].tracks[3] = [2]
    offer(state, 0, tokens("advance_military", "regress_military", "advance_military"))
    assert decision(state) == "choose"  # Walls, first time
    answer(state, Choose(index=1))  # the armory
    place(state)
    seat = state.seats[0]
    assert len(seat.hand) == 1  # Bladed Weapons on the way back
    while decision(state) == "bonus":
        answer(state, options(state)[-1])
    assert seat.tracks[3] == [3] and seat.taken[3] == 1
    assert seat.activated == ["military:3", "military:2"]
    assert turn_passed(state)


def test_activation_resets_at_the_next_turn() -> None:
    """ "Réactiver une case": the restriction is for one turn only."""
    state = table(2)
    state.seats[0].activated = ["exploration:1"]
    state.seats[0].tracks[0] = [0]
    state.agenda = [frame("turn", 1)]
    state.current = 1
    state.seats[1].resources = [1, 0, 0, 0]
    act(state, 1, Advance(track="science", payment=("coin",)))
    while GAME.pending(state).seats == (1,):
        act(state, 1, GAME.legal_actions(state, 1)[-1])
    state.seats[0].resources = [1, 0, 0, 0]
    events = act(state, 0, Advance(track="exploration", payment=("coin",)))
    assert [e.key for e in of(events, ev.SpaceActivated)] == ["exploration:1"]
    assert len(state.seats[0].territory) == 2


def test_the_bonus_is_bought_at_most_once() -> None:
    """ "Tours de développement" step 3: the bonus may be bought once per activation."""
    state = at("military", 2)
    enter(state, "military")
    answer(state, PayBonus(payment=("coin",)))
    place(state)
    assert state.seats[0].taken[3] == 1
    assert turn_passed(state)


# -- the end of a track ---------------------------------------------------------------------
def test_advancing_past_the_end_does_nothing() -> None:
    """ "Avancer sur une piste": a free advance that would take the token past space 12 does
    nothing (no benefit, no VP)."""
    state = table(2)
    state.seats[0].tracks[0] = [12]
    state.seats[0].completed[0] = True
    before = (state.seats[0].vp, list(state.seats[0].resources))
    events = offer(state, 0, tokens("advance_exploration"))
    assert not of(events, ev.TokenMoved) and not of(events, ev.VPScored)
    assert (state.seats[0].vp, state.seats[0].resources) == before


def test_no_advance_turn_on_a_finished_track() -> None:
    """ "Tours de développement": there is no space to pay for past space 12."""
    state = at("exploration", 13)
    assert all(
        not (isinstance(o, Advance) and o.track == "exploration")
        for o in GAME.legal_actions(state, 0)
    )


@pytest.mark.parametrize("seats", [2, 4])
def test_completing_tracks_scores_by_rank_and_player_count(seats: int) -> None:
    """ "Objectifs / Compléter une piste": 10 then 5 VP with 1-3 players, 15/10/5 with 4-5; once
    per seat even with a second track."""
    state = table(seats)
    expected = [10, 5, 0] if seats <= 3 else [15, 10, 5]
    for seat in range(min(seats, 3)):
        state.seats[seat].tracks[1] = [11]
        events = offer(state, seat, tokens("advance_science_no_benefit"))
        assert [e.vp for e in of(events, ev.AchievementEarned)] == [expected[seat]]
    state.seats[0].tracks[0] = [11]
    events = offer(state, 0, tokens("advance_exploration_no_benefit"))
    assert of(events, ev.TrackCompleted) and not of(events, ev.AchievementEarned)


def test_completing_a_track_does_not_need_the_benefit() -> None:
    """ "Compléter une piste": reaching space 12 fulfils it even without its benefit."""
    state = table(2)
    state.seats[0].tracks[2] = [11]
    events = offer(state, 0, tokens("advance_technology_no_benefit"))
    assert [e.vp for e in of(events, ev.AchievementEarned)] == [10]
    assert not of(events, ev.SpaceActivated)


# -- several tokens on one track --------------------------------------------------------------
def _two_tokens() -> TapestryState:
    """AI Singularity put a second token at the start of exploration (first one on 5)."""
    state = at("exploration", 1)
    seat = state.seats[0]
    seat.tracks[0] = [5, 0]
    seat.tracks[2] = []
    seat.retired = [2]
    seat.completed[2] = True
    return state


def test_several_tokens_each_advance_paying_their_own_cost() -> None:
    """ "Plusieurs pions par piste": each token moves on its own; an advance turn names the
    token and pays the cost of its next space (tier II for the front one, tier I for the
    back one)."""
    state = _two_tokens()
    offered = [o for o in GAME.legal_actions(state, 0) if isinstance(o, Advance)]
    exploration = [o for o in offered if o.track == "exploration"]
    assert Advance(track="exploration", payment=("coin",), token=0) in exploration
    assert Advance(track="exploration", payment=("coin",), token=1) in exploration
    assert Advance(track="exploration", payment=("coin",)) not in exploration
    assert {o.token for o in offered if o.track != "exploration"} == {-1}
    assert not any(o.track == "technology" for o in offered)
    events = act(state, 0, Advance(track="exploration", payment=("coin",), token=1))
    seat = state.seats[0]
    assert seat.tracks[0] == [5, 1] and len(seat.territory) == 2  # Scouting again
    assert [e.key for e in of(events, ev.SpaceActivated)] == ["exploration:1"]
    assert seat.resources == [4, 5, 5, 5]
    assert seat.position(0) == 5


def test_several_tokens_front_token_pays_its_tier() -> None:
    """ "Plusieurs pions par piste": the front token entering space 6 pays food + 1 any."""
    state = _two_tokens()
    act(state, 0, Advance(track="exploration", payment=("coin",), token=0))
    assert state.seats[0].tracks[0] == [6, 0]
    assert state.seats[0].resources == [4, 5, 4, 5]


def test_several_tokens_free_advance_asks_which_token() -> None:
    """ "Plusieurs pions par piste": a free advance on a track with tokens on different spaces
    asks which one moves."""
    state = _two_tokens()
    offer(state, 0, tokens("advance_exploration_no_benefit"))
    assert decision(state) == "token_pick"
    assert options(state) == [Choose(index=0), Choose(index=1)]
    answer(state, Choose(index=1))
    assert state.seats[0].tracks[0] == [5, 1] and state.seats[0].territory == []


def test_several_tokens_regress_asks_which_token() -> None:
    """ "Plusieurs pions par piste": going back with tokens on different spaces asks which."""
    state = table(2)
    state.seats[0].tracks[3] = [4, 2]
    offer(state, 0, tokens("regress_military_no_benefit"))
    assert options(state) == [Choose(index=0), Choose(index=1)]
    answer(state, Choose(index=1))
    assert state.seats[0].tracks[3] == [4, 1]


def test_research_moves_a_back_token_when_the_front_one_is_at_the_end() -> None:
    """ "Recherche" with two tokens: a token at space 12 cannot move but the other one can."""
    state = at("science", 1)
    state.seats[0].tracks[3] = [12, 0]
    forced(state, Advance(track="science", payment=("coin",)), science_shows("military"))
    assert decision(state) == "research"
    answer(state, Choose(index=0))
    assert state.seats[0].tracks[3] == [12, 1]


def test_position_after_ai_singularity_and_after_moving_back_from_12() -> None:
    """F.À.Q. "Singularité d'IA": with the token removed, the track still counts as 12 spaces;
    a token moved back from 12 (Neuroscience) counts where it stands, the achievement kept."""
    state = _two_tokens()
    assert state.seats[0].position(2) == 12
    state = at("science", 10)
    seat = state.seats[0]
    seat.tracks[3] = [12]
    seat.completed[3] = True
    seat.achievements = [1]
    enter(state, "science")
    place(state)
    answer(state, Choose(index=0))
    assert seat.tracks[3] == [11] and seat.position(3) == 11
    assert seat.completed[3] and seat.achievements == [1]


def test_income_turn_is_no_advance() -> None:
    """ "Déroulement du jeu": a turn is an income turn or one advance, never both."""
    state = table(2)
    state.seats[0].hand = [27]
    events = act(state, 0, TakeIncome())
    assert not of(events, ev.TokenMoved)


# -- advance-turn costs ---------------------------------------------------------------------
RESOURCE_OF = {
    "exploration": "food",
    "science": "worker",
    "technology": "coin",
    "military": "culture",
}


@pytest.mark.parametrize("track", TRACKS)
@pytest.mark.parametrize(
    ("number", "fixed", "any_units"), [(1, 0, 1), (5, 1, 1), (8, 1, 2), (11, 2, 0)]
)
def test_advance_cost_per_tier(track: str, number: int, fixed: int, any_units: int) -> None:
    """ "Tours de développement" (and the board): tier I costs 1 resource of choice; tier II the
    track's resource + 1 of choice; tier III the track's resource + 2 of choice; tier IV 2 of
    the track's resource (exploration food, science worker, technology coin, military
    culture). Every distinct way to pay the "of choice" units is offered."""
    state = at(track, number)
    state.seats[0].resources = [2, 2, 2, 2]
    resource = RESOURCE_OF[track]
    cost = space(track, number).cost
    assert sorted(cost) == sorted([resource] * fixed + ["any_resource"] * any_units)
    offered = [
        o for o in GAME.legal_actions(state, 0) if isinstance(o, Advance) and o.track == track
    ]
    assert all(len(o.payment) == any_units for o in offered)
    expected = {0: 1, 1: 4, 2: 9}[any_units]  # 2 of the track's resource: one is already spent
    assert len(offered) == expected
    last = offered[-1]
    act(state, 0, last)
    spent = [2 - r for r in state.seats[0].resources]
    paid = [resource] * fixed + list(last.payment)
    assert spent == [paid.count(r) for r in ("coin", "worker", "food", "culture")]
