"""Store configuration from environment variables (or explicit values).

=============================  ============================================================
``ANNALES_STORE``              ``sqlite`` (default) or ``postgres``
``ANNALES_DB``                 SQLite: path of the event-store file (default ``./data/annales.db``)
``ANNALES_PG_DBNAME``          PostgreSQL database (default ``annales``)
``ANNALES_PG_HOST``            PostgreSQL host (default ``127.0.0.1``)
``ANNALES_PG_PORT``            PostgreSQL port (default ``5432``)
``ANNALES_PG_USER``            PostgreSQL user (default ``postgres``)
``ANNALES_PG_PASSWORD``        PostgreSQL password (default empty; never a command-line flag)
``ANNALES_PG_POOL_SIZE``       connections kept open per process (default 2)
``ANNALES_PG_MAX_OVERFLOW``    extra connections opened under load per process (default 8)
``ANNALES_SHARED``             ``1``: other processes may write the same store, so cached game
                               heads are checked against it (default: ``1`` on PostgreSQL,
                               ``0`` on SQLite, where one server owns the file)
``ANNALES_GROUP_COMMIT``       ``1`` (default): appends of several games in flight share one
                               transaction and one flush (:mod:`service.store.groupcommit`)
``ANNALES_PG_TABLE_LOCK``      ``1``: each insert transaction also takes the events table
                               ``IN EXCLUSIVE MODE`` (as the eventsourcing recorder does), one
                               commit at a time for the whole cluster; ``0`` (default): no lock
                               shared by all games (:mod:`service.store.feed`)
``ANNALES_SNAPSHOT_EVERY``     events between snapshots (default 100)
=============================  ============================================================

Durability, chosen on purpose (see README, "Durability"): SQLite runs in WAL mode with
``synchronous=FULL`` (SQLite's default, kept): a command is acknowledged only once its events
are fsynced, so an acknowledged command survives a process crash *and* a power loss.
PostgreSQL commits with the server's ``synchronous_commit`` (``on`` by default, checked by
:meth:`service.store.eventstore.EventStore.durability`): the WAL record is flushed before the commit
returns.

>>> StoreConfig(kind="sqlite", path="/tmp/x.db").eventsourcing_env()["SQLITE_DBNAME"]
'/tmp/x.db'
>>> StoreConfig(kind="postgres").shared_store, StoreConfig(kind="sqlite").shared_store
(True, False)
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from service import settings

#: the two stores (``ANNALES_STORE``).
STORE_KINDS = ("sqlite", "postgres")


@dataclass(frozen=True)
class StoreConfig:
    """Where and how events are stored."""

    kind: str = "sqlite"
    path: str = "data/annales.db"
    pg_dbname: str = "annales"
    pg_host: str = "127.0.0.1"
    pg_port: int = 5432
    pg_user: str = "postgres"
    pg_password: str = ""
    snapshot_every: int = 100
    pg_pool_size: int = 2
    pg_max_overflow: int = 8
    #: ``None``: the default of the store kind (see :attr:`shared_store`).
    shared: bool | None = None
    #: concurrent appends share transactions (see :mod:`service.store.groupcommit`).
    group_commit: bool = True
    #: PostgreSQL inserts take the events table's lock (the whole cluster's commits in line).
    pg_table_lock: bool = False

    @property
    def shared_store(self) -> bool:
        """``True`` when other processes may append to this store (PostgreSQL by default):
        the application then checks its cached game heads against the store."""
        return self.shared if self.shared is not None else self.kind == "postgres"

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> StoreConfig:
        """The configuration described by ``ANNALES_*`` environment variables."""
        env = os.environ if environ is None else environ
        return cls(
            kind=env.get("ANNALES_STORE", "sqlite"),
            path=env.get("ANNALES_DB", "data/annales.db"),
            pg_dbname=env.get("ANNALES_PG_DBNAME", "annales"),
            pg_host=env.get("ANNALES_PG_HOST", "127.0.0.1"),
            pg_port=settings.integer("ANNALES_PG_PORT", 5432, 1, env),
            pg_user=env.get("ANNALES_PG_USER", "postgres"),
            pg_password=env.get("ANNALES_PG_PASSWORD", ""),
            snapshot_every=settings.integer("ANNALES_SNAPSHOT_EVERY", 100, 0, env),
            pg_pool_size=settings.integer("ANNALES_PG_POOL_SIZE", 2, 1, env),
            pg_max_overflow=settings.integer("ANNALES_PG_MAX_OVERFLOW", 8, 0, env),
            shared=settings.flag("ANNALES_SHARED", env),
            group_commit=settings.flag("ANNALES_GROUP_COMMIT", env) is not False,
            pg_table_lock=settings.flag("ANNALES_PG_TABLE_LOCK", env) is True,
        )

    def environment(self) -> dict[str, str]:
        """The ``ANNALES_*`` variables describing this configuration (inverse of
        :meth:`from_env`), e.g. to hand it to a child process.

        >>> StoreConfig.from_env(StoreConfig(path="/tmp/y.db").environment()).path
        '/tmp/y.db'
        >>> StoreConfig.from_env(StoreConfig(shared=True).environment()).shared_store
        True
        """
        env = {
            "ANNALES_STORE": self.kind,
            "ANNALES_DB": self.path,
            "ANNALES_PG_DBNAME": self.pg_dbname,
            "ANNALES_PG_HOST": self.pg_host,
            "ANNALES_PG_PORT": str(self.pg_port),
            "ANNALES_PG_USER": self.pg_user,
            "ANNALES_PG_PASSWORD": self.pg_password,
            "ANNALES_SNAPSHOT_EVERY": str(self.snapshot_every),
            "ANNALES_PG_POOL_SIZE": str(self.pg_pool_size),
            "ANNALES_PG_MAX_OVERFLOW": str(self.pg_max_overflow),
            "ANNALES_SHARED": "" if self.shared is None else ("1" if self.shared else "0"),
            "ANNALES_GROUP_COMMIT": "1" if self.group_commit else "0",
            "ANNALES_PG_TABLE_LOCK": "1" if self.pg_table_lock else "0",
        }
        return env

    def pg_connect(self, connect_timeout: int = 5) -> Any:
        """A new autocommit psycopg connection to this PostgreSQL database (outside the
        eventsourcing pool: advisory locks, LISTEN)."""
        import psycopg

        return psycopg.connect(
            dbname=self.pg_dbname, host=self.pg_host, port=self.pg_port, user=self.pg_user,
            password=self.pg_password, autocommit=True, connect_timeout=connect_timeout,
        )  # fmt: skip

    def eventsourcing_env(self) -> dict[str, str]:
        """The environment the eventsourcing library's infrastructure factory expects."""
        common = {"ORIGINATOR_ID_TYPE": "text", "CREATE_TABLE": "y"}
        if self.kind == "sqlite":
            return {
                **common,
                "PERSISTENCE_MODULE": "eventsourcing.sqlite",
                "SQLITE_DBNAME": self.path,
                "SQLITE_LOCK_TIMEOUT": "10",
            }
        if self.kind == "postgres":
            return {
                **common,
                "PERSISTENCE_MODULE": "eventsourcing.postgres",
                "POSTGRES_DBNAME": self.pg_dbname,
                "POSTGRES_HOST": self.pg_host,
                "POSTGRES_PORT": str(self.pg_port),
                "POSTGRES_USER": self.pg_user,
                "POSTGRES_PASSWORD": self.pg_password,
                "POSTGRES_POOL_SIZE": str(self.pg_pool_size),
                "POSTGRES_MAX_OVERFLOW": str(self.pg_max_overflow),
            }
        raise ValueError(f"ANNALES_STORE must be 'sqlite' or 'postgres', not {self.kind!r}")
