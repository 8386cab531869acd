"""The expansion civilizations' private mat state, for the Tapestry redaction oracle: a
Psionics draw waiting for its keeps and the Merfolk's submerged cards (``civ_tokens`` keys
private to their seat), and how to replace their ids for the non-interference check."""

from __future__ import annotations

from collections.abc import Callable

from domain.tapestry import content as C
from domain.tapestry.evolve import OFFER, OFFER_KINDS
from domain.tapestry.rules import SUNK

#: civ_tokens keys another viewer never receives.
PRIVATE_TOKENS: tuple[str, ...] = (OFFER, SUNK)
#: the ids a Psionics draw may hold, by kind.
_OFFER_IDS: dict[str, list[int]] = {
    "tapestry": sorted(C.TAPESTRY_CARDS),
    "territory": sorted(C.TERRITORY_TILES),
    "space": sorted(C.SPACE_TILES),
    "tech": sorted(C.TECH_CARDS),
}


def scramble_private_tokens(
    tokens: dict[str, list[int]], other: Callable[[list[int], int], int]
) -> None:
    """Replace, in place, the ids of a seat's private tokens with other valid ids (``other``:
    another id of the same kind)."""
    if OFFER in tokens:
        offer = tokens[OFFER]
        ids = _OFFER_IDS[OFFER_KINDS[offer[0]]]
        tokens[OFFER] = [*offer[:3], *(other(ids, c) for c in offer[3:])]
    if SUNK in tokens:
        cards = sorted(C.TAPESTRY_CARDS)
        tokens[SUNK] = [other(cards, c) for c in tokens[SUNK]]
