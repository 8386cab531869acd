"""Events of the C.I.V. (their kinds begin with ``Civ``); card moves and token changes of the
C.I.V. use the ordinary ``CardDrawn``/``CardMoved``/``TokensChanged`` events with seat
:data:`~domain.imperium.civ.CIV` and the zones ``civ/slot/<n>`` and ``civ/aside``."""

from __future__ import annotations

from domain.core import Event


class CivPrepared(Event, frozen=True, kw_only=True):
    """The C.I.V. was set up ("MISE EN PLACE DE LA C.I.V."): its nation, level, number of
    location slots and the slot holding a token instead of a card (0: none)."""

    nation: str
    level: str
    supreme: bool = False
    slots: int = 5
    token_slot: int = 0


class CivDieRolled(Event, frozen=True, kw_only=True):
    """The die rolled at the start of the C.I.V.'s turn ("LE TOUR DE LA C.I.V.")."""

    REVEALS = True
    face: int


class CivCardResolved(Event, frozen=True, kw_only=True):
    """A C.I.V. card was turned face up and resolved through its nation's table ``side``
    (``row``: the row used, -1 for an unrest card sent back; ``text``: the row's effect)."""

    REVEALS = True
    slot: int
    card: str
    side: str
    row: int
    text: str = ""


class CivScored(Event, frozen=True, kw_only=True):
    """The C.I.V.'s final score ("DÉCOMPTE", solo) and whether it won (a tie goes to it)."""

    score: int
    details: dict[str, int]
    winner: bool


CIV_EVENT_TYPES: tuple[type[Event], ...] = (CivPrepared, CivDieRolled, CivCardResolved, CivScored)
