"""The read-model database: tables, the tracking recorder and the connection helpers.

The read models live in their own SQLite file (WAL mode), never in the event store. Every
table is written only by :class:`~projections.projector.Projector`; the tracking row of
the last notification applied is written in the *same* transaction as the rows it produced
(:class:`ReadModelTracking`, an ``eventsourcing`` ``TrackingRecorder``), so a crash at any
point leaves the tables exactly at some notification boundary: nothing applied twice,
nothing skipped.

Tables (all JSON columns are compact JSON text; seats are numbered from 0):

* ``games`` — one row per game: type, ruleset, seat names, status (``setup`` / ``running`` /
  ``finished``; ``abandoned`` is derived when read, see :mod:`projections.queries`), pending
  seats and decision (whose turn), round, version, creation and last-activity notification
  ids, current scores, winners, final scores, balance keys and — once the game has ended,
  never before — the revealed seed and the nonce of its commitment;
* ``score_points`` — each seat's score after every turn (a turn is a run of events with the
  same ``Game.turn_key``);
* ``public_events`` — each game's log as a spectator sees it (``Game.redact_event(.., None)``);
* ``player_stats`` — per player name and game type: finished games, wins, total and best score;
* ``balance_stats`` — per game type, balance key and player count: finished games, wins,
  total score and total rank;
* ``readmodel_tracking`` — the position in the store's feed (:mod:`service.store.feed`) of the
  last event applied: its transaction and notification id;
* ``readmodel_meta`` — which event store the tables follow.
"""

from __future__ import annotations

import sqlite3
from typing import Any

import sqlite_utils
from eventsourcing.persistence import IntegrityError, Tracking, TrackingRecorder

from service.store.feed import Position

#: the application name recorded with every tracking row.
APPLICATION_NAME = "annales"

#: raised whenever a table's columns change: a read-model file of another schema version is
#: dropped and rebuilt from the log when it is opened (read models are a cache).
#: 3: default balance keys number seats from 0; 4: parties; 5: nonce; 6: feed positions
SCHEMA_VERSION = "6"

#: ``(name, columns, primary key)`` of every read-model table, in creation order.
TABLES: tuple[tuple[str, dict[str, type], tuple[str, ...]], ...] = (
    (
        "games",
        {
            "game_id": str,
            "game_type": str,
            "ruleset": str,
            "players": int,
            "seat_names": str,
            "seed_commitment": str,
            "status": str,
            "pending_seats": str,
            "decision": str,
            "prompt": str,
            "options_json": str,
            "round": int,
            "version": int,
            "created": int,
            "last_activity": int,
            "scores": str,
            "winners": str,
            "final_scores": str,
            "parties": str,
            "balance_keys": str,
            "seed": str,
            "nonce": str,
        },
        ("game_id",),
    ),
    (
        "score_points",
        {
            "game_id": str,
            "point": int,
            "seat": int,
            "first_seq": int,
            "version": int,
            "turn_key": str,
            "score": int,
        },
        ("game_id", "point", "seat"),
    ),
    (
        "public_events",
        {
            "game_id": str,
            "seq": int,
            "notification_id": int,
            "kind": str,
            "seat": int,
            "command_id": str,
            "redacted": int,
            "event": str,
        },
        ("game_id", "seq"),
    ),
    (
        "player_stats",
        {
            "player": str,
            "game_type": str,
            "games": int,
            "wins": int,
            "total_score": int,
            "best_score": int,
        },
        ("player", "game_type"),
    ),
    (
        "balance_stats",
        {
            "game_type": str,
            "balance_key": str,
            "players": int,
            "games": int,
            "wins": int,
            "total_score": int,
            "total_rank": int,
        },
        ("game_type", "balance_key", "players"),
    ),
)
TABLE_NAMES: tuple[str, ...] = tuple(name for name, _, _ in TABLES)
TRACKING_TABLE = "readmodel_tracking"
META_TABLE = "readmodel_meta"


def connect(path: str) -> sqlite_utils.Database:
    """A sqlite-utils database on ``path`` (WAL, usable from any one thread at a time)."""
    conn = sqlite3.connect(path, check_same_thread=False, timeout=30.0)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    return sqlite_utils.Database(conn)


def create_tables(db: sqlite_utils.Database) -> None:
    """Create every table and index that does not exist yet."""
    for name, columns, pk in TABLES:
        db.table(name).create(columns, pk=pk, not_null=set(pk), if_not_exists=True)
    db.table(TRACKING_TABLE).create(
        {"application_name": str, "xact": int, "notification_id": int},
        pk=("application_name",),
        if_not_exists=True,
    )
    db.table(META_TABLE).create({"key": str, "value": str}, pk="key", if_not_exists=True)
    db.execute("CREATE INDEX IF NOT EXISTS games_created ON games (created)")
    db.execute("CREATE INDEX IF NOT EXISTS games_status ON games (status, created)")


def drop_tables(db: sqlite_utils.Database) -> None:
    """Drop every read-model table (the caller holds a transaction)."""
    for name in (*TABLE_NAMES, TRACKING_TABLE, META_TABLE):
        db.execute(f"DROP TABLE IF EXISTS [{name}]")


class ReadModelTracking(TrackingRecorder):
    """The tracking recorder of the read models, on their own connection: the feed position
    of the last event applied.

    :meth:`insert_position` runs inside the caller's open transaction — the one that writes
    the read-model rows — and keeps a single row per application (the newest position).
    Inserting a position at or before the recorded one raises ``IntegrityError``: an already
    applied event can never be applied again. ``insert_tracking`` / ``max_tracking_id`` are
    the eventsourcing interface (a notification id, transaction 0: a SQLite store's feed).
    """

    def __init__(self, db: sqlite_utils.Database) -> None:
        self.db = db

    def insert_position(self, application_name: str, position: Position) -> None:
        """Record ``position`` in the caller's transaction (must move forward)."""
        current = self.position(application_name)
        if current is not None and position <= current:
            raise IntegrityError(f"position {position} already tracked (at {current})")
        self.db.execute(
            f"INSERT OR REPLACE INTO {TRACKING_TABLE} (application_name, xact, notification_id)"
            " VALUES (?, ?, ?)",
            [application_name, position[0], position[1]],
        )

    def position(self, application_name: str) -> Position | None:
        """The position of the last event applied (``None`` before the first)."""
        row = self.db.execute(
            f"SELECT xact, notification_id FROM {TRACKING_TABLE} WHERE application_name = ?",
            [application_name],
        ).fetchone()
        return None if row is None else (int(row[0]), int(row[1]))

    def insert_tracking(self, tracking: Tracking) -> None:
        """Record ``tracking``'s notification id (transaction 0) in the caller's transaction."""
        self.insert_position(tracking.application_name, (0, tracking.notification_id))

    def max_tracking_id(self, application_name: str) -> int | None:
        """The notification id of the last event applied (``None`` before the first)."""
        position = self.position(application_name)
        return None if position is None else position[1]


def get_meta(db: sqlite_utils.Database, key: str) -> str | None:
    """A value of the ``readmodel_meta`` table."""
    row = db.execute(f"SELECT value FROM {META_TABLE} WHERE key = ?", [key]).fetchone()
    return None if row is None else str(row[0])


def set_meta(db: sqlite_utils.Database, key: str, value: str) -> None:
    """Set a value of the ``readmodel_meta`` table (in the caller's transaction)."""
    db.execute(f"INSERT OR REPLACE INTO {META_TABLE} (key, value) VALUES (?, ?)", [key, value])


def table_rows(db: sqlite_utils.Database) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every read-model table and the tracking table, in primary-key order.

    Two databases with equal ``table_rows`` hold identical read models.
    """
    result: dict[str, list[tuple[Any, ...]]] = {}
    for name, _, pk in TABLES:
        order = ", ".join(pk)
        result[name] = [tuple(r) for r in db.execute(f"SELECT * FROM [{name}] ORDER BY {order}")]
    result[TRACKING_TABLE] = [
        tuple(r) for r in db.execute(f"SELECT * FROM {TRACKING_TABLE} ORDER BY 1, 2")
    ]
    return result
