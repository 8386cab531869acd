"""``ANNALES_*`` settings: a bad value is refused with a sentence naming the variable — at
``annales serve``'s start, not by a later call (an operator's check, 2026-12-07: a bad
``ANNALES_ABANDONED_AFTER`` made every ListGames INTERNAL; ``ANNALES_READ_FRESHNESS=soon`` and
``ANNALES_VIEW_CACHE=x`` were silently the defaults; ``ANNALES_PG_PORT=abc`` printed "unexpected
ValueError: invalid literal for int()"; a taken port "unexpected RuntimeError")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from service import settings
from service.store.config import StoreConfig
from tests.api.conftest import ROOT, free_port


@pytest.mark.parametrize(
    ("variable", "value"),
    [("ANNALES_SNAPSHOT_EVERY", "abc"), ("ANNALES_SNAPSHOT_EVERY", "-5"),
     ("ANNALES_PG_PORT", "abc"), ("ANNALES_PG_POOL_SIZE", "0"),
     ("ANNALES_GROUP_COMMIT", "maybe")],
)  # fmt: skip
def test_store_settings_name_the_variable(variable: str, value: str) -> None:
    """StoreConfig.from_env refuses the value with a sentence naming the variable."""
    with pytest.raises(settings.SettingError, match=variable):
        StoreConfig.from_env({variable: value})


def test_values_taken() -> None:
    """Unset or empty: the default; spellings of on and off; 0 snapshots means none."""
    assert settings.integer("X", 7, environ={}) == 7
    assert settings.integer("X", 7, environ={"X": " "}) == 7
    assert settings.number("X", 1.0, environ={"X": "0.25"}) == 0.25
    assert [settings.flag("X", {"X": v}) for v in ("on", "0", "")] == [True, False, None]
    assert StoreConfig.from_env({"ANNALES_SNAPSHOT_EVERY": "0"}).snapshot_every == 0
    with pytest.raises(settings.SettingError, match="must be a number"):
        settings.number("X", 1.0, environ={"X": "inf"})


@pytest.mark.parametrize(
    ("variable", "value"),
    [("ANNALES_ABANDONED_AFTER", "zz"), ("ANNALES_READ_FRESHNESS", "soon"),
     ("ANNALES_VIEW_CACHE", "x"), ("ANNALES_PG_PORT", "abc")],
)  # fmt: skip
def test_serve_refuses_a_bad_setting_at_start(tmp_path: Path, variable: str, value: str) -> None:
    """The server does not start: exit 1, ``error: VARIABLE='value': …``, no traceback."""
    import os

    env = {**os.environ, variable: value, "PYTHONPATH": str(ROOT)}
    env.pop("ANNALES_STORE", None)
    done = subprocess.run(
        [sys.executable, "-m", "annales_cli.main", "serve", "--port", str(free_port()),
         "--db", str(tmp_path / "a.db"), "--no-projections"],
        capture_output=True, text=True, env=env, timeout=120, check=False, cwd=ROOT,
    )  # fmt: skip
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert f"error: {variable}='{value}'" in output and "Traceback" not in output
