"""The solo rules of the expansion boxes (``automa.json#expansions``): which changes a solo
game applies, and the mechanisms they share.

The player aid's "Extension" lines (Plans & Ploys: ``automa.json#expansions``) change a solo
game only: the 2-player Shadow Empire variant and multi-seat games never read them. A change
applies when the game has 1 seat and a box in play lists it:

* ``remove_civilizations:…`` — :func:`domain.tapestry.solo.content.dealt_solo` (the
  civilizations' ``solo`` flag);
* ``favorite_by_science_die`` — :func:`domain.tapestry.solo.turn.prepare`;
* ``two_tokens_on_favorite`` — :func:`favorite_marker` (the bots' view);
* ``tiebreak_from_progress_deck`` — :func:`tiebreak_card`;
* ``landmark_cards:…`` — applied as a component absent (:data:`ABSENT_COMPONENT_CHANGES`,
  :func:`notes`).
"""

from __future__ import annotations

from domain.tapestry.engine import Ctx
from domain.tapestry.solo import content as S
from domain.tapestry.solo import events as sev
from domain.tapestry.state import TapestryState

#: the change drawing a progress card for a tie resolved without a decision card.
TIEBREAK = "tiebreak_from_progress_deck"
#: the change marking the favourite track with 2 tokens instead of an outpost.
TWO_TOKENS = "two_tokens_on_favorite"
#: the changes about a component in none of our sources, and that component
#: (``expansions.json``'s ``<box>/<key>``): the game plays without the component, so the change
#: has nothing to act on; :func:`notes` names it in the game's notes.
ABSENT_COMPONENT_CHANGES: dict[str, str] = {
    "landmark_cards:draw_2_keep_1_other_to_automa": "plans_and_ploys/landmark_cards",
}
#: what each absent-component change would do (the aid's words), for the game's notes.
ABSENT_COMPONENT_TEXT: dict[str, str] = {
    "landmark_cards:draw_2_keep_1_other_to_automa": (
        "« Piochez 2 cartes Monuments et choisissez-en 1 (l'autre Monument va à l'Automa) »"
    ),
}


def solo_changes(state: TapestryState) -> tuple[str, ...]:
    """The solo changes of the boxes in play, in box order (``()`` unless 1 seat)."""
    if state.n != 1:
        return ()
    found: list[str] = []
    for box in state.rules.expansions:
        record = S.EXPANSIONS.get(box)
        if record is not None and record.changes:
            found.extend(record.changes)
    return tuple(found)


def applies(state: TapestryState, change: str) -> bool:
    """``True`` when a box in play changes this solo game by ``change``."""
    return change in solo_changes(state)


def favorite_marker(state: TapestryState) -> str:
    """What marks the bots' favourite tracks: ``"two_tokens"`` under ``two_tokens_on_favorite``
    (MISE EN PLACE POUR LE BOT AUTOMA 5, EMPIRE DE L'OMBRE 2), else ``"outpost"``."""
    return "two_tokens" if applies(state, TWO_TOKENS) else "outpost"


def tiebreak_card(ctx: Ctx, latest: int) -> int:
    """The priority card for a tie of the bots' own income steps (turns 2-5): ``latest`` (the
    last priority card played, "TOUR REVENUS AUTOMA"), or under ``tiebreak_from_progress_deck``
    a progress card drawn from the progress pile (:class:`~.events.AutomaTiebreakDrawn`) and
    shuffled back at once; an empty pile keeps ``latest``.

    The pile is the unseen progress cards less those face down in the decision deck and its
    discard; the cards known to be in it (``not_hidden``) are drawn with their share, another
    card uniformly among the rest (the face-down ones are among those, unknown)."""
    state = ctx.state
    solo = state.solo
    if solo is None or not applies(state, TIEBREAK):
        return latest
    pile = len(solo.progress) - solo.hidden - solo.discard_hidden
    if pile <= 0:
        return latest
    known = sorted(c for c in solo.not_hidden if c in solo.progress)
    index = ctx.chance.below(pile)
    if index < len(known):
        card = known[index]
    else:
        card = ctx.chance.choice([c for c in sorted(solo.progress) if c not in known])
    ctx.emit(sev.AutomaTiebreakDrawn(card=card))
    return card


def notes(state: TapestryState) -> tuple[str, ...]:
    """The solo changes of the boxes in play applied as a component absent (GetGame's notes)."""
    return tuple(
        f"{ABSENT_COMPONENT_CHANGES[change].split('/')[0]} (solo): "
        f"{ABSENT_COMPONENT_TEXT[change]} is not played: "
        f"expansions.json#{ABSENT_COMPONENT_CHANGES[change]} is in none of our sources"
        for change in solo_changes(state)
        if change in ABSENT_COMPONENT_CHANGES
    )


__all__ = ["applies", "favorite_marker", "notes", "solo_changes", "tiebreak_card"]
