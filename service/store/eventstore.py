"""The event store: envelopes, snapshots and seeds on the eventsourcing library's recorders.

Three recorders share one database:

* the *application recorder* holds every game's envelopes (originator = game id, version =
  sequence number) and numbers them in a global notification log that read models follow;
  a duplicate ``(game, seq)`` raises :class:`~service.app.errors.VersionConflict` — optimistic
  concurrency;
* ``stored_snapshots`` holds snapshots (a cache: deleting them changes no answer);
* ``stored_secrets`` holds each game's secret seed (version 1) and, for games with a salted
  seed commitment, its secret nonce (version 2, stored in the same insert), never exported
  before the game ends.

The store knows nothing of games; it moves bytes.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Sequence
from typing import Any

from eventsourcing.persistence import InfrastructureFactory, IntegrityError
from eventsourcing.persistence import StoredEvent as RecordedEvent

from domain.core.envelope import Envelope, decode_envelope, encode_envelope
from service.app.errors import VersionConflict
from service.store.config import StoreConfig
from service.store.feed import (
    FeedNote,
    Position,
    PostgresFeed,
    SQLiteFeed,
    migrate_postgres,
)
from service.store.groupcommit import GroupCommit
from service.store.pginsert import PreparedInsert
from service.store.pgselect import PreparedSelect
from service.store.sqliteinsert import DirectInsert, direct_insert

#: topic prefix of stored envelopes; the suffix is the event kind.
TOPIC_PREFIX = "annales:"
#: topic of the first event of every game (lets anyone list games from the log).
GAME_CREATED_TOPIC = TOPIC_PREFIX + "GameCreated"


#: PostgreSQL ``synchronous_commit`` of every session (see README, "Durability").
PG_SYNCHRONOUS_COMMIT = "on"

#: games whose seed / token hashes are kept in memory (immutable data; cleared when full).
CACHE_LIMIT = 100_000


class EventStore:
    """Append-only storage of envelopes, plus snapshots and secrets."""

    def __init__(self, config: StoreConfig) -> None:
        if config.kind == "sqlite":
            directory = os.path.dirname(os.path.abspath(config.path))
            os.makedirs(directory, exist_ok=True)
        self.config = config
        self.factory: Any = InfrastructureFactory.construct(env=config.eventsourcing_env())
        if config.kind == "postgres":
            # Durability chosen here, not left to the database's defaults: every session of
            # the pool commits with synchronous_commit=on (the commit returns once its WAL
            # record is flushed), whatever the database or role settings say.
            factory: Any = self.factory
            pool = factory.datastore.pool  # opened lazily: applies to every connection
            pool.kwargs["options"] = f"-c synchronous_commit={PG_SYNCHRONOUS_COMMIT}"
        with _schema_lock(config) as schema:  # tables created on start (IF NOT EXISTS)
            self.events: Any = self.factory.application_recorder()
            self.snapshots: Any = self.factory.aggregate_recorder(purpose="snapshots")
            self.secrets: Any = self.factory.aggregate_recorder(purpose="secrets")
            self.tokens: Any = self.factory.aggregate_recorder(purpose="tokens")
            #: every stored event once, in an order no later commit can go behind
            self.feed: SQLiteFeed | PostgresFeed = SQLiteFeed(self.events)
            if schema is not None:
                pg_factory: Any = self.factory
                recorder: Any = self.events
                self.feed = PostgresFeed(recorder, pg_factory.datastore.schema, config)
                index = f'"{recorder.events_table_name}_feed_idx"'
                migrate_postgres(schema, self.feed.table, index)
        self._seeds: dict[str, bytes] = {}
        self._nonces: dict[str, bytes | None] = {}
        self._token_hashes: dict[str, tuple[str, ...]] = {}
        #: each commit waits for its flush (SQLite: one writer at a time): the appends in
        #: flight share them (:mod:`.groupcommit`). PostgreSQL: the rows built first, the
        #: transaction in one round trip, no table lock by default (:mod:`.pginsert`);
        #: SQLite: the transaction on a connection of its own (:mod:`.sqliteinsert`)
        self._insert: Any = self.events.insert_events
        if config.kind == "sqlite":
            self._insert = direct_insert(self.events)
        #: PostgreSQL: a game's events read with statements composed once (the per-RPC check
        #: of a cached head against a shared store is one such read)
        self._select: Any = self.events.select_events
        if config.kind == "postgres":
            self._insert = PreparedInsert(self.events, lock=config.pg_table_lock)
            self._select = PreparedSelect(self.events)
        self.group: GroupCommit | None = None
        if config.group_commit:
            self.group = GroupCommit(self._insert)

    # -- envelopes ----------------------------------------------------------------------
    def append(self, envelopes: Sequence[Envelope]) -> int | None:
        """Store envelopes atomically; raise ``VersionConflict`` if a sequence number exists.

        Returns the notification id of the last one (where the recorder reports it).
        """
        records = [
            RecordedEvent(e.game_id, e.seq, TOPIC_PREFIX + e.kind, encode_envelope(e))
            for e in envelopes
        ]
        try:
            if self.group is not None:
                ids: Any = self.group.insert(records)
            else:
                ids = self._insert(records)
        except IntegrityError as error:
            current = self.last_seq(envelopes[0].game_id)
            raise VersionConflict(
                f"Game {envelopes[0].game_id} moved on to version {current}.", current
            ) from error
        return ids[-1] if ids else None

    def read(
        self, game_id: str, after: int = 0, upto: int | None = None, limit: int | None = None
    ) -> list[Envelope]:
        """Envelopes of a game with ``after < seq <= upto``, in order."""
        records = self._select(game_id, gt=after, lte=upto, limit=limit)
        return [decode_envelope(r.state) for r in records]

    def last_seq(self, game_id: str) -> int:
        """The game's last sequence number (0 if the game does not exist)."""
        records = self._select(game_id, desc=True, limit=1)
        return int(records[0].originator_version) if records else 0

    def game_ids(self) -> list[str]:
        """Ids of every game, in creation order (from the notification log)."""
        ids: list[str] = []
        start = 1
        while True:
            notes = self.events.select_notifications(start, 1000, topics=[GAME_CREATED_TOPIC])
            ids.extend(str(n.originator_id) for n in notes)
            if len(notes) < 1000:
                return ids
            start = int(notes[-1].id) + 1

    def max_notification_id(self) -> int:
        """The highest notification id (0 when empty)."""
        return int(self.events.max_notification_id() or 0)

    def feed_after(self, position: Position, limit: int) -> list[FeedNote]:
        """At most ``limit`` stored events after ``position`` in the feed
        (:mod:`service.store.feed`)."""
        return self.feed.after(position, limit)

    def feed_head(self) -> Position:
        """The feed position of the last event committed."""
        return self.feed.head()

    def listen(self) -> contextlib.AbstractContextManager[Any]:
        """PostgreSQL: a connection listening for the inserts of every process
        (:meth:`service.store.feed.PostgresFeed.listen`)."""
        if not isinstance(self.feed, PostgresFeed):
            raise ValueError("only a PostgreSQL store announces its inserts")
        return self.feed.listen()

    # -- snapshots ----------------------------------------------------------------------
    def save_snapshot(self, game_id: str, version: int, data: bytes) -> None:
        """Store a snapshot at ``version`` (ignored if one already exists there)."""
        with contextlib.suppress(IntegrityError):
            self.snapshots.insert_events([RecordedEvent(game_id, version, "snapshot", data)])

    def latest_snapshot(self, game_id: str, upto: int | None = None) -> tuple[int, bytes] | None:
        """The newest snapshot at or before ``upto``, as ``(version, bytes)``."""
        records = self.snapshots.select_events(game_id, lte=upto, desc=True, limit=1)
        if not records:
            return None
        return int(records[0].originator_version), bytes(records[0].state)

    def delete_snapshots(self) -> None:
        """Drop every snapshot (they are a cache; answers must not change)."""
        datastore = self.factory.datastore
        if self.config.kind == "sqlite":
            with datastore.transaction(commit=True) as cursor:
                cursor.execute("DELETE FROM stored_snapshots")
        else:
            with datastore.transaction(commit=True) as cursor:
                cursor.execute("DELETE FROM stored_snapshots")

    # -- secrets ------------------------------------------------------------------------
    def save_seed(self, game_id: str, seed: bytes, nonce: bytes | None = None) -> None:
        """Store a game's secret seed, and the nonce of its commitment if any (once)."""
        self.secrets.insert_events(secret_records(game_id, seed, nonce))

    def load_nonce(self, game_id: str) -> bytes | None:
        """The secret nonce of a game's salted seed commitment (``None`` for a game of the
        legacy kind, or an unknown one); cached like seeds."""
        if game_id in self._nonces:
            return self._nonces[game_id]
        records = self.secrets.select_events(game_id, gt=1, lte=2, limit=1)
        nonce = bytes(records[0].state) if records else None
        if records or self.load_seed(game_id) is not None:  # a known game: cache the answer
            if len(self._nonces) >= CACHE_LIMIT:
                self._nonces.clear()
            self._nonces[game_id] = nonce
        return nonce

    def load_seed(self, game_id: str) -> bytes | None:
        """A game's secret seed, or ``None``.

        Seeds never change once stored, so they are cached in memory (a game unknown to the
        cache is read from the store: safe with several processes on one database).
        """
        cached = self._seeds.get(game_id)
        if cached is not None:
            return cached
        records = self.secrets.select_events(game_id, limit=1)
        if not records:
            return None
        seed = bytes(records[0].state)
        if len(self._seeds) >= CACHE_LIMIT:
            self._seeds.clear()
        self._seeds[game_id] = seed
        return seed

    # -- seat tokens ----------------------------------------------------------------------
    def save_token_hashes(self, game_id: str, hashes: Sequence[str]) -> None:
        """Store the SHA-256 hashes of a game's seat tokens (never the tokens)."""
        data = "\n".join(hashes).encode("ascii")
        self.tokens.insert_events([RecordedEvent(game_id, 1, "token-hashes", data)])

    def load_token_hashes(self, game_id: str) -> list[str]:
        """The seat-token hashes of a game, by seat (empty if none); cached like seeds."""
        cached = self._token_hashes.get(game_id)
        if cached is not None:
            return list(cached)
        records = self.tokens.select_events(game_id, limit=1)
        if not records:
            return []
        hashes = tuple(bytes(records[0].state).decode("ascii").split("\n"))
        if len(self._token_hashes) >= CACHE_LIMIT:
            self._token_hashes.clear()
        self._token_hashes[game_id] = hashes
        return list(hashes)

    def durability(self) -> dict[str, str]:
        """The settings that decide what survives a crash, as the database reports them.

        SQLite: ``journal_mode`` (``wal``) and ``synchronous`` (``2`` = FULL: the WAL is
        fsynced at every commit). PostgreSQL: ``synchronous_commit`` (``on``: the commit
        returns after its WAL record is flushed) and ``fsync``.
        """
        datastore = self.factory.datastore
        if isinstance(self._insert, DirectInsert):  # the connection that commits the events
            names = ("journal_mode", "synchronous")
            return {name: self._insert.setting(name) for name in names}
        if self.config.kind == "sqlite":
            with datastore.transaction(commit=False) as cursor:
                cursor.execute("PRAGMA journal_mode")
                journal = str(cursor.fetchone()[0])
                cursor.execute("PRAGMA synchronous")
                synchronous = str(cursor.fetchone()[0])
            return {"journal_mode": journal, "synchronous": synchronous}
        settings: dict[str, str] = {}
        with datastore.transaction(commit=False) as cursor:
            for name in ("synchronous_commit", "fsync"):
                cursor.execute(f"SHOW {name}")
                settings[name] = str(next(iter(cursor.fetchone().values())))
        return settings

    def close(self) -> None:
        """Release connections."""
        if isinstance(self._insert, DirectInsert):
            self._insert.close()
        self.factory.close()


def secret_records(game_id: str, seed: bytes, nonce: bytes | None) -> list[RecordedEvent]:
    """The rows of ``stored_secrets`` holding a game's seed (version 1) and nonce (version 2)."""
    rows = [RecordedEvent(game_id, 1, "seed", seed)]
    if nonce is not None:
        rows.append(RecordedEvent(game_id, 2, "nonce", nonce))
    return rows


#: key of the PostgreSQL advisory lock held while the tables are created (any constant).
SCHEMA_LOCK_KEY = 0x616E6E616C6573


@contextlib.contextmanager
def _schema_lock(config: StoreConfig) -> Iterator[Any]:
    """Serialise table creation among processes starting together on one PostgreSQL
    database (concurrent ``CREATE TABLE IF NOT EXISTS`` can fail on PostgreSQL's catalog);
    yields the connection holding the lock (``None`` for SQLite)."""
    if config.kind != "postgres":
        yield None
        return
    with config.pg_connect(connect_timeout=10) as connection:
        connection.execute("SELECT pg_advisory_lock(%s)", (SCHEMA_LOCK_KEY,))
        try:
            yield connection
        finally:
            connection.execute("SELECT pg_advisory_unlock(%s)", (SCHEMA_LOCK_KEY,))
