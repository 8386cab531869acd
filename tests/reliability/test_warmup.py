"""Regression test for the crash the crash harness found: a restarted server died with a
segmentation fault when its first concurrent requests decoded game states for the first time
(msgspec builds a Struct type's decoding information lazily, and not thread-safely).
``annales serve`` now calls :func:`service.app.warmup.warm_up` before serving.

Without the warm-up, ``python -m tests.reliability.first_decode`` died in 6 of 10 runs on the
2-core machine; with it, none may.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from service.app.warmup import struct_types, warm_up

ROOT = Path(__file__).resolve().parents[2]


def test_first_concurrent_decodes_after_warm_up_never_crash() -> None:
    """Twelve threads decoding every game's state at once, right after the warm-up, in fresh
    processes (three runs): each prints ``ok`` and exits 0."""
    for _ in range(3):
        done = subprocess.run(
            [sys.executable, "-m", "tests.reliability.first_decode", "--warm"],
            cwd=ROOT, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert done.returncode == 0, (done.returncode, done.stderr[-3000:])
        assert done.stdout.strip() == "ok"


def test_warm_up_prepares_every_game_state_type() -> None:
    """The warm-up covers the states, events and commands of every registered game."""
    from domain.registry import GAMES, get_codec

    assert warm_up() > 0
    names = {f"{cls.__module__}.{cls.__qualname__}" for cls in struct_types()}
    for name, game in GAMES.items():
        codec = get_codec(name)
        wanted = [game.state_type, game.options_type, *codec.event_classes.values(),
                  *codec.command_classes.values()]  # fmt: skip
        missing = [c for c in wanted if f"{c.__module__}.{c.__qualname__}" not in names]
        assert not missing, (name, missing)
