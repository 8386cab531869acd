"""Where a SubmitAction's server CPU goes, without a profiler: per-thread CPU clocks (by hand).

The same load as :mod:`tests.bench.profile_writepath` (a server without read-model runner in
a child process, the write-path benchmark's SubmitActions at ``INFLIGHT`` in flight), but
instead of a profiler — which magnifies code made of many small calls — a few named functions
of the server are wrapped before it starts: each call adds its thread's CPU time
(``time.thread_time``) and its wall time to its function's totals. The child then prints, for
each function, its calls and its CPU per acknowledged command (a part's time includes the
parts called inside it), next to the server's whole CPU per acknowledged command read from
``/proc`` (what is not in the handler is gRPC's own work). No extra dependency. Run::

    .venv/bin/python -m tests.bench.clock_writepath [INFLIGHT] [sqlite|postgres]
"""

from __future__ import annotations

import functools
import importlib
import inspect
import os
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from tests.bench.profile_writepath import main as drive
from tests.bench.profile_writepath import start_server

#: (label, module, class or ``""`` for a module function, attribute), outermost first
PARTS: tuple[tuple[str, str, str, str], ...] = (
    ("handler, with its log line and request scope", "service.api.commands", "CommandRpcs",
     "SubmitAction"),
    ("  token check", "service.api.base", "ServicerBase", "_seat"),
    ("  action conversion", "service.api.commands", "", "read"),
    ("  command parsing", "domain.core.codec", "Codec", "command_from_data"),
    ("  submit and redact (ServicerBase._submit)", "service.api.base", "ServicerBase", "_submit"),
    ("    GameService.submit", "service.app.application", "GameService", "submit"),
    ("      Ledger.submit (engine, envelopes, hashes)", "service.app.ledger", "Ledger", "submit"),
    ("      the append", "service.store.eventstore", "EventStore", "append"),
    ("        the SQLite transaction", "service.store.sqliteinsert", "DirectInsert", "__call__"),
    ("        the PostgreSQL transaction", "service.store.pginsert", "PreparedInsert",
     "__call__"),
    ("      snapshots", "service.app.application", "GameService", "_maybe_snapshot"),
    ("    response redaction", "service.api.redaction", "Redactor", "submitted"),
    ("  pending seats", "service.api.base", "ServicerBase", "_pending"),
)  # fmt: skip


class Clocks:
    """Per-function totals of calls, thread CPU and wall time, kept per thread (no lock on
    the measured path) and summed when read."""

    def __init__(self) -> None:
        self._local = threading.local()
        self._tables: list[dict[str, list[float]]] = []
        self._guard = threading.Lock()

    def _table(self) -> dict[str, list[float]]:
        table: dict[str, list[float]] | None = getattr(self._local, "table", None)
        if table is None:
            table = {}
            self._local.table = table
            with self._guard:
                self._tables.append(table)
        return table

    def wrap(self, label: str, function: Callable[..., Any]) -> Callable[..., Any]:
        """``function`` timed under ``label``."""

        @functools.wraps(function)
        def timed(*args: Any, **kwargs: Any) -> Any:
            cpu, wall = time.thread_time(), time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                totals = self._table().setdefault(label, [0.0, 0.0, 0.0])
                totals[0] += 1
                totals[1] += time.thread_time() - cpu
                totals[2] += time.perf_counter() - wall

        return timed

    def totals(self) -> dict[str, tuple[int, float, float]]:
        """``label -> (calls, CPU seconds, wall seconds)`` over every thread."""
        summed: dict[str, list[float]] = {}
        with self._guard:
            for table in self._tables:
                for label, (calls, cpu, wall) in list(table.items()):
                    into = summed.setdefault(label, [0.0, 0.0, 0.0])
                    into[0] += calls
                    into[1] += cpu
                    into[2] += wall
        return {k: (int(v[0]), v[1], v[2]) for k, v in summed.items()}


def install(clocks: Clocks) -> None:
    """Wrap every part of :data:`PARTS` (before the server is built: gRPC binds its handlers
    when the servicer is registered)."""
    for label, module_name, class_name, attribute in PARTS:
        module = importlib.import_module(module_name)
        owner: Any = getattr(module, class_name) if class_name else module
        raw = inspect.getattr_static(owner, attribute)
        if isinstance(raw, staticmethod):
            setattr(owner, attribute, staticmethod(clocks.wrap(label, raw.__func__)))
        else:
            setattr(owner, attribute, clocks.wrap(label, getattr(owner, attribute)))


def serve_clocked(directory: str, store: str, ready: Any, stop: Any, port: Any) -> None:
    """The child: a server with clocked parts; prints the table once the load is over."""
    from tests.bench.writepath import cpu_seconds

    clocks = Clocks()
    install(clocks)
    running = start_server(directory, store)
    port.value = running.port
    ready.set()
    stop.wait()  # the measured load begins
    stop.clear()
    before, cpu0 = clocks.totals(), cpu_seconds(os.getpid())
    stop.wait()  # ... and ends
    cpu = cpu_seconds(os.getpid()) - cpu0
    after = clocks.totals()
    handled = after[PARTS[0][0]][0] - before.get(PARTS[0][0], (0, 0.0, 0.0))[0]
    print(f"server CPU per acknowledged command {cpu / max(handled, 1) * 1000:.3f} ms "
          f"({handled} SubmitActions)")  # fmt: skip
    print(f"  {'part':<52} {'calls':>7} {'CPU ms/command':>15} {'wall ms/call':>13}")
    for label, *_ in PARTS:
        calls, spent, wall = after.get(label, (0, 0.0, 0.0))
        old = before.get(label, (0, 0.0, 0.0))
        calls, spent, wall = calls - old[0], spent - old[1], wall - old[2]
        if calls:
            print(f"  {label:<52} {calls:>7} {spent / handled * 1000:>15.3f} "
                  f"{wall / calls * 1000:>13.3f}")  # fmt: skip
    running.stop(1.0)


if __name__ == "__main__":
    drive(sys.argv[1:], serve=serve_clocked)
