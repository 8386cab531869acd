"""The solo bots' income turns and the difficulty levels, one named test per rule of the player
aid ("TOUR REVENUS AUTOMA": VP multipliers, favourite changes, the fifth income turn;
"Difficulté": what each level adds; the Automa civilization cards).

Situations are built on a real solo game (setup events folded) and the bots' steps run through
the engine's own agenda (:class:`~domain.tapestry.engine.Ctx`), with recorded chance.
"""

from __future__ import annotations

from domain.core import Event
from domain.tapestry.solo import content as S
from domain.tapestry.solo import events as sev
from domain.tapestry.solo.income import income_frames, income_vp
from domain.tapestry.state import Frame
from tests.tapestry.solo_helpers import bots_run, of, started, with_positions


# -- income turns and levels ----------------------------------------------------------------
def test_income_vp_multipliers() -> None:
    """TOUR REVENUS AUTOMA: VP per landmark and territory, per space on military and science,
    per space on technology and exploration, with the multipliers of the income turn."""
    state = with_positions([2, 3, 4, 5], [0, 0, 0, 0], (0, 1))
    assert state.solo is not None
    state.solo.landmarks = [1, 2]
    territories = 1  # the start territory
    for era in (2, 3, 4, 5):
        m = S.MULTIPLIERS["normal", era]
        expected = (
            m.landmark_territory * (2 + territories)
            + m.military_science * (5 + 3)
            + m.technology_exploration * (4 + 2)
        )
        assert income_vp(state, era) == expected
    assert income_vp(state, 2) == 3 + 0 + 6


def _income_events(level: int, era: int, seed: bytes = b"inc") -> list[Event]:
    state = started(b"levels", level)
    assert state.solo is not None
    state.solo.income_turns = era - 1
    state.solo.last_pair = [7, 1]
    return bots_run(state, *income_frames(era, level), seed=seed)


def test_level_differences() -> None:
    """Difficulté: level 1 draws no tapestry card and uses no civilization ability; level 2
    does; levels 3-4 also advance both bots again and add 2 more progress cards."""
    one, two, three = (_income_events(level, 3) for level in (1, 2, 3))
    assert not of(one, sev.AutomaTapestryDrawn) and of(two, sev.AutomaTapestryDrawn)
    assert not of(two, sev.AutomaAdvanced) and of(three, sev.AutomaAdvanced)
    added = [sum(e.count for e in of(x, sev.AutomaProgressAdded)) for x in (one, two, three)]
    assert added == [2, 2, 4]
    assert of(_income_events(4, 3), sev.AutomaAdvanced)


def test_income_turn_five_ends_the_bots_game() -> None:
    """After their fifth income turn the bots' game is over (no card to the income board,
    no progress cards, no shuffle)."""
    events = _income_events(2, 5)
    assert of(events, sev.AutomaFinished)
    assert not of(events, sev.AutomaTapestryPlaced) and not of(events, sev.AutomaDecisionShuffled)


def test_favorite_changes_when_overtaken() -> None:
    """TOUR REVENUS, step 1: a bot whose favourite track is finished or overtaken by another
    token changes favourite."""
    state = with_positions([0, 0, 5, 0], [0, 0, 0, 0], (2, 3))
    state.seats[0].tracks[2] = [6]
    assert state.solo is not None
    state.solo.last_pair = [7, 1]
    events = bots_run(state, Frame(kind="solo_income", seat=0, ints=(1, 2)))
    changed = of(events, sev.AutomaFavoriteChanged)
    assert changed and changed[0].track != "technology"
    assert not of(events, sev.ShadowEmpireFavoriteChanged)  # military: nobody ahead


def test_automa_civilization_abilities() -> None:
    """Automa civilization cards: Engineers score 1 VP per landmark at income turns 2-5."""
    state = started(b"civ")
    assert state.solo is not None
    state.solo.civilization = 4
    state.solo.landmarks = [1, 2, 3]
    events = bots_run(state, Frame(kind="solo_income", seat=0, ints=(7, 2)))
    assert [e.vp for e in of(events, sev.AutomaScored)] == [3]
