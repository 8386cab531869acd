"""What every game's renderer shares: seat names, game status names, the palette, a generic
describer, seeds shown as text.

:mod:`annales_cli.render` re-exports these and dispatches to a game's own renderer
(:mod:`annales_cli.render_tapestry`); a game without one falls back to :func:`describe_fields`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from annales.v1 import annales_pb2 as pb
from rich.text import Text

STATUS = {
    pb.GAME_STATUS_SETUP: "setup",
    pb.GAME_STATUS_RUNNING: "running",
    pb.GAME_STATUS_FINISHED: "finished",
}
#: each seat's colour (seat 0 first), chosen to stay legible on every terrain colour below
#: and on a dark or light terminal: no grey, no white, no black.
SEAT_STYLE = ("bold red1", "bold blue1", "bold magenta", "bold dark_orange")
#: terrain backgrounds with the foreground their legend uses (a light background gets black
#: text, a dark one white text), by terrain name.
TERRAIN_BACKGROUND = {
    "sea": "deep_sky_blue3",
    "plain": "dark_olive_green3",
    "forest": "green4",
    "mountain": "tan",
    "glacier": "light_cyan1",
}
TERRAIN_FOREGROUND = {
    "sea": "white",
    "plain": "black",
    "forest": "white",
    "mountain": "black",
    "glacier": "black",
}


def terrain_style(name: str) -> str:
    """The rich style of a terrain cell (``"black on light_cyan1"`` for a glacier)."""
    background = TERRAIN_BACKGROUND.get(name)
    if background is None:
        return ""
    return f"{TERRAIN_FOREGROUND[name]} on {background}"


def seed_text(seed_hex: str) -> str:
    """A revealed seed as its text when it is printable text, else its hex digits.

    >>> seed_text("7331"), seed_text("00ff")
    ('s1', '00ff')
    """
    try:
        text = bytes.fromhex(seed_hex).decode("utf-8")
    except ValueError:
        return seed_hex
    return text if text and text.isprintable() else seed_hex


def seed_with_text(seed_hex: str) -> str:
    """A revealed seed as the API sends it (hex), followed by its text when it has one
    (``--seed s1`` is revealed as ``7331``).

    >>> seed_with_text("7331"), seed_with_text("00ff")
    ('7331 (text "s1")', '00ff')
    """
    text = seed_text(seed_hex)
    return f'{seed_hex} (text "{text}")' if text != seed_hex else seed_hex


def seat_name(names: Sequence[str], seat: int) -> str:
    """``name#seat``, or ``system`` for -1.

    >>> seat_name(["ann", "bob"], 1), seat_name([], -1)
    ('bob#1', 'system')
    """
    if seat < 0:
        return "system"
    name = names[seat] if 0 <= seat < len(names) else "?"
    return f"{name}#{seat}"


def _words(name: str) -> str:
    """``"PlaceBuilding"`` -> ``"place building"``; ``"choose_tech"`` -> ``"choose tech"``."""
    out = "".join(f" {c.lower()}" if c.isupper() else c for c in name).strip()
    return out.replace("_", " ")


def _value(value: Any) -> str:
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_words(str(k))} {_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return ", ".join(_value(v) for v in value) or "-"
    return str(value)


def describe_fields(data: Mapping[str, Any]) -> str:
    """A generic description of an action's (or event's) plain data: its type in words, then
    each field.

    >>> describe_fields({"type": "PlaceBuilding", "row": 2, "col": 3, "orientation": 0})
    'place building: row 2, col 3, orientation 0'
    >>> describe_fields({"type": "TakeIncome"})
    'take income'
    """
    kind = _words(str(data.get("type", "action")))
    fields = [f"{_words(str(key))} {_value(value)}" for key, value in data.items() if key != "type"]
    return f"{kind}: {', '.join(fields)}" if fields else kind


def game_over(view: Mapping[str, Any], names: Sequence[str]) -> Text | None:
    """The final scores and winners of a finished game's view (``None`` while it runs)."""
    if view.get("final_scores") is None:
        return None
    scores = view["final_scores"]
    text = Text()
    text.append(
        "Game over — final scores: "
        + ", ".join(f"{seat_name(names, i)} {s}" for i, s in enumerate(scores)),
        style="bold",
    )
    winners = ", ".join(seat_name(names, w) for w in view.get("winners") or [])
    text.append(f"   winner(s): {winners}", style="bold green")
    return text
