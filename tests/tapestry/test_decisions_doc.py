"""docs/games/tapestry.md lists every decision name and every benefit token of the engine
(found missing by a client written from the protos and docs alone)."""

from __future__ import annotations

from pathlib import Path

from tests.tapestry.decisions_doc import decisions_table, tokens_list

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "games" / "tapestry.md"


def _block(text: str, name: str) -> str:
    return text.split(f"<!-- {name}:start -->")[1].split(f"<!-- {name}:end -->")[0].strip()


def test_the_guide_lists_every_decision_and_token() -> None:
    """Regenerate with ``python -m tests.tapestry.decisions_doc`` when the engine changes."""
    text = GUIDE.read_text()
    assert _block(text, "decisions") == decisions_table()
    assert _block(text, "tokens") == tokens_list()
