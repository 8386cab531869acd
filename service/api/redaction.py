"""The one redaction function: everything the API sends about a game passes through
:meth:`Redactor.outgoing`.

It turns domain items into the messages a given viewer (a seat, or ``None`` for a spectator)
may receive:

* envelopes → ``GameEvent`` messages, each event passed through the game's ``redact_event``
  (sealed choices, hands, deck order stay hidden from other seats) **as of the event's own
  version** — with the state the game had right after that event, never the state at send
  time — so the same request (a history page, a stream resumed from the same version, a
  lagging watcher's batch) always yields the same bytes;
* a state → ``GameView`` via the game's ``view(state, viewer)`` (time travel included: the
  state at a past version is viewed as of that point);
* a record export → JSON lines whose events are redacted for the viewer (each as of its own
  version) until the game ends, and whose idempotency keys are hidden except the viewer
  seat's own (a spectator sees none); a judge's full record (:class:`JudgeRecordRequest`,
  seed and nonce included) is the one payload exempt from the secret check below — the
  caller must have checked the judge's credential;
* an error → its message.

As a last line of defence, every outgoing payload is scanned for the game's secret seed (seeds of
8 bytes or more; shorter seeds are too short to scan for) and the nonce of its commitment:
before the game has ended, a payload containing either is never sent (an internal error is
raised instead).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from typing import Any

import msgspec
from annales.v1 import annales_pb2 as pb
from google.protobuf.message import Message

from domain.core.envelope import Envelope
from domain.core.game import Event
from domain.core.kernel_events import (
    GameCreated,
    SeedRevealed,
    UndoApproved,
    UndoDeclined,
    Undone,
    UndoRequested,
)
from service.api.convert import fill
from service.api.games import BY_NAME
from service.app.application import GameService
from service.app.ledger import Ledger
from service.audit.records import export_lines, judge_record

_KERNEL_FIELDS = {
    UndoRequested: "undo_requested",
    UndoApproved: "undo_approved",
    UndoDeclined: "undo_declined",
    Undone: "undone",
    SeedRevealed: "seed_revealed",
}


#: redacted events kept, ready to send again (a lagging watcher, another page request)
SENT = 50_000
#: games whose last fold position is kept; events folded forward from one, at most
CURSORS = 256
CATCH_UP = 500


class SecretLeak(RuntimeError):
    """An outgoing payload contained a secret; it was not sent."""


class Redactor:
    """Builds every outgoing payload of a game for one viewer."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self._lock = threading.Lock()
        #: redacted events already sent, by (game, seq, viewer): each is fixed once and for all
        self._sent: OrderedDict[tuple[str, int, int | None], bytes] = OrderedDict()
        #: private ledgers left where the last fold stopped, by game (reused by the next call)
        self._cursors: dict[str, Ledger] = {}

    # -- the one exit -----------------------------------------------------------------------
    def outgoing(self, game_id: str, viewer: int | None, item: Any) -> Any:
        """What ``viewer`` may receive of ``item`` (envelopes, a state, a record, a text)."""
        if isinstance(item, list | tuple) and item and isinstance(item[-1], Envelope):
            self.service.reach(game_id, item[-1].seq)  # judge with a head that has seen them
        match = self.service.head(game_id)
        game = match.game
        if isinstance(item, JudgeRecordRequest):
            lines = judge_record(self.service, game_id, item.version)
            return b"".join(line + b"\n" for line in lines)
        if isinstance(item, Envelope):
            result: Any = self._events(game_id, viewer, [item])[0]
        elif isinstance(item, list | tuple) and all(isinstance(e, Envelope) for e in item):
            result = self._events(game_id, viewer, item)
        elif isinstance(item, RecordRequest):
            result = self._record(game_id, viewer)
        elif isinstance(item, StateRequest):
            view = game.view(item.state, viewer)
            result = pb.GameView()
            api = BY_NAME[match.kernel.header.game_type]  # type: ignore[union-attr]
            fill(getattr(result, api.field), msgspec.to_builtins(view), api.prefix)
        elif isinstance(item, str):
            result = item
        else:
            raise TypeError(f"cannot redact {type(item).__name__}")
        self._guard(game_id, result)
        return result

    # -- parts ------------------------------------------------------------------------------
    def _states(self, game_id: str, envelopes: Sequence[Envelope]) -> Iterator[Any]:
        """The game's state right after each of ``envelopes`` (contiguous, in order): one
        materialisation before the first, then a fold — the redaction input of each event."""
        first = envelopes[0].seq
        with self._lock:
            cursor = self._cursors.pop(game_id, None)
        start = max(first - 1, 1)
        if cursor is not None and cursor.version <= start and start - cursor.version <= CATCH_UP:
            ledger = cursor
            if cursor.version < start:  # fold forward to the event before the first
                for envelope in self.service.store.read(game_id, cursor.version, start):
                    ledger.apply_envelope(envelope, self._state_at(game_id))
        else:
            ledger = self.service.materialise(game_id, start)
        for envelope in envelopes:
            if envelope.seq > ledger.version:
                ledger.apply_envelope(envelope, self._state_at(game_id))
            yield ledger.match.state
        with self._lock:
            if len(self._cursors) >= CURSORS:
                self._cursors.pop(next(iter(self._cursors)))
            self._cursors[game_id] = ledger

    def _state_at(self, game_id: str) -> Any:
        def state_at(version: int) -> Any:
            return self.service.materialise(game_id, version).match.state

        return state_at

    def observe(self, match: Any, event: Event, state: Any) -> Observed:
        """What the answer to a command needs of the state right after ``event``, derived as
        the command folds (``GameService.submit(observe=...)``): the event as every viewer
        (the spectator, each seat) may see it — ``None`` for a kernel event, shown as is."""
        if isinstance(event, _KERNEL_TYPES):
            return event, None
        game = match.game
        shown = {v: game.redact_event(state, event, v) for v in [None, *range(match.seats)]}
        return event, shown

    def submitted(
        self,
        game_id: str,
        viewer: int | None,
        envelopes: Sequence[Envelope],
        observed: Sequence[Observed],
    ) -> list[pb.GameEvent]:
        """The events of a command just stored, for ``viewer``, from what :meth:`observe`
        derived while the command folded: the same bytes as :meth:`outgoing` of the envelopes
        (which folds them a second time on a ledger of its own), without that fold."""
        if not envelopes or len(observed) != len(envelopes):
            return self.outgoing(game_id, viewer, list(envelopes))  # type: ignore[no-any-return]
        if any(shown is not None and viewer not in shown for _, shown in observed):
            return self.outgoing(game_id, viewer, list(envelopes))  # type: ignore[no-any-return]
        match = self.service.head(game_id)
        sent: list[bytes] = []
        result = self._build(game_id, viewer, match, envelopes, observed, sent)
        self._scan(game_id, b"".join(sent))  # the bytes the messages were parsed from
        return result

    def _events(
        self, game_id: str, viewer: int | None, envelopes: Sequence[Envelope]
    ) -> list[pb.GameEvent]:
        if not envelopes:
            return []
        with self._lock:
            known = [self._sent.get((game_id, e.seq, viewer)) for e in envelopes]
        if all(blob is not None for blob in known):
            return [pb.GameEvent.FromString(blob) for blob in known if blob is not None]
        match = self.service.head(game_id)
        decoded = [self.service.decode(game_id, e) for e in envelopes]
        if all(isinstance(event, _KERNEL_TYPES) for event in decoded):
            states: Iterator[Any] = iter([None] * len(envelopes))  # nothing to redact
        else:
            states = self._states(game_id, envelopes)
        # one fold serves every viewer: the others' redactions are kept for their requests
        viewers: list[int | None] = [None, *range(match.seats)]
        if viewer not in viewers:
            viewers.append(viewer)
        rows: list[Observed] = []
        for event, state in zip(decoded, states, strict=True):
            if isinstance(event, _KERNEL_TYPES):
                rows.append((event, None))
            else:
                shown = {v: match.game.redact_event(state, event, v) for v in viewers}
                rows.append((event, shown))
        return self._build(game_id, viewer, match, envelopes, rows)

    def _build(
        self,
        game_id: str,
        viewer: int | None,
        match: Any,
        envelopes: Sequence[Envelope],
        rows: Sequence[Observed],
        sent: list[bytes] | None = None,
    ) -> list[pb.GameEvent]:
        """Messages of ``envelopes`` for every viewer of ``rows`` (kept for their requests);
        those of ``viewer`` returned (and their bytes appended to ``sent``)."""
        viewers: list[int | None] = [None, *range(match.seats)]
        if viewer not in viewers:
            viewers.append(viewer)
        result: list[pb.GameEvent] = []
        blobs: dict[tuple[str, int, int | None], bytes] = {}
        for envelope, (event, shown_by) in zip(envelopes, rows, strict=True):
            plain: bytes | None = None
            forms: list[tuple[Event, bytes]] = []  # each distinct redacted form built once
            for someone in viewers:
                shown = event if shown_by is None else shown_by[someone]
                if shown is event:
                    if plain is None:
                        plain = self._message(match, envelope, event, event).SerializeToString()
                    blob = plain
                else:  # redacted: equal contents make the same message
                    found = next((b for s, b in forms if s is shown or s == shown), None)
                    if found is None:
                        found = self._message(match, envelope, event, shown).SerializeToString()
                        forms.append((shown, found))
                    blob = found
                blobs[(game_id, envelope.seq, someone)] = blob
                if someone == viewer:
                    result.append(pb.GameEvent.FromString(blob))
                    if sent is not None:
                        sent.append(blob)
        with self._lock:
            self._sent.update(blobs)
            while len(self._sent) > SENT:
                self._sent.popitem(last=False)
        return result

    def _message(self, match: Any, envelope: Envelope, event: Event, shown: Event) -> pb.GameEvent:
        message = pb.GameEvent(
            seq=envelope.seq,
            command_id=envelope.command_id,
            seat=envelope.seat,
            kind=envelope.kind,
            prev_hash=envelope.prev_hash,
            hash=envelope.hash,
            redacted=shown is not event,
        )
        fill_event(message, shown, match.kernel.header)
        return message

    def _record(self, game_id: str, viewer: int | None) -> tuple[bytes, bool]:
        match = self.service.head(game_id)
        envelopes = self.service.events(game_id)
        finished = match.kernel.seed is not None
        game = match.game
        states = self._states(game_id, envelopes)

        def redact(envelope: Envelope, event: Event) -> Event | None:
            state = next(states)  # called once per envelope, in order
            if isinstance(event, _KERNEL_TYPES):
                return event
            return game.redact_event(state, event, viewer)

        lines = export_lines(
            envelopes,
            lambda e: self.service.decode(game_id, e),
            None if finished else redact,
            viewer=viewer,
        )
        return b"".join(line + b"\n" for line in lines), finished

    def _guard(self, game_id: str, result: Any) -> None:
        if self.service.head(game_id).kernel.seed is not None:
            return
        if isinstance(result, Message):
            blob = result.SerializeToString()
        elif isinstance(result, tuple):
            blob = result[0]
        elif isinstance(result, list):
            blob = b"".join(m.SerializeToString() for m in result)
        else:
            blob = str(result).encode()
        self._scan(game_id, blob)

    def _scan(self, game_id: str, blob: bytes) -> None:
        """Raise :class:`SecretLeak` when ``blob`` holds the game's seed or nonce (unless the
        game has ended: both are public then)."""
        if self.service.head(game_id).kernel.seed is not None:
            return
        seed = self.service.store.load_seed(game_id)
        if not seed:
            return
        if len(seed) >= 8 and (seed.hex().encode() in blob or seed in blob):
            raise SecretLeak(f"an outgoing payload of game {game_id} contained its seed")
        nonce = self.service.store.load_nonce(game_id)
        if nonce and (nonce.hex().encode() in blob or nonce in blob):
            raise SecretLeak(f"an outgoing payload of game {game_id} contained its nonce")


class RecordRequest:
    """Ask :meth:`Redactor.outgoing` for the game's record (bytes, complete)."""


class JudgeRecordRequest:
    """Ask :meth:`Redactor.outgoing` for a judge's full record (bytes) up to ``version``
    (``None``: now) — seed and nonce included; only for a caller holding a judge credential."""

    def __init__(self, version: int | None = None) -> None:
        self.version = version


class StateRequest:
    """Ask :meth:`Redactor.outgoing` for a view of ``state``."""

    def __init__(self, state: Any) -> None:
        self.state = state


_KERNEL_TYPES = (GameCreated, *_KERNEL_FIELDS)

#: an event and how each viewer may see it (``None``: a kernel event, shown to all as is)
Observed = tuple[Event, dict[int | None, Event] | None]


def fill_event(message: pb.GameEvent, event: Event, header: GameCreated | None) -> None:
    """Fill ``message``'s payload with ``event`` as shown (kernel or game event; ``header``:
    the game's ``GameCreated``, needed for a game event). The one conversion of events to
    messages, for every viewer and the judge."""
    if isinstance(event, GameCreated):
        message.kernel.game_created.CopyFrom(
            pb.GameCreated(
                game_type=event.game_type,
                ruleset=event.ruleset,
                options_json=json.dumps(event.options, sort_keys=True),
                seat_names=list(event.seat_names),
                seed_commitment=event.seed_commitment,
                seed_commitment_scheme=event.seed_commitment_scheme,
                key_digests=event.key_digests,
            )
        )
        return
    field = _KERNEL_FIELDS.get(type(event))
    if field is not None:
        data = msgspec.to_builtins(event)
        data.pop("type", None)
        fill(getattr(message.kernel, field), data)
        return
    assert header is not None
    api = BY_NAME[header.game_type]
    fill(getattr(message, api.field), msgspec.to_builtins(event), api.prefix)


def envelopes_for(
    redactor: Redactor, game_id: str, viewer: int | None, envelopes: Sequence[Envelope]
) -> list[pb.GameEvent]:
    """Shorthand: many envelopes through :meth:`Redactor.outgoing`."""
    result: list[pb.GameEvent] = redactor.outgoing(game_id, viewer, list(envelopes))
    return result
