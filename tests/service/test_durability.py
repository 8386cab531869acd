"""Durability settings, chosen on purpose and checked (issue "Scale-out", item 6; README,
"Durability"): SQLite in WAL mode with ``synchronous=FULL``; PostgreSQL sessions with
``synchronous_commit=on`` even when the database's own default says otherwise."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from service.store.config import StoreConfig
from service.store.eventstore import EventStore
from tests.pg import admin_connection, pg_config

__all__ = ["pg_config"]


def test_sqlite_store_fsyncs_every_commit(tmp_path: Path) -> None:
    """The SQLite store runs in WAL mode with synchronous=FULL (2): an acknowledged command
    survives a crash or a power loss."""
    store = EventStore(StoreConfig(kind="sqlite", path=str(tmp_path / "d.db")))
    try:
        assert store.durability() == {"journal_mode": "wal", "synchronous": "2"}
    finally:
        store.close()


@pytest.mark.postgres
def test_postgres_sessions_commit_synchronously_whatever_the_database_says(
    pg_config: StoreConfig,
) -> None:
    """Even on a database whose default is ``synchronous_commit = off``, the store's sessions
    commit with ``on`` (and the database default really is off for other sessions)."""
    with admin_connection() as admin:
        admin.execute(f'ALTER DATABASE "{pg_config.pg_dbname}" SET synchronous_commit = off')
    with psycopg.connect(
        host=pg_config.pg_host, port=pg_config.pg_port, user=pg_config.pg_user,
        dbname=pg_config.pg_dbname,
    ) as other:  # fmt: skip
        assert other.execute("SHOW synchronous_commit").fetchone() == ("off",)
    store = EventStore(pg_config)
    try:
        assert store.durability() == {"synchronous_commit": "on", "fsync": "on"}
    finally:
        store.close()


def test_shared_flag_defaults_and_round_trip() -> None:
    """``ANNALES_SHARED`` defaults to the store kind (PostgreSQL shared, SQLite not), can be
    forced either way, survives the trip to a child process's environment, and a bad value
    is a clear error."""
    assert StoreConfig.from_env({"ANNALES_STORE": "postgres"}).shared_store
    assert not StoreConfig.from_env({"ANNALES_STORE": "sqlite"}).shared_store
    forced = StoreConfig.from_env({"ANNALES_STORE": "sqlite", "ANNALES_SHARED": "1"})
    assert forced.shared_store
    assert StoreConfig.from_env(forced.environment()) == forced
    assert not StoreConfig.from_env(
        {"ANNALES_STORE": "postgres", "ANNALES_SHARED": "0"}
    ).shared_store
    with pytest.raises(ValueError, match="ANNALES_SHARED"):
        StoreConfig.from_env({"ANNALES_SHARED": "maybe"})


def test_serve_refuses_an_unknown_store() -> None:
    """``annales serve --store`` accepts sqlite or postgres only (a clear error, no server)."""
    from annales_cli.main import app
    from typer.testing import CliRunner

    result = CliRunner().invoke(app, ["serve", "--store", "mongodb", "--port", "0"])
    assert result.exit_code != 0
    assert "sqlite or postgres" in result.output
