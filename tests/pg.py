"""A fresh PostgreSQL database per test, dropped afterwards (the server this machine runs).

When PostgreSQL is unreachable, tests using :func:`pg_config` are skipped with a clear message
on a developer machine, and fail when ``ANNALES_REQUIRE_POSTGRES=1`` (set by ``.ci/run``).
Import the fixture into a test module with ``from tests.pg import pg_config``.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator

import psycopg
import pytest

from service.store.config import StoreConfig

HOST = os.environ.get("ANNALES_PG_HOST", "127.0.0.1")
PORT = int(os.environ.get("ANNALES_PG_PORT", "5432"))
USER = os.environ.get("ANNALES_PG_USER", "postgres")


def admin_connection() -> psycopg.Connection[tuple[object, ...]]:
    """An autocommit connection to the ``postgres`` maintenance database."""
    return psycopg.connect(
        host=HOST, port=PORT, user=USER, dbname="postgres", autocommit=True, connect_timeout=5
    )


@pytest.fixture
def pg_config() -> Iterator[StoreConfig]:
    """A fresh PostgreSQL database for one test, dropped afterwards."""
    with fresh_database() as config:
        yield config


@contextlib.contextmanager
def fresh_database() -> Iterator[StoreConfig]:
    """A fresh PostgreSQL database, dropped on exit (skips or fails like :func:`pg_config`;
    for fixtures of a wider scope)."""
    try:
        admin = admin_connection()
    except psycopg.OperationalError as error:
        if os.environ.get("ANNALES_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"PostgreSQL at {HOST}:{PORT} is required but unreachable: {error}")
        pytest.skip(f"PostgreSQL at {HOST}:{PORT} unreachable ({error}); skipping")
    name = f"annales_test_{uuid.uuid4().hex[:12]}"
    admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield StoreConfig(kind="postgres", pg_dbname=name, pg_host=HOST, pg_port=PORT, pg_user=USER)
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()
