"""Writing records (format ``annales.game/2``, see ``docs/record-format.md``).

:func:`export_lines` writes the record of a list of envelopes for one viewer:

* ``"full"`` — everything, every idempotency key (the operator's ``annales export``);
* ``"judge"`` — everything, and the header also carries the secret seed and nonce, so that an
  unfinished game is re-executed in full (:func:`judge_record`; never for a player);
* ``None`` — a spectator: no idempotency key at all (also the game sections of tournament
  records);
* a seat number — that seat: its own idempotency keys only.

Where the game hashes key digests (``GameCreated.key_digests``), a hidden key leaves its
digest, so the line still verifies; in older games a hidden key makes that link uncheckable.
Events the viewer may not see (``redact``) keep their hashes but lose their payload, and from
the first of them on, commands are hidden too (a command may name what a hidden event drew).
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal

from domain.core.chance import LEGACY_COMMITMENT
from domain.core.envelope import Envelope
from domain.core.game import Event
from domain.core.kernel_events import GameCreated
from domain.registry import codec_for, get_ruleset
from service.app.errors import GameNotFound, InvalidArgument
from service.audit.format import RECORD_FORMAT, canonical

if TYPE_CHECKING:
    from service.app.application import GameService

EventFilter = Callable[[Envelope, Event], Event | None]
Viewer = int | None | Literal["full", "judge"]


def viewer_label(viewer: Viewer) -> str:
    """The header's ``viewer``: ``full``, ``judge``, ``spectator`` or ``seat N``."""
    if viewer is None:
        return "spectator"
    if isinstance(viewer, int):
        return f"seat {viewer}"
    return viewer


def export_lines(
    envelopes: Sequence[Envelope],
    decode: Callable[[Envelope], Event],
    redact: EventFilter | None = None,
    viewer: Viewer = "full",
    seed: bytes | None = None,
    nonce: bytes | None = None,
) -> list[bytes]:
    """The record of a game as canonical JSON lines (without trailing newlines).

    ``redact(envelope, event)`` may replace an event by what the viewer may see (called in
    sequence order); ``seed`` and ``nonce`` go into a judge's header.
    """
    header_event = decode(envelopes[0])
    if not isinstance(header_event, GameCreated):
        raise ValueError("a game log starts with GameCreated")
    header: dict[str, Any] = {
        "record": RECORD_FORMAT,
        "game_id": envelopes[0].game_id,
        "game_type": header_event.game_type,
        "ruleset": header_event.ruleset,
        "options": header_event.options,
        "seats": list(header_event.seat_names),
        "seed_commitment": header_event.seed_commitment,
        "seed_commitment_scheme": header_event.seed_commitment_scheme or LEGACY_COMMITMENT,
        "events": len(envelopes),
        "viewer": viewer_label(viewer),
    }
    if viewer == "judge":
        header["seed"] = seed.hex() if seed is not None else None
        header["nonce"] = nonce.hex() if nonce is not None else None
    lines = [canonical(header)]
    codec = codec_for(get_ruleset(header_event.ruleset))
    redacted_any = False
    for batch in _batches(envelopes):
        shown_events: list[tuple[Envelope, Event, Event | None]] = []
        for envelope in batch:
            event = decode(envelope)
            shown_events.append(
                (envelope, event, event if redact is None else redact(envelope, event))
            )
        redacted_any = redacted_any or any(shown is not event for _, event, shown in shown_events)
        first = batch[0]
        hidden: list[str] = []
        command_data = None
        if first.command is not None:
            if redact is not None and redacted_any:
                hidden.append("command")
            else:
                command_data = codec.command_to_data(codec.decode_command(first.command))
        key = first.idempotency_key
        if key is not None and not _shows_key(viewer, first.seat):
            hidden.append("idempotency_key")
            key = None
        lines.append(
            canonical(
                {
                    "type": "command",
                    "command_id": first.command_id,
                    "seat": first.seat,
                    "idempotency_key": key,
                    "idempotency_key_digest": first.key_digest,
                    "command": command_data,
                    "command_payload": (
                        None
                        if command_data is None or first.command is None
                        else base64.b64encode(first.command).decode()
                    ),
                    "hidden": hidden,
                }
            )
        )
        for envelope, event, shown in shown_events:
            if shown is None:
                continue
            same = shown is event
            lines.append(
                canonical(
                    {
                        "type": "event",
                        "seq": envelope.seq,
                        "kind": envelope.kind,
                        "schema": envelope.schema,
                        "ruleset": envelope.ruleset,
                        "event": codec.event_to_data(shown),
                        "payload": base64.b64encode(envelope.payload).decode() if same else None,
                        "redacted": not same,
                        "prev_hash": envelope.prev_hash,
                        "hash": envelope.hash,
                    }
                )
            )
    return lines


def _shows_key(viewer: Viewer, seat: int) -> bool:
    if viewer in ("full", "judge"):
        return True
    return isinstance(viewer, int) and viewer == seat


def _batches(envelopes: Sequence[Envelope]) -> list[list[Envelope]]:
    """Envelopes grouped by the command that produced them, in order."""
    batches: list[list[Envelope]] = []
    for envelope in envelopes:
        if batches and batches[-1][0].command_id == envelope.command_id:
            batches[-1].append(envelope)
        else:
            batches.append([envelope])
    return batches


def judge_record(service: GameService, game_id: str, version: int | None = None) -> list[bytes]:
    """The full record of a game up to ``version`` (default: now) for a judge or organiser.

    Nothing is redacted, every idempotency key is shown, and the header carries the secret
    seed and nonce: ``verify`` then re-executes an unfinished game in full. Raises
    ``GameNotFound`` / ``InvalidArgument`` (a version outside ``1..head``) like
    :meth:`GameService.materialise`. The caller must make sure the requester is a judge.
    """
    last = service.store.last_seq(game_id)
    if last == 0:
        raise GameNotFound(f"No game with id {game_id!r}.")
    target = last if version is None else version
    if not 1 <= target <= last:
        raise InvalidArgument(f"Version {target} is outside 1..{last}.", "BAD_VERSION")
    envelopes = service.store.read(game_id, upto=target)
    return export_lines(
        envelopes,
        lambda e: service.decode(game_id, e),
        viewer="judge",
        seed=service.store.load_seed(game_id),
        nonce=service.store.load_nonce(game_id),
    )
