"""Where a SubmitAction's server CPU goes: a yappi profile of the write path (by hand).

A server (``--no-projections`` equivalent: no read-model runner) runs in a child process under
yappi's CPU clock, every thread profiled; this process drives it with the write-path benchmark's
SubmitAction load (``tests/bench/writepath.py``: one seeded Rise & Fall game per client thread,
``expected_version`` and an idempotency key on every call) at ``INFLIGHT`` calls in flight, then
the child prints the functions with the most inclusive CPU time per acknowledged command, and
the shares of a few named parts of the handler.

``PROFILE_PSTATS=FILE`` also saves the profile in ``pstats`` format (callers, callees). Needs
``yappi`` (``.venv/bin/pip install yappi``; not a dependency of the project). Run::

    .venv/bin/python -m tests.bench.profile_writepath [INFLIGHT] [sqlite|postgres]
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: the handler's parts whose inclusive CPU time is printed, by yappi's full function name
PARTS = (
    ("handler (SubmitAction)", "Servicer.SubmitAction"),
    ("GameService.submit", "GameService.submit"),
    ("Match.execute", "Match.execute"),
    ("the append (EventStore.append)", "EventStore.append"),
    ("response redaction (Redactor.submitted)", "Redactor.submitted"),
    ("  of which the secret scan (Redactor._guard)", "Redactor._guard"),
    ("response redaction, re-fold path (Redactor.outgoing)", "Redactor.outgoing"),
    ("token check (identify)", "identify"),
    ("action conversion (convert.read)", "read"),
    ("pending (_pending)", "_pending"),
    ("snapshots (_maybe_snapshot)", "GameService._maybe_snapshot"),
)


def start_server(directory: str, store: str) -> Any:
    """A server without read-model runner on a SQLite file in ``directory``, or on the
    PostgreSQL database named ``directory``, on any free port."""
    from service.api.server import start
    from service.store.config import StoreConfig

    if store == "postgres":
        from tests.pg import HOST, PORT, USER

        config = StoreConfig(
            kind="postgres", pg_dbname=directory, pg_host=HOST, pg_port=PORT, pg_user=USER
        )
    else:
        config = StoreConfig(kind="sqlite", path=str(Path(directory) / "events.db"))
    return start(config, port=0, projections=False, readmodels=f"{directory}/rm.db")


def _serve(directory: str, store: str, ready: Any, stop: Any, port: Any) -> None:
    import yappi

    running = start_server(directory, store)
    port.value = running.port
    yappi.set_clock_type("cpu")
    ready.set()
    stop.wait()  # set by the driver when the measured load begins... and again when it ends
    yappi.start(builtins=False, profile_threads=True)
    stop.clear()
    stop.wait()
    yappi.stop()
    stats = yappi.get_func_stats()
    saved = os.environ.get("PROFILE_PSTATS")
    if saved:  # for pstats: callers and callees of any function
        stats.save(saved, type="pstat")
    by_name: dict[str, float] = {}
    for entry in stats:
        by_name[entry.name] = max(by_name.get(entry.name, 0.0), entry.ttot)
    total = sum(t.ttot for t in yappi.get_thread_stats())
    handler = by_name.get("Servicer.SubmitAction", 0.0)
    print(f"profiled CPU {total:.2f} s, of which the SubmitAction handler {handler:.2f} s")
    for label, name in PARTS:
        spent = by_name.get(name, 0.0)
        print(f"  {label:<55} {spent:7.2f} s  {spent / handler * 100 if handler else 0:5.1f} %")
    print("top functions by inclusive CPU time:")
    stats.sort("ttot", "desc")
    for entry in list(stats)[:70]:
        print(f"  {entry.ttot:7.2f} s tot {entry.tsub:7.2f} s own {entry.ncall:>8}  "
              f"{entry.name} ({Path(entry.module).name}:{entry.lineno})")  # fmt: skip
    running.stop(1.0)


def main(argv: list[str], serve: Callable[..., None] | None = None) -> None:
    """Profile the server under the write-path load and print where its CPU goes
    (``serve``: the child's function, default this module's yappi profile; it gets the
    directory or database, the store kind, the ready and stop events and the port value)."""
    inflight = int(argv[0]) if argv else 64
    store = argv[1] if len(argv) > 1 else "sqlite"
    context = multiprocessing.get_context("spawn")
    ready, stop, port = context.Event(), context.Event(), context.Value("i", 0)
    target = serve or _serve
    with tempfile.TemporaryDirectory() as tmp:
        if store == "postgres":
            from tests.pg import fresh_database

            with fresh_database() as config:
                _drive(context, target, config.pg_dbname, store, (ready, stop, port), inflight)
        else:
            _drive(context, target, tmp, store, (ready, stop, port), inflight)


def _drive(
    context: Any,
    serve: Callable[..., None],
    directory: str,
    store: str,
    signals: tuple[Any, Any, Any],
    inflight: int,
) -> None:

    from tests.api.conftest import ServerProcess
    from tests.bench.api import _percentile, _run_threads, _stubs
    from tests.bench.writepath import cpu_seconds, game_players, scripts

    ready, stop, port = signals
    child = context.Process(target=serve, args=(directory, store, ready, stop, port))
    child.start()
    ready.wait(120)
    server = ServerProcess(child, port.value, Path(directory) / "none.db", Path(directory) / "x")
    channels, stubs, _ = _stubs(server, inflight)
    seeds, games = scripts(inflight)
    work = game_players(stubs, seeds, games, "p")

    stop.set()  # start profiling
    time.sleep(0.5)
    cpu0 = cpu_seconds(child.pid)
    wall, latencies = _run_threads(inflight, work)
    cpu = cpu_seconds(child.pid) - cpu0
    stop.set()  # stop profiling and print
    child.join(120)
    for channel in channels:
        channel.close()
    print(
        f"@{inflight}: {len(latencies) / wall:,.0f}/s p50 {_percentile(latencies, 0.5) * 1000:.2f}"
        f" ms | server CPU per acknowledged command {cpu / len(latencies) * 1000:.2f} ms "
        "(measured with the instrumentation on)"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
