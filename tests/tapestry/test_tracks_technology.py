"""The 12 spaces of the TECHNOLOGY track, one test (or more) per space.

Rulebook: "Guide des pistes / TECHNOLOGIE", "Invention" (a face-up card, replaced at once, or
the deck's top card; into the bottom row), "Amélioration" (bottom -> middle: circle; middle ->
top: square if you or a neighbour meets the requirement), F.À.Q. "Électronique" (the circle of
the card just upgraded may be taken), "Singularité d'IA" (the track still counts as complete,
12 points), "Tours de développement" (landmarks for the first into tiers II-IV).
Tech cards used: 8 Calendar (circle 1 culture; square 7 VP, exploration II), 9 Canned Food
(circle 1 food; square 7 VP, military II), 10 Clocks.
"""

from __future__ import annotations

from domain.tapestry import events as ev
from domain.tapestry.commands import Choose, ChooseTech, Decline, Invent, PayBonus, Upgrade
from domain.tapestry.state import TechOwned
from tests.tapestry.helpers import decision, of
from tests.tapestry.test_tracks_support import (
    answer,
    at,
    enter,
    options,
    place,
    turn_passed,
)


def test_space_1_pottery_invents_a_face_up_card_and_refills() -> None:
    """Technology 1, Poterie: invent a face-up card (replaced at once) or the deck's top card;
    it goes to the bottom row."""
    state = at("technology", 1)
    display = sorted(state.tech_display)
    enter(state, "technology")
    assert decision(state) == "invent"
    assert options(state) == [*(Invent(card=c) for c in display), Invent(card=0)]
    events = answer(state, Invent(card=display[1]))
    seat = state.seats[0]
    assert [(t.card, t.row) for t in seat.tech] == [(display[1], 0)]
    assert len(state.tech_display) == 3 and display[1] not in state.tech_display
    assert len(of(events, ev.TechDisplayFilled)[0].cards) == 1
    assert seat.resources == [4, 5, 5, 5]
    assert turn_passed(state)


def test_space_1_pottery_from_the_deck_keeps_the_display() -> None:
    """Technology 1, Poterie: the deck's top card leaves the 3 face-up cards in place."""
    state = at("technology", 1)
    display = list(state.tech_display)
    enter(state, "technology")
    events = answer(state, Invent(card=0))
    invented = of(events, ev.TechInvented)[0]
    assert invented.from_deck and invented.card not in display
    assert state.tech_display == display


def test_space_2_carpentry_card_and_market_bonus() -> None:
    """Technology 2, Charpenterie: 1 tapestry card; pay 1 resource for 1 market."""
    state = at("technology", 2)
    enter(state, "technology")
    seat = state.seats[0]
    assert len(seat.hand) == 1 and decision(state) == "bonus"
    answer(state, PayBonus(payment=("worker",)))
    place(state)
    assert seat.taken == [1, 0, 0, 0] and seat.resources == [4, 4, 5, 5]
    assert turn_passed(state)


def test_space_3_stone_tools_invent_or_market() -> None:
    """Technology 3, Outils en pierre: invent OR 1 market."""
    state = at("technology", 3)
    enter(state, "technology")
    answer(state, Choose(index=1))
    place(state)
    assert state.seats[0].taken[0] == 1 and state.seats[0].tech == []
    assert turn_passed(state)

    state = at("technology", 3)
    enter(state, "technology")
    answer(state, Choose(index=0))
    answer(state, Invent(card=0))
    assert len(state.seats[0].tech) == 1 and state.seats[0].taken[0] == 0


def test_space_4_metallurgy_landmark_optional_refresh_then_invent() -> None:
    """Technology 4, Métallurgie (tier II): landmark 10; you may discard the 3 face-up cards
    and replace them, then invent."""
    state = at("technology", 4)
    old = list(state.tech_display)
    events = enter(state, "technology")
    assert [e.landmark for e in of(events, ev.LandmarkClaimed)] == [10]
    assert state.seats[0].resources == [5 - 2, 5, 5, 5]  # 1 coin + 1 any (a coin)
    place(state)
    assert decision(state) == "order"
    answer(state, Choose(index=0))  # the refresh first
    assert decision(state) == "choose"
    events = answer(state, Choose(index=0))  # do refresh
    assert of(events, ev.TechDisplayCleared)[0].cards == tuple(old)
    assert sorted(state.tech_discard) == sorted(old)
    assert not set(state.tech_display) & set(old) and len(state.tech_display) == 3
    fresh = sorted(state.tech_display)
    assert options(state)[:3] == [Invent(card=c) for c in fresh]
    answer(state, Invent(card=fresh[0]))
    assert [t.card for t in state.seats[0].tech] == [fresh[0]]


def test_space_4_metallurgy_refresh_declined() -> None:
    """Technology 4, Métallurgie: the refresh is optional."""
    state = at("technology", 4)
    old = list(state.tech_display)
    enter(state, "technology")
    place(state)
    answer(state, Choose(index=0))
    answer(state, Choose(index=1))  # no refresh
    assert state.tech_display == old and state.tech_discard == []
    assert decision(state) == "invent"


def test_space_5_glass_one_building_then_pay_to_upgrade() -> None:
    """Technology 5, Verre: 1 farm, house or armory; pay 1 resource to upgrade a tech card
    (Calendar to the middle row: its circle, 1 culture)."""
    state = at("technology", 5)
    seat = state.seats[0]
    seat.tech = [TechOwned(card=8)]
    enter(state, "technology")
    assert options(state) == [Choose(index=0), Choose(index=1), Choose(index=2)]
    answer(state, Choose(index=2))  # armory
    place(state)
    assert seat.taken == [0, 0, 0, 1]
    answer(state, PayBonus(payment=("food",)))
    assert [(t.card, t.row) for t in seat.tech] == [(8, 1)]
    assert seat.resources == [3, 5, 4, 5 + 1]
    assert turn_passed(state)


def test_space_6_steel_market_vp_per_armory_and_invent_bonus() -> None:
    """Technology 6, Acier: 1 market and 1 VP per armory; pay 1 resource to invent (reference
    reading, crosscheck T2)."""
    state = at("technology", 6)
    seat = state.seats[0]
    seat.taken = [0, 0, 0, 2]
    enter(state, "technology")
    place(state)
    assert seat.taken == [1, 0, 0, 2] and seat.vp == 2
    answer(state, PayBonus(payment=("coin",)))
    answer(state, Invent(card=0))
    assert len(seat.tech) == 1 and seat.resources == [2, 5, 5, 5]


def test_space_7_rubber_landmark_refresh_and_two_inventions() -> None:
    """Technology 7, Caoutchouc (tier III): landmark 8; optional refresh; invent 2 cards, one
    at a time."""
    state = at("technology", 7)
    events = enter(state, "technology")
    assert [e.landmark for e in of(events, ev.LandmarkClaimed)] == [8]
    assert state.seats[0].resources == [5 - 3, 5, 5, 5]
    place(state)
    answer(state, Choose(index=1))  # invent first
    answer(state, Invent(card=0))
    answer(state, Invent(card=sorted(state.tech_display)[0]))
    assert len(state.seats[0].tech) == 2
    assert decision(state) == "choose"  # the optional refresh, last
    answer(state, Choose(index=1))
    assert turn_passed(state)


def test_space_8_plastic_market_vp_per_market_and_upgrade_bonus() -> None:
    """Technology 8, Plastique: 1 market then 1 VP per market; pay 1 resource to upgrade."""
    state = at("technology", 8)
    seat = state.seats[0]
    seat.taken = [2, 0, 0, 0]
    seat.tech = [TechOwned(card=9)]
    enter(state, "technology")
    place(state)
    assert seat.vp == 3
    answer(state, PayBonus(payment=("culture",)))
    assert [(t.card, t.row) for t in seat.tech] == [(9, 1)]
    assert seat.resources == [2, 5, 5 + 1, 4]


def test_space_9_electronics_upgrade_then_circle_of_the_same_card() -> None:
    """Technology 9, Électronique: in any order, upgrade a tech card and gain the circle of a
    middle-row card; F.À.Q.: it may be the card just upgraded (Calendar: 1 culture twice)."""
    state = at("technology", 9)
    seat = state.seats[0]
    seat.tech = [TechOwned(card=8)]
    enter(state, "technology")
    assert decision(state) == "order"
    answer(state, Choose(index=0))  # upgrade first (the only card: no choice)
    assert [(t.card, t.row) for t in seat.tech] == [(8, 1)]
    assert seat.resources == [2, 5, 5, 5 + 2]
    assert turn_passed(state)


def test_space_9_electronics_circle_first_picks_among_middle_row() -> None:
    """Technology 9, Électronique: circle first, chosen among the middle-row cards."""
    state = at("technology", 9)
    seat = state.seats[0]
    seat.tech = [TechOwned(card=8, row=1), TechOwned(card=9, row=1)]
    enter(state, "technology")
    answer(state, Choose(index=1))
    assert decision(state) == "tech_pick"
    assert options(state) == [ChooseTech(card=8), ChooseTech(card=9)]
    answer(state, ChooseTech(card=9))
    assert seat.resources[2] == 6
    # the upgrade: both cards are in the middle row and neither requirement is met by the
    # seat or its neighbour, so there is nothing to upgrade and the turn ends
    assert [(t.card, t.row) for t in seat.tech] == [(8, 1), (9, 1)]
    assert turn_passed(state)


def test_space_10_computers_landmark_vp_per_science_and_military_space() -> None:
    """Technology 10, Ordinateurs (tier IV): landmark 1; 1 VP per space on science and on
    military."""
    state = at("technology", 10)
    seat = state.seats[0]
    seat.tracks[1] = [5]
    seat.tracks[3] = [2]
    events = enter(state, "technology")
    assert [e.landmark for e in of(events, ev.LandmarkClaimed)] == [1]
    assert seat.resources == [3, 5, 5, 5]  # 2 coins
    place(state)
    assert seat.vp == 7
    assert turn_passed(state)


def test_space_11_nanotechnology_upgrade_square_and_discard_three_tech_bonus() -> None:
    """Technology 11, Nanotechnologie: in any order, upgrade a tech card and gain the square of
    a top-row card; discard 3 tech cards for 10 VP (base board)."""
    state = at("technology", 11)
    seat = state.seats[0]
    seat.tracks[0] = [4]  # Calendar's top-row requirement: exploration II
    seat.tech = [TechOwned(card=8, row=1), TechOwned(card=9, row=2), TechOwned(card=10)]
    enter(state, "technology")
    answer(state, Choose(index=1))  # square of a top-row card first: Canned Food, 7 VP
    assert seat.vp == 7
    assert decision(state) == "upgrade"
    assert options(state) == [Upgrade(card=8), Upgrade(card=10)]
    answer(state, Upgrade(card=8))  # to the top row: 7 VP
    assert seat.vp == 14
    assert decision(state) == "bonus"
    assert options(state) == [PayBonus(discard=(8, 9, 10)), Decline()]
    events = answer(state, PayBonus(discard=(8, 9, 10)))
    assert of(events, ev.TechDiscarded)[0].cards == (8, 9, 10)
    assert seat.tech == [] and seat.vp == 24
    assert turn_passed(state)


def test_space_12_ai_singularity_resources_restart_and_track_stays_complete() -> None:
    """Technology 12, Singularité d'IA: 1 resource of each type; the token leaves the track and
    restarts on the start space of any track; the track still counts as complete (the
    achievement, and 12 spaces for scoring, F.À.Q.)."""
    state = at("technology", 12)
    seat = state.seats[0]
    seat.tracks[0] = [5]
    events = enter(state, "technology")
    assert [e.vp for e in of(events, ev.AchievementEarned)] == [10]
    assert seat.resources == [5 - 2 + 1, 6, 6, 6]
    assert decision(state) == "track"
    assert options(state) == [Choose(index=t) for t in range(4)]
    answer(state, Choose(index=0))
    assert seat.tracks[2] == [] and seat.tracks[0] == [5, 0]
    assert seat.position(2) == 12 and seat.position(0) == 5
    assert seat.completed[2]
    assert turn_passed(state)
