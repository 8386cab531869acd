"""What an operator's check of docs/operations.md found in the command line (2026-12-07):
``annales demo`` wrote ``data/annales.db`` whatever ``ANNALES_DB`` said, and ``annales
projections rebuild`` on PostgreSQL without ``--readmodels`` rebuilt a new file named after
its own process id (no server's)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.api.conftest import ROOT


def _annales(*arguments: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "annales_cli.main", *arguments], capture_output=True, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), **env}, cwd=cwd, timeout=300, check=False,
    )  # fmt: skip


def test_demo_uses_the_store_of_the_environment(tmp_path: Path) -> None:
    """Without --db, demo plays into $ANNALES_DB, as the other store commands do."""
    store = tmp_path / "elsewhere.db"
    env = {"ANNALES_DB": str(store), "ANNALES_STORE": "sqlite"}
    done = _annales("demo", "--players", "2", "--seed", "operator", "--bot", "random",
                    env=env, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert store.exists() and not (tmp_path / "data" / "annales.db").exists()


def test_rebuild_on_postgres_asks_which_file(tmp_path: Path) -> None:
    """On PostgreSQL each server has its own read-model file: without --readmodels the
    command says so (exit 1) and writes nothing."""
    done = _annales("projections", "rebuild", env={"ANNALES_STORE": "postgres"}, cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "--readmodels" in done.stderr + done.stdout and "Traceback" not in done.stderr
    assert not (tmp_path / "data").exists()
