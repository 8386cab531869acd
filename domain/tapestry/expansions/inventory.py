"""The expansion boxes' inventory: every component of the rulebook's MATÉRIEL table, and where
its facts come from (``content/expansions.json``).

A component whose facts are in none of our sources (``source == "none"``) is left out of the
game: it is listed under "not in our sources" by ``annales content report --game tapestry``
and in the notes of every game that enables its box (GetGame). A content file for it
completes the box without code changes; nothing here invents a card text.

>>> [c.key for c in missing(("plans_and_ploys",))][:2]
['landmark_miniatures', 'tapestry_cards']
>>> sorted({c.box for c in COMPONENTS})
['arts_and_architecture', 'fantasies_and_futures', 'plans_and_ploys']
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Literal

import msgspec

from domain.tapestry.state import EXPANSIONS

#: where a component's facts come from (``none``: in none of our sources).
InventorySource = Literal["rulebook", "player_aid", "reference", "public", "none"]
_FILE = Path(__file__).resolve().parent.parent / "content" / "expansions.json"


class Fact(msgspec.Struct, frozen=True, kw_only=True):
    """One fact we do have about a component, with its provenance (facts only, never a card's
    wording)."""

    source: InventorySource
    section: str = ""
    ref: str = ""
    address: str = ""
    note: str


class Component(msgspec.Struct, frozen=True, kw_only=True):
    """One line of the MATÉRIEL table for one box.

    Attributes:
        box: the box (``EXPANSIONS``).
        key: the component's key within its box (``"tapestry_cards"``).
        name_fr: the rulebook's name.
        count: new items; ``replaces``: items replacing base or earlier-box ones ('*').
        kind: ``component`` or ``document`` (rulebooks and guides).
        source: where its facts come from; ``none``: in none of our sources (left out).
        section, ref, address: the provenance ``source`` requires.
        note: what the source holds, or what is missing.
        known: further facts, each with its own provenance (for a component left out, the
            few facts we do have).
    """

    box: str
    key: str
    name_fr: str
    count: int
    replaces: int = 0
    kind: Literal["component", "document"] = "component"
    source: InventorySource
    section: str = ""
    ref: str = ""
    address: str = ""
    note: str
    known: tuple[Fact, ...] = ()

    @property
    def label(self) -> str:
        """``"<box>/<key>"``."""
        return f"{self.box}/{self.key}"

    @property
    def amount(self) -> str:
        """The table's count: ``"15"``, ``"4 (+1 replacing)"``, ``"3 replacing"``."""
        if self.replaces and self.count:
            return f"{self.count} (+{self.replaces} replacing)"
        if self.replaces:
            return f"{self.replaces} replacing"
        return str(self.count)


class InventoryFile(msgspec.Struct, frozen=True):
    """``expansions.json``."""

    components: tuple[Component, ...]


class InventoryError(ValueError):
    """A record of ``expansions.json`` is invalid (names the record)."""


def provenance_error(record: Component | Fact) -> str:
    """Why a record's provenance is incomplete, or ``""``."""
    if record.source in ("rulebook", "player_aid") and not record.section:
        return f"a {record.source} record needs a section"
    if record.source == "reference" and ".json#" not in record.ref:
        return "a reference record needs a ref '<file>.json#<id>'"
    if record.source == "public" and not record.address.startswith("https://"):
        return "a public record needs an https address"
    if not record.note:
        return "every record needs a note"
    return ""


def _load() -> tuple[Component, ...]:
    try:
        data = msgspec.json.decode(_FILE.read_bytes(), type=InventoryFile)
    except msgspec.ValidationError as error:
        raise InventoryError(f"expansions.json: {error}") from None
    seen: set[str] = set()
    for component in data.components:
        if component.box not in EXPANSIONS:
            raise InventoryError(f"expansions.json#{component.label}: unknown box")
        if component.label in seen:
            raise InventoryError(f"expansions.json#{component.label}: listed twice")
        seen.add(component.label)
        records: list[Component | Fact] = [component, *component.known]
        for record in records:
            problem = provenance_error(record)
            if problem:
                raise InventoryError(f"expansions.json#{component.label}: {problem}")
    return data.components


#: every component of the three boxes, in file order.
COMPONENTS: tuple[Component, ...] = _load()


def of_box(box: str) -> list[Component]:
    """The components of one box."""
    return [c for c in COMPONENTS if c.box == box]


def missing(boxes: Iterable[str]) -> list[Component]:
    """The components of ``boxes`` whose facts are in none of our sources (left out)."""
    wanted = set(boxes)
    return [c for c in COMPONENTS if c.box in wanted and c.source == "none"]


def report_lines() -> list[str]:
    """One line per component left out: ``"expansions.json#<box>/<key>: <amount> <name>:
    <note>"`` (``annales content report``'s "not in our sources")."""
    return [
        f"expansions.json#{c.label}: {c.amount} {c.name_fr}: {c.note}" for c in missing(EXPANSIONS)
    ]


def notes(boxes: Iterable[str]) -> tuple[str, ...]:
    """What a game with ``boxes`` leaves out, one line per box (GetGame's notes)."""
    chosen = [box for box in EXPANSIONS if box in set(boxes)]
    lines: list[str] = []
    for box in chosen:
        left = missing((box,))
        if left:
            items = ", ".join(f"{c.amount} {c.name_fr}" for c in left)
            lines.append(f"{box}: not in our sources, left out of this game: {items}")
    return tuple(lines)
