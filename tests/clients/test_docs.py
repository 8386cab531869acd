"""The documentation cannot drift: ``docs/cli.md`` is the CLI's own command tree (regenerate
it with ``make docs``), and every ``ANNALES_*`` variable the code reads is in
``docs/operations.md``."""

from __future__ import annotations

import re
from pathlib import Path

from annales_cli.docgen import generate

ROOT = Path(__file__).resolve().parents[2]
CODE = ("domain", "service", "projections", "clients/python", "tests", "Makefile")


def test_cli_reference_is_generated_from_the_cli() -> None:
    """Every command and option is in docs/cli.md exactly as the CLI prints it."""
    committed = (ROOT / "docs" / "cli.md").read_text()
    assert committed == generate(), "docs/cli.md is stale: run `make docs`"


def test_every_environment_variable_is_documented() -> None:
    """Every ``ANNALES_*`` name in the code is listed in docs/operations.md."""
    names: set[str] = set()
    for place in CODE:
        path = ROOT / place
        files = [path] if path.is_file() else [*path.rglob("*.py"), *path.rglob("*.js")]
        for file in files:
            if "node_modules" in file.parts or "gen" in file.parts:
                continue
            names |= set(re.findall(r"ANNALES_[A-Z0-9_]*[A-Z0-9]", file.read_text()))
    names = {n for n in names if not n.endswith("_PG")}
    documented = (ROOT / "docs" / "operations.md").read_text()
    missing = sorted(n for n in names if f"`{n}`" not in documented)
    assert not missing, f"undocumented in docs/operations.md: {missing}"
    assert len(names) >= 15


def test_docs_stand_on_their_own() -> None:
    """No page cites a file outside the repository or speaks of issues."""
    for page in [ROOT / "README.md", *(ROOT / "docs").rglob("*.md")]:
        text = page.read_text()
        assert "DESIGN.md" not in text and "/shared/" not in text, page
        assert not re.search(r"\bissue \d+|next issue", text), page
