"""What the judge reads: unredacted events, every seat's view, the full record.

The judge (``service/api/auth.py``) is the one caller for whom nothing is redacted, so its
events do not go through the game's ``redact_event``; everything else it receives (the
spectator view, each seat's view) still passes through :meth:`Redactor.outgoing` like any
other payload. Its record is :func:`service.audit.export.judge_record` (through
:class:`~service.api.redaction.JudgeRecordRequest`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from annales.v1 import annales_pb2 as pb

from domain.core.envelope import Envelope
from service.api.redaction import Redactor, StateRequest, fill_event
from service.app.application import GameService


def full_events(
    service: GameService, game_id: str, envelopes: Sequence[Envelope]
) -> list[pb.GameEvent]:
    """The events of ``envelopes`` as they were recorded (nothing hidden)."""
    header = service.header(game_id)
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
        fill_event(message, event, header)
        messages.append(message)
    return messages


def seat_views(redactor: Redactor, game_id: str, state: Any, seats: int) -> list[pb.GameView]:
    """Every seat's own view of ``state``, by seat number."""
    return [redactor.outgoing(game_id, seat, StateRequest(state)) for seat in range(seats)]
