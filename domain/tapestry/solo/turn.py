"""Setting the bots up and the bots' turn ("MISE EN PLACE POUR LE BOT AUTOMA / EMPIRE DE
L'OMBRE", "TOUR AUTOMA/EMPIRE DE L'OMBRE").

Setup: the Automa's level, a civilization card at random among those of the base game and of
the boxes in play (its favourite track, or with Plans & Ploys a card showing the science die:
the die is rolled, ``AutomaDieRolled`` before ``AutomaPrepared``; level 6 adds another card,
its favourite ignored), 2 outposts on
the 3/5 territory, the decision deck (cards 1-7 and one face-down progress card) and the
progress deck (8-22); the Shadow Empire's favourite track by the science die, rolled again
until it differs from the Automa's; who plays first, the human or the bots, at random (the
bots' first turn, an income turn, is then played at once: at setup under ``tapestry/1``-``3``,
from ``tapestry/4`` when play begins, after the human's setup).

The bots play one turn after each human turn (solo), or once per round after the last seat in
turn order (2-player Shadow Empire variant); once the human seats are finished they play on
alone until their fifth income turn. A turn: the previous pair is discarded; with an empty
deck the bots take an income turn; else a pair is drawn (left: track card, right: priority
card) and, if that empties the deck and the track card shows the income icon, the bots take an
income turn; otherwise the Automa advances, then the Shadow Empire.
"""

from __future__ import annotations

from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.engine import AUTO, END_TURN, OPENING, Ctx
from domain.tapestry.rules import hex_at
from domain.tapestry.scoring import tiebreak
from domain.tapestry.solo import content as S
from domain.tapestry.solo import events as sev
from domain.tapestry.solo.bots import AUTOMA_BOT, SHADOW_BOT, advance, choose_track, roll_until
from domain.tapestry.solo.income import income_frames
from domain.tapestry.state import TRACK_IDS, Frame, TapestryState


def has_bots(state: TapestryState) -> bool:
    """``True`` when the game is played against the Automa or the Shadow Empire."""
    return state.n == 1 or bool(getattr(state.options, "shadow_empire", False))


def prepare(ctx: Ctx) -> None:
    """The bots' setup events (after the board is laid out)."""
    state = ctx.state
    if not has_bots(state):
        return
    solo = state.n == 1
    level = int(getattr(state.options, "automa_level", 2))
    if solo:
        cards = S.civilizations_for(state.rules.expansions)
        civ = ctx.chance.choice(cards)
        favorite = S.CIVILIZATIONS[civ].favorite
        if favorite == S.SCIENCE_DIE_FAVORITE:  # Plans & Ploys: the die picks it (III.5)
            favorite = roll_until(ctx, tuple(TRACK_IDS))
        first = ctx.chance.below(2) == 0
        ctx.emit(
            sev.AutomaPrepared(
                level=level,
                civilization=civ,
                favorite=favorite,
                home=hex_at(state, *S.SETUP.automa_home),
                outposts=S.SETUP.automa_outposts,
                deck=S.SETUP.start_deck,
                hidden=S.SETUP.progress_into_deck,
                progress=S.SETUP.progress_deck,
                first=first,
            )
        )
        others = [c for c in cards if c != civ]
        for _ in range(S.LEVELS[level].extra_civilizations):
            extra = ctx.chance.choice(others)
            others.remove(extra)
            ctx.emit(sev.AutomaCivilizationAdded(civilization=extra))
    else:
        favorite, first = "", False
        deck = S.SETUP.shadow_only_deck
        ctx.emit(
            sev.AutomaPrepared(
                automa=False,
                level=level,
                civilization=0,
                favorite="",
                home=-1,
                outposts=0,
                deck=deck,
                hidden=0,
                progress=tuple(c for c in sorted(S.DECISION_CARDS) if c not in deck),
                first=False,
            )
        )
    faces: list[int] = []
    while True:
        face = ctx.chance.below(len(C.SCIENCE_DIE))
        faces.append(face)
        if C.SCIENCE_DIE[face] != favorite:
            break
    ctx.emit(sev.ShadowEmpirePrepared(faces=tuple(faces), favorite=C.SCIENCE_DIE[faces[-1]]))
    if first and state.rules.revision < 4:
        # tapestry/1-3: the bots' first income turn is played at setup, before the human has
        # chosen; the frames its steps push (levels 5-6: the advances) are lost
        ctx.emit(sev.AutomaTurnStarted(turn=0))
        ctx.emit(sev.AutomaIncomeTurnStarted(era=1))
        for frame in income_frames(1, level):
            AUTO[frame.kind](ctx, frame)


def _opening(state: TapestryState) -> list[Frame]:
    """From ``tapestry/4``, when the bots play first, their first turn (an income turn) opens
    play: after the human's setup (capital, civilization, its outposts on the board) and
    before the human's first turn, with every frame its steps push."""
    solo = state.solo
    if solo is None or not solo.first or state.rules.revision < 4:
        return []
    return [Frame(kind="solo_first_income", seat=0)]


def _first_income(ctx: Ctx, top: Frame) -> None:
    ctx.emit(sev.AutomaTurnStarted(turn=0))
    _income(ctx)  # no income turn yet: the first


OPENING.append(_opening)
AUTO["solo_first_income"] = _first_income


def _round_over(state: TapestryState) -> bool:
    """``True`` when the seat that just played is the last of the round."""
    n = state.n
    for step in range(1, n + 1):
        nxt = (state.current + step) % n
        if nxt == state.first_player:
            return True
        if not state.seats[nxt].finished:
            return False
    return True


def _hook(ctx: Ctx) -> None:
    """Before the next seat's turn: the bots' turn, or the end of a solo game."""
    state = ctx.state
    solo = state.solo
    if solo is None:
        return
    humans_done = all(seat.finished for seat in state.seats)
    if solo.finished:
        if humans_done and solo.automa:
            end_solo(ctx)
        return
    if humans_done or (solo.played_turn != state.turn and _round_over(state)):
        ctx.push(Frame(kind="solo_turn", seat=state.current if state.current >= 0 else 0))


END_TURN.insert(0, _hook)


def end_solo(ctx: Ctx) -> None:
    """Every party has finished: the human seats win by beating the Automa's score."""
    state = ctx.state
    assert state.solo is not None
    scores = tuple(seat.vp for seat in state.seats)
    best = max(scores)
    winners: tuple[int, ...] = ()
    if best > state.solo.vp:
        tied = [i for i, vp in enumerate(scores) if vp == best]
        top = max(tiebreak(state, i) for i in tied)
        winners = tuple(i for i in tied if tiebreak(state, i) == top)
    ctx.emit(ev.GameEnded(scores=scores, winners=winners))


def _turn(ctx: Ctx, top: Frame) -> None:
    state = ctx.state
    solo = state.solo
    assert solo is not None
    ctx.emit(sev.AutomaTurnStarted(turn=state.turn))
    if solo.income_turns == 0 or solo.deck_size() < 2:
        _income(ctx)
        return
    known, total = len(solo.deck), solo.deck_size()
    picks: list[int] = []
    for _ in range(2):
        index = ctx.chance.below(total - len(picks))
        remaining_known = [c for c in solo.deck if c not in picks]
        if index < len(remaining_known):
            picks.append(remaining_known[index])
        else:
            unseen = [c for c in solo.progress if c not in picks and c not in solo.not_hidden]
            picks.append(ctx.chance.choice(unseen))
    del known
    ctx.emit(sev.AutomaDecisionDrawn(left=picks[0], right=picks[1]))
    if solo.deck_size() == 0 and S.DECISION_CARDS[picks[0]].income_icon:
        _income(ctx)
        return
    frames = [Frame(kind="solo_advance", seat=top.seat, ints=(SHADOW_BOT, *picks))]
    if solo.automa:
        frames.insert(0, Frame(kind="solo_advance", seat=top.seat, ints=(AUTOMA_BOT, *picks)))
    ctx.push(*frames)


AUTO["solo_turn"] = _turn


def _income(ctx: Ctx) -> None:
    solo = ctx.state.solo
    assert solo is not None
    era = solo.income_turns + 1
    ctx.emit(sev.AutomaIncomeTurnStarted(era=era))
    ctx.push(*income_frames(era, solo.level))


def _advance(ctx: Ctx, top: Frame) -> None:
    bot, left, right = top.ints
    track = choose_track(ctx.state, bot, left, right)
    if track >= 0:
        advance(ctx, bot, track)


AUTO["solo_advance"] = _advance

__all__ = ["TRACK_IDS", "end_solo", "has_bots", "prepare"]
