"""Terminal texts for the expansion civilizations' Tapestry decisions and mat state: the
Psionics' keeps and dice, the Artificers' income mat, the Merfolk's cards."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from annales_client.tapestry import BUILDINGS, TRACKS, benefit_text, conquer_die, content_name

#: what an ``options_keep`` decision keeps, by the frame's token.
_KEPT = {"tapestry": "tapestry", "tech": "tech"}
#: the kinds of a Psionics draw (``civ_tokens["psionics_offer"][0]``).
_OFFER_KINDS = ("tapestry", "territory", "space", "tech")


def _ints(value: Any) -> list[int]:
    if isinstance(value, Mapping):
        value = value.get("values") or []
    return [int(v) for v in value or []]


def own_notes(me: Mapping[str, Any]) -> list[str]:
    """Lines for the viewer's own seat: the Merfolk's cards under the mat, a Psionics draw
    waiting for its keeps (both private to the seat)."""
    tokens = me.get("civ_tokens") or {}
    lines: list[str] = []
    sunk = _ints(tokens.get("merfolk_sunk"))
    if sunk:
        lines.append("under the mat: " + ", ".join(content_name("tapestry", c) for c in sunk))
    offer = _ints(tokens.get("psionics_offer"))
    if len(offer) > 3:
        kind = _OFFER_KINDS[offer[0]] if 0 <= offer[0] < len(_OFFER_KINDS) else "?"
        names = [
            content_name(_KEPT[kind], i) if kind in _KEPT else f"{kind} tile #{i}"
            for i in offer[3:]
        ]
        lines.append(f"drawn, one kept per {offer[1]}: " + ", ".join(names))
    return lines


def income_mat_notes(seat: Mapping[str, Any]) -> str:
    """Where an income mat's buildings left gaps and which were set aside (the Artificers):
    `` (farm covers 2,4,5; aside house 1)``, empty for a standard mat."""
    notes = []
    for building, spaces in sorted((seat.get("income_covered") or {}).items()):
        values = spaces.get("values") or [] if isinstance(spaces, Mapping) else spaces
        notes.append(f"{building} covers {','.join(str(s) for s in values)}")
    aside = seat.get("buildings_aside") or {}
    if aside:
        notes.append("aside " + ", ".join(f"{b} {n}" for b, n in sorted(aside.items())))
    return f" ({'; '.join(notes)})" if notes else ""


def _building(track: int) -> str:
    return BUILDINGS[track] if 0 <= track < len(BUILDINGS) else "?"


def box_choose_text(kind: str, index: int, ints: Sequence[int], token: str) -> str | None:
    """The text of ``Choose(index)`` for an expansion civilization's decision (``None``: not
    one of theirs)."""
    if kind == "research_pick" and len(ints) > 3:  # the Psionics: more rolls to choose from
        rolled = ints[1 + index] if 0 <= index < len(ints) - 1 else -1
        return f"keep the roll: {TRACKS[rolled] if 0 <= rolled < len(TRACKS) else '?'}"
    if kind == "alchemy_pick":  # the Psionics holding the Alchemists
        rolled = ints[index] if 0 <= index < len(ints) else -1
        return f"keep the roll: {TRACKS[rolled] if 0 <= rolled < len(TRACKS) else '?'}"
    if kind == "treasure_die" and len(ints) > 4:  # the Psionics: more throws to choose from
        colour = "red" if ints[1] == 0 else "black"
        face = ints[2 + index] if 0 <= index < len(ints) - 2 else 0
        return f"keep the {colour} die: {benefit_text(conquer_die(colour, face))}"
    if kind == "options_keep":
        if token in _KEPT:
            return f"keep {content_name(_KEPT[token], index)}"
        return f"keep {token} tile #{index}"
    if kind in ("dice_pick", "celestials_dice_pick"):
        red, black = divmod(index, 10)
        return (
            f"keep red {benefit_text(conquer_die('red', red))}, "
            f"black {benefit_text(conquer_die('black', black))}"
        )
    if kind == "artificers_move":
        track, action = divmod(index, 10)
        verb = "set aside" if action == 0 else "slide one space left"
        return f"{verb} the leftmost {_building(track)}"
    if kind == "artificers_final":
        if index == 0:
            return "1 VP per income building in your capital"
        return f"slide every {_building(index - 10)} as far left as it goes"
    if kind == "merfolk_sink":
        return f"put {content_name('tapestry', index)} under the mat"
    if kind == "merfolk_trim":
        return f"discard {content_name('tapestry', index)}"
    if kind == "merfolk_discard":
        return f"discard {content_name('tapestry', index)} for 5 VP"
    return None
