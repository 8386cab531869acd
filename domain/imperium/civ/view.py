"""What anyone may see of the C.I.V.: its tokens and cards in play are in its seat view; this
adds the die, which slots hold a face-down card, its deck and dynasty sizes, its history (each
card in it was revealed when resolved), the decision-table results of its last turn and how
many quests the Arthurian C.I.V. has pending (their identities stay hidden: they lie face
down)."""

from __future__ import annotations

import msgspec

from domain.imperium.civ import CIV
from domain.imperium.civ.ops import deck_size, dynasty_size
from domain.imperium.civ.scoring import public_score
from domain.imperium.civ.state import CivResult


class CivView(msgspec.Struct, frozen=True, kw_only=True):
    """The C.I.V.'s public board (see ``ImperiumCivView`` in imperium.proto)."""

    nation: str
    level: str
    supreme: bool
    die: int
    slots: tuple[int, ...]
    token_slot: int
    aside: int
    deck_size: int
    dynasty_size: int
    history: tuple[str, ...]
    results: tuple[CivResult, ...]
    score: int
    quests_pending: int = 0


def civ_public(state: object, src: str, dst: str) -> bool:
    """``True`` for a move into or out of the C.I.V.'s history in a solo game: its history is
    public, each card in it having been turned face up when resolved ("RÉSOUDRE LES CARTES DE
    LA C.I.V."), so these moves are never redacted."""
    history = f"{CIV}:history"
    return getattr(state, "civ", None) is not None and history in (src, dst)


def civ_view(state: object) -> CivView | None:
    """The C.I.V.'s public board of ``state`` (an ``ImperiumState``; ``None`` unless solo)."""
    civ = getattr(state, "civ", None)
    if civ is None or not civ.nation:
        return None
    seat = state.seats[CIV]  # type: ignore[attr-defined]
    return CivView(
        nation=civ.nation,
        level=civ.level,
        supreme=civ.supreme,
        die=civ.die,
        slots=tuple(1 if cards else 0 for cards in civ.slots),
        token_slot=civ.token_slot,
        aside=len(civ.aside),
        deck_size=deck_size(state),  # type: ignore[arg-type]
        dynasty_size=dynasty_size(state),  # type: ignore[arg-type]
        history=tuple(seat.history),
        results=tuple(civ.results),
        score=public_score(state),  # type: ignore[arg-type]
        quests_pending=len(civ.quests),
    )
