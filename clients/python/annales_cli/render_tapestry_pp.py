"""Terminal rendering of the Plans & Ploys civilizations' own components and decisions: the
Aliens' space tile on the mat, the Islanders' island, the Infiltrators' marks, the Advisors'
gifts (``render_tapestry`` calls these)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from annales_client.tapestry import content_name

from annales_cli.render_common import seat_name

#: ``Choose`` codes of the decisions (see ``domain.tapestry.expansions``).
_ALIENS_DISCARD, _CAPITAL, _HEX, _TILE, _SEAT = 100, 1000, 10000, 10, 10


def _tokens(seat: Mapping[str, Any], key: str) -> list[int]:
    raw = (seat.get("civ_tokens") or {}).get(key)
    if isinstance(raw, Mapping):
        raw = raw.get("values", [])
    return [int(v) for v in raw or []]


def mat_parts(seat: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """What the seat's Plans & Ploys mats hold, for the "tiles" column."""
    parts: list[str] = []
    aliens = _tokens(seat, "aliens")
    if aliens:
        parts.append(f"Aliens' mat: space {aliens[0]}")
    island = _tokens(seat, "islanders")
    if any(island[0::2]):
        held = [
            f"{i + 1}:#{tile}/{island[2 * i + 1]}" for i, tile in enumerate(island[0::2]) if tile
        ]
        parts.append(f"island {', '.join(held)}")
    marks = _tokens(seat, "infiltrators")
    if any(marks):
        parts.append(
            "marks " + ", ".join(f"{seat_name(names, s)} {n}" for s, n in enumerate(marks) if n)
        )
    return parts


def choose_text(kind: str, index: int, view: Mapping[str, Any], names: Sequence[str]) -> str:
    """The words of ``Choose(index)`` for a Plans & Ploys decision (``""``: not one of them)."""
    if kind == "aliens":
        discard, tile = divmod(index, _ALIENS_DISCARD)
        first = "throw the mat's space tile away, then " if discard else ""
        if tile == 0:
            return f"{first}gain a resource of choice"
        paid = " paying a resource" if discard else ""
        return f"{first}explore space tile #{tile} onto the mat{paid}"
    if kind == "infiltrators":
        if index >= _CAPITAL:
            return f"mark {seat_name(names, index - _CAPITAL)}'s capital"
        return f"put an outpost beside the lone outpost at hex {index}"
    if kind in ("islanders", "islanders_place", "explore") and index >= _HEX:
        where, rest = divmod(index, _HEX)
        tile, rotation = divmod(rest, _TILE)
        return f"territory tile #{tile} turned {rotation} on the island's hex {where}"
    if kind == "islanders_gained":
        return "keep the Islanders" if index == 0 else "give them back and draw another"
    if kind == "keep_gained_civilization":
        return "keep the civilization" if index == 0 else "give it back and draw another"
    if kind in ("advisors_discard", "advisors_give"):
        verb = "discard" if kind == "advisors_discard" else "give"
        return f"{verb} {content_name('tapestry', index)}"
    if kind == "advisors_gift":
        card, other = divmod(index, _SEAT)
        return f"give {content_name('tapestry', card)} to {seat_name(names, other)} (5 VP)"
    return ""
