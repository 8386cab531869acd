"""Projection lag seen from outside a server, under the gRPC benchmark load.

:class:`LagProbe` watches the read-model file of an ``annales serve`` subprocess (the runner
inside the server writes it) while the SubmitAction benchmark plays: for every acknowledged
SubmitAction it records the game, the new version and two instants — when the request was
sent and when the answer arrived. A thread polls the ``games`` read model every millisecond;
when the game's row reaches that version the command is visible. The lag from the
acknowledgement is a lower bound of "commit → visible" (the commit happened before the
answer), the lag from the send an upper bound; both are printed.
"""

from __future__ import annotations

import sqlite3
import statistics
import threading
import time
from pathlib import Path


class LagProbe:
    """Polls ``readmodels`` for acknowledged versions and collects lags (seconds)."""

    def __init__(self, readmodels: Path) -> None:
        self.readmodels = readmodels
        self._pending: list[tuple[str, int, float, float]] = []
        self._guard = threading.Lock()
        self.from_ack: list[float] = []
        self.from_send: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._poll, daemon=True)

    def __enter__(self) -> LagProbe:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        deadline = time.monotonic() + 30
        while self._pending and time.monotonic() < deadline:
            time.sleep(0.01)
        self._stop.set()
        self._thread.join()

    def wait_ready(self, timeout: float = 60.0) -> float:
        """Wait until the runner has created the read models (it follows the store from then
        on); the seconds waited. A lag measured before that would be the runner's start-up."""
        started = time.perf_counter()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.readmodels.exists():
                connection = sqlite3.connect(f"file:{self.readmodels}?mode=ro", uri=True)
                try:
                    connection.execute("SELECT game_id FROM games LIMIT 1").fetchall()
                    return time.perf_counter() - started
                except sqlite3.OperationalError:
                    pass
                finally:
                    connection.close()
            time.sleep(0.01)
        raise TimeoutError(f"no read models in {self.readmodels} after {timeout} s")

    def acknowledged(self, game_id: str, version: int, sent: float, acked: float) -> None:
        """Note an acknowledged command (``time.perf_counter`` instants)."""
        with self._guard:
            self._pending.append((game_id, version, sent, acked))

    def _poll(self) -> None:
        connection: sqlite3.Connection | None = None
        while not self._stop.is_set():
            if connection is None:
                if not self.readmodels.exists():
                    time.sleep(0.01)
                    continue
                connection = sqlite3.connect(f"file:{self.readmodels}?mode=ro", uri=True)
            try:
                rows = connection.execute("SELECT game_id, version FROM games").fetchall()
            except sqlite3.OperationalError:  # created, or rebuilt, right now
                time.sleep(0.001)
                continue
            now = time.perf_counter()
            versions = {str(game_id): int(version or 0) for game_id, version in rows}
            with self._guard:
                keep = []
                for item in self._pending:
                    game_id, version, sent, acked = item
                    if versions.get(game_id, -1) >= version:
                        self.from_ack.append(max(0.0, now - acked))
                        self.from_send.append(now - sent)
                    else:
                        keep.append(item)
                self._pending = keep
            time.sleep(0.001)
        if connection is not None:
            connection.close()

    def summary(self) -> str:
        """``p50 / p99`` in milliseconds, from the acknowledgement and from the send."""
        if not self.from_ack:
            return "projection lag: no sample"
        ack = sorted(self.from_ack)
        send = sorted(self.from_send)

        def p99(values: list[float]) -> float:
            return values[min(len(values) - 1, int(len(values) * 0.99))] * 1000

        return (
            f"projection lag under this load ({len(ack)} commands): from ack p50 "
            f"{statistics.median(ack) * 1000:.1f} ms, p99 {p99(ack):.1f} ms | from send "
            f"(upper bound) p50 {statistics.median(send) * 1000:.1f} ms, p99 {p99(send):.1f} ms"
        )
