"""Folding the bots' events into the state (called by :func:`domain.tapestry.evolve.evolve`).

Total, never draws: each event carries its outcome.
"""

from __future__ import annotations

from typing import Any, get_args

from domain.tapestry.solo import AUTOMA, SHADOW
from domain.tapestry.solo import events as sev
from domain.tapestry.solo.state import SoloState
from domain.tapestry.state import TRACK_IDS, Outpost, TapestryState


def _track(name: str) -> int:
    return TRACK_IDS.index(name) if name in TRACK_IDS else -1


def _setup(state: TapestryState, event: Any) -> None:
    if isinstance(event, sev.AutomaPrepared):
        solo = SoloState(
            automa=event.automa,
            level=event.level,
            civilization=event.civilization,
            first=event.first,
            deck=list(event.deck),
            hidden=event.hidden,
            progress=list(event.progress),
        )
        solo.bots[0].favorite = _track(event.favorite)
        state.solo = solo
        if 0 <= event.home < len(state.hexes):
            for _ in range(event.outposts):
                state.hexes[event.home].outposts.append(Outpost(seat=AUTOMA))
    elif isinstance(event, sev.ShadowEmpirePrepared) and state.solo is not None:
        state.solo.bots[1].favorite = _track(event.favorite)


def _move(solo: SoloState, bot: int, name: str, to: int) -> None:
    track = _track(name)
    if track >= 0:
        board = solo.bots[bot]
        board.tracks[track] = to
        if to >= 12 and track not in board.completed:
            board.completed.append(track)


def _decks(solo: SoloState, event: Any) -> None:
    if isinstance(event, sev.AutomaDecisionDrawn):
        solo.discard.extend(solo.pair)
        solo.pair = []
        for card in (event.left, event.right):
            if card in solo.deck:
                solo.deck.remove(card)
            elif card in solo.progress:
                solo.progress.remove(card)
                solo.hidden = max(0, solo.hidden - 1)
            solo.pair.append(card)
        solo.last_pair = list(solo.pair)
    elif isinstance(event, sev.AutomaProgressAdded):
        solo.discard_hidden += event.count
        solo.not_hidden = []
    elif isinstance(event, sev.AutomaDecisionShuffled):
        solo.deck.extend([*solo.discard, *solo.pair])
        solo.hidden += solo.discard_hidden
        solo.discard, solo.pair, solo.discard_hidden = [], [], 0
        solo.deck.sort()
    elif isinstance(event, sev.AutomaTurnStarted):
        solo.played_turn = event.turn
    elif isinstance(event, sev.AutomaIncomeTurnStarted):
        solo.income_turns = event.era
    elif isinstance(event, sev.AutomaFinished):
        solo.finished = True
    elif isinstance(event, sev.AutomaPriorityDrawn):
        solo.last_pair = [event.card, event.card]
        solo.not_hidden = [event.card]
    elif isinstance(event, sev.AutomaTiebreakDrawn):
        if event.card not in solo.not_hidden:
            solo.not_hidden = sorted([*solo.not_hidden, event.card])
    elif isinstance(event, sev.AutomaCivilizationAdded):
        solo.extra_civilizations.append(event.civilization)


def _boards(state: TapestryState, solo: SoloState, event: Any) -> None:
    if isinstance(event, sev.AutomaAdvanced):
        _move(solo, 0, event.track, event.to)
    elif isinstance(event, sev.ShadowEmpireAdvanced):
        _move(solo, 1, event.track, event.to)
    elif isinstance(event, sev.AutomaFavoriteChanged):
        solo.bots[0].favorite = _track(event.track)
    elif isinstance(event, sev.ShadowEmpireFavoriteChanged):
        solo.bots[1].favorite = _track(event.track)
    elif isinstance(event, sev.AutomaLandmarkClaimed):
        owner = AUTOMA if solo.automa else SHADOW
        state.landmark_owner[str(event.landmark)] = owner
        if solo.automa:
            solo.landmarks.append(event.landmark)
    elif isinstance(event, sev.AutomaScored):
        solo.vp += event.vp
    elif isinstance(event, sev.AutomaAchievementEarned):
        solo.vp += event.vp
        solo.achievements.append(event.achievement)
        state.achievement_claims.setdefault(str(event.achievement), []).append(AUTOMA)
    elif isinstance(event, sev.ShadowEmpireAchievementEarned):
        solo.shadow_achievements.append(event.achievement)
        state.achievement_claims.setdefault(str(event.achievement), []).append(SHADOW)


def _map_and_cards(state: TapestryState, solo: SoloState, event: Any) -> None:
    if isinstance(event, sev.AutomaOutpostPlaced) and 0 <= event.hex < len(state.hexes):
        state.hexes[event.hex].outposts.append(Outpost(seat=AUTOMA))
    elif isinstance(event, sev.ShadowEmpireOutpostPlaced) and 0 <= event.hex < len(state.hexes):
        state.hexes[event.hex].outposts.append(Outpost(seat=SHADOW, toppled=True))
    elif isinstance(event, sev.AutomaTileExplored) and 0 <= event.hex < len(state.hexes):
        state.hexes[event.hex].tile = event.tile
        state.hexes[event.hex].rotation = event.rotation
    elif isinstance(event, sev.AutomaTapestryDrawn):
        solo.tapestry.extend(event.cards)
    elif isinstance(event, sev.AutomaTapestryPlaced):
        solo.mat.append(event.card)
    elif isinstance(event, sev.AutomaTrapChecked):
        for card in event.revealed:
            if card in solo.tapestry:
                solo.tapestry.remove(card)
            state.tapestry_discard.append(card)


#: the bots' event classes (a set lookup: every event of every game passes here).
SOLO_TYPES: frozenset[type] = frozenset(get_args(sev.SoloEvent))


def fold_solo(state: TapestryState, event: Any) -> None:
    """Fold one bot event into ``state`` (other events are ignored)."""
    if type(event) not in SOLO_TYPES:
        return
    if isinstance(event, sev.AutomaPrepared | sev.ShadowEmpirePrepared):
        _setup(state, event)
        return
    solo = state.solo
    if solo is None:
        return
    _decks(solo, event)
    _boards(state, solo, event)
    _map_and_cards(state, solo, event)
