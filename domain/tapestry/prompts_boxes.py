"""Prompts of the expansion civilizations' decisions (Fantasies & Futures mechanisms: the
Psionics' keeps and dice, the Artificers' income mat, the Merfolk's cards), merged into
:data:`domain.tapestry.prompts.PROMPTS`."""

from __future__ import annotations

#: decision kind -> (decision name, prompt).
BOX_PROMPTS: dict[str, tuple[str, str]] = {
    "artificers_move": (
        "artificers_move",
        "Set aside (track * 10) or slide one space left (track * 10 + 1) the leftmost building of "
        "an income track, or decline.",
    ),
    "artificers_final": (
        "artificers_final",
        "Score 1 VP per income building in your capital (0), slide every building of a track "
        "as far left as it goes (10 + track), or decline.",
    ),
    "merfolk_sink": (
        "merfolk_sink",
        "Put a card of your hand under the Merfolk mat (its id); two stay in hand.",
    ),
    "merfolk_trim": (
        "merfolk_trim",
        "Discard a card of your hand (its id): five are kept at the end of income turn 5.",
    ),
    "merfolk_discard": (
        "merfolk_discard",
        "Discard another card of your hand for 5 VP (its id), or stop.",
    ),
    "alchemy_pick": ("alchemy_pick", "Keep one of the science rolls (0: the first)."),
    "options_keep": (
        "options_keep",
        "Keep one of the cards or tiles drawn (its id); the other goes back unseen.",
    ),
    "dice_pick": (
        "dice_pick",
        "Keep one red and one black value among the conquer dice thrown (red * 10 + black).",
    ),
}

#: the turn prompt of a seat spending its tapestry cards after income turn 5 (the Merfolk).
CARD_TURN_PROMPT = (
    "Discard a card of your hand for 5 VP (its id; more may follow), or play a WHEN PLAYED "
    "card onto your era-4 stack."
)
