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
* the parent supervises the child: a child that died (killed, crashed) is started again
  within ``RESPAWN_CHECK`` seconds by a watchdog thread (and at once by :meth:`wait_for`), so
  the read models never silently stop following the log (``restarts`` counts them);
* :meth:`RunnerProcess.wait_for` reads the tracked position from the read-model file, so
  read-model RPCs can still wait for the events committed before them.

The exactly-once guarantee is the runner's (one transaction per batch with its tracking row),
so killing the child at any point loses nothing.

Run by hand:
``ANNALES_DB=data/annales.db python -m projections.process data/annales.readmodels.db``.
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
from service.app.warmup import warm_up
from service.store.config import StoreConfig
from service.store.eventstore import EventStore
from service.store.feed import START, Position

log = logging.getLogger("annales.projections")

#: seconds between two checks that the child is still alive
RESPAWN_CHECK = 0.5


class RunnerProcess:
    """A read-model runner in a child process, woken through a pipe."""

    def __init__(self, config: StoreConfig, path: str, poll_interval: float = 0.05) -> None:
        self.path = path
        self._command = [sys.executable, "-m", "projections.process", path, str(poll_interval)]
        self._env = {**os.environ, **config.environment()}
        self._guard = threading.Lock()
        self._spawn_guard = threading.Lock()
        self._pipe_guard = threading.Lock()  # the pipe's fd is never used after its close
        self._stopping = threading.Event()
        self._db: sqlite3.Connection | None = None
        self.restarts = 0
        self.process = self._spawn()
        self._watchdog = threading.Thread(
            target=self._watch, name="annales-projections-watchdog", daemon=True
        )
        self._watchdog.start()

    def _spawn(self) -> subprocess.Popen[bytes]:
        process = subprocess.Popen(self._command, stdin=subprocess.PIPE, env=self._env)
        assert process.stdin is not None
        os.set_blocking(process.stdin.fileno(), False)
        with self._pipe_guard:
            self._fd = process.stdin.fileno()
        return process

    def _close_pipe(self, process: subprocess.Popen[bytes]) -> None:
        with self._pipe_guard, contextlib.suppress(OSError):
            assert process.stdin is not None
            if not process.stdin.closed and process.stdin.fileno() == self._fd:
                self._fd = -1  # later wake-ups fail harmlessly (EBADF)
            process.stdin.close()

    def ensure_running(self) -> bool:
        """Start the child again if it died (unless stopping); ``True`` when it runs."""
        if self._stopping.is_set():
            return False
        if self.process.poll() is None:
            return True
        with self._spawn_guard:
            if self._stopping.is_set():
                return False
            if self.process.poll() is not None:
                log.warning(
                    '{"event": "projections_restarted", "exit": %s}', self.process.returncode
                )
                dead = self.process
                self.process = self._spawn()
                self._close_pipe(dead)
                self.restarts += 1
        return True

    def _watch(self) -> None:
        while not self._stopping.wait(RESPAWN_CHECK):
            try:
                self.ensure_running()
            except OSError as error:  # cannot fork now: try again at the next check
                log.error("cannot restart the read-model runner: %r", error)

    def wake(self, *args: object) -> None:
        """Tell the child that something was committed (never blocks)."""
        # a full pipe: the child will look anyway; a closed one: it is stopping
        with self._pipe_guard, contextlib.suppress(ValueError, OSError):
            os.write(self._fd, b".")

    @property
    def position(self) -> Position:
        """The feed position of the last event applied, read from the read-model file."""
        with self._guard:
            try:
                if self._db is None:
                    if not os.path.exists(self.path):
                        return START
                    self._db = sqlite3.connect(self.path, check_same_thread=False, timeout=5)
                row = self._db.execute(
                    f"SELECT xact, notification_id FROM {TRACKING_TABLE} "
                    "WHERE application_name = ?",
                    [APPLICATION_NAME],
                ).fetchone()
            except sqlite3.OperationalError:  # the child is creating or swapping tables
                return START
        return START if row is None else (int(row[0]), int(row[1]))

    def wait_for(self, position: Position, timeout: float = 1.0) -> bool:
        """Block until the feed ``position`` is applied (``True``) or ``timeout`` passes."""
        deadline = time.monotonic() + timeout
        while self.position < position:
            if time.monotonic() >= deadline or not self.ensure_running():
                return False
            self.wake()
            time.sleep(0.002)
        return True

    def stop(self, timeout: float = 10.0) -> None:
        """Close the pipe: the child finishes its batch and exits (terminated after
        ``timeout``)."""
        with self._spawn_guard:
            self._stopping.set()
        self._close_pipe(self.process)
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
    runner = ReadModelRunner(store, path, poll_interval=poll)  # creates the tables
    warm_up()  # before the runner's threads decode anything (see service.app.warmup)
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
