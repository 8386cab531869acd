"""Determinism (issue "Foundation"): the same seed and commands give byte-identical event
hashes in two processes with different ``PYTHONHASHSEED``."""

from __future__ import annotations

import os
import subprocess
import sys

SCRIPT = """
import sys
from tests.harness import random_game
table = random_game("riseandfall", int(sys.argv[1]), int(sys.argv[2]))
print(len(table.envelopes), table.envelopes[-1].hash)
"""


def _run(hash_seed: str, seats: int, seed: int) -> str:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(seats), str(seed)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def test_same_seed_same_hashes_across_processes() -> None:
    """Two processes, different hash seeds, same seed and bots: identical final hash."""
    for seats, seed in [(2, 1), (4, 2)]:
        first = _run("1", seats, seed)
        second = _run("12345", seats, seed)
        assert first == second
        assert first.split()[0] != "0"
