"""One vocabulary per concept, checked on a whole Rise & Fall game.

Rise & Fall actions name piece types and actions with enums (``RISE_AND_FALL_PIECE_NOMAD``,
``RISE_AND_FALL_ACTION_NAME_MOVE``); its events and views name them with strings (``"nomad"``,
``"move"``). The documented mapping (docs/api.md, "Options and vocabulary") is the one rule of
``service/api/convert.py``: the enum's prefix + the upper-cased string. This test checks that
every such string sent in an event or a view maps to a value of the enum the actions use (or
is ``""``, hidden), so a client needs one function for every field. Tapestry and Imperium use
strings in actions, events and views alike.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec
from annales.v1 import riseandfall_pb2 as rpb

from tests.harness import random_game

#: event and view keys naming piece types (cards are piece types in Rise & Fall)
PIECE_KEYS = frozenset(
    {"piece", "card", "cards", "builder", "trophies", "to_deploy", "discard", "reserve",
     "declined", "chosen", "played", "hand"}
)  # fmt: skip
ACTION_KEYS = frozenset({"action"})


def _strings(data: Any, keys: frozenset[str]) -> Iterator[tuple[str, str]]:
    """``(key, value)`` of every string (or string in a list) under one of ``keys``."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key in keys:
                for item in value if isinstance(value, list) else [value]:
                    if isinstance(item, str):
                        yield key, item
            yield from _strings(value, keys)
    elif isinstance(data, list):
        for item in data:
            yield from _strings(item, keys)


def _maps(enum: Any, value: str) -> bool:
    prefix = enum.DESCRIPTOR.values_by_number[0].name[: -len("UNSPECIFIED")]
    return value == "" or prefix + value.upper() in enum.DESCRIPTOR.values_by_name


def test_rise_and_fall_events_and_views_use_the_actions_vocabulary() -> None:
    """Every piece type and action name in a whole game's events and every seat's views is a
    value of RiseAndFallPiece / RiseAndFallActionName."""
    table = random_game("riseandfall", 3, 11)
    data = [msgspec.to_builtins(table.decode(e)) for e in table.envelopes]
    game = table.game
    data += [msgspec.to_builtins(game.view(table.match.state, s)) for s in (None, 0, 1, 2)]
    pieces = list(_strings(data, PIECE_KEYS))
    actions = list(_strings(data, ACTION_KEYS))
    assert {k for k, _ in pieces} >= {"piece", "card", "builder"}, "the game names pieces"
    assert actions, "the game names actions"
    bad = sorted({(k, v) for k, v in pieces if not _maps(rpb.RiseAndFallPiece, v)})
    bad += sorted({(k, v) for k, v in actions if not _maps(rpb.RiseAndFallActionName, v)})
    assert not bad, bad
