"""Provenance of game content: where every content record comes from.

Every record of a game's content files says its source: ``"reference"`` (the facts folder,
with ``ref`` = ``"<file>.json#<id>"``), ``"rulebook"`` (with the ``section`` that states it) or
``"assumed"`` (our choice, with a ``note`` saying why). Content structs inherit
:class:`Sourced`; loaders call :meth:`Sourced.provenance_error` on every record and fail at
start-up when one is incomplete; each game lists its assumed records (``annales content
report``).

>>> Sourced(source="rulebook").provenance_error()
'a rulebook record needs a section'
>>> Sourced(source="reference", ref="tracks.json#science").provenance_error()
''
"""

from __future__ import annotations

from typing import Literal

import msgspec

Source = Literal["reference", "rulebook", "assumed"]


class Sourced(msgspec.Struct, frozen=True, kw_only=True):
    """Provenance of a record: ``source`` and the field that source requires."""

    source: Source
    ref: str = ""
    section: str = ""
    note: str = ""

    def provenance_error(self) -> str:
        """Return why the provenance is incomplete, or ``""`` when it is complete."""
        if self.source == "reference" and ".json#" not in self.ref:
            return "a reference record needs a ref '<file>.json#<id>'"
        if self.source == "rulebook" and not self.section:
            return "a rulebook record needs a section"
        if self.source == "assumed" and not self.note:
            return "an assumed record needs a note"
        return ""
