"""Hypothesis-driven fuzzing of every RPC against a real server subprocess, on both stores.

Issue "Scale-out on PostgreSQL and a reliability suite", item 4: structurally valid but
adversarial messages (actions for the wrong game or seat, out-of-range numbers, empty and
huge strings, random bytes, stale and future versions, replayed idempotency keys with other
payloads, bad / missing / other seats' tokens) and raw malformed protobuf bytes: every call
gets a typed status, state is unchanged unless the action was legal, the server stays up.

The normal run makes ``FUZZ_CASES`` cases (default 10,000) on SQLite and ``FUZZ_PG_CASES``
(default 1,000) on PostgreSQL, from a fixed seed (``derandomize``; set ``FUZZ_SEED`` for
other cases), in batches of :data:`BATCH` per hypothesis example, checking the whole server
(health, every game's version) after each example and every game's log at the end.
``make fuzz`` runs more (100,000 and 10,000 by default there).
"""

from __future__ import annotations

import math
import os
import resource
from pathlib import Path

import pytest
from annales.v1 import annales_pb2 as pb
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from service.store.config import StoreConfig
from tests.api.conftest import ServerProcess, start_server, stop_server
from tests.fuzz.cases import Call, Creds, Raw, Target, cases
from tests.fuzz.runner import Fuzzer

FUZZ_CASES = int(os.environ.get("FUZZ_CASES", "10000"))
FUZZ_PG_CASES = int(os.environ.get("FUZZ_PG_CASES", "1000"))
FUZZ_SEED = os.environ.get("FUZZ_SEED", "")
BATCH = 10
CASES = cases()  # built once: building the strategy tree is slow


def _report(fuzzer: Fuzzer) -> str:
    by_method: dict[str, list[str]] = {}
    for (method, code), count in sorted(fuzzer.stats.items()):
        by_method.setdefault(method, []).append(f"{code}={count}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    lines = [f"{fuzzer.cases} cases over {len(fuzzer.by_id)} games (fuzzer peak RSS {peak} MiB)"]
    lines += [f"  {method}: {' '.join(codes)}" for method, codes in by_method.items()]
    lines.append(f"  malformed-token cases checked: {dict(fuzzer.token_cases)}")
    return "\n".join(lines)


def fuzz(server: ServerProcess, count: int) -> Fuzzer:
    """Run ``count`` (rounded up to a batch) cases against ``server`` and check its logs."""
    channel = server.channel()
    fuzzer = Fuzzer(channel)
    for game_type, seats in (
        (pb.GAME_TYPE_RISE_AND_FALL, 3),
        (pb.GAME_TYPE_TAPESTRY, 2),
        (pb.GAME_TYPE_IMPERIUM, 2),
        (pb.GAME_TYPE_IMPERIUM, 1),  # solo: the C.I.V.'s turns run inside the seat's commands
        (pb.GAME_TYPE_RISE_AND_FALL, 2),
    ):
        fuzzer.create(game_type, seats, f"fuzz-seed-{game_type}-{seats}-0123456789")

    @settings(
        max_examples=math.ceil(count / BATCH),
        derandomize=not FUZZ_SEED,
        database=None,
        deadline=None,
        phases=[Phase.explicit, Phase.generate],  # no shrinking: the server has moved on
        suppress_health_check=list(HealthCheck),
    )
    @given(st.lists(CASES, min_size=BATCH, max_size=BATCH))
    def batch(drawn: list[Call | Raw]) -> None:
        for case in drawn:
            fuzzer.run(case)
        fuzzer.check_store()

    if FUZZ_SEED:
        batch = seed(int(FUZZ_SEED))(batch)
    try:
        batch()
        # every kind of malformed token once on a read of each live game, whatever was drawn
        for index in range(3):
            for kind in ("other_game", "foreign_secret", "forged", "wrong_prefix"):
                fuzzer.run(
                    Call(
                        "/annales.v1.GameService/GetView",
                        pb.GetViewRequest(),
                        Target("known", index),
                        Creds(kind, index + 1),
                    )
                )
        fuzzer.check_store(everything=True)
        fuzzer.check_logs()
    finally:
        print(_report(fuzzer))
        channel.close()
    assert fuzzer.cases >= count, _report(fuzzer)
    if count >= 1000:  # the malformed-token cases came up, both kinds
        assert fuzzer.token_cases["BAD_TOKEN"] and fuzzer.token_cases["WRONG_GAME_TOKEN"], (
            fuzzer.token_cases
        )
    output = server.output()
    assert "unexpected error" not in output and "Traceback" not in output, output[-4000:]
    return fuzzer


def test_fuzz_every_rpc_sqlite(fuzz_server: ServerProcess) -> None:
    """≥ FUZZ_CASES adversarial calls on SQLite: typed statuses, no change unless legal,
    the server still up (and shutting down cleanly afterwards)."""
    fuzz(fuzz_server, FUZZ_CASES)


@pytest.mark.postgres
def test_fuzz_every_rpc_postgres(pg_config: StoreConfig, tmp_path: Path) -> None:
    """≥ FUZZ_PG_CASES adversarial calls on a server using a fresh PostgreSQL database."""
    running = start_server(
        tmp_path,
        (
            "--store", "postgres", "--pg-dbname", pg_config.pg_dbname,
            "--pg-host", pg_config.pg_host, "--pg-port", str(pg_config.pg_port),
            "--pg-user", pg_config.pg_user, "--readmodels", str(tmp_path / "readmodels.db"),
        ),
    )  # fmt: skip
    try:
        fuzz(running, FUZZ_PG_CASES)
    finally:
        code = stop_server(running)
    assert code == 0, f"server did not shut down cleanly (exit {code}):\n{running.output()[-4000:]}"
