"""What the judge reads: unredacted events, every seat's view, the full record.

The judge (``service/api/auth.py``) is the one caller for whom nothing is redacted, so its
events do not go through the game's ``redact_event``; everything else it receives (the
spectator view, each seat's view) still passes through :meth:`Redactor.outgoing` like any
other payload. Its record is :func:`service.audit.export.judge_record` (through
:class:`~service.api.redaction.JudgeRecordRequest`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import msgspec
from annales.v1 import annales_pb2 as pb

from domain.core.envelope import Envelope
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
from service.api.redaction import Redactor, StateRequest
from service.app.application import GameService

_KERNEL_FIELDS: dict[type, str] = {
    UndoRequested: "undo_requested",
    UndoApproved: "undo_approved",
    UndoDeclined: "undo_declined",
    Undone: "undone",
    SeedRevealed: "seed_revealed",
}


def full_events(
    service: GameService, game_id: str, envelopes: Sequence[Envelope]
) -> list[pb.GameEvent]:
    """The events of ``envelopes`` as they were recorded (nothing hidden)."""
    header = service.header(game_id)
    api = BY_NAME[header.game_type]
    messages = []
    for envelope in envelopes:
        event: Any = service.decode(game_id, envelope)
        message = pb.GameEvent(
            seq=envelope.seq,
            command_id=envelope.command_id,
            seat=envelope.seat,
            kind=envelope.kind,
            prev_hash=envelope.prev_hash,
            hash=envelope.hash,
            redacted=False,
        )
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
        elif type(event) in _KERNEL_FIELDS:
            data = msgspec.to_builtins(event)
            data.pop("type", None)
            fill(getattr(message.kernel, _KERNEL_FIELDS[type(event)]), data)
        else:
            fill(getattr(message, api.field), msgspec.to_builtins(event), api.prefix)
        messages.append(message)
    return messages


def seat_views(redactor: Redactor, game_id: str, state: Any, seats: int) -> list[pb.GameView]:
    """Every seat's own view of ``state``, by seat number."""
    return [redactor.outgoing(game_id, seat, StateRequest(state)) for seat in range(seats)]
