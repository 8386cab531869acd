"""Whole seeded solo games (the Automa and the Shadow Empire) and the 2-player Shadow Empire
variant: they finish with no exception, a fresh fold of the events equals the state held
during play, the human's legal actions are sound and complete on sampled states (every
listed command accepted, unlisted probes refused), the same seed gives the same events, and
undo never passes a revealed decision card (every draw is a ``REVEALS`` event).

``make long`` plays 300 games per level (1-6) with the random human and with the project's
Tapestry bot as the human (``ANNALES_SOLO_GAMES`` overrides the count).
"""

from __future__ import annotations

import os

import msgspec
import pytest

from domain.tapestry.solo import events as sev
from tests.tapestry.solo_helpers import GAME, play, refold, state_bytes
from tests.tapestry.test_play import check_sound

LONG_GAMES = int(os.environ.get("ANNALES_SOLO_GAMES", "300"))


def _checked(level: int, seed: int, bot: str = "random", every: int = 23) -> None:
    calls = {"n": 0}

    def check(state, seat, actions, game_seed, version) -> None:  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] % every == 0:
            check_sound(state, seat, actions, game_seed, version)

    state, log, _ = play(seed, level, bot, check=check)
    assert state.solo is not None and state.solo.finished and state.solo.income_turns == 5
    assert state.seats[0].finished and GAME.outcome(state) is not None
    assert state_bytes(refold(log, level)) == state_bytes(state)


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5, 6])
def test_solo_games_finish_refold_and_stay_sound(level: int) -> None:
    """Seeded solo games at every level finish; the fold is exact; legal actions sound."""
    for seed in range(2):
        _checked(level, seed)


def test_tapestry_bot_as_the_human() -> None:
    """The project's Tapestry bot plays a solo game through to the end."""
    state, log, _ = play(3, 2, "tapestry")
    assert state.phase == "over"
    assert state_bytes(refold(log)) == state_bytes(state)


def test_outcome_against_the_automa() -> None:
    """The human wins by beating the Automa's score; the Automa is a non-seat party."""
    for seed in range(4):
        state, _, _ = play(seed, 1, "tapestry")
        outcome = GAME.outcome(state)
        assert outcome is not None and state.solo is not None
        (party,) = GAME.parties(state)
        assert party.name == "Automa" and party.score == state.solo.vp
        human_won = state.seats[0].vp > state.solo.vp
        assert outcome.winners == ((0,) if human_won else ())
        assert party.winner == (not human_won)


def test_same_seed_same_events() -> None:
    """Determinism: the same seed and choices give byte-identical events."""
    first = play(11, 3)[1]
    second = play(11, 3)[1]
    assert [msgspec.msgpack.encode(e) for e in first] == [msgspec.msgpack.encode(e) for e in second]


def test_every_chance_outcome_is_a_revealing_event() -> None:
    """Undo never passes a decision card, die roll, tile or card drawn for the bots."""
    assert sev.AutomaDecisionDrawn.REVEALS and sev.AutomaDieRolled.REVEALS
    assert sev.AutomaTileExplored.REVEALS and sev.AutomaTapestryDrawn.REVEALS
    assert sev.AutomaPrepared.REVEALS and sev.ShadowEmpirePrepared.REVEALS
    assert sev.AutomaCivilizationAdded.REVEALS and sev.AutomaPriorityDrawn.REVEALS
    assert not sev.AutomaAdvanced.REVEALS


def test_shadow_empire_two_player_variant() -> None:
    """The 2-player Shadow Empire variant: the Shadow Empire plays once per round with cards
    1-12, scores nothing, and the seats' outcome is the usual one."""
    options = {"shadow_empire": True}
    state, log, _ = play(4, seats=2, options=options)
    solo = state.solo
    assert solo is not None and not solo.automa and solo.finished
    assert solo.vp == 0 and GAME.parties(state) == ()
    assert any(isinstance(e, sev.ShadowEmpireAdvanced) for e in log)
    assert not any(isinstance(e, sev.AutomaAdvanced) for e in log)
    assert state_bytes(refold(log, seats=2, options=options)) == state_bytes(state)


def test_view_shows_the_bots_and_hides_their_cards() -> None:
    """The bots' boards are in every view; the Automa's face-down tapestry cards are not."""
    from domain.tapestry.solo.view import redact_solo

    state, log, _ = play(6, 2)
    view = GAME.view(state, None)
    assert view.solo is not None and len(view.solo.bots) == 2
    assert view.solo.vp == state.solo.vp  # type: ignore[union-attr]
    playing = refold([e for e in log if type(e).__name__ != "GameEnded"], 2)
    playing.phase = "play"
    drawn = [e for e in log if isinstance(e, sev.AutomaTapestryDrawn)]
    assert drawn
    for event in drawn:
        hidden = redact_solo(playing, event)
        assert isinstance(hidden, sev.AutomaTapestryDrawn) and hidden.cards == ()
    mid = GAME.view(playing, 0)
    assert mid.solo is not None and mid.solo.tapestry == ()
    assert all(card == 0 for card in mid.solo.mat)


@pytest.mark.long
@pytest.mark.parametrize("bot", ["random", "tapestry"])
@pytest.mark.parametrize("level", [1, 2, 3, 4, 5, 6])
def test_many_solo_games(level: int, bot: str) -> None:
    """The long run: ``LONG_GAMES`` seeded solo games per level and human bot."""
    for seed in range(LONG_GAMES):
        _checked(level, 1000 + seed, bot, every=97)
