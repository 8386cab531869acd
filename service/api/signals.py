"""Stopping a long-running process on SIGTERM or SIGINT.

A Python signal handler runs in the main thread, between two bytecodes. When the kernel
delivers the signal to another thread of the process (a gRPC or worker thread: any thread
that does not block it may receive it), a main thread blocked in ``Event.wait()`` without a
timeout is not woken: the handler waits until something else wakes that thread, which may
be never. :func:`wait_for_stop` therefore waits in short slices, so that a pending handler
runs within one slice whichever thread received the signal.
"""

from __future__ import annotations

import signal
import threading

#: the longest a pending SIGTERM or SIGINT handler waits for the main thread (seconds)
SIGNAL_POLL_S = 0.25


def stop_on_signals() -> threading.Event:
    """An event set by SIGTERM and SIGINT (handlers installed now, from the main thread)."""
    stopping = threading.Event()

    def on_signal(signum: int, frame: object) -> None:
        stopping.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    return stopping


def wait_for_stop(stopping: threading.Event) -> None:
    """Block the main thread until ``stopping`` is set, waking every
    :data:`SIGNAL_POLL_S` seconds so that signal handlers run."""
    while not stopping.wait(SIGNAL_POLL_S):
        pass
