"""Terminal rendering of the bots of a solo Tapestry game (the Automa and the Shadow Empire).

Their boards are public: track positions and favourite tracks, the Automa's level,
civilization card (two at level 6), VP, landmarks and achievements, the decision pair in play
and the number of face-down cards (decision deck, discard, progress deck, the Automa's tapestry
cards). On the map their pieces carry the party numbers -2 (Automa) and -3 (Shadow Empire).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from annales_client.tapestry import TRACKS, content_name
from rich.text import Text

from annales_cli.render_common import seat_name

#: the bots' party numbers on the map and in landmark owners / achievement claims.
BOT_NAMES = {-2: "Automa", -3: "Shadow Empire"}
AUTOMA_CIVILIZATIONS = {1: "Explorers", 2: "Scientists", 3: "Conquerors", 4: "Engineers"}


def party_name(names: Sequence[str], party: int) -> str:
    """A seat's name, or the bot's name for its party number.

    >>> party_name(["ann"], 0), party_name(["ann"], -2)
    ('ann#0', 'Automa')
    """
    return BOT_NAMES.get(party) or seat_name(names, party)


def render_bots(view: Mapping[str, Any]) -> Text | None:
    """The bots' boards (``None`` in a game without bots)."""
    solo: Mapping[str, Any] | None = view.get("solo")
    if not solo:
        return None
    text = Text("Bots", style="bold")
    if solo.get("automa"):
        cards = [int(solo.get("civilization", 0)), *solo.get("extra_civilizations", [])]
        civ = " + ".join(AUTOMA_CIVILIZATIONS.get(int(card), "?") for card in cards)
        landmarks = [content_name("landmark", int(lm)) for lm in solo.get("landmarks", [])]
        text.append(
            f" — Automa level {solo.get('level', 2)}, {civ}: {solo.get('vp', 0)} VP; "
            f"landmarks: {', '.join(landmarks) or 'none'}"
        )
    text.append(
        f"\n  income turns {solo.get('income_turns', 0)}/5"
        + (" (finished)" if solo.get("finished") else "")
        + f"; decision pair {list(solo.get('pair', [])) or '-'}; deck {solo.get('deck_size', 0)},"
        f" discard {solo.get('discard_size', 0)}, progress {solo.get('progress_size', 0)};"
        f" face-down tapestry cards {solo.get('tapestry_count', 0)}"
        f" (+{len(solo.get('mat', []))} on its income board)"
    )
    for bot in solo.get("bots", []):
        positions = ", ".join(
            f"{track} {position}"
            for track, position in zip(TRACKS, bot.get("tracks", []), strict=False)
        )
        marker = " (2 tokens)" if bot.get("favorite_marker") == "two_tokens" else ""
        text.append(
            f"\n  {bot.get('name', '?')}: {positions}; "
            f"favourite {bot.get('favorite') or '-'}{marker}"
        )
    if view.get("final_scores") is not None and solo.get("automa") and not view.get("winners"):
        text.append("\n  The Automa wins.", style="bold red")
    return text
