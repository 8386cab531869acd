"""Closing the read models while the runner's thread works on them.

A server's read-model process stops when its parent goes away; the runner used to close the
file after joining its thread for at most a few seconds, and a thread still inside a batch
then ran on a closed connection — a segmentation fault of the read-model process, seen once
in ``make long``'s PostgreSQL crash test. ``annales projections run`` printed an error on
SIGTERM, reading the position from the closed file. Now the file is closed only between
batches, and the position still answers afterwards.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

from projections.runner import ReadModelRunner
from service.store.feed import START
from tests.projections.conftest import Played

ROOT = Path(__file__).resolve().parents[2]


def test_close_waits_for_the_batch_and_the_thread_then_applies_nothing(
    played: Played, tmp_path: Path
) -> None:
    """The runner's thread works through the log in small batches; ``close()`` from another
    thread in the middle waits for the current batch, after which the position stays where it
    was and nothing more is applied; a new runner on the same file then catches up to the
    store's head."""
    path = str(tmp_path / "readmodels.db")
    runner = ReadModelRunner(played.store, path, batch_size=3, cache_size=1)
    runner.start()
    deadline = time.monotonic() + 60
    while runner.position == START and time.monotonic() < deadline:
        time.sleep(0.001)
    head = played.store.feed_head()
    assert START < runner.position < head, "close while the thread is still catching up"
    runner.close()
    closed_at = runner.position
    time.sleep(0.2)  # the thread keeps looking: every step now applies nothing
    assert runner.position == closed_at < head
    assert runner.error is None
    runner.stop()
    assert runner.position == closed_at
    again = ReadModelRunner(played.store, path, batch_size=500)
    again.catch_up()
    assert again.position == head
    again.close()


def test_projections_run_stops_cleanly_on_sigterm(played: Played, tmp_path: Path) -> None:
    """``annales projections run`` follows the store, and on SIGTERM says where it stopped
    and exits 0 (it used to report an error: the position was read from the closed file)."""
    readmodels = tmp_path / "follow.readmodels.db"
    process = subprocess.Popen(
        [
            sys.executable, "-m", "annales_cli.main", "projections", "run",
            "--db", str(played.directory / "events.db"), "--readmodels", str(readmodels),
        ],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    assert process.stdout is not None
    first = process.stdout.readline()
    assert "following the log" in first, first
    process.send_signal(signal.SIGTERM)
    output, _ = process.communicate(timeout=30)
    assert process.returncode == 0, first + output
    assert "stopped at position" in output and "error" not in output.lower(), output
