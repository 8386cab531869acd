"""Idempotent game creation: ``CreateGameRequest.idempotency_key``.

A creation with a key first *claims* the key in the store, then creates the game under the
claimed id. The claim is one record of the store's ``secrets`` recorder (it holds secrets:
the seat and judge tokens the retry must return), with originator ``create/<SHA-256 of the
key>`` and this JSON: the request's fingerprint (SHA-256 of its canonical parameters), the
game id and the tokens. It survives restarts and is shared by every server on the store.

* A retry with the same key and parameters finds the claim and answers the same game id and
  tokens; nothing is created twice. If the first attempt died between claim and creation,
  the retry creates the game under the claimed id.
* The same key with other parameters: INVALID_ARGUMENT ``IDEMPOTENCY_KEY_REUSED``.
* Concurrent identical requests: the store's unique ``(originator, version)`` lets one claim
  win; the others read the winner's claim and wait (up to :data:`WAIT_S`) for its game.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from typing import Any

import grpc
from eventsourcing.persistence import IntegrityError
from eventsourcing.persistence import StoredEvent as RecordedEvent

from service.api.status import ApiError
from service.store.eventstore import EventStore

#: shortest accepted key: a key gives back the tokens, so it must not be guessable
MIN_KEY = 16
#: longest accepted key
MAX_KEY = 128
#: how long a concurrent retry waits for the winner's game to exist
WAIT_S = 10.0


@dataclass(frozen=True)
class Claim:
    """A claimed creation key: what the first request asked and what it was given."""

    fingerprint: str
    game_id: str
    seat_tokens: tuple[str, ...]
    judge_token: str


def fingerprint(
    game_type: str, options: dict[str, Any], names: list[str], seed: str, ruleset: str = ""
) -> str:
    """SHA-256 of a creation request's parameters in canonical JSON."""
    data = {"game_type": game_type, "options": options, "seat_names": names, "seed": seed}
    if ruleset:  # absent when empty: claims stored before rulesets were chosen still match
        data["ruleset"] = ruleset
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _originator(key: str) -> str:
    return "create/" + hashlib.sha256(key.encode()).hexdigest()


def load_claim(store: EventStore, key: str) -> Claim | None:
    """The claim of ``key``, if any."""
    recorder: Any = store.secrets
    records = recorder.select_events(_originator(key), limit=1)
    if not records:
        return None
    data = json.loads(bytes(records[0].state))
    return Claim(
        data["fingerprint"], data["game_id"], tuple(data["seat_tokens"]), data["judge_token"]
    )


def claim(store: EventStore, key: str, wanted: Claim) -> tuple[Claim, bool]:
    """Claim ``key`` for ``wanted``; returns the claim that holds and whether it is ours."""
    data = {
        "fingerprint": wanted.fingerprint,
        "game_id": wanted.game_id,
        "seat_tokens": list(wanted.seat_tokens),
        "judge_token": wanted.judge_token,
    }
    record = RecordedEvent(_originator(key), 1, "create", json.dumps(data).encode())
    recorder: Any = store.secrets
    try:
        recorder.insert_events([record])
        return wanted, True
    except IntegrityError:
        held = load_claim(store, key)
        if held is None:  # pragma: no cover - a conflict always leaves the winner's row
            raise
        return held, False


def check_same(held: Claim, wanted_fingerprint: str) -> None:
    """Refuse a key reused with other parameters."""
    if held.fingerprint != wanted_fingerprint:
        raise ApiError(
            grpc.StatusCode.INVALID_ARGUMENT,
            "IDEMPOTENCY_KEY_REUSED",
            "This idempotency key already created a game with other parameters.",
            {"field": "idempotency_key"},
        )


def wait_for_game(store: EventStore, game_id: str, timeout: float = WAIT_S) -> bool:
    """``True`` once ``game_id`` has its setup stored (polls; concurrent creations only)."""
    deadline = time.monotonic() + timeout
    while True:
        if store.last_seq(game_id) and store.load_token_hashes(game_id):
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.02)
