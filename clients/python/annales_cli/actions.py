"""The list of legal actions at a seat's turn, as ``annales play`` shows it.

A short list is printed whole, numbered. A long one (Rise & Fall deployment lists about 200
actions) is printed as groups — the actions' descriptions with their cells and numbers
replaced by ``…``, with a count and the numbers they span — and the player narrows it by typing
text (every word must appear: ``nomad``, ``(3,4)``, ``deploy city``) or lists it whole with
``?``. Numbers stay those of the full list, so a number read in a filtered list plays the
same action.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from annales.v1 import annales_pb2 as pb

from annales_cli.render import describe_action

#: a list longer than this is shown grouped.
SHORT_LIST = 24
#: cells ``(3,4)``, hexes ``(q,r)`` and other numbers, replaced to form a group's name.
_VARYING = re.compile(r"\(-?\d+,\s*-?\d+\)|#\d+|\b\d+\b")


def group_name(description: str) -> str:
    """The group of an action's description: its cells and numbers replaced by ``…``.

    >>> group_name("deploy a nomad on (3,4) plain")
    'deploy a nomad on … plain'
    """
    return _VARYING.sub("…", description)


class ActionMenu:
    """The numbered descriptions of a seat's legal actions, grouped and filtered."""

    def __init__(
        self, actions: Sequence[pb.Action], view: dict[str, Any] | None, names: Sequence[str]
    ) -> None:
        self.lines = [describe_action(action, view, names) for action in actions]

    def _numbered(self, indexes: Sequence[int]) -> str:
        return "\n".join(f"  {i + 1:>3}. {self.lines[i]}" for i in indexes)

    def listing(self) -> str:
        """Every action, numbered."""
        return self._numbered(range(len(self.lines)))

    def overview(self) -> str:
        """The whole list when short, else one line per group and how to narrow it."""
        if len(self.lines) <= SHORT_LIST:
            return self.listing()
        groups: dict[str, list[int]] = {}
        for index, line in enumerate(self.lines):
            groups.setdefault(group_name(line), []).append(index)
        if len(groups) > SHORT_LIST:  # too many kinds: group by the first three words
            groups = {}
            for index, line in enumerate(self.lines):
                groups.setdefault(" ".join(group_name(line).split()[:3]) + " …", []).append(index)
        rows = []
        for name, indexes in groups.items():
            if len(indexes) == 1:
                rows.append(self._numbered(indexes))
            else:
                rows.append(f"  {len(indexes):>3} × {name}  (e.g. {indexes[0] + 1})")
        return (
            f"{len(self.lines)} actions in {len(groups)} groups:\n"
            + "\n".join(rows)
            + "\ntype text to see the matching actions (e.g. a piece, a cell like (3,4)), "
            "? to list them all"
        )

    def matching(self, text: str) -> list[int]:
        """Indexes of the actions whose description holds every word of ``text``."""
        words = text.lower().split()
        return [i for i, line in enumerate(self.lines) if all(w in line.lower() for w in words)]

    def filtered(self, text: str) -> str:
        """The actions matching ``text``, numbered as in the full list."""
        found = self.matching(text)
        if not found:
            return f"no action matches {text!r} (? lists them all)"
        return f"{len(found)} action(s) matching {text!r}:\n" + self._numbered(found)
