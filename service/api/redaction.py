"""The one redaction function: everything the API sends about a game passes through
:meth:`Redactor.outgoing`.

It turns domain items into the messages a given viewer (a seat, or ``None`` for a spectator)
may receive:

* envelopes → ``GameEvent`` messages, each event passed through the game's ``redact_event``
  (sealed choices, hands, deck order stay hidden from other seats);
* a state → ``GameView`` via the game's ``view(state, viewer)`` (time travel included: the
  state at a past version is viewed as of that point);
* a record export → JSON lines whose events are redacted for the viewer until the game ends;
* an error → its message.

As a last line of defence, every outgoing payload is scanned for the game's secret seed (seeds of
8 bytes or more; shorter seeds are too short to scan for — and too easy to guess from their
commitment: use long seeds): before the game has ended, a payload containing it is never sent
(an internal error is raised instead).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
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
from service.audit.records import export_lines

_KERNEL_FIELDS = {
    UndoRequested: "undo_requested",
    UndoApproved: "undo_approved",
    UndoDeclined: "undo_declined",
    Undone: "undone",
    SeedRevealed: "seed_revealed",
}


class SecretLeak(RuntimeError):
    """An outgoing payload contained a secret; it was not sent."""


class Redactor:
    """Builds every outgoing payload of a game for one viewer."""

    def __init__(self, service: GameService) -> None:
        self.service = service

    # -- the one exit -----------------------------------------------------------------------
    def outgoing(self, game_id: str, viewer: int | None, item: Any) -> Any:
        """What ``viewer`` may receive of ``item`` (envelopes, a state, a record, a text)."""
        if isinstance(item, list | tuple) and item and isinstance(item[-1], Envelope):
            self.service.reach(game_id, item[-1].seq)  # judge with a head that has seen them
        match = self.service.head(game_id)
        game = match.game
        if isinstance(item, Envelope):
            result: Any = self._event(game_id, viewer, item)
        elif isinstance(item, list | tuple) and all(isinstance(e, Envelope) for e in item):
            result = [self._event(game_id, viewer, e) for e in item]
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
    def _event(self, game_id: str, viewer: int | None, envelope: Envelope) -> pb.GameEvent:
        match = self.service.head(game_id)
        event = self.service.decode(game_id, envelope)
        shown = (
            event
            if isinstance(event, _KERNEL_TYPES)
            else match.game.redact_event(match.state, event, viewer)
        )
        message = pb.GameEvent(
            seq=envelope.seq,
            command_id=envelope.command_id,
            seat=envelope.seat,
            kind=envelope.kind,
            prev_hash=envelope.prev_hash,
            hash=envelope.hash,
            redacted=shown is not event,
        )
        _fill_event(message, shown, match.kernel.header)
        return message

    def _record(self, game_id: str, viewer: int | None) -> tuple[bytes, bool]:
        match = self.service.head(game_id)
        envelopes = self.service.events(game_id)
        finished = match.kernel.seed is not None
        game = match.game

        def redact(envelope: Envelope, event: Event) -> Event | None:
            if finished or isinstance(event, _KERNEL_TYPES):
                return event
            return game.redact_event(match.state, event, viewer)

        lines = export_lines(envelopes, lambda e: self.service.decode(game_id, e), redact)
        return b"".join(line + b"\n" for line in lines), finished

    def _guard(self, game_id: str, result: Any) -> None:
        match = self.service.head(game_id)
        if match.kernel.seed is not None:
            return
        seed = self.service.store.load_seed(game_id)
        if not seed:
            return
        if isinstance(result, Message):
            blob = result.SerializeToString()
        elif isinstance(result, tuple):
            blob = result[0]
        elif isinstance(result, list):
            blob = b"".join(m.SerializeToString() for m in result)
        else:
            blob = str(result).encode()
        if len(seed) >= 8 and (seed.hex().encode() in blob or seed in blob):
            raise SecretLeak(f"an outgoing payload of game {game_id} contained its seed")


class RecordRequest:
    """Ask :meth:`Redactor.outgoing` for the game's record (bytes, complete)."""


class StateRequest:
    """Ask :meth:`Redactor.outgoing` for a view of ``state``."""

    def __init__(self, state: Any) -> None:
        self.state = state


_KERNEL_TYPES = (GameCreated, *_KERNEL_FIELDS)


def _fill_event(message: pb.GameEvent, event: Event, header: GameCreated | None) -> None:
    if isinstance(event, GameCreated):
        message.kernel.game_created.CopyFrom(
            pb.GameCreated(
                game_type=event.game_type,
                ruleset=event.ruleset,
                options_json=json.dumps(event.options, sort_keys=True),
                seat_names=list(event.seat_names),
                seed_commitment=event.seed_commitment,
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
