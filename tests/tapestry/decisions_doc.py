"""The "Reading a decision" tables of docs/games/tapestry.md, generated from the engine.

``python -m tests.tapestry.decisions_doc`` prints them; ``test_decisions_doc.py`` checks that
the guide holds exactly these (every decision name a client can meet, every benefit token an
expression can hold), so a frontend author never has to read the engine to learn them.
"""

from __future__ import annotations

import domain.tapestry.game  # noqa: F401  (registers every handler and token)
from domain.tapestry import content as C
from domain.tapestry.engine import TOKENS
from domain.tapestry.prompts import PROMPTS

#: the decisions that no agenda frame names (``TapestryGame.pending``)
OUTSIDE_THE_AGENDA = (
    ("setup", "—", "Keep one capital and one civilization."),
    ("over", "—", "The game is over."),
)


def decisions_table() -> str:
    """The Markdown table: decision name, the frame kinds that ask it, the prompt."""
    kinds: dict[str, list[str]] = {}
    prompts: dict[str, str] = {}
    for kind, (decision, prompt) in PROMPTS.items():
        kinds.setdefault(decision, []).append(kind)
        prompts.setdefault(decision, prompt)
    rows = ["| decision | frame kind | prompt |", "|---|---|---|"]
    for decision, kind, prompt in OUTSIDE_THE_AGENDA:
        rows.append(f"| `{decision}` | {kind} | {prompt} |")
    for decision in sorted(kinds):
        shown = ", ".join(f"`{k}`" for k in sorted(kinds[decision]))
        rows.append(f"| `{decision}` | {shown} | {prompts[decision].replace('|', '/')} |")
    return "\n".join(rows)


def tokens_list() -> str:
    """The Markdown table of every token: the benefit tokens the engine handles and the cost
    units, with the definition the content gives (``tokens.json``; "—": none, see the
    guide)."""
    rows = ["| token | cost unit | definition |", "|---|---|---|"]
    for token in sorted(set(TOKENS) | set(C.BENEFIT_TOKENS)):
        unit = "yes" if token in C.COST_TOKENS else ""
        text = C.BENEFIT_TOKENS.get(token, "—").replace("|", "/")
        rows.append(f"| `{token}` | {unit} | {text} |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(decisions_table())
    print()
    print(tokens_list())
