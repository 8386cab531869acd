"""What everyone sees of the bots, and the redaction of the Automa's hidden cards.

Public: both bots' track positions and favourite tracks, the Automa's level, civilization
card, VP, landmarks and achievements, its income turns, the decision pair in play, the number
of cards in the decision deck, its discard and the progress deck, and how many tapestry cards
the Automa holds face down (pile and income board). Hidden from everyone until the game ends:
which tapestry cards those are. The decision deck's order is never stored (a card is drawn
uniformly when it is drawn), so it cannot leak.
"""

from __future__ import annotations

import msgspec

from domain.core import Event
from domain.tapestry.solo import events as sev
from domain.tapestry.solo.boxes import favorite_marker
from domain.tapestry.state import OVER, TRACK_IDS, TapestryState


class BotView(msgspec.Struct, frozen=True, kw_only=True):
    """One bot's board: ``tracks`` positions (``TRACK_IDS`` order), its favourite track and
    what marks it (``favorite_marker``: ``"outpost"``, or ``"two_tokens"`` with Plans & Ploys
    in a solo game)."""

    name: str
    tracks: tuple[int, ...]
    favorite: str
    achievements: tuple[int, ...]
    favorite_marker: str = "outpost"


class SoloView(msgspec.Struct, frozen=True, kw_only=True):
    """The bots as every viewer sees them (``TapestryView.solo``).

    Attributes:
        automa: ``False`` in the 2-player Shadow Empire variant (``bots`` then holds the Shadow
            Empire only).
        level: the Automa's difficulty level; ``civilization`` its civilization card (0: none),
            ``extra_civilizations`` the cards added at level 6.
        vp: the Automa's score; ``landmarks`` the landmarks on its income board.
        bots: the Automa's board then the Shadow Empire's.
        income_turns: the bots' income turns taken; ``finished`` once their game is over.
        first: the bots play before the human.
        pair: the decision pair in play (left track card, right priority card).
        deck_size, discard_size, progress_size: decision cards face down in the deck, in the
            discard, and unseen progress cards left in the progress deck.
        tapestry_count: the Automa's face-down tapestry cards; ``mat`` its income board's
            face-down cards (0 for every card until the game ends).
    """

    automa: bool
    level: int
    civilization: int
    vp: int
    landmarks: tuple[int, ...]
    bots: tuple[BotView, ...]
    income_turns: int
    finished: bool
    first: bool
    pair: tuple[int, ...]
    deck_size: int
    discard_size: int
    progress_size: int
    tapestry_count: int
    tapestry: tuple[int, ...] = ()
    mat: tuple[int, ...]
    extra_civilizations: tuple[int, ...] = ()


def _favorite(index: int) -> str:
    return TRACK_IDS[index] if 0 <= index < len(TRACK_IDS) else ""


def solo_view(state: TapestryState) -> SoloView | None:
    """The bots' public board (``None`` in a game without bots)."""
    solo = state.solo
    if solo is None:
        return None
    over = state.phase == OVER
    names = ("Automa", "Shadow Empire")
    marker = favorite_marker(state)
    bots = tuple(
        BotView(
            name=names[i],
            tracks=tuple(solo.bots[i].tracks),
            favorite=_favorite(solo.bots[i].favorite),
            favorite_marker=marker,
            achievements=tuple(solo.achievements if i == 0 else solo.shadow_achievements),
        )
        for i in ((0, 1) if solo.automa else (1,))
    )
    unseen = len(solo.progress) - solo.hidden - solo.discard_hidden
    return SoloView(
        automa=solo.automa,
        level=solo.level,
        civilization=solo.civilization,
        extra_civilizations=tuple(solo.extra_civilizations),
        vp=solo.vp,
        landmarks=tuple(solo.landmarks),
        bots=bots,
        income_turns=solo.income_turns,
        finished=solo.finished,
        first=solo.first,
        pair=tuple(solo.pair),
        deck_size=solo.deck_size(),
        discard_size=len(solo.discard) + solo.discard_hidden,
        progress_size=unseen,
        tapestry_count=len(solo.tapestry),
        tapestry=tuple(sorted(solo.tapestry)) if over else (),
        mat=tuple(solo.mat) if over else tuple(0 for _ in solo.mat),
    )


def redact_solo(state: TapestryState, event: Event) -> Event:
    """The Automa's face-down tapestry cards are hidden from every viewer until the end."""
    if state.phase == OVER:
        return event
    if isinstance(event, sev.AutomaTapestryDrawn) and event.cards:
        return sev.AutomaTapestryDrawn(count=event.count)
    if isinstance(event, sev.AutomaTapestryPlaced) and event.card:
        return sev.AutomaTapestryPlaced(era=event.era)
    return event
