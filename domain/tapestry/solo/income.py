"""The bots' income turns ("TOUR REVENUS AUTOMA"), in the order of the Automa's income card.

Income turn 1: at levels 5-6, a progress card drawn as the turn's priority card, then the bots
advance once on their favourite track (level 5) or on every track (level 6, in the priority
card's order); a tapestry card face down for the Automa (levels 2+). Income turns 2-5, in
order: (1) each bot whose favourite track is finished or overtaken by another token picks a
new one (closest to a landmark or the end, the latest priority card breaking ties); (2) the
Automa scores its multipliers — landmarks and territories, military and science spaces,
technology and exploration spaces; (3, turns 2-4) the top tapestry card goes face down on its
income board, and VP if it is first into the era; (4, levels 3+) both bots advance again with
the latest pair; (5, turns 2-4) 2 progress cards to the decision discard; (6, turns 2-4, levels
2+) a tapestry card face down; (7, levels 2+) the Automa civilization's ability; (8, turns 3-4,
levels 3+) 2 more progress cards, 4 at levels 5-6; (9, turns 2-4) the decision deck is
shuffled. After the fifth, the bots' game is over. With Plans & Ploys, each tie of steps 1 and 7
(a new favourite among several tracks, the civilization card's conquest or exploration, the
Conquerors' Shadow Empire outpost) draws a progress card (:func:`.boxes.tiebreak_card`).
Levels 5-6 score with the hard side's multipliers; at level 6 the extra civilization card's
ability follows the first card's.
"""

from __future__ import annotations

from domain.tapestry.engine import AUTO, Ctx
from domain.tapestry.rules import tapestry_deck
from domain.tapestry.solo import AUTOMA
from domain.tapestry.solo import content as S
from domain.tapestry.solo import events as sev
from domain.tapestry.solo.board import controlled_by, first_by_priority
from domain.tapestry.solo.bots import AUTOMA_BOT, SHADOW_BOT, advance, pick, valid_tracks
from domain.tapestry.solo.boxes import tiebreak_card
from domain.tapestry.solo.conquest import conquer, draw_tapestry, explore
from domain.tapestry.state import TRACK_IDS, Frame, TapestryState

#: income steps for turns 2-5 (see the module docstring); step -> its income turns.
STEP_ERAS: dict[int, tuple[int, ...]] = {
    0: (1,),
    1: (2, 3, 4, 5),
    2: (2, 3, 4, 5),
    3: (2, 3, 4),
    4: (2, 3, 4, 5),
    5: (2, 3, 4),
    6: (1, 2, 3, 4),
    7: (2, 3, 4, 5),
    8: (3, 4),
    9: (2, 3, 4),
    10: (5,),
}
#: the steps that concern the Automa alone (skipped in the 2-player Shadow Empire variant).
AUTOMA_ONLY = (0, 2, 3, 4, 6, 7, 8)


def income_frames(era: int, level: int) -> list[Frame]:
    """The frames of the bots' income turn ``era`` at difficulty ``level`` (step 0, the first
    income turn's advances, only at the levels that have them)."""
    first = S.LEVELS[level].first_income != "none"
    return [
        Frame(kind="solo_income", seat=0, ints=(step, era))
        for step in sorted(STEP_ERAS)
        if era in STEP_ERAS[step] and (step != 0 or first)
    ]


def _first_income(ctx: Ctx, level: S.Level) -> None:
    """Levels 5-6, first income turn: a progress card drawn as priority card (shuffled back),
    then the bots advance on their favourite track, or once on every track."""
    solo = ctx.state.solo
    assert solo is not None
    card = ctx.chance.choice(sorted(solo.progress))
    ctx.emit(sev.AutomaPriorityDrawn(card=card))
    order = [name for name in S.DECISION_CARDS[card].order if name != "favorite"]
    frames: list[Frame] = []
    for bot in (AUTOMA_BOT, SHADOW_BOT):
        if level.first_income == "favorite":
            tracks = [solo.bots[bot].favorite]
        else:
            names = order if bot == AUTOMA_BOT else list(reversed(order))
            tracks = [TRACK_IDS.index(name) for name in names]
        frames.extend(
            Frame(kind="solo_step", seat=0, ints=(bot, track)) for track in tracks if track >= 0
        )
    ctx.push(*frames)


def _step(ctx: Ctx, top: Frame) -> None:
    """One forced advance of a bot on a track (benefits for the Automa)."""
    bot, track = top.ints
    advance(ctx, bot, track)


AUTO["solo_step"] = _step


def _overtaken(state: TapestryState, bot: int, track: int) -> bool:
    assert state.solo is not None
    mine = state.solo.bots[bot].tracks[track]
    others = [seat.position(track) for seat in state.seats]
    other_bot = state.solo.bots[1 - bot]
    if (bot == SHADOW_BOT and state.solo.automa) or bot == AUTOMA_BOT:
        others.append(other_bot.tracks[track])
    return mine >= 12 or any(o > mine for o in others)


def _refavor(ctx: Ctx) -> None:
    solo = ctx.state.solo
    assert solo is not None
    card = solo.last_pair[1] if len(solo.last_pair) > 1 else 1
    for bot in (AUTOMA_BOT, SHADOW_BOT) if solo.automa else (SHADOW_BOT,):
        current = solo.bots[bot].favorite
        if current < 0 or not _overtaken(ctx.state, bot, current):
            continue
        valid = valid_tracks(ctx.state, bot, "closest_to_landmark_or_finish", exclude=current)
        tie = tiebreak_card(ctx, card) if len(valid) > 1 else card
        track = pick(solo, bot, valid, tie, favorite=False)
        if track < 0:
            continue
        if bot == AUTOMA_BOT:
            ctx.emit(sev.AutomaFavoriteChanged(track=TRACK_IDS[track]))
        else:
            ctx.emit(sev.ShadowEmpireFavoriteChanged(track=TRACK_IDS[track]))


def income_vp(state: TapestryState, era: int) -> int:
    """The Automa's VP for income turn ``era`` (the multiplier table)."""
    solo = state.solo
    assert solo is not None
    mult = S.MULTIPLIERS[S.LEVELS[solo.level].mat_side, era]
    tracks = solo.bots[AUTOMA_BOT].tracks
    by = {name: tracks[i] for i, name in enumerate(TRACK_IDS)}
    holdings = len(solo.landmarks) + len(controlled_by(state, AUTOMA))
    return (
        mult.landmark_territory * holdings
        + mult.military_science * (by["military"] + by["science"])
        + mult.technology_exploration * (by["technology"] + by["exploration"])
    )


def _mat_card(ctx: Ctx, era: int) -> None:
    deck = tapestry_deck(ctx.state)
    if deck:
        ctx.emit(sev.AutomaTapestryPlaced(era=era, card=ctx.chance.choice(deck)))
    if all(seat.income_turns < era for seat in ctx.state.seats):
        ctx.emit(sev.AutomaScored(vp=S.ERA_FIRST_VP * era, reason=f"first into era {era}"))


def _civilization(ctx: Ctx, era: int) -> None:
    solo = ctx.state.solo
    assert solo is not None
    frames: list[Frame] = []
    for card in (solo.civilization, *solo.extra_civilizations):
        civ = S.CIVILIZATIONS.get(card)
        if civ is None:
            continue
        for ability in civ.abilities:
            if era not in ability.eras:
                continue
            if ability.action == "conquerors":
                frames.append(Frame(kind="solo_conquerors", seat=0, ints=(0, era)))
                frames.append(Frame(kind="solo_conquerors", seat=0, ints=(1, era)))
            else:
                frames.append(
                    Frame(kind="solo_action", seat=0, token=ability.action, source="civilization")
                )
    ctx.push(*frames)


def _income(ctx: Ctx, top: Frame) -> None:
    solo = ctx.state.solo
    assert solo is not None
    step, era = top.ints
    level = S.LEVELS[solo.level]
    if not solo.automa and step in AUTOMA_ONLY:
        return
    if step == 0:
        _first_income(ctx, level)
    elif step == 1:
        _refavor(ctx)
    elif step == 2:
        vp = income_vp(ctx.state, era)
        if vp:
            ctx.emit(sev.AutomaScored(vp=vp, reason=f"income {era}"))
    elif step == 3:
        _mat_card(ctx, era)
    elif step == 4 and level.extra_advance and len(solo.last_pair) == 2:
        ctx.push(
            Frame(kind="solo_advance", seat=0, ints=(AUTOMA_BOT, *solo.last_pair)),
            Frame(kind="solo_advance", seat=0, ints=(SHADOW_BOT, *solo.last_pair)),
        )
    elif step == 5:
        ctx.emit(
            sev.AutomaProgressAdded(
                count=min(2, len(solo.progress) - solo.hidden - solo.discard_hidden)
            )
        )
    elif step == 6 and level.tapestry_draws:
        draw_tapestry(ctx, 1)
    elif step == 7 and level.civilization_ability:
        _civilization(ctx, era)
    elif step == 8 and level.extra_progress:
        spare = len(solo.progress) - solo.hidden - solo.discard_hidden
        ctx.emit(sev.AutomaProgressAdded(count=min(level.extra_progress, spare)))
    elif step == 9:
        ctx.emit(sev.AutomaDecisionShuffled())
    elif step == 10:
        ctx.emit(sev.AutomaFinished())


AUTO["solo_income"] = _income


def _conquerors(ctx: Ctx, top: Frame) -> None:
    """The Conquerors' income ability: conquer while holding fewer territories than the income
    turn number; a toppled Shadow Empire outpost on one of the Automa's lone-token territories
    when it has more than 2; then 1 VP per territory it controls."""
    phase, era = top.ints
    state = ctx.state
    mine = controlled_by(state, AUTOMA)
    if phase == 0:
        if len(mine) < era:
            conquer(ctx, False, income=True)
        return
    lone = [i for i in mine if len(state.hexes[i].outposts) == 1]
    if len(lone) > 2 and state.solo is not None:
        pair = state.solo.last_pair
        card = S.DECISION_CARDS[tiebreak_card(ctx, pair[1] if len(pair) > 1 else 1)]
        ctx.emit(sev.ShadowEmpireOutpostPlaced(hex=first_by_priority(state, card, lone)))
    count = len(controlled_by(ctx.state, AUTOMA))
    if count:
        ctx.emit(sev.AutomaScored(vp=count, reason="conquerors"))


AUTO["solo_conquerors"] = _conquerors

__all__ = ["explore", "income_frames", "income_vp"]
