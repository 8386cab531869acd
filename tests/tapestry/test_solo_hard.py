"""Solo Tapestry, difficulty levels 5 and 6: the hard side of the Automa board.

Sources (``domain/tapestry/content/automa.json``, records ``levels/5``, ``levels/6``,
``multipliers/hard/*`` and decisions ``solo_hard_side``, ``solo_first_income_priority``): the
reference's ``difficulty_levels`` and ``income_vp_multipliers.hard_levels_5_6``, its income
sequence (step 8: 2 more progress cards again at levels 5+), and the player aid's sections
"MISE EN PLACE POUR LE BOT AUTOMA" (the civilization card, "Difficulté") and "TOUR REVENUS
AUTOMA" (the multipliers, "au 1er tour piocher et utiliser 1 carte Progrès").
"""

from __future__ import annotations

from domain.tapestry.solo import content as S
from domain.tapestry.solo import events as sev
from domain.tapestry.solo.income import income_frames, income_vp
from domain.tapestry.state import TRACK_IDS, Frame
from tests.tapestry.solo_helpers import (
    GAME,
    bots_run,
    new_solo,
    of,
    play,
    refold,
    started,
    state_bytes,
)


def test_levels_five_and_six_use_the_hard_side() -> None:
    """Difficulté: ``automa_level`` accepts 1 to 6; levels 5 and 6 are the hard side of the
    Automa board (reference ``difficulty_levels``), 1-4 the normal side."""
    for level in range(1, 7):
        options = GAME.decode_options({"automa_level": level})
        assert options.automa_level == level
        expected = "hard" if level >= 5 else "normal"
        assert S.LEVELS[level].mat_side == expected, level
    assert [S.LEVELS[level].name for level in (5, 6)] == [
        "Automa the Definitely Awesome",
        "Automa the Crusher of Dreams",
    ]


def test_level_six_setup_adds_a_second_civilization_card() -> None:
    """MISE EN PLACE POUR LE BOT AUTOMA, 4 (a civilization card at random) and level 6
    (reference: an extra civilization card, its favourite track ignored): the second card
    differs from the first, the favourite track stays the first card's."""
    seen: set[int] = set()
    for index in range(12):
        state, events = new_solo(f"hard-setup-{index}".encode(), 6)
        prepared = of(events, sev.AutomaPrepared)[0]
        added = of(events, sev.AutomaCivilizationAdded)
        assert prepared.level == 6 and len(added) == 1
        assert added[0].civilization != prepared.civilization
        assert added[0].civilization in S.CIVILIZATIONS
        assert state.solo is not None
        assert state.solo.extra_civilizations == [added[0].civilization]
        favorite = TRACK_IDS[state.solo.bots[0].favorite]
        assert favorite == S.CIVILIZATIONS[prepared.civilization].favorite
        view = GAME.view(state, 0)
        assert view.solo is not None
        assert view.solo.extra_civilizations == (added[0].civilization,)
        seen.add(added[0].civilization)
    assert len(seen) > 1
    for level in (2, 5):
        _, events = new_solo(b"hard-setup", level)
        assert not of(events, sev.AutomaCivilizationAdded), level


def test_hard_side_income_multipliers() -> None:
    """TOUR REVENUS AUTOMA, multipliers: levels 5-6 score with the hard side's rows
    (reference ``income_vp_multipliers.hard_levels_5_6``): more VP than the normal side from
    income turn 3 on, the same at income turn 2."""
    totals: dict[str, list[int]] = {}
    for level, side in ((2, "normal"), (5, "hard"), (6, "hard")):
        state = started(b"hard-mult", level)
        assert state.solo is not None
        state.solo.bots[0].tracks = [2, 3, 4, 5]  # exploration, science, technology, military
        state.solo.landmarks = [1, 2]
        holdings = 2 + 1  # two landmarks, the start territory
        row = []
        for era in (2, 3, 4, 5):
            m = S.MULTIPLIERS[side, era]
            expected = (
                m.landmark_territory * holdings
                + m.military_science * (5 + 3)
                + m.technology_exploration * (4 + 2)
            )
            assert income_vp(state, era) == expected, (level, era)
            row.append(expected)
        totals[side] = row
    normal, hard = totals["normal"], totals["hard"]
    assert hard[0] == normal[0] and all(h > n for h, n in zip(hard[1:], normal[1:], strict=True))


def _income(level: int, era: int) -> list[object]:
    state = started(b"hard-income", level)
    assert state.solo is not None
    state.solo.income_turns = era - 1
    state.solo.last_pair = [7, 1]
    return list(bots_run(state, *income_frames(era, level), seed=b"hard-inc"))


def test_hard_levels_add_more_progress_cards() -> None:
    """TOUR REVENUS AUTOMA, progress cards (reference income sequence, step 8): every level
    adds 2 at income turns 2-4; levels 3-4 add 2 more at turns 3-4, levels 5-6 4 more."""
    for level, at_two, at_three in ((2, 2, 2), (3, 2, 4), (4, 2, 4), (5, 2, 6), (6, 2, 6)):
        added = [
            sum(e.count for e in of(_income(level, era), sev.AutomaProgressAdded)) for era in (2, 3)
        ]
        assert added == [at_two, at_three], level


def test_level_six_uses_both_civilization_abilities() -> None:
    """Level 6: the income ability of the extra civilization card applies after the first
    card's (Engineers: 1 VP per landmark; Scientists: research from income turn 3)."""
    state = started(b"hard-civs", 6)
    assert state.solo is not None
    state.solo.civilization, state.solo.extra_civilizations = 2, [4]  # Scientists, Engineers
    state.solo.landmarks = [1, 2, 3]
    events = bots_run(state, Frame(kind="solo_income", seat=0, ints=(7, 3)), seed=b"civs")
    assert [e.vp for e in of(events, sev.AutomaScored)] == [3]  # Engineers' landmarks
    assert of(events, sev.AutomaDieRolled)  # Scientists' research
    state.solo.extra_civilizations = []
    alone = bots_run(state, Frame(kind="solo_income", seat=0, ints=(7, 3)), seed=b"civs")
    assert not of(alone, sev.AutomaScored)


def test_first_income_turn_advances_at_levels_five_and_six() -> None:
    """First income turn (levels 5-6): a progress card is drawn as the turn's priority card
    ("au 1er tour piocher et utiliser 1 carte Progrès"); level 5 moves each bot once on its
    favourite track, level 6 each bot once on every track; levels 1-4 draw nothing."""
    for level in (2, 4):
        events = _income(level, 1)
        assert not of(events, sev.AutomaPriorityDrawn) and not of(events, sev.AutomaAdvanced)
    five = _income(5, 1)
    drawn = of(five, sev.AutomaPriorityDrawn)
    assert len(drawn) == 1 and S.DECISION_CARDS[drawn[0].card].deck == "progress"
    automa = [e for e in of(five, sev.AutomaAdvanced) if e.origin == 0]
    shadow = of(five, sev.ShadowEmpireAdvanced)
    assert len(shadow) == 1 and automa
    six = _income(6, 1)
    assert len(of(six, sev.AutomaPriorityDrawn)) == 1
    assert sorted(e.track for e in of(six, sev.ShadowEmpireAdvanced)) == sorted(TRACK_IDS)
    first_moves = {e.track for e in of(six, sev.AutomaAdvanced) if e.origin == 0}
    assert first_moves == set(TRACK_IDS)


def test_seeded_hard_games_finish_and_fold() -> None:
    """A seeded game at each hard level ends, the Automa scoring; a fresh fold of its events
    gives the same state."""
    for level in (5, 6):
        state, log, _ = play(7, level=level)
        assert GAME.is_over(state) and state.solo is not None and state.solo.finished
        assert state.solo.vp > 0
        assert state_bytes(refold(log, level)) == state_bytes(state)


def test_priority_card_goes_back_to_the_progress_deck() -> None:
    """The first income turn's priority card is shuffled back into the progress deck ("puis
    la remélanger"): the face-down progress card of the decision deck is another one, so no
    pair drawn before progress cards are added shows it."""
    for seed in range(30):  # without the rule, seeds 52, 57 and 64 show it
        _, log, _ = play(40 + seed, level=5)
        (priority,) = [e.card for e in of(log, sev.AutomaPriorityDrawn)]
        before: list[int] = []
        for event in log:
            if isinstance(event, sev.AutomaProgressAdded):
                break
            if isinstance(event, sev.AutomaDecisionDrawn):
                before += [event.left, event.right]
        assert before and priority not in before
        assert any(card >= 8 for card in before)  # the face-down progress card was drawn
