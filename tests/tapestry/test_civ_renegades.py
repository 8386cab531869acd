"""Renegades (Renégats, Arts & Architecture): a private four-tier track taken in place of a
space's benefit.

Sources: facts folder ``civilizations.json#24`` (instead of a track space's benefit and
bonus, advance on the Renegades track into the tier you are entering and take its reward;
landmarks still claimed; the last tier counts for the complete-a-track achievement), rulebook
"RÉÉQUILIBRAGE DES CIVILISATIONS" (RENÉGATS: "Pas de changement"), "Objectifs".
"""

from __future__ import annotations

from domain.tapestry import civ_renegades as ren
from domain.tapestry import civs
from domain.tapestry import events as ev
from domain.tapestry.civs import civ_id
from domain.tapestry.commands import Advance, Choose, Decline
from domain.tapestry.state import TapestryState
from tests.tapestry.box_civ_helpers import boxed_start, play_boxed
from tests.tapestry.helpers import act, decision, of, table
from tests.tapestry.test_cards_support import answer, options, vp_of

KEY = "renegades"


def renegade(tier: int = 0) -> TapestryState:
    """Seat 0 holds the Renegades with the token on ``tier`` and 5 of each resource."""
    state = table(2)
    state.seats[0].civs = [civ_id(KEY)]
    state.seats[0].resources = [5, 5, 5, 5]
    state.seats[0].civ_tokens[KEY] = [tier]
    return state


def advance(state: TapestryState, track: str) -> list[ev.Event]:
    """Seat 0 takes an advance turn on ``track`` (first payment offered)."""
    command = next(c for c in options(state) if isinstance(c, Advance) and c.track == track)
    return act(state, 0, command)


def until_renegades(state: TapestryState) -> list[ev.Event]:
    """Place any landmark claimed (it comes first) until the Renegades choice is asked."""
    events: list[ev.Event] = []
    while decision(state) == "place_building":
        events += answer(state, options(state)[0])
    return events


def test_entering_tier_one_offers_the_renegades_track() -> None:
    """Facts ``#24``: from the start, advancing into tier I (Science 1, Astronomy) offers
    the Renegades track instead of the space."""
    state = renegade()
    advance(state, "science")
    assert decision(state) == ren.DECISION
    assert options(state) == [Choose(index=0), Decline()]


def test_taking_the_renegades_reward_skips_the_space() -> None:
    """Taking it: the token reaches tier I, whose reward is a tapestry card and an income
    building; Astronomy's research is not taken."""
    state = renegade()
    events = advance(state, "science")
    events += answer(state, Choose(index=0))
    while state.current == 0 and decision(state) != "turn":
        events += answer(state, options(state)[0])
    assert ren.tier(state, 0) == 1
    assert of(events, ev.TapestryDrawn) and of(events, ev.BuildingTaken)
    assert not of(events, ev.ScienceDieRolled)


def test_declining_gives_the_space() -> None:
    """Declining: the space's own benefit (Astronomy: research, the die rolls)."""
    state = renegade()
    events = advance(state, "science")
    events += answer(state, Decline())
    while state.current == 0 and decision(state) != "turn":
        events += answer(state, options(state)[0])
    assert ren.tier(state, 0) == 0
    assert of(events, ev.ScienceDieRolled)


def test_only_the_tier_just_above_the_token() -> None:
    """Facts ``#24``: "the same tier you are entering": with the token on tier I, a tier I
    space offers nothing, a tier II space does."""
    state = renegade(tier=1)
    advance(state, "science")
    assert decision(state) != ren.DECISION
    state = renegade(tier=1)
    state.seats[0].tracks[1] = [3]
    advance(state, "science")
    until_renegades(state)
    assert decision(state) == ren.DECISION


def test_last_tier_scores_twenty_and_the_track_achievement() -> None:
    """Tier IV: 20 VP, and it counts as a completed track ("Objectifs")."""
    state = renegade(tier=3)
    state.seats[0].tracks[0] = [9]
    events = advance(state, "exploration")
    events += until_renegades(state)
    events += answer(state, Choose(index=0))
    assert vp_of(events, 0, "civ:renegades") == 20
    assert of(events, ev.AchievementEarned)
    assert ren.tier(state, 0) == ren.TOP == 4


def test_landmarks_still_claimed() -> None:
    """Facts ``#24``: landmarks are still claimed when the Renegades reward is taken
    (Science 4, first space of tier II, comes with its landmark)."""
    state = renegade(tier=1)
    state.seats[0].tracks[1] = [3]
    events = advance(state, "science")
    events += until_renegades(state)
    events += answer(state, Choose(index=0))
    assert of(events, ev.LandmarkClaimed) and ren.tier(state, 0) == 2


def test_no_rebalancing() -> None:
    """ "RÉÉQUILIBRAGE DES CIVILISATIONS": RENÉGATS, "Pas de changement"."""
    state, _ = boxed_start(KEY, 2, b"ren")
    assert state.seats[0].civs == [civ_id(KEY)]
    assert civs.setup_frames(state, 0) == []


def test_seeded_games_with_starting_renegades_finish() -> None:
    """ "Fin de la partie": whole random games with starting Renegades end; the token only
    climbs, one tier at a time."""
    for seats, seed in ((2, 1), (3, 2), (5, 3)):
        state, log = play_boxed(KEY, seats, seed)
        assert all(s.finished for s in state.seats)
        tiers = [e.values[0] for e in of(log, ev.CivTokensSet) if e.key == KEY]
        assert tiers == list(range(1, len(tiers) + 1))
