"""Store configuration from environment variables (or explicit values).

==========================  ===============================================================
``ANNALES_STORE``           ``sqlite`` (default) or ``postgres``
``ANNALES_DB``              SQLite: path of the event-store file (default ``./data/annales.db``)
``ANNALES_PG_DBNAME``       PostgreSQL database (default ``annales``)
``ANNALES_PG_HOST``         PostgreSQL host (default ``127.0.0.1``)
``ANNALES_PG_PORT``         PostgreSQL port (default ``5432``)
``ANNALES_PG_USER``         PostgreSQL user (default ``postgres``)
``ANNALES_PG_PASSWORD``     PostgreSQL password (default empty)
``ANNALES_SNAPSHOT_EVERY``  events between snapshots (default 100)
==========================  ===============================================================

SQLite runs in WAL mode with SQLite's default ``synchronous=FULL``: a command is acknowledged
only once its events are fsynced, so an acknowledged command survives a crash or power loss.

>>> StoreConfig(kind="sqlite", path="/tmp/x.db").eventsourcing_env()["SQLITE_DBNAME"]
'/tmp/x.db'
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass


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

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> StoreConfig:
        """The configuration described by ``ANNALES_*`` environment variables."""
        env = os.environ if environ is None else environ
        return cls(
            kind=env.get("ANNALES_STORE", "sqlite"),
            path=env.get("ANNALES_DB", "data/annales.db"),
            pg_dbname=env.get("ANNALES_PG_DBNAME", "annales"),
            pg_host=env.get("ANNALES_PG_HOST", "127.0.0.1"),
            pg_port=int(env.get("ANNALES_PG_PORT", "5432")),
            pg_user=env.get("ANNALES_PG_USER", "postgres"),
            pg_password=env.get("ANNALES_PG_PASSWORD", ""),
            snapshot_every=int(env.get("ANNALES_SNAPSHOT_EVERY", "100")),
        )

    def environment(self) -> dict[str, str]:
        """The ``ANNALES_*`` variables describing this configuration (inverse of
        :meth:`from_env`), e.g. to hand it to a child process.

        >>> StoreConfig.from_env(StoreConfig(path="/tmp/y.db").environment()).path
        '/tmp/y.db'
        """
        return {
            "ANNALES_STORE": self.kind,
            "ANNALES_DB": self.path,
            "ANNALES_PG_DBNAME": self.pg_dbname,
            "ANNALES_PG_HOST": self.pg_host,
            "ANNALES_PG_PORT": str(self.pg_port),
            "ANNALES_PG_USER": self.pg_user,
            "ANNALES_PG_PASSWORD": self.pg_password,
            "ANNALES_SNAPSHOT_EVERY": str(self.snapshot_every),
        }

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
            }
        raise ValueError(f"ANNALES_STORE must be 'sqlite' or 'postgres', not {self.kind!r}")
