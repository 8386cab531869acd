"""Apply the event store's feed to the read models, exactly once.

:class:`Projector` is the eventsourcing ``Projection`` of the read models: its view is the
tracking recorder :class:`~projections.schema.ReadModelTracking`. :meth:`Projector.process`
applies a batch of the store's feed (:mod:`service.store.feed`) in **one** SQLite transaction
that also records the feed position of the last one, after checking (inside the transaction,
under SQLite's write lock) where the recorded position is — events at or before it are
skipped, so replaying them changes nothing, and two runners on one file never both apply one.

Folding: each game's state is folded as its events arrive, with the same ``Ledger`` code the
service uses. Folded games are kept in an LRU (:class:`Followed`); a game that fell out of
it (or after a restart) is materialised again from the event store at the version before
the next event (snapshots keep that short). After a failed batch the LRU is dropped, so
memory never runs ahead of the committed tables.

What is written is public by construction:

* events pass through ``Game.redact_event(state_after, event, None)`` (a spectator);
  rows still redacted are re-redacted when an event reveals information or the game ends,
  so the stored log converges to what a spectator sees in ``GetHistory``;
* scores (``Game.scores``), whose turn (``Game.pending``) and balance keys are the same
  public facts the API's game summary and spectator view show;
* the seed and its nonce are written only from the ``SeedRevealed`` event, i.e. once the game
  has ended.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgspec
import sqlite_utils
from eventsourcing.persistence import Notification
from eventsourcing.projection import Projection

from domain.core.envelope import Envelope, decode_envelope
from domain.core.game import Event
from domain.core.kernel_events import GameCreated, SeedRevealed, Undone
from projections.schema import APPLICATION_NAME, ReadModelTracking
from service.app.application import GameService, get_codec_for_envelope
from service.app.ledger import Ledger
from service.simulation.names import player_of
from service.store.eventstore import EventStore
from service.store.feed import START, FeedNote, Position

_JSON = msgspec.json.Encoder()


def _json(value: Any) -> str:
    return _JSON.encode(value).decode()


@dataclass
class Followed:
    """A game being followed: its folded ledger and where its score timeline stands."""

    ledger: Ledger
    point: int  # index of the current score point (-1: none yet)
    point_key: str  # turn key of the current point
    finished: bool  # the game's outcome has been counted in the statistics


class Projector(Projection[ReadModelTracking]):
    """Folds notifications into the read-model tables (see the module docstring)."""

    name = "annales-readmodels"

    def __init__(self, view: ReadModelTracking, store: EventStore, cache_size: int = 256) -> None:
        super().__init__(view)
        self.db: sqlite_utils.Database = view.db
        self.store = store
        self.service = GameService(store, cache_size=1)  # used for materialise() only
        self.cache: OrderedDict[str, Followed] = OrderedDict()
        self.cache_size = cache_size
        self._last_position: Position | None = None

    # -- the batch --------------------------------------------------------------------------
    def position(self) -> Position:
        """The feed position of the last event applied (``START`` before the first)."""
        return self.view.position(APPLICATION_NAME) or START

    def process(self, notifications: Sequence[FeedNote]) -> int:
        """Apply the events not applied yet, in one transaction; return how many.

        ``notifications`` must follow each other in the feed (as ``EventStore.feed_after``
        returns them). Those at or before the recorded position are skipped.
        """
        if not notifications:
            return 0
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            position = self.position()
            if position != self._last_position:
                self.cache.clear()  # another writer (a rebuild, a second runner) moved it
            fresh = [n for n in notifications if n.position > position]
            for index, notification in enumerate(fresh):
                following = fresh[index + 1] if index + 1 < len(fresh) else None
                self.apply(notification, following)
            if fresh:
                self.view.insert_position(APPLICATION_NAME, fresh[-1].position)
            db.execute("COMMIT")
        except BaseException:
            db.rollback()
            self.cache.clear()
            self._last_position = None
            raise
        self._last_position = fresh[-1].position if fresh else position
        return len(fresh)

    def process_event(self, domain_event: Any, tracking: Any) -> None:
        """The eventsourcing ``Projection`` entry point: one notification of a SQLite store
        (feed transaction 0), one transaction."""
        if isinstance(domain_event, Notification):
            self.process([FeedNote.of_notification(domain_event)])
        else:  # pragma: no cover - the runner always passes feed notes
            raise TypeError(f"cannot project {type(domain_event).__name__}")

    # -- one notification -------------------------------------------------------------------
    def apply(self, notification: FeedNote, following: FeedNote | None = None) -> None:
        """Apply one notification inside the open transaction.

        ``following`` is the next notification of the batch (``None`` at its end): the
        summary and the score timeline are brought up to date when a command's events end
        (or the batch ends), not after each of its events.
        """
        envelope = decode_envelope(bytes(notification.state))
        game_id = envelope.game_id
        followed = self._follow(game_id, envelope)
        ledger = followed.ledger
        event = ledger.apply_envelope(envelope, self._state_at(game_id))
        match = ledger.match
        game = ledger.game
        state = match.state
        nid = int(notification.id)

        if isinstance(event, GameCreated):
            self._insert_game(game_id, event, nid)
        shown = event if _is_kernel(event) else game.redact_event(state, event, None)
        self.db.execute(
            "INSERT INTO public_events (game_id, seq, notification_id, kind, seat, command_id,"
            " redacted, event) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [game_id, envelope.seq, nid, envelope.kind, envelope.seat, envelope.command_id,
             int(shown != event), _json(shown)],
        )  # fmt: skip
        over = game.is_over(state)
        if event.REVEALS or over:
            self._unseal(game_id, ledger)
        if isinstance(event, Undone):
            self.db.execute(
                "DELETE FROM score_points WHERE game_id = ? AND first_seq > ?",
                [game_id, event.to_version],
            )
            self._load_point(game_id, followed)
        if isinstance(event, SeedRevealed):
            self.db.execute(
                "UPDATE games SET seed = ?, nonce = ? WHERE game_id = ?",
                [event.seed, event.nonce, game_id],
            )
        if _continues(envelope, following):
            return

        scores = game.scores(state)
        # The kernel knows the command's turn (the turn key before it) and its first event;
        # an undo's point is the turn it went back to.
        batch = match.kernel.history[-1]
        key = game.turn_key(state) if isinstance(event, Undone) else batch.turn
        self._score_point(game_id, followed, (key, batch.start, envelope.seq), scores)
        pending = game.pending(state)
        outcome = game.outcome(state)
        status = "finished" if over else ("setup" if game.is_setup(state) else "running")
        self.db.execute(
            "UPDATE games SET status = ?, pending_seats = ?, decision = ?, prompt = ?,"
            " round = ?, version = ?, last_activity = ?, scores = ?, winners = ?,"
            " final_scores = ?, parties = ? WHERE game_id = ?",
            [status, _json(pending.seats), pending.decision, pending.prompt, _round(state),
             match.version, nid,
             _json(scores), _json(outcome.winners if outcome else ()),
             _json(outcome.scores if outcome else ()),
             _json([[p.name, p.score, p.winner] for p in game.parties(state)]), game_id],
        )  # fmt: skip
        if over and outcome is not None and not followed.finished:
            followed.finished = True
            self._count_outcome(game_id, ledger, outcome.scores, outcome.winners)

    # -- parts ------------------------------------------------------------------------------
    def _insert_game(self, game_id: str, header: GameCreated, nid: int) -> None:
        self.db.execute(
            "INSERT INTO games (game_id, game_type, ruleset, players, seat_names,"
            " seed_commitment, status, options_json, created, last_activity, balance_keys,"
            " seed, nonce) VALUES (?, ?, ?, ?, ?, ?, 'setup', ?, ?, ?, '[]', '', '')",
            [game_id, header.game_type, header.ruleset, len(header.seat_names),
             _json(header.seat_names), header.seed_commitment,
             json.dumps(header.options, sort_keys=True), nid, nid],
        )  # fmt: skip

    def _unseal(self, game_id: str, ledger: Ledger) -> None:
        """Redact again, with the state now, the rows that were hidden from spectators."""
        rows = self.db.execute(
            "SELECT seq FROM public_events WHERE game_id = ? AND redacted = 1", [game_id]
        ).fetchall()
        game, state = ledger.game, ledger.match.state
        for (seq,) in rows:
            envelope = self.store.read(game_id, after=seq - 1, upto=seq)[0]
            event = ledger.codec.decode_event(envelope.kind, envelope.schema, envelope.payload)
            shown = game.redact_event(state, event, None)
            if shown == event:
                self.db.execute(
                    "UPDATE public_events SET redacted = 0, event = ?"
                    " WHERE game_id = ? AND seq = ?",
                    [_json(event), game_id, seq],
                )

    def _score_point(
        self, game_id: str, followed: Followed, at: tuple[str, int, int], scores: Sequence[int]
    ) -> None:
        """Each seat's score after the current command, on the point of its turn (the turn
        key before the command): a new point when the turn changed.

        ``at`` is ``(turn key, first seq of the command, seq now)``.
        """
        key, first, seq = at
        if followed.point >= 0 and key == followed.point_key:
            self.db.conn.executemany(
                "UPDATE score_points SET version = ?, score = ?"
                " WHERE game_id = ? AND point = ? AND seat = ?",
                [(seq, score, game_id, followed.point, seat) for seat, score in enumerate(scores)],
            )
            return
        followed.point += 1
        followed.point_key = key
        self.db.conn.executemany(
            "INSERT INTO score_points (game_id, point, seat, first_seq, version, turn_key, score)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(game_id, followed.point, seat, first, seq, key, score)
             for seat, score in enumerate(scores)],
        )  # fmt: skip

    def _load_point(self, game_id: str, followed: Followed) -> None:
        row = self.db.execute(
            "SELECT point, turn_key FROM score_points WHERE game_id = ?"
            " ORDER BY point DESC LIMIT 1",
            [game_id],
        ).fetchone()
        followed.point, followed.point_key = (int(row[0]), str(row[1])) if row else (-1, "")

    def _count_outcome(
        self, game_id: str, ledger: Ledger, scores: Sequence[int], winners: Sequence[int]
    ) -> None:
        """Add a finished game to the player and balance statistics (once per game)."""
        header = ledger.match.kernel.header
        assert header is not None
        game, state = ledger.game, ledger.match.state
        keys = game.balance_keys(state)
        players = len(scores)
        self.db.execute(
            "UPDATE games SET balance_keys = ? WHERE game_id = ?", [_json(keys), game_id]
        )
        for seat, score in enumerate(scores):
            won = int(seat in winners)
            rank = 1 + sum(1 for other in scores if other > score)
            player = player_of(game_id, header.seat_names[seat])
            self.db.execute(
                "INSERT INTO player_stats (player, game_type, games, wins, total_score,"
                " best_score) VALUES (?, ?, 1, ?, ?, ?) ON CONFLICT (player, game_type) DO"
                " UPDATE SET games = games + 1, wins = wins + excluded.wins,"
                " total_score = total_score + excluded.total_score,"
                " best_score = MAX(best_score, excluded.best_score)",
                [player, header.game_type, won, score, score],
            )
            self.db.execute(
                "INSERT INTO balance_stats (game_type, balance_key, players, games, wins,"
                " total_score, total_rank) VALUES (?, ?, ?, 1, ?, ?, ?)"
                " ON CONFLICT (game_type, balance_key, players) DO UPDATE SET"
                " games = games + 1, wins = wins + excluded.wins,"
                " total_score = total_score + excluded.total_score,"
                " total_rank = total_rank + excluded.total_rank",
                [header.game_type, keys[seat], players, won, score, rank],
            )

    # -- folding ----------------------------------------------------------------------------
    def _follow(self, game_id: str, envelope: Envelope) -> Followed:
        """The game folded up to ``envelope.seq - 1`` (from the LRU or the store)."""
        followed = self.cache.get(game_id)
        if followed is not None and followed.ledger.version == envelope.seq - 1:
            self.cache.move_to_end(game_id)
            return followed
        if envelope.seq == 1:
            header = get_codec_for_envelope(envelope).decode_event(
                envelope.kind, envelope.schema, envelope.payload
            )
            assert isinstance(header, GameCreated)
            followed = Followed(Ledger.from_header(game_id, header), -1, "", False)
        else:
            ledger = self.service.materialise(game_id, envelope.seq - 1)
            row = self.db.execute(
                "SELECT status FROM games WHERE game_id = ?", [game_id]
            ).fetchone()
            followed = Followed(ledger, -1, "", bool(row and row[0] == "finished"))
            self._load_point(game_id, followed)
        self.cache[game_id] = followed
        self.cache.move_to_end(game_id)
        while len(self.cache) > self.cache_size:
            self.cache.popitem(last=False)
        return followed

    def _state_at(self, game_id: str) -> Any:
        def state_at(version: int) -> Any:
            return self.service.materialise(game_id, version).match.state

        return state_at


def _continues(envelope: Envelope, following: FeedNote | None) -> bool:
    """``True`` when the next notification is the next event of the same command (a
    command's events are stored together, so they are consecutive in the log)."""
    return (
        following is not None
        and following.originator_id == envelope.game_id
        and following.originator_version == envelope.seq + 1
        and decode_envelope(bytes(following.state)).command_id == envelope.command_id
    )


def _is_kernel(event: Event) -> bool:
    return type(event).__module__ == "domain.core.kernel_events"


def _round(state: Any) -> int:
    """The round (or era) the game is in, for games that have one (0 otherwise)."""
    for name in ("round", "era"):
        value = getattr(state, name, None)
        if isinstance(value, int):
            return value
    return 0
