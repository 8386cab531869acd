"""Callers: ``authorization: Bearer <token>`` metadata, tokens stored only as SHA-256 hashes.

Three kinds of caller (see ``proto/annales/v1/annales.proto``): a *seat* (one of the seat
tokens CreateGame returns), the *judge* (CreateGame's judge token, or for a tournament game
the tournament's organiser token: reads everything, never acts) and a *spectator* (no token).

Tokens are opaque to clients. Internally one reads ``<game id>.<part>.<secret>``, ``part``
being the seat number or ``judge`` and ``secret`` 16 to 64 URL-safe base64 characters; the
game id lets the server tell a valid token of another game (PERMISSION_DENIED
``WRONG_GAME_TOKEN``, checked against that game's stored hashes) from anything else that is
not a valid token of the game called (UNAUTHENTICATED ``BAD_TOKEN``: garbage, truncated,
forged, renumbered) without ever storing a secret.
"""

from __future__ import annotations

import contextlib
import hmac
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import grpc
from eventsourcing.persistence import IntegrityError
from eventsourcing.persistence import StoredEvent as RecordedEvent

from service.api.status import ApiError
from service.app.tokens import JUDGE_PART, token_hash
from service.store.eventstore import EventStore

#: version of the judge-token hash in the tokens recorder (seat hashes are version 1)
JUDGE_HASH_VERSION = 2
#: longest token accepted (longer is BAD_TOKEN before any lookup)
MAX_TOKEN = 256
#: tournament game ids: ``{tournament id}-r{round}-t{table}``
_TOURNAMENT_GAME = re.compile(r"^(?P<tournament>tournament-.+)-r\d+-t\d+$")
_SECRET = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
_SEAT = re.compile(r"^[0-9]{1,4}$")


@dataclass(frozen=True)
class Caller:
    """Who calls: a seat (``seat``), the judge (``judge``) or a spectator (neither)."""

    seat: int | None = None
    judge: bool = False

    @property
    def viewer(self) -> int | None:
        """The seat to redact for (``None``: a spectator; the judge is never redacted for)."""
        return self.seat


SPECTATOR = Caller()
JUDGE = Caller(judge=True)


def bearer(metadata: Sequence[tuple[str, str | bytes]] | None) -> str | None:
    """The bearer token in call metadata, if any (malformed headers raise UNAUTHENTICATED)."""
    for key, value in metadata or ():
        if key.lower() == "authorization":
            text = value.decode(errors="replace") if isinstance(value, bytes) else value
            scheme, _, token = text.partition(" ")
            if scheme.lower() != "bearer" or not token.strip():
                raise ApiError(
                    grpc.StatusCode.UNAUTHENTICATED,
                    "BAD_AUTHORIZATION",
                    "Use the header 'authorization: Bearer <token>'.",
                )
            return token.strip()
    return None


def _bad_token() -> ApiError:
    return ApiError(
        grpc.StatusCode.UNAUTHENTICATED,
        "BAD_TOKEN",
        "The token is not a valid token of this game.",
    )


def parse_token(token: str) -> tuple[str, str, str] | None:
    """``(game id, part, secret)`` of a well-formed token, else ``None``.

    >>> parse_token("g1.0.abcdefghijklmnopqrstuvwx")
    ('g1', '0', 'abcdefghijklmnopqrstuvwx')
    >>> parse_token("g1.judge.abcdefghijklmnopqrstuvwx")[1], parse_token("garbage")
    ('judge', None)
    """
    if len(token) > MAX_TOKEN or not token.isascii() or not token.isprintable():
        return None
    parts = token.rsplit(".", 2)
    if len(parts) != 3:
        return None
    game, part, secret = parts
    if not game or "\x00" in game or not _SECRET.match(secret):
        return None
    if part != JUDGE_PART and not _SEAT.match(part):
        return None
    return game, part, secret


class TokenBook:
    """The stored token hashes of every game: seat hashes and the judge's, cached."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self._judges: dict[str, str | None] = {}
        self._guard = threading.Lock()

    def seat_hashes(self, game_id: str) -> list[str]:
        """The seat-token hashes of a game, by seat (empty if none)."""
        return self.store.load_token_hashes(game_id)

    def judge_hash(self, game_id: str) -> str | None:
        """The judge-token hash of a game, if it has one (tournament games have none)."""
        with self._guard:
            if game_id in self._judges:
                return self._judges[game_id]
        recorder: Any = self.store.tokens
        records = recorder.select_events(game_id, gt=JUDGE_HASH_VERSION - 1, limit=1)
        found = bytes(records[0].state).decode("ascii") if records else None
        if found is not None:  # a game without one may get one later (creation in flight)
            with self._guard:
                if len(self._judges) > 100_000:
                    self._judges.clear()
                self._judges[game_id] = found
        return found

    def save_judge_hash(self, game_id: str, digest: str) -> None:
        """Store the judge-token hash of a game (once; a second save is ignored)."""
        recorder: Any = self.store.tokens
        record = RecordedEvent(game_id, JUDGE_HASH_VERSION, "judge-hash", digest.encode("ascii"))
        with contextlib.suppress(IntegrityError):  # saved by a concurrent retry
            recorder.insert_events([record])

    def is_valid(self, token: str, game_id: str, part: str) -> bool:
        """``True`` when ``token`` is a token this server issued for ``game_id``."""
        digest = token_hash(token)
        if part == JUDGE_PART:
            judge = self.judge_hash(game_id)
            return judge is not None and hmac.compare_digest(digest, judge)
        hashes = self.seat_hashes(game_id)
        seat = int(part)
        return seat < len(hashes) and hmac.compare_digest(digest, hashes[seat])


def identify(token: str | None, game_id: str, book: TokenBook) -> Caller:
    """The caller a bearer token stands for in ``game_id``.

    No token: a spectator. A valid seat or judge token of ``game_id``, or the organiser token
    of the tournament ``game_id`` belongs to: that seat / the judge. A valid token of another
    game: PERMISSION_DENIED ``WRONG_GAME_TOKEN``. Anything else: UNAUTHENTICATED
    ``BAD_TOKEN``.
    """
    if token is None:
        return SPECTATOR
    parsed = parse_token(token)
    if parsed is None:
        raise _bad_token()
    token_game, part, _ = parsed
    if token_game == game_id:
        if not book.is_valid(token, game_id, part):
            raise _bad_token()
        return JUDGE if part == JUDGE_PART else Caller(seat=int(part))
    tournament = _TOURNAMENT_GAME.match(game_id)
    if (
        tournament is not None
        and tournament.group("tournament") == token_game
        and part == "0"
        and book.is_valid(token, token_game, part)
    ):
        return JUDGE  # the tournament's organiser judges its games
    if book.is_valid(token, token_game, part):
        raise ApiError(
            grpc.StatusCode.PERMISSION_DENIED,
            "WRONG_GAME_TOKEN",
            "This token is valid, but for another game.",
        )
    raise _bad_token()
