"""The bots on the advancement tracks: valid tracks, priority arrows, advancing, landmarks,
achievements and the benefits the Automa takes ("TOUR AUTOMA/EMPIRE DE L'OMBRE", 3;
"RÈGLES SPÉCIFIQUES POUR L'AUTOMA ET L'EMPIRE", A and "MONUMENTS", "OBJECTIFS").

Track rules (icons of the track card): ``all_unfinished`` — every track the bot has not
finished; ``closest_to_landmark_or_finish`` — the tracks with the shortest distance from the
bot's token to an unclaimed landmark ahead or to the end; ``closest_to_finish`` — the tracks
with the shortest distance to the end. Among several, the first in the priority card's order
(top to bottom for the Automa, bottom to top for the Shadow Empire), ``favorite`` meaning the
bot's favourite track.

The Automa takes, once per space however often it is printed there, only: research (science
die; no benefit where the icon says so), a choice of advances or move-backs (the die is rolled
until it shows one of them), the tech display refreshed, a tapestry card drawn face down,
conquest and exploration. The Shadow Empire takes nothing but landmarks.
"""

from __future__ import annotations

from collections.abc import Iterator

from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.engine import Ctx
from domain.tapestry.gains import ISLAND_KEY, TOPPLE_KEY, TRACK_KEY, achievement_vp
from domain.tapestry.gains import _achievement_id as achievement_id
from domain.tapestry.rules import load
from domain.tapestry.solo import AUTOMA
from domain.tapestry.solo import content as S
from domain.tapestry.solo import events as sev
from domain.tapestry.solo.state import SoloState
from domain.tapestry.state import CONTROLLING_PIECES, TRACK_IDS, Frame, TapestryState
from domain.tapestry.tech import fill_display

#: the bots' indices in ``SoloState.bots``.
AUTOMA_BOT, SHADOW_BOT = 0, 1
#: landmark spaces (first space of tiers II-IV).
LANDMARK_SPACES = (4, 7, 10)


def landmark_at(track: int, space: int) -> int | None:
    """The landmark printed on ``space`` of ``track`` (``None`` if none)."""
    if space not in LANDMARK_SPACES:
        return None
    return C.space(TRACK_IDS[track], space).landmark


def distance_to_landmark_or_end(state: TapestryState, track: int, position: int) -> int:
    """Spaces from ``position`` to the next unclaimed landmark ahead, or to the end."""
    for space in LANDMARK_SPACES:
        landmark = landmark_at(track, space)
        if space > position and landmark is not None and str(landmark) not in state.landmark_owner:
            return space - position
    return 12 - position


def valid_tracks(state: TapestryState, bot: int, rule: str, exclude: int = -1) -> list[int]:
    """The tracks ``rule`` allows for ``bot`` (never a finished one, nor ``exclude``)."""
    assert state.solo is not None
    tracks = state.solo.bots[bot].tracks
    open_ = [t for t in range(len(TRACK_IDS)) if tracks[t] < 12 and t != exclude]
    if not open_ or rule == "all_unfinished":
        return open_
    if rule == "closest_to_finish":
        score = {t: 12 - tracks[t] for t in open_}
    else:
        score = {t: distance_to_landmark_or_end(state, t, tracks[t]) for t in open_}
    best = min(score.values())
    return [t for t in open_ if score[t] == best]


def pick(solo: SoloState, bot: int, valid: list[int], card: int, favorite: bool = True) -> int:
    """The first valid track in the priority card's order for ``bot`` (-1: none)."""
    if not valid:
        return -1
    order = S.DECISION_CARDS[card].order
    sequence = order if bot == AUTOMA_BOT else tuple(reversed(order))
    for name in sequence:
        if name == "favorite":
            track = solo.bots[bot].favorite if favorite else -1
        else:
            track = TRACK_IDS.index(name)
        if track in valid:
            return track
    return valid[0]


def choose_track(state: TapestryState, bot: int, left: int, right: int) -> int:
    """The track ``bot`` advances on for the pair (``left`` track card, ``right`` priority)."""
    assert state.solo is not None
    card = S.DECISION_CARDS[left]
    rule = card.automa_rule if bot == AUTOMA_BOT else card.shadow_rule
    return pick(state.solo, bot, valid_tracks(state, bot, rule), right)


# -- moving ----------------------------------------------------------------------------------
def advance(ctx: Ctx, bot: int, track: int, step: int = 1, benefit: bool = True) -> None:
    """Move ``bot`` one space on ``track`` (``step`` -1: back), then landmarks, the track
    achievement and (Automa only, forward only) the space's benefits."""
    solo = ctx.state.solo
    assert solo is not None
    origin = solo.bots[bot].tracks[track]
    to = max(0, min(12, origin + step))
    if to == origin:
        return
    name = TRACK_IDS[track]
    if bot == AUTOMA_BOT:
        ctx.emit(sev.AutomaAdvanced(track=name, origin=origin, to=to))
    else:
        ctx.emit(sev.ShadowEmpireAdvanced(track=name, origin=origin, to=to))
    if to > origin:
        landmark = landmark_at(track, to)
        if landmark is not None and str(landmark) not in ctx.state.landmark_owner:
            by = "automa" if bot == AUTOMA_BOT else "shadow_empire"
            ctx.emit(sev.AutomaLandmarkClaimed(landmark=landmark, by=by))
    if to == 12:
        earn(ctx, bot, TRACK_KEY)
    if bot == AUTOMA_BOT and to > origin and benefit:
        ctx.push(*benefit_frames(name, to))


def earn(ctx: Ctx, bot: int, key: str) -> None:
    """``bot`` fulfils achievement ``key`` once: the Automa scores it like a player, the
    Shadow Empire only completes tracks and scores nothing ("OBJECTIFS")."""
    solo = ctx.state.solo
    assert solo is not None
    achievement = achievement_id(key)
    if bot == AUTOMA_BOT:
        if not solo.automa or achievement in solo.achievements:
            return
        vp = achievement_vp(ctx.state, achievement)
        ctx.emit(sev.AutomaAchievementEarned(achievement=achievement, vp=vp))
    elif key == TRACK_KEY and achievement not in solo.shadow_achievements:
        ctx.emit(sev.ShadowEmpireAchievementEarned(achievement=achievement))


def check_automa_achievements(ctx: Ctx) -> None:
    """The Automa's topple and middle-island achievements: only human outposts count."""
    state = ctx.state
    if state.solo is None or not state.solo.automa:
        return
    toppled = 0
    island = False
    for index, cell in enumerate(state.hexes):
        if cell.controller() != AUTOMA:
            continue
        toppled += sum(
            1 for o in cell.outposts if o.seat >= 0 and o.toppled and o.piece in CONTROLLING_PIECES
        )
        island = island or C.BOARDS[state.board].hexes[index].central_island
    if toppled >= 2:
        earn(ctx, AUTOMA_BOT, TOPPLE_KEY)
    if island:
        earn(ctx, AUTOMA_BOT, ISLAND_KEY)


def _tokens(benefit: C.Benefit | str) -> Iterator[tuple[str, tuple[str, ...]]]:
    """``(token, alternatives)`` for every gain in an expression; ``one_of`` choices of
    advances or move-backs come as one entry whose alternatives are their tokens."""
    if isinstance(benefit, str):
        benefit = load(benefit)
    if isinstance(benefit, C.Gain):
        yield benefit.token, ()
    elif isinstance(benefit, C.OneOf):
        moves = [
            i
            for i in benefit.items
            if isinstance(i, C.Gain) and i.token.startswith(("advance_", "regress_"))
        ]
        if moves and len(moves) == len(benefit.items):
            tokens = tuple(i.token for i in moves if isinstance(i, C.Gain))
            yield ("regress" if tokens[0].startswith("regress_") else "advance"), tokens
        else:
            for item in benefit.items:
                yield from _tokens(item)
    elif isinstance(benefit, C.AllOf | C.AnyOrder):
        for item in benefit.items:
            yield from _tokens(item)


#: benefit token -> the Automa's action (``None``: ignored).
ACTIONS: dict[str, str] = {
    "explore": "explore",
    "explore_anywhere": "explore_anywhere",
    "conquer": "conquer",
    "conquer_both_dice": "conquer",
    "conquer_both_dice_if_opponent": "conquer",
    "conquer_anywhere": "conquer_anywhere",
    "research": "research",
    "research_no_benefit": "research_no_benefit",
    "research_no_benefit_overflow_vp": "research_no_benefit",
    "refresh_tech_display_optional": "refresh",
    "gain_tapestry_card": "tapestry",
    "advance": "advance",
    "regress": "regress",
}


def automa_actions(track: str, space: int) -> list[tuple[str, tuple[str, ...]]]:
    """The Automa's actions for reaching ``space`` of ``track``, each once, in print order."""
    found: list[tuple[str, tuple[str, ...]]] = []
    seen: set[str] = set()
    for token, alternatives in _tokens(C.space(track, space).benefit):
        action = ACTIONS.get(token)
        if action is None or action in seen:
            continue
        seen.add(action)
        found.append((action, alternatives))
    return found


def benefit_frames(track: str, space: int) -> list[Frame]:
    """Automatic frames resolving the Automa's benefits for a space it reached."""
    return [
        Frame(
            kind="solo_action",
            seat=0,
            token=action,
            options=alternatives,
            source=f"automa:{track}:{space}",
        )
        for action, alternatives in automa_actions(track, space)
    ]


def roll_until(ctx: Ctx, wanted: tuple[str, ...]) -> str:
    """Roll the science die until it shows one of ``wanted`` tracks (all tracks: once)."""
    faces: list[int] = []
    while True:
        face = ctx.chance.below(len(C.SCIENCE_DIE))
        faces.append(face)
        if C.SCIENCE_DIE[face] in wanted:
            break
    track = C.SCIENCE_DIE[faces[-1]]
    ctx.emit(sev.AutomaDieRolled(faces=tuple(faces), track=track))
    return track


def refresh_display(ctx: Ctx) -> None:
    """Discard the 3 face-up tech cards and deal 3 new ones."""
    if ctx.state.tech_display:
        ctx.emit(ev.TechDisplayCleared(cards=tuple(ctx.state.tech_display)))
    fill_display(ctx)
