"""The C.I.V.'s board in the terminal (Imperium solo): a small rich panel beside the Imperium
view, fed by the ``civ`` part of an Imperium view (as plain data) and the C.I.V.'s seat view.

>>> from rich.console import Console
>>> console = Console(width=100)
>>> with console.capture() as captured:
...     console.print(render_civ({"nation": "romans", "level": "warlord", "die": 3,
...         "slots": [1, 0, 1, 1, 0], "token_slot": 5, "aside": 1, "deck_size": 7,
...         "dynasty_size": 9, "history": ["ROM5"], "score": 12,
...         "results": [{"slot": 1, "card": "ROM7", "side": "barbarian", "row": 2,
...                      "text": "Gagnez 1 progrès."}]}))
>>> "slots [■][ ][■][■][T]" in captured.get()
True
>>> with console.capture() as captured:
...     console.print(render_civ({"nation": "arthurians", "quests_pending": 4}))
>>> "quests pending 4" in captured.get()
True
"""

from __future__ import annotations

from typing import Any

from rich.panel import Panel
from rich.text import Text


def slot_marks(civ: dict[str, Any]) -> str:
    """The location slots: ■ a face-down card, T the level's token, blank empty."""
    marks = []
    for index, filled in enumerate(civ.get("slots", []), start=1):
        mark = "T" if index == civ.get("token_slot") else "■" if filled else " "
        marks.append(f"[{mark}]")
    return "".join(marks)


def render_civ(civ: dict[str, Any], seat: dict[str, Any] | None = None) -> Panel:
    """The C.I.V.'s public board: level, die, slots, deck and dynasty sizes (and its pending
    quests, Arthurians: a count only), tokens, cards in play and history, score, and the
    decision-table results of its last turn."""
    text = Text()
    level = civ.get("level", "")
    supreme = " + Maître suprême" if civ.get("supreme") else ""
    text.append(f"{civ.get('nation', '?')} — {level}{supreme}   score {civ.get('score', 0)}\n",
                style="bold")  # fmt: skip
    aside = " (1 card aside)" if civ.get("aside") else ""
    sizes = f"deck {civ.get('deck_size', 0)}   dynasty {civ.get('dynasty_size', 0)}"
    if civ.get("quests_pending"):
        sizes += f"   quests pending {civ['quests_pending']}"
    text.append(f"die {civ.get('die', 0) or '-'}   slots {slot_marks(civ)}{aside}   {sizes}\n")
    if seat:
        state = "empire" if seat.get("empire") else "barbarian"
        tokens = (f"materials {seat.get('materials', 0)}   population "
                  f"{seat.get('population', 0)}   progress {seat.get('progress', 0)}")  # fmt: skip
        text.append(f"{state}   {tokens}\n")
        text.append(f"in play: {', '.join(seat.get('play', [])) or '-'}\n")
    text.append(f"history: {', '.join(civ.get('history', [])) or '-'}\n")
    for result in civ.get("results", []):
        row = result.get("row", 0)
        where = "unrest pile" if row == -1 else "no row" if row == -2 else f"row {row + 1}"
        text.append(f"  slot {result.get('slot')}: {result.get('card')} ({result.get('side')}, "
                    f"{where}) {result.get('text', '')}\n", style="dim")  # fmt: skip
    return Panel(text, title="C.I.V.", expand=False)
