"""The 12 spaces of the SCIENCE track, one test (or more) per space.

Rulebook: "Guide des pistes / SCIENCE", "Recherche" (roll the science die, you may then advance
on the track shown; a crossed icon gives neither benefit nor bonus; past space 12 nothing
happens), "Avancer sur une piste", "Tours de développement" (landmarks for the first into
tiers II-IV), "Règles générales" (a space is activated at most once per turn). Dice are forced
by choosing the decision seed (see ``test_tracks_support.forced``).
"""

from __future__ import annotations

from domain.core import Event
from domain.tapestry import events as ev
from domain.tapestry.commands import Advance, Choose, Decline, PayBonus
from domain.tapestry.state import TapestryState, TechOwned
from tests.tapestry.helpers import decision, of
from tests.tapestry.test_tracks_support import (
    answer,
    at,
    coin_payment,
    enter,
    forced,
    options,
    place,
    science_shows,
    turn_passed,
)


def _enter_rolling(state: TapestryState, track: str) -> list[Event]:
    """Advance on science, the (first) science die showing ``track``."""
    number = max(state.seats[0].tracks[1]) + 1
    command = Advance(track="science", payment=coin_payment("science", number))
    return forced(state, command, science_shows(track))


def test_space_1_astronomy_research_without_benefit() -> None:
    """Science 1, Astronomie: roll the die and you may advance there, without benefit or bonus
    (exploration 0 -> 1 draws no Scouting tiles)."""
    state = at("science", 1)
    events = _enter_rolling(state, "exploration")
    assert len(of(events, ev.ScienceDieRolled)) == 1
    assert decision(state) == "research"
    assert options(state) == [Choose(index=0), Choose(index=1)]
    events = answer(state, Choose(index=0))
    seat = state.seats[0]
    assert seat.tracks[0] == [1] and seat.territory == []
    assert [e.key for e in of(events, ev.SpaceActivated)] == []
    assert seat.resources == [4, 5, 5, 5] and seat.vp == 0
    assert turn_passed(state)


def test_space_1_astronomy_may_decline_to_advance() -> None:
    """Science 1, Astronomie / "Recherche": after seeing the die you may stay where you are."""
    state = at("science", 1)
    _enter_rolling(state, "military")
    answer(state, Choose(index=1))
    assert state.seats[0].tracks == [[0], [1], [0], [0]]
    assert turn_passed(state)


def test_space_2_mathematics_card_and_house_bonus() -> None:
    """Science 2, Mathématiques: 1 tapestry card; pay 1 resource for 1 house."""
    state = at("science", 2)
    events = enter(state, "science")
    assert len(of(events, ev.TapestryDrawn)[0].cards) == 1
    assert decision(state) == "bonus"
    events = answer(state, PayBonus(payment=("food",)))
    assert [e.building for e in of(events, ev.BuildingTaken)] == ["house"]
    place(state)
    seat = state.seats[0]
    assert seat.taken == [0, 1, 0, 0] and len(seat.hand) == 1
    assert seat.resources == [4, 5, 4, 5]


def test_space_3_herbalism_research_or_house_no_bonus() -> None:
    """Science 3, Herboristerie: research without benefit OR 1 house; no bonus (README gap 1)."""
    state = at("science", 3)
    enter(state, "science")
    assert options(state) == [Choose(index=0), Choose(index=1)]
    answer(state, Choose(index=1))
    place(state)
    assert state.seats[0].taken[1] == 1
    assert turn_passed(state)

    state = at("science", 3)
    enter(state, "science")
    forced(state, Choose(index=0), science_shows("technology"))
    answer(state, Choose(index=0))
    assert state.seats[0].tracks[2] == [1] and state.seats[0].tech == []
    assert turn_passed(state)


def test_space_4_medicine_landmark_vp_per_tech_card_and_a_card() -> None:
    """Science 4, Médecine (tier II): landmark 2; 1 VP per tech card; 1 tapestry card."""
    state = at("science", 4)
    seat = state.seats[0]
    seat.tech = [TechOwned(card=8), TechOwned(card=9, row=1), TechOwned(card=10, row=2)]
    events = enter(state, "science")
    assert [e.landmark for e in of(events, ev.LandmarkClaimed)] == [2]
    assert seat.resources == [4, 4, 5, 5]  # 1 worker + 1 any
    place(state)
    assert seat.vp == 3 and len(seat.hand) == 1
    assert turn_passed(state)


def test_space_5_chemistry_research_with_benefit_and_discard_two_cards_bonus() -> None:
    """Science 5, Chimie: research with the benefit (exploration 1, Scouting: 2 tiles); then
    discard 2 tapestry cards for 5 VP."""
    state = at("science", 5)
    seat = state.seats[0]
    seat.hand = [6, 12, 6]
    _enter_rolling(state, "exploration")
    events = answer(state, Choose(index=0))
    assert seat.tracks[0] == [1] and len(seat.territory) == 2
    assert [e.key for e in of(events, ev.SpaceActivated)] == ["exploration:1"]
    assert decision(state) == "bonus"
    assert options(state) == [PayBonus(discard=(6, 6)), PayBonus(discard=(6, 12)), Decline()]
    answer(state, PayBonus(discard=(6, 12)))
    assert seat.hand == [6] and seat.vp == 5
    assert turn_passed(state)


def test_space_6_biology_research_with_benefit_or_house() -> None:
    """Science 6, Biologie: research with benefit OR 1 house (reference reading, crosscheck T1).
    Research on military 0 -> 1 (Archery) conquers."""
    state = at("science", 6)
    enter(state, "science")
    assert options(state) == [Choose(index=0), Choose(index=1)]
    forced(state, Choose(index=0), science_shows("military"))
    answer(state, Choose(index=0))
    assert state.seats[0].tracks[3] == [1]
    assert decision(state) == "conquer"

    state = at("science", 6)
    enter(state, "science")
    answer(state, Choose(index=1))
    place(state)
    assert state.seats[0].taken[1] == 1 and turn_passed(state)


def test_space_7_academic_research_repeats_a_current_position_with_its_bonus() -> None:
    """Science 7, Recherches universitaires (tier III): landmark 3; gain the benefit of your
    current space on a track of your choice and you may pay its bonus (military 2, Bladed
    Weapons: a card, then 1 resource for an armory). Science 7 itself was activated this turn
    and cannot be chosen ("Réactiver une case")."""
    state = at("science", 7)
    seat = state.seats[0]
    seat.tracks[0] = [1]
    seat.tracks[3] = [2]
    events = enter(state, "science")
    assert [e.landmark for e in of(events, ev.LandmarkClaimed)] == [3]
    place(state)
    assert decision(state) == "track"
    assert options(state) == [Choose(index=0), Choose(index=3)]  # technology at 0: nothing
    answer(state, Choose(index=3))
    assert len(seat.hand) == 1 and seat.tracks[3] == [2]
    answer(state, PayBonus(payment=("coin",)))
    place(state)
    assert seat.taken[3] == 1
    assert seat.resources == [5 - 2 - 1, 4, 5, 5]


def test_space_8_nutrition_house_then_vp_per_house() -> None:
    """Science 8, Nutrition: 1 house, then 1 VP per house."""
    state = at("science", 8)
    state.seats[0].taken = [0, 3, 0, 0]
    enter(state, "science")
    place(state)
    assert state.seats[0].taken[1] == 4 and state.seats[0].vp == 4
    assert turn_passed(state)


def test_space_9_physics_advances_on_one_of_three_tracks_with_benefit() -> None:
    """Science 9, Physique: advance on exploration, military or technology with the benefit
    (technology 0 -> 1, Pottery: invent)."""
    state = at("science", 9)
    enter(state, "science")
    assert decision(state) == "choose" and len(options(state)) == 3
    answer(state, Choose(index=2))
    assert state.seats[0].tracks[2] == [1]
    assert decision(state) == "invent"


def test_space_10_neuroscience_regresses_with_benefit() -> None:
    """Science 10, Neurosciences (tier IV): landmark 7; go back one space on military or
    technology and gain that space's benefit, bonus payable (military 3 -> 2, Bladed Weapons)."""
    state = at("science", 10)
    seat = state.seats[0]
    seat.tracks[3] = [3]
    events = enter(state, "science")
    assert [e.landmark for e in of(events, ev.LandmarkClaimed)] == [7]
    assert seat.resources == [5, 3, 5, 5]  # 2 workers
    place(state)
    answer(state, Choose(index=0))  # military
    assert seat.tracks[3] == [2] and len(seat.hand) == 1
    assert decision(state) == "bonus"
    answer(state, Decline())
    assert turn_passed(state)


def test_space_10_neuroscience_at_the_start_space_does_nothing() -> None:
    """Science 10, Neurosciences: a token on the start space cannot go back (nothing happens)."""
    state = at("science", 10)
    enter(state, "science")
    place(state)
    answer(state, Choose(index=1))  # technology, at 0
    assert state.seats[0].tracks[2] == [0]
    assert turn_passed(state)


def test_space_11_quantum_physics_advances_twice_with_benefits() -> None:
    """Science 11, Physique quantique: advance on one of three tracks with benefit, then again
    (the same track here: exploration 0 -> 1 Scouting, 1 -> 2 Rafts)."""
    state = at("science", 11)
    enter(state, "science")
    answer(state, Choose(index=0))
    answer(state, Choose(index=0))
    seat = state.seats[0]
    assert seat.tracks[0] == [2]
    assert decision(state) == "explore"  # Rafts, with the 2 Scouting tiles
    assert len(seat.territory) == 2


def test_space_12_alien_biology_four_rolls_and_five_vp_per_overflow() -> None:
    """Science 12, Biologie extraterrestre: roll 4 times and advance without benefit; 5 VP for
    each result that would take you past the end. With every other track complete, each of
    the 4 results is worth 5 VP (and science 12 completes a track: 10 VP)."""
    state = at("science", 12)
    seat = state.seats[0]
    seat.tracks = [[12], [11], [12], [12]]
    events = enter(state, "science")
    assert len(of(events, ev.ScienceDieRolled)) == 4
    assert [e.vp for e in of(events, ev.AchievementEarned)] == [10]
    assert seat.vp == 10 + 4 * 5
    assert seat.resources == [5, 3, 5, 5]
    assert turn_passed(state)


def test_space_12_alien_biology_advance_without_benefit() -> None:
    """Science 12, Biologie extraterrestre: a result on a track not at its end offers the
    advance, without the benefit (technology 0 -> 1 gives no invention)."""
    state = at("science", 12)
    seat = state.seats[0]
    seat.tracks = [[12], [11], [0], [12]]
    _enter_rolling(state, "technology")
    while decision(state) == "research":
        answer(state, Choose(index=0))
    assert seat.tracks[2][0] >= 1 and seat.tech == []
    assert turn_passed(state)


def test_research_past_the_end_does_nothing() -> None:
    """ "Recherche": a result whose track is complete moves nothing and gives nothing."""
    state = at("science", 1)
    state.seats[0].tracks[3] = [12]
    _enter_rolling(state, "military")
    assert state.seats[0].tracks[3] == [12] and state.seats[0].vp == 0
    assert turn_passed(state)


def test_research_bonus_of_the_reached_space_is_offered() -> None:
    """ "Recherche" without an X: gain the benefit and you may pay for the bonus (research from
    Chemistry onto technology 2, Carpentry: a card, then 1 resource for a market)."""
    state = at("science", 5)
    seat = state.seats[0]
    seat.tracks[2] = [1]
    _enter_rolling(state, "technology")
    answer(state, Choose(index=0))
    assert seat.tracks[2] == [2] and len(seat.hand) == 1
    assert decision(state) == "bonus"
    answer(state, PayBonus(payment=("culture",)))
    place(state)
    assert seat.taken[0] == 1 and seat.resources[3] == 4
    assert turn_passed(state)  # Chemistry's own bonus needs 2 cards: not offered
