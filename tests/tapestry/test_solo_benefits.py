"""The benefits, landmarks and achievements of the solo bots, one named test per rule of the
player aid ("RÈGLES SPÉCIFIQUES POUR L'AUTOMA ET L'EMPIRE", A: benefits; "MONUMENTS";
"OBJECTIFS").

Situations are built on a real solo game (setup events folded) and the bots' steps run through
the engine's own agenda (:class:`~domain.tapestry.engine.Ctx`), with recorded chance.
"""

from __future__ import annotations

from domain.tapestry import content as C
from domain.tapestry.rules import hex_at
from domain.tapestry.solo import AUTOMA, SHADOW
from domain.tapestry.solo import content as S
from domain.tapestry.solo import events as sev
from domain.tapestry.solo.bots import AUTOMA_BOT, SHADOW_BOT, automa_actions
from domain.tapestry.state import Frame, Outpost
from tests.tapestry.solo_helpers import bots_run, call, of, started, with_positions


# -- benefits, landmarks, achievements ------------------------------------------------------
def test_automa_benefits_are_only_the_listed_ones() -> None:
    """RÈGLES SPÉCIFIQUES, A: the Automa takes research, advances, tech refresh, a tapestry
    card, conquest and exploration, each once per space; never resources, buildings, VP or
    bonuses."""
    assert automa_actions("military", 1) == [("conquer", ())]
    assert automa_actions("military", 4) == []  # worker + VP: nothing
    assert [a for a, _ in automa_actions("exploration", 7)] == ["explore"]  # tiles: nothing
    assert [a for a, _ in automa_actions("technology", 7)] == ["refresh"]  # invent: nothing
    assert [a for a, _ in automa_actions("science", 2)] == ["tapestry"]
    assert automa_actions("science", 11) == [
        ("advance", ("advance_exploration", "advance_military", "advance_technology"))
    ]  # two choices printed: once
    assert [a for a, _ in automa_actions("science", 10)] == ["regress"]
    assert [a for a, _ in automa_actions("science", 1)] == ["research_no_benefit"]


def test_shadow_empire_gains_no_benefit() -> None:
    """RÈGLES SPÉCIFIQUES, A: the Shadow Empire never gains benefits (only landmarks)."""
    state = with_positions([0, 0, 0, 0], [0, 0, 0, 0], (0, 3))
    events = bots_run(state, Frame(kind="solo_advance", seat=0, ints=(SHADOW_BOT, 7, 10)))
    assert [type(e).__name__ for e in events] == ["ShadowEmpireAdvanced"]


def test_research_rolls_the_science_die() -> None:
    """RÈGLES SPÉCIFIQUES, A: research: roll the science die and advance there (no benefit
    with the X icon); a choice of tracks: roll until one of them shows."""
    state = with_positions([0, 4, 0, 0], [0, 0, 0, 0], (0, 3))
    events = bots_run(state, Frame(kind="solo_action", seat=0, token="research_no_benefit"))
    rolled = of(events, sev.AutomaDieRolled)[0]
    moved = of(events, sev.AutomaAdvanced)[0]
    assert moved.track == rolled.track and len(rolled.faces) == 1
    options = ("advance_exploration", "advance_military")
    events = bots_run(state, Frame(kind="solo_action", seat=0, token="advance", options=options))
    rolled = of(events, sev.AutomaDieRolled)[0]
    assert rolled.track in ("exploration", "military")
    assert all(C.SCIENCE_DIE[f] not in ("exploration", "military") for f in rolled.faces[:-1])


def test_landmark_taken_by_a_bot_goes_to_the_automa() -> None:
    """MONUMENTS: a landmark reached first by either bot goes to the Automa's income board;
    the human can no longer claim it."""
    state = with_positions([0, 0, 0, 3], [3, 0, 0, 0], (3, 0))
    events = bots_run(state, Frame(kind="solo_advance", seat=0, ints=(SHADOW_BOT, 7, 5)))
    claimed = of(events, sev.AutomaLandmarkClaimed)
    exploration_landmark = C.space("exploration", 4).landmark
    assert claimed and claimed[0].landmark == exploration_landmark
    assert claimed[0].by == "shadow_empire"
    assert state.solo is not None and exploration_landmark in state.solo.landmarks
    assert state.landmark_owner[str(exploration_landmark)] == AUTOMA


def test_track_completed_achievement_automa_scores_shadow_not() -> None:
    """OBJECTIFS: completing a track gives the Automa the achievement's VP; the Shadow Empire
    takes its place without VP."""
    state = with_positions([11, 0, 0, 0], [0, 0, 0, 11], (0, 3))
    events = bots_run(
        state,
        Frame(kind="solo_advance", seat=0, ints=(SHADOW_BOT, 3, 1)),  # closest to the end
        Frame(kind="solo_advance", seat=0, ints=(AUTOMA_BOT, 1, 1)),
    )
    shadow = of(events, sev.ShadowEmpireAchievementEarned)
    automa = of(events, sev.AutomaAchievementEarned)
    assert shadow and automa and automa[0].vp == 5  # second place: 10/5
    assert state.achievement_claims[str(automa[0].achievement)] == [SHADOW, AUTOMA]


def test_automa_topple_achievement_counts_human_outposts_only() -> None:
    """OBJECTIFS: the Automa earns "topple 2 outposts" with 2 toppled human outposts on its
    territories (Shadow Empire outposts do not count)."""
    from domain.tapestry.solo.bots import check_automa_achievements

    state = started()
    home = hex_at(state, *S.SETUP.automa_home)
    state.hexes[home].outposts.append(Outpost(seat=SHADOW, toppled=True))
    state.hexes[home].outposts.append(Outpost(seat=SHADOW, toppled=True))
    assert not of(call(state, check_automa_achievements), sev.AutomaAchievementEarned)
    state.hexes[home].outposts.append(Outpost(seat=0, toppled=True))
    state.hexes[home].outposts.append(Outpost(seat=0, toppled=True))
    earned = of(call(state, check_automa_achievements), sev.AutomaAchievementEarned)
    assert earned and C.ACHIEVEMENTS[earned[0].achievement].key == "topple_two_outposts"
