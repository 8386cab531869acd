"""Readable terminal lines of Tapestry events (the detail parts after the event's kind).

Content ids read ``Name (#id)``, seats by name, hexes by the board's name for them, resource
changes as signed amounts (coin, worker, food, culture), a hidden field as ``(hidden)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from annales.v1 import annales_pb2 as pb
from annales_client.tapestry import RESOURCES, benefit_text, conquer_die, content_name, hex_name

from annales_cli.render_common import seat_name

__all__ = ["describe_tapestry_event"]

#: event fields holding content ids, whatever the event: field -> kind of id.
_ID_FIELDS = {
    "civilization": "civilization",
    "civilizations": "civilization",
    "capital": "capital",
    "capitals": "capital",
    "landmark": "landmark",
    "achievement": "achievement",
}
#: the kind of card a ``card`` / ``cards`` field names, by event kind.
_CARD_KIND = {
    "TapestryDrawn": "tapestry",
    "TapestryPlayed": "tapestry",
    "TapestryDiscarded": "tapestry",
    "TapestryGiven": "tapestry",
    "TrapPlayed": "tapestry",
    "TechInvented": "tech",
    "TechUpgraded": "tech",
    "TechDiscarded": "tech",
    "TechDisplayFilled": "tech",
    "TechDisplayCleared": "tech",
}
_SEAT_FIELDS = ("seat", "to", "owner", "first_player")


def _names(kind: str, ids: Sequence[int]) -> str:
    return ", ".join(content_name(kind, int(i)) for i in ids) or "-"


def _delta(values: Sequence[int]) -> str:
    return ", ".join(f"{v:+d} {r}" for v, r in zip(values, RESOURCES, strict=False) if v) or "0"


def describe_tapestry_event(
    kind: str, data: Mapping[str, Any], event: pb.GameEvent, names: Sequence[str]
) -> list[str]:
    """The detail parts of a Tapestry event's line (see ``render.describe_event``)."""
    parts: list[str] = []
    if kind == "AgendaSet":
        frames = list(data.get("frames", []))
        if frames:
            top = frames[-1]
            parts.append(f"next {top.get('kind')} for {seat_name(names, int(top.get('seat', -1)))}")
        return parts or ["nothing pending"]
    for key, value in data.items():
        if kind == "TokenMoved" and key in ("origin", "to"):
            parts.append(f"{key} {'off the track' if value == -1 else f'space {value}'}")
        elif kind == "BuildingPlaced" and key == "landmark" and not value:
            continue
        elif key in _SEAT_FIELDS and isinstance(value, int):
            if key == "seat" and value == event.seat:
                continue  # the acting seat, shown in front
            parts.append(f"{key} {seat_name(names, value)}")
        elif kind == "ResourcesChanged" and key == "delta":
            parts.append(_delta(value))
        elif kind == "DieRolled" and key == "face" and isinstance(value, int):
            parts.append(benefit_text(conquer_die(str(data.get("die", "red")), value)))
        elif kind == "VPScored" and key == "vp":
            parts.append(f"{int(value):+d} VP")
        elif key in _ID_FIELDS and isinstance(value, int):
            parts.append(f"{key} {content_name(_ID_FIELDS[key], value)}")
        elif key in _ID_FIELDS and isinstance(value, list) and value:
            parts.append(f"{key} {_names(_ID_FIELDS[key], value)}")
        elif key in ("card", "cards") and kind in _CARD_KIND and (value or value == 0):
            ids = value if isinstance(value, list) else [value]
            parts.append(f"{key} {_names(_CARD_KIND[kind], ids)}")
        elif kind == "IslandTileExplored" and key == "hex":
            parts.append(f"the island's hex {value}")
        elif key in ("hex", "home") and isinstance(value, int):
            parts.append(f"{key} {hex_name(len(names), value)}")
        elif key == "cells" and isinstance(value, list):
            parts.append("plots " + (", ".join(f"r{c[0]}c{c[1]}" for c in value) or "-"))
        elif key == "winners" and isinstance(value, list):
            parts.append("winners " + ", ".join(seat_name(names, int(w)) for w in value))
        elif key == "reason" and not value:
            continue
        elif value == "" or (value == [] and event.redacted):
            parts.append(f"{key} (hidden)")
        elif isinstance(value, list):
            parts.append(f"{key} {', '.join(str(v) for v in value) or '-'}")
        else:
            parts.append(f"{key} {value}")
    return parts
