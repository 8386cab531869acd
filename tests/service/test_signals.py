"""Stopping on SIGTERM / SIGINT when the signal reaches a thread other than the main one
(``service.api.signals``): the kernel may hand a process's signal to any thread that does not
block it, and a main thread blocked in ``Event.wait()`` without a timeout is then never woken
to run the Python handler — the cause considered for a server that did not stop within 20 s
of its SIGTERM in one CI run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: a process that waits like ``annales serve`` while a worker thread receives the signal
SCRIPT = """
import signal, sys, threading, time
from service.api.signals import stop_on_signals, wait_for_stop

stopping = stop_on_signals()

def worker() -> None:
    time.sleep(0.3)
    signal.pthread_kill(threading.get_ident(), getattr(signal, sys.argv[1]))

threading.Thread(target=worker).start()
wait_for_stop(stopping)
print("stopped", flush=True)
"""


@pytest.mark.parametrize("name", ["SIGTERM", "SIGINT"])
def test_a_signal_received_by_another_thread_stops_the_main_one(name: str) -> None:
    """The signal goes to a worker thread (``pthread_kill``), not the main one; the main
    thread's wait still ends and the process exits 0 (with a plain ``Event.wait()`` there,
    the process hangs until the 20-second timeout)."""
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, name],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=20,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "stopped"
