"""The C.I.V.'s own part of a solo game's state (its seat-like cards live in ``seats[CIV]``).

``seats[CIV]`` holds what a player would hold: tokens, ``deck`` (its C.I.V. deck, unordered;
``deck_top``: cards put on top, last = top), ``discard``, ``play``, ``history``, the dynasty
deck (``nation_deck``: its shuffled nation cards, unordered; ``accession``; ``nation_bottom``:
its development cards in dynasty order, first = uppermost) and ``empire``. This struct adds
the location slots, the set-aside card, the die and the public results of its turn.
"""

from __future__ import annotations

import msgspec


class CivResult(msgspec.Struct, frozen=True, kw_only=True):
    """One C.I.V. card resolved: the slot, the card, its table side, the row used (-1: an
    unrest card sent back to the pile) and that row's printed effect."""

    slot: int
    card: str
    side: str
    row: int
    text: str


class CivState(msgspec.Struct, kw_only=True):
    """The C.I.V.'s setup and turn bookkeeping.

    Attributes:
        nation: its nation key; ``level``: the difficulty level key; ``supreme``: "Maître
            suprême".
        slots: the location slots 1..N (index 0 = slot 1), each holding 0 or 1 face-down card.
        token_slot: the slot holding an unused token instead of a card (Chef de clan, Seigneur
            de guerre: 5; 0 none): it counts as occupied.
        aside: the card set aside under the die (0 or 1).
        die: the last die face (0 before the first roll).
        results: the cards resolved during its last turn, in order (public).
        quests: the Arthurian C.I.V.'s pending quests (``imperium/3``; zone ``civ/quests``,
            hidden; last = top, the Graal first).
        score: its final score once the game is over (``None`` before).
        details: its score sheet once the game is over.
    """

    nation: str
    level: str
    supreme: bool = False
    slots: list[list[str]] = msgspec.field(default_factory=list)
    token_slot: int = 0
    aside: list[str] = msgspec.field(default_factory=list)
    die: int = 0
    results: list[CivResult] = msgspec.field(default_factory=list)
    quests: list[str] = msgspec.field(default_factory=list)
    score: int | None = None
    details: dict[str, int] = msgspec.field(default_factory=dict)
