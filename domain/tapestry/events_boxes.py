"""Tapestry events of the expansion civilizations' own mechanisms (Fantasies & Futures): the
Psionics' draws to keep one, the Artificers' income mat, the Merfolk's submerged cards.
Re-exported by :mod:`domain.tapestry.events` and part of its ``TapestryEvent`` union."""

from __future__ import annotations

from domain.core import Event


class BuildingSetAside(Event, frozen=True, kw_only=True):
    """Artificers: ``seat``'s leftmost ``building`` of its income track left the mat without
    going to the capital (set aside); the space it covered shows."""

    seat: int
    building: str


class BuildingSlid(Event, frozen=True, kw_only=True):
    """Artificers: a ``building`` of ``seat``'s income track slid left from space ``origin``
    to the empty space ``to`` (1..5), uncovering ``origin`` and covering ``to``."""

    seat: int
    building: str
    origin: int
    to: int


class CardsSubmerged(Event, frozen=True, kw_only=True):
    """Merfolk: ``seat`` put ``cards`` of its hand under its mat, out of play until income
    turn 5 (``surfaced``: they came back into the hand). Redacted for others until the game
    ends: ``cards`` empty, ``count`` kept."""

    seat: int
    count: int
    cards: tuple[int, ...] = ()
    surfaced: bool = False


class OptionsDrawn(Event, frozen=True, kw_only=True):
    """Psionics: ``seat`` drew ``items`` of ``kind`` (``"tapestry"``, ``"territory"``,
    ``"space"`` or ``"tech"``) at random to keep one of each ``group`` in turn
    (:class:`OptionKept`); the others go back into the deck or supply (``discard``: onto the
    tapestry discard pile, the "VARIANTES" draw at income turn 1). Redacted for others until
    the game ends: ``items`` empty."""

    REVEALS = True
    seat: int
    kind: str
    items: tuple[int, ...] = ()
    group: int = 2
    discard: bool = False


class OptionKept(Event, frozen=True, kw_only=True):
    """Psionics: ``seat`` kept ``item`` of the first group of its pending draw
    (:class:`OptionsDrawn`); the rest of that group went back. Redacted for others until the
    game ends (``item`` 0, no id): the gain that follows shows what is public."""

    seat: int
    kind: str
    item: int = 0


BoxEvent = BuildingSetAside | BuildingSlid | CardsSubmerged | OptionsDrawn | OptionKept

__all__ = [
    "BoxEvent",
    "BuildingSetAside",
    "BuildingSlid",
    "CardsSubmerged",
    "OptionKept",
    "OptionsDrawn",
]
