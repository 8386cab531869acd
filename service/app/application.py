"""The application: create games, submit commands, read states and events.

:class:`GameService` is what the CLI, the bots and the gRPC server call. It

* serialises commands per game (a lock per game in this process; the store's unique
  ``(game, seq)`` constraint across processes) and rejects a stale ``expected_version`` with
  :class:`~service.app.errors.VersionConflict` — nothing is applied;
* honours idempotency keys: a retried command returns the first result and appends nothing;
* commits the events *before* announcing them (``on_commit`` listeners are called after);
* keeps a head cache per game and snapshots every ``snapshot_every`` events, so any version
  of a long game is materialised from the nearest snapshot plus a short fold.

**Several processes on one store** (PostgreSQL; ``StoreConfig.shared_store``): another server
may have appended to a game since this process cached its head. Two rules keep every answer
right:

* *reads* check the cached version against the store's last sequence number (one indexed
  query) and, when the store has moved on, fold only the new events onto the cached head
  (:meth:`GameService._catch_up`; idempotency keys of those commands are learned on the way).
  Inside :meth:`GameService.request_scope` (one per RPC) a game is checked once, not at every
  ``head()`` call;
* *writes* need no extra query (a command's RPC skips that check unless a newer commit was
  heard of: :meth:`GameService.trust_cached_head`): the store's unique ``(game, seq)`` is
  the arbiter. When an append conflicts — or a cached answer would be negative (stale
  ``expected_version``, rule violation) — the head is brought up to date from the store and
  the command is judged again: a retried idempotency key then returns the first result
  whichever server stored it, a
  stale ``expected_version`` is a :class:`~service.app.errors.VersionConflict` naming the true
  current version, and a command without ``expected_version`` is simply re-decided on the new
  head (at most ``MAX_ATTEMPTS`` times).

>>> import tempfile, os
>>> from service.store.config import StoreConfig
>>> app = GameService(EventStore(StoreConfig(path=os.path.join(tempfile.mkdtemp(), "a.db"))))
>>> created = app.create_game("riseandfall", {}, ["Ann", "Bob"], seed=b"doc")
>>> app.head(created.game_id).version == created.version
True
"""

from __future__ import annotations

import contextlib
import contextvars
import threading
import uuid
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import msgspec

from domain.core.codec import Codec
from domain.core.envelope import Envelope
from domain.core.errors import MalformedCommand, RuleViolation
from domain.core.game import Command, Event
from domain.core.kernel_events import GameCreated, Undone
from domain.core.match import Match, Observer
from domain.registry import GAMES, codec_for, get_ruleset
from service.app.errors import (
    GameNotFound,
    IdempotencyKeyReused,
    InvalidArgument,
    RuleRejected,
    VersionConflict,
)
from service.app.ledger import Ledger, fresh_nonce
from service.app.values import CreatedGame, Snapshot, Submitted
from service.store.eventstore import EventStore

#: how many times a command is re-decided after another process moved its game on.
MAX_ATTEMPTS = 8

#: games whose cached head was checked against the store in the current request scope.
_checked: contextvars.ContextVar[set[str] | None] = contextvars.ContextVar(
    "annales_checked_games", default=None
)


class _MovedOn(Exception):
    """Internal: the store holds events this process's cached head had not seen."""


@dataclass
class _Cached:
    ledger: Ledger
    idempotency: dict[str, tuple[bytes, int, int]]  # key -> (command bytes, first seq, last seq)
    #: another process appended to this game since it was cached (a catch-up found its
    #: events): its head is read back before a command, never taken on trust
    written_elsewhere: bool = False


class GameService:
    """Commands in, events out, on an :class:`~service.store.eventstore.EventStore`."""

    def __init__(self, store: EventStore, cache_size: int = 256) -> None:
        self.store = store
        self.snapshot_every = store.config.snapshot_every
        self._cache: OrderedDict[str, _Cached] = OrderedDict()
        self._cache_size = cache_size
        #: each game's lock while someone holds or waits for it: an entry goes when nobody
        #: refers to its lock any more (a dict kept one per game ever played, for ever)
        self._locks: weakref.WeakValueDictionary[str, threading.RLock] = (
            weakref.WeakValueDictionary()
        )
        self._locks_guard = threading.Lock()
        self._listeners: list[Callable[[str, tuple[Envelope, ...]], None]] = []
        #: other processes may append to the store: check cached heads against it
        self.shared = store.config.shared_store

    @contextlib.contextmanager
    def request_scope(self) -> Iterator[None]:
        """Within this block a game's cached head is checked against the store at most once
        (one RPC = one scope). Outside any scope every read checks (when ``shared``)."""
        token = _checked.set(set())
        try:
            yield
        finally:
            _checked.reset(token)

    def trust_cached_head(self, game_id: str, stored_version: int) -> None:
        """Take the game's cached head as it is for the rest of this request scope — no read
        of a shared store before a command — when it is not behind ``stored_version`` (the
        newest version this process has heard the store holds: its own commits and those a
        store follower reported) and no other process has been seen appending to the game
        since it was cached. The command's append is the check: the store refuses a sequence
        number another process took first, and :meth:`submit` then catches up and judges the
        command again, so a command decided on a stale head never stores anything. The two
        conditions only spare that failed append (and its rollback) where it is likely: a
        game played through several servers keeps the read."""
        cached = self._cache.get(game_id)
        if (
            cached is not None
            and not cached.written_elsewhere
            and cached.ledger.version >= stored_version
        ):
            self._mark_checked(game_id)

    # -- listeners ------------------------------------------------------------------------
    def on_commit(self, listener: Callable[[str, tuple[Envelope, ...]], None]) -> None:
        """Call ``listener(game_id, envelopes)`` after each durable append."""
        self._listeners.append(listener)

    def _announce(self, game_id: str, envelopes: tuple[Envelope, ...]) -> None:
        for listener in self._listeners:
            listener(game_id, envelopes)

    def lock(self, game_id: str) -> threading.RLock:
        """The game's lock: hold it while reading ``head`` from several threads. Every caller
        that refers to the game's lock gets the same one; once none does, the next call makes
        a new one (nobody can hold the old one any more)."""
        with self._locks_guard:
            lock = self._locks.get(game_id)
            if lock is None:
                lock = self._locks[game_id] = threading.RLock()
            return lock

    # -- creation -------------------------------------------------------------------------
    def create_game(
        self,
        game_type: str,
        options: dict[str, Any] | None,
        seat_names: list[str],
        seed: bytes | None = None,
        game_id: str | None = None,
        ruleset: str | None = None,
        nonce: bytes | None = None,
    ) -> CreatedGame:
        """Create a game; the seed is random unless given (kept secret until the end).

        ``ruleset`` picks one of the game's rulesets (default: the newest). ``nonce`` salts
        the seed commitment: a fresh random one unless a deterministic driver gives its own
        (see :func:`domain.core.chance.derived_nonce`); stored and revealed with the seed.
        """
        if game_type not in GAMES:
            raise InvalidArgument(f"Unknown game type {game_type!r}; known: {sorted(GAMES)}.")
        repeated = sorted({n for n in seat_names if seat_names.count(n) > 1})
        if repeated:  # seats are told apart by name in views, charts and statistics
            raise InvalidArgument(
                f"seat_names: each seat needs its own name; repeated: {repeated}."
            )
        game_id = game_id or uuid.uuid4().hex
        seed = seed if seed is not None else uuid.uuid4().bytes + uuid.uuid4().bytes
        nonce = nonce if nonce is not None else fresh_nonce()
        try:
            ledger, envelopes = Ledger.create(
                game_id, game_type, options or {}, seat_names, seed, ruleset, nonce
            )
        except (msgspec.ValidationError, ValueError) as error:
            raise InvalidArgument(f"Invalid game setup: {error}") from error
        except MalformedCommand as error:  # options the game's setup refuses (e.g. nations)
            raise InvalidArgument(f"Invalid game setup: {error.message}") from error
        self.store.save_seed(game_id, seed, nonce)
        self.store.append(envelopes)
        cached = _Cached(ledger, {})
        self._remember(game_id, cached)
        self._mark_checked(game_id)
        self._maybe_snapshot(ledger, 0)
        self._announce(game_id, tuple(envelopes))
        return CreatedGame(game_id, ledger.version, _header(ledger).seed_commitment)

    # -- commands -------------------------------------------------------------------------
    def codec(self, game_id: str) -> Codec:
        """The codec of a game's type."""
        return self._head(game_id).ledger.codec

    def parse_command(self, game_id: str, data: Any) -> Command:
        """A command of this game from plain data (raises ``InvalidArgument``)."""
        try:
            return self.codec(game_id).command_from_data(data)
        except MalformedCommand as error:
            raise InvalidArgument(error.message, "MALFORMED_COMMAND") from error

    def submit(
        self,
        game_id: str,
        seat: int,
        command: Command,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        command_id: str | None = None,
        observe: Callable[[Any, Event, Any], Any] | None = None,
    ) -> Submitted:
        """Apply ``command`` by ``seat`` if ``expected_version`` is current; store; announce.

        ``expected_version=None`` skips the check (the command applies to whatever is current).
        ``command_id`` (default: a fresh UUID) lets a deterministic driver — the tournament
        bot runner — produce byte-identical records from the same seeds. ``observe(match,
        event, state)`` is called as each new event is folded, with the state right after it
        (the state changes in place afterwards); what it returns is ``Submitted.observed``,
        one per envelope (the response's redaction needs no second fold).
        """
        with self.lock(game_id):
            cached = self._head(game_id)
            command_bytes = cached.ledger.codec.encode_command(command)
            for _ in range(MAX_ATTEMPTS):
                try:
                    result = self._submit_once(
                        game_id, cached, seat, command, command_bytes, expected_version,
                        idempotency_key, command_id, observe,
                    )  # fmt: skip
                    break
                except _MovedOn:
                    cached = self._head(game_id)
            else:
                current = self.store.last_seq(game_id)
                raise VersionConflict(
                    f"Game {game_id} kept moving on (now at version {current}); try again.",
                    current,
                )
        if not result.duplicate:
            self._announce(game_id, result.envelopes)
        return result

    def _submit_once(
        self,
        game_id: str,
        cached: _Cached,
        seat: int,
        command: Command,
        command_bytes: bytes,
        expected_version: int | None,
        idempotency_key: str | None,
        command_id: str | None = None,
        observe: Callable[[Any, Event, Any], Any] | None = None,
    ) -> Submitted:
        """One attempt of :meth:`submit` on ``cached`` (the game's lock is held).

        Raises ``_MovedOn`` when the store turned out to hold events the cached head had not
        seen (the cache is then up to date, or dropped): the caller tries again.
        """
        ledger = cached.ledger
        if idempotency_key is not None:
            previous = self._replayed(game_id, cached, idempotency_key, command_bytes, seat)
            if previous is not None:
                return previous
        if expected_version is not None and expected_version != ledger.version:
            self._raise_if_moved_on(game_id, cached)
            raise VersionConflict(
                f"Expected version {expected_version} but the game is at {ledger.version}.",
                ledger.version,
            )
        if not 0 <= seat < ledger.match.seats:
            raise InvalidArgument(f"There is no seat {seat} in this game.", "NO_SUCH_SEAT")
        version_before = ledger.version
        command_id = command_id or uuid.uuid4().hex

        def state_at(version: int) -> Any:  # an undo's target: folded again from the store
            return self.materialise(game_id, version).match.state

        observed: list[Any] = []
        observer: Observer | None = None
        if observe is not None:
            match, derive = ledger.match, observe

            def record(event: Event, state: Any) -> None:
                observed.append(derive(match, event, state))

            observer = record

        try:
            _, envelopes = ledger.submit(
                seat, command, command_id, self._seed(game_id), state_at, idempotency_key,
                self.store.load_nonce(game_id), observer,
            )  # fmt: skip
        except MalformedCommand as error:
            self._raise_if_moved_on(game_id, cached)
            raise InvalidArgument(error.message, error.code) from error
        except RuleViolation as error:
            self._raise_if_moved_on(game_id, cached)
            raise RuleRejected(error) from error
        except Exception:
            self._forget(game_id)
            raise
        try:
            self.store.append(envelopes)
        except VersionConflict as conflict:
            # another process stored events first: rewind to what was stored, learn the rest
            try:
                cached.ledger = self.materialise(game_id, version_before)
                self._catch_up(game_id, cached)
            except Exception:
                self._forget(game_id)
                raise
            if idempotency_key is not None:
                previous = self._replayed(game_id, cached, idempotency_key, command_bytes, seat)
                if previous is not None:
                    return previous
            if expected_version is not None:
                current = cached.ledger.version
                raise VersionConflict(
                    f"Expected version {expected_version} but the game is at {current}.",
                    current,
                ) from conflict
            raise _MovedOn() from conflict
        except Exception:
            self._forget(game_id)
            raise
        if idempotency_key is not None:
            cached.idempotency[idempotency_key] = (
                command_bytes,
                envelopes[0].seq,
                envelopes[-1].seq,
            )
        self._mark_checked(game_id)
        self._maybe_snapshot(ledger, version_before)
        return Submitted(
            ledger.version, tuple(envelopes), observed=tuple(observed) if observe else None
        )

    def _replayed(
        self, game_id: str, cached: _Cached, key: str, command_bytes: bytes, seat: int
    ) -> Submitted | None:
        known = cached.idempotency.get(key)
        if known is None:
            return None
        stored_command, first, last = known
        if stored_command != command_bytes:
            raise IdempotencyKeyReused(
                f"Idempotency key {key!r} was used for a different command in this game."
            )
        envelopes = self.store.read(game_id, after=first - 1, upto=last)
        if envelopes and envelopes[0].seat != seat:  # the same command, but another seat's
            raise IdempotencyKeyReused(
                f"Idempotency key {key!r} was used by another seat in this game."
            )
        return Submitted(last, tuple(envelopes), duplicate=True)

    # -- reading --------------------------------------------------------------------------
    def head(self, game_id: str, check: bool = True) -> Match:
        """The current match (do not modify it: use ``materialise`` for a private copy).

        ``check=False``: the cached head as it is, without asking a shared store whether
        another process moved the game on (for answers a stale head cannot make wrong).
        """
        if not check:
            cached = self._cache.get(game_id)
            if cached is not None:
                return cached.ledger.match
        return self._head(game_id).ledger.match

    def reach(self, game_id: str, version: int) -> None:
        """Make sure the cached head has seen ``version`` (events another process appended
        after this request's check); a no-op when it has."""
        cached = self._head(game_id)
        if cached.ledger.version >= version:
            return
        with self.lock(game_id):
            try:
                self._catch_up(game_id, cached)
            except Exception:
                self._forget(game_id)
                raise

    def header(self, game_id: str) -> GameCreated:
        """The game's ``GameCreated`` event."""
        return _header(self._head(game_id).ledger)

    def events(self, game_id: str, after: int = 0, limit: int | None = None) -> list[Envelope]:
        """Stored envelopes with ``seq > after`` (at most ``limit``)."""
        if self.store.last_seq(game_id) == 0:
            raise GameNotFound(f"No game with id {game_id!r}.")
        return self.store.read(game_id, after=after, limit=limit)

    def decode(self, game_id: str, envelope: Envelope) -> Event:
        """The event inside an envelope."""
        return self.codec(game_id).decode_event(envelope.kind, envelope.schema, envelope.payload)

    def materialise(self, game_id: str, version: int | None = None) -> Ledger:
        """A private ledger of the game as it stood at ``version`` (head if ``None``)."""
        last = self.store.last_seq(game_id)
        if last == 0:
            raise GameNotFound(f"No game with id {game_id!r}.")
        target = last if version is None else version
        if not 1 <= target <= last:
            raise InvalidArgument(f"Version {target} is outside 1..{last}.", "BAD_VERSION")
        snapshot = self.store.latest_snapshot(game_id, upto=target)
        if snapshot is not None:
            ledger = self._from_snapshot(game_id, snapshot[1])
        else:
            first = self.store.read(game_id, upto=1)[0]
            codec = get_codec_for_envelope(first)
            header = codec.decode_event(first.kind, first.schema, first.payload)
            assert isinstance(header, GameCreated)
            ledger = Ledger.from_header(game_id, header)
        envelopes = self.store.read(game_id, after=ledger.version, upto=target)
        # Undo targets inside this fold are kept as copies on the way (no recursive refold).
        targets = {
            event.to_version
            for event in (
                ledger.codec.decode_event(e.kind, e.schema, e.payload)
                for e in envelopes
                if e.kind == "Undone"
            )
            if isinstance(event, Undone)
        }
        game = ledger.game
        saved: dict[int, bytes] = {}

        def state_at(version: int) -> Any:
            if version in saved:
                return game.decode_state(saved[version])
            return self.materialise(game_id, version).match.state

        if ledger.version in targets:
            saved[ledger.version] = game.encode_state(ledger.match.state)
        for envelope in envelopes:
            ledger.apply_envelope(envelope, state_at)
            if envelope.seq in targets:
                saved[envelope.seq] = game.encode_state(ledger.match.state)
        return ledger

    def seed_if_revealed(self, game_id: str) -> str | None:
        """The seed (hex) once the game has revealed it, else ``None``."""
        return self.head(game_id).kernel.seed

    # -- internals ------------------------------------------------------------------------
    def _seed(self, game_id: str) -> bytes:
        seed = self.store.load_seed(game_id)
        if seed is None:
            raise GameNotFound(f"No seed stored for game {game_id!r}.")
        return seed

    def _from_snapshot(self, game_id: str, data: bytes) -> Ledger:
        snapshot = msgspec.msgpack.decode(data, type=Snapshot)
        header = snapshot.kernel.header
        assert header is not None
        ledger = Ledger.from_header(game_id, header)
        ledger.match = Match(ledger.game, ledger.game.decode_state(snapshot.state), snapshot.kernel)
        ledger.last_hash = snapshot.last_hash
        return ledger

    def _maybe_snapshot(self, ledger: Ledger, version_before: int) -> None:
        every = self.snapshot_every
        if every > 0 and ledger.version // every > version_before // every:
            snapshot = Snapshot(
                ledger.match.kernel,
                ledger.game.encode_state(ledger.match.state),
                ledger.last_hash,
            )
            self.store.save_snapshot(
                ledger.game_id, ledger.version, msgspec.msgpack.encode(snapshot)
            )

    def _head(self, game_id: str) -> _Cached:
        cached = self._cache.get(game_id)
        if cached is not None:
            self._cache.move_to_end(game_id)
            if self.shared and not self._is_checked(game_id):
                with self.lock(game_id):
                    try:
                        self._catch_up(game_id, cached)
                    except Exception:
                        self._forget(game_id)
                        raise
                self._mark_checked(game_id)
            return cached
        with self.lock(game_id):
            ledger = self.materialise(game_id)
            cached = _Cached(ledger, {})
            self._learn_keys(cached, self.store.read(game_id, upto=ledger.version))
            self._remember(game_id, cached)
        self._mark_checked(game_id)
        return cached

    def _catch_up(self, game_id: str, cached: _Cached) -> bool:
        """Fold the events another process appended after ``cached``'s version (the game's
        lock is held); ``True`` if there were any."""
        ledger = cached.ledger
        envelopes = self.store.read(game_id, after=ledger.version)  # usually empty: one query
        if not envelopes:
            return False
        cached.written_elsewhere = True

        def state_at(version: int) -> Any:  # an undo's target: folded again from the store
            return self.materialise(game_id, version).match.state

        for envelope in envelopes:
            ledger.apply_envelope(envelope, state_at)
        self._learn_keys(cached, envelopes)
        return True

    def _raise_if_moved_on(self, game_id: str, cached: _Cached) -> None:
        """Raise ``_MovedOn`` (after catching up) if another process appended to the game."""
        if not self.shared:
            return
        try:
            moved = self._catch_up(game_id, cached)
        except Exception:
            self._forget(game_id)
            raise
        if moved:
            raise _MovedOn()

    @staticmethod
    def _learn_keys(cached: _Cached, envelopes: list[Envelope]) -> None:
        """Record the idempotency keys of the commands in ``envelopes`` (whole batches)."""
        idempotency = cached.idempotency
        open_batch: tuple[str, str] | None = None  # (idempotency key, command id)
        for envelope in envelopes:
            if envelope.command is not None:
                open_batch = None
                if envelope.idempotency_key is not None:
                    open_batch = (envelope.idempotency_key, envelope.command_id)
                    idempotency[open_batch[0]] = (envelope.command, envelope.seq, envelope.seq)
            elif open_batch is not None and envelope.command_id == open_batch[1]:
                command, first, _ = idempotency[open_batch[0]]
                idempotency[open_batch[0]] = (command, first, envelope.seq)

    @staticmethod
    def _is_checked(game_id: str) -> bool:
        checked = _checked.get()
        return checked is not None and game_id in checked

    @staticmethod
    def _mark_checked(game_id: str) -> None:
        checked = _checked.get()
        if checked is not None:
            checked.add(game_id)

    def _remember(self, game_id: str, cached: _Cached) -> None:
        self._cache[game_id] = cached
        self._cache.move_to_end(game_id)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)

    def _forget(self, game_id: str) -> None:
        self._cache.pop(game_id, None)


def _header(ledger: Ledger) -> GameCreated:
    header = ledger.match.kernel.header
    assert header is not None
    return header


def get_codec_for_envelope(first: Envelope) -> Codec:
    """The codec of the ruleset a game's first envelope (``GameCreated``) names."""
    data = msgspec.msgpack.decode(first.payload)
    return codec_for(get_ruleset(str(data["ruleset"])))
