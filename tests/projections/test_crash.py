"""Crash safety: a runner killed (SIGKILL) in the middle of a catch-up resumes exactly."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from projections.runner import rebuild
from projections.schema import APPLICATION_NAME, ReadModelTracking, connect, table_rows
from tests.projections.conftest import Played

ROOT = Path(__file__).resolve().parents[2]


def _position(path: Path) -> int:
    if not path.exists():
        return 0
    try:
        db = connect(str(path))
        try:
            return ReadModelTracking(db).max_tracking_id(APPLICATION_NAME) or 0
        finally:
            db.close()
    except Exception:  # the file may be half-created
        return 0


def _runner(db: Path, readmodels: Path, *extra: str) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "annales_cli.main", "projections", "run", "--db", str(db),
               "--readmodels", str(readmodels), "--batch", "10", *extra]  # fmt: skip
    return subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        env=dict(os.environ, ANNALES_STORE="sqlite"),
    )  # fmt: skip


def test_sigkill_during_catch_up_then_resume(played: Played) -> None:
    """Requirement 2: SIGKILL the standalone runner mid catch-up, restart it: the tables
    equal a rebuild (nothing applied twice, nothing skipped)."""
    db = played.directory / "events.db"
    target = played.store.max_notification_id()
    killed_at = []
    for attempt in range(2):  # kill twice, at different points
        readmodels = played.directory / "crash.db"
        process = _runner(db, readmodels)
        deadline = time.monotonic() + 90
        threshold = target * (0.2 + 0.3 * attempt)
        while _position(readmodels) < threshold and time.monotonic() < deadline:
            if process.poll() is not None:
                raise AssertionError(process.stdout.read().decode() if process.stdout else "")
            time.sleep(0.02)
        process.send_signal(signal.SIGKILL)
        process.wait()
        killed_at.append(_position(readmodels))
    assert 0 < killed_at[0] < target, killed_at  # really killed in the middle
    finish = _runner(db, played.directory / "crash.db", "--once")
    output, _ = finish.communicate(timeout=180)
    assert finish.returncode == 0, output.decode()
    rebuilt = played.directory / "crash-rebuilt.db"
    rebuild(played.store, str(rebuilt))
    assert table_rows(connect(str(played.directory / "crash.db"))) == table_rows(
        connect(str(rebuilt))
    )
