"""Folding the C.I.V.'s events and naming its zones (called by ``domain.imperium.evolve``)."""

from __future__ import annotations

from typing import Any

from domain.core import Event
from domain.imperium.civ import events as ce
from domain.imperium.civ.state import CivResult, CivState


def civ_zone(civ: CivState | None, name: str) -> list[str] | None:
    """The card list of a C.I.V. zone: ``civ/slot/<n>`` (1-based), ``civ/aside`` or
    ``civ/quests``."""
    if civ is None:
        return None
    if name == "civ/aside":
        return civ.aside
    if name == "civ/quests":
        return civ.quests
    index = name[len("civ/slot/") :] if name.startswith("civ/slot/") else ""
    if index.isdigit() and 1 <= int(index) <= len(civ.slots):
        return civ.slots[int(index) - 1]
    return None


def civ_fold(state: Any, event: Event) -> None:
    """Fold one ``Civ*`` event into ``state`` (an ``ImperiumState``)."""
    if isinstance(event, ce.CivPrepared):
        state.civ = CivState(
            nation=event.nation,
            level=event.level,
            supreme=event.supreme,
            slots=[[] for _ in range(event.slots)],
            token_slot=event.token_slot,
        )
        return
    civ: CivState | None = state.civ
    if civ is None:
        return
    if isinstance(event, ce.CivDieRolled):
        civ.die = event.face
        civ.results = []
    elif isinstance(event, ce.CivCardResolved):
        civ.results.append(CivResult(slot=event.slot, card=event.card, side=event.side,
                                     row=event.row, text=event.text))  # fmt: skip
    elif isinstance(event, ce.CivScored):
        civ.score = event.score
        civ.details = dict(event.details)
