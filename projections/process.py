"""The read-model runner as a child process of ``annales serve``.

Inside the server, a runner thread competes for the interpreter lock with every RPC thread:
measured with 64 SubmitActions in flight, its lag grew to seconds (``make bench``). The
server therefore runs the runner in a child process (:class:`RunnerProcess`), which has an
interpreter of its own:

* the parent writes one byte to the child's stdin after every durable append (never
  blocking: a full pipe already means "look again"), and the child's runner wakes up at once —
  on SQLite, where there is no subscription; on PostgreSQL the child follows the store's
  ``LISTEN/NOTIFY`` subscription and the bytes are only a hint;
* the child ends when its stdin closes (the parent stopped, or died), after the current batch;
* :meth:`RunnerProcess.wait_for` reads the tracked position from the read-model file, so
  read-model RPCs can still wait for the events committed before them.

The exactly-once guarantee is the runner's (one transaction per batch with its tracking row),
so killing the child at any point loses nothing.

Run by hand: ``ANNALES_DB=data/annales.db python -m projections.process data/readmodels.db``.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time

from projections.runner import ReadModelRunner
from projections.schema import APPLICATION_NAME, TRACKING_TABLE
from service.config import StoreConfig
from service.store import EventStore

log = logging.getLogger("annales.projections")


class RunnerProcess:
    """A read-model runner in a child process, woken through a pipe."""

    def __init__(self, config: StoreConfig, path: str, poll_interval: float = 0.05) -> None:
        self.path = path
        env = {**os.environ, **config.environment()}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "projections.process", path, str(poll_interval)],
            stdin=subprocess.PIPE,
            env=env,
        )
        assert self.process.stdin is not None
        self._fd = self.process.stdin.fileno()
        os.set_blocking(self._fd, False)
        self._guard = threading.Lock()
        self._db: sqlite3.Connection | None = None

    def wake(self, *args: object) -> None:
        """Tell the child that something was committed (never blocks)."""
        # a full pipe: the child will look anyway; a closed one: it is stopping
        with contextlib.suppress(ValueError, OSError):
            os.write(self._fd, b".")

    @property
    def position(self) -> int:
        """The last notification id applied, read from the read-model file."""
        with self._guard:
            try:
                if self._db is None:
                    if not os.path.exists(self.path):
                        return 0
                    self._db = sqlite3.connect(self.path, check_same_thread=False, timeout=5)
                row = self._db.execute(
                    f"SELECT MAX(notification_id) FROM {TRACKING_TABLE} WHERE application_name = ?",
                    [APPLICATION_NAME],
                ).fetchone()
            except sqlite3.OperationalError:  # the child is creating or swapping tables
                return 0
        return 0 if row is None or row[0] is None else int(row[0])

    def wait_for(self, notification_id: int, timeout: float = 1.0) -> bool:
        """Block until ``notification_id`` is applied (``True``) or ``timeout`` passes."""
        deadline = time.monotonic() + timeout
        while self.position < notification_id:
            if time.monotonic() >= deadline or self.process.poll() is not None:
                return False
            self.wake()
            time.sleep(0.002)
        return True

    def stop(self, timeout: float = 10.0) -> None:
        """Close the pipe: the child finishes its batch and exits (terminated after
        ``timeout``)."""
        with contextlib.suppress(OSError):
            assert self.process.stdin is not None
            self.process.stdin.close()
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.terminate()
            self.process.wait(timeout)
        with self._guard:
            if self._db is not None:
                self._db.close()
                self._db = None


def main(argv: list[str]) -> int:
    """The child: follow the store of ``ANNALES_*`` into the file ``argv[0]`` until stdin
    closes (``argv[1]``: seconds between polls when not woken)."""
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a terminal's Ctrl-C: the parent decides
    path = argv[0]
    poll = float(argv[1]) if len(argv) > 1 else 0.05
    store = EventStore(StoreConfig.from_env())
    runner = ReadModelRunner(store, path, poll_interval=poll)
    runner.start()
    stdin = sys.stdin.buffer.fileno()
    try:
        while os.read(stdin, 65536):
            runner.wake()
    finally:
        runner.stop()
        store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
