"""The Tapestry engine's handler tables are the same whichever module a program imports first.

The order of the ``AFTER_EMIT`` hooks and of the wrappers around tokens and decisions is part of
the rules (two hooks answering one event emit in that order). It used to follow the import
order: a program importing ``civ_collectors`` first ran the Collectors' hook before the
Architects' (the service runs them the other way round), and one importing ``cards_era`` first
stopped on a circular import. ``domain.tapestry.handlers`` now registers every module in one
order, imported by the package before any of its modules. Each entry point below runs in a
fresh interpreter, so that its import really comes first.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: the service's own path first, then modules that used to change the order or fail
ENTRY_POINTS = (
    "domain.registry",
    "domain.tapestry.cards_era",
    "domain.tapestry.civ_collectors",
    "domain.tapestry.turns",
    "domain.tapestry.solo.hooks",
    "domain.tapestry.expansions.civ_spies",
)


def _chain(handler: Any, depth: int = 0) -> str:
    """A handler's name with the handlers its closure wraps, innermost last."""
    name = f"{getattr(handler, '__module__', '?')}.{getattr(handler, '__qualname__', '?')}"
    inner = []
    for cell in getattr(handler, "__closure__", None) or ():
        try:
            value = cell.cell_contents
        except ValueError:  # an empty cell
            continue
        if depth < 12 and callable(value) and hasattr(value, "__code__"):
            inner.append(_chain(value, depth + 1))
    return name + (f"({','.join(inner)})" if inner else "")


def _entry(value: Any) -> str:
    if callable(value):
        return _chain(value)
    return ",".join(_chain(v) if callable(v) else type(v).__name__ for v in value)


def fingerprint() -> str:
    """Every table of the engine and of the cards, in order, with each entry's wrapper chain."""
    from domain.tapestry import cards, engine

    lines = []
    for module in (engine, cards):
        lines.extend(_tables(module))
    return "\n".join(lines)


def _tables(module: ModuleType) -> list[str]:
    lines = []
    for name in sorted(vars(module)):
        value = getattr(module, name)
        if not name.isupper():
            continue
        if isinstance(value, dict):
            lines.extend(f"{name}[{key}]={_entry(entry)}" for key, entry in value.items())
        elif isinstance(value, list):
            lines.append(f"{name}={_entry(value)}")
    return lines


def _fingerprint_after(entry: str) -> str:
    code = (
        "import importlib, sys; importlib.import_module(sys.argv[1]); "
        "from tests.tapestry.test_registration_order import fingerprint; print(fingerprint())"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, entry], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def reference() -> str:
    """The tables as the service builds them (through the game registry)."""
    return _fingerprint_after(ENTRY_POINTS[0])


def test_the_reference_holds_the_hooks_and_wrappers(reference: str) -> None:
    """The fingerprint is not empty: it lists the hooks in the service's order and a token
    wrapped by a card (Sailing's exploration)."""
    after_emit = next(line for line in reference.splitlines() if line.startswith("AFTER_EMIT="))
    hooks = after_emit.split(",")
    architects = hooks.index("domain.tapestry.civ_architects._after_emit")
    collectors = hooks.index("domain.tapestry.civ_collectors._after_emit")
    assert architects < collectors
    assert "TOKENS[explore]=domain.tapestry.cards_era._sail_token.<locals>.handler(" in reference


@pytest.mark.parametrize("entry", ENTRY_POINTS[1:])
def test_any_first_import_gives_the_same_tables(entry: str, reference: str) -> None:
    """Importing ``entry`` first builds exactly the service's tables."""
    assert _fingerprint_after(entry) == reference
