"""Seat tokens: ``authorization: Bearer <token>`` metadata, stored only as SHA-256 hashes.

A token reads ``<game id>.<seat>.<secret>``: the game id and seat let the server say *why* a
token is refused (a token of another game is PERMISSION_DENIED; a forged secret is
UNAUTHENTICATED) without ever storing the secret.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence

import grpc

from service.api.status import ApiError


def new_tokens(game_id: str, seats: int) -> list[str]:
    """One fresh secret token per seat."""
    return [f"{game_id}.{seat}.{secrets.token_urlsafe(24)}" for seat in range(seats)]


def token_hash(token: str) -> str:
    """The stored form of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


def bearer(metadata: Sequence[tuple[str, str | bytes]] | None) -> str | None:
    """The bearer token in call metadata, if any (malformed headers raise UNAUTHENTICATED)."""
    for key, value in metadata or ():
        if key.lower() == "authorization":
            text = value.decode() if isinstance(value, bytes) else value
            scheme, _, token = text.partition(" ")
            if scheme.lower() != "bearer" or not token.strip():
                raise ApiError(
                    grpc.StatusCode.UNAUTHENTICATED,
                    "BAD_AUTHORIZATION",
                    "Use the header 'authorization: Bearer <seat token>'.",
                )
            return token.strip()
    return None


def seat_of(token: str | None, game_id: str, hashes: Sequence[str]) -> int | None:
    """The seat a token acts for in ``game_id`` (``None`` without a token).

    Raises PERMISSION_DENIED for another game's token, UNAUTHENTICATED for a forged one.
    """
    if token is None:
        return None
    token_game, _, rest = token.partition(".")
    seat_text, _, _ = rest.partition(".")
    if token_game != game_id:
        raise ApiError(
            grpc.StatusCode.PERMISSION_DENIED,
            "WRONG_GAME_TOKEN",
            "This seat token belongs to another game.",
        )
    # ASCII digits only, and short: ``int()`` refuses over 4300 digits (and other scripts'
    # digits such as "²"), which would surface as INTERNAL instead of a typed status.
    if not (seat_text.isascii() and seat_text.isdigit() and len(seat_text) <= 4):
        raise ApiError(grpc.StatusCode.UNAUTHENTICATED, "BAD_TOKEN", "Invalid seat token.")
    if int(seat_text) >= len(hashes):
        raise ApiError(grpc.StatusCode.UNAUTHENTICATED, "BAD_TOKEN", "Invalid seat token.")
    seat = int(seat_text)
    if not hmac.compare_digest(token_hash(token), hashes[seat]):
        raise ApiError(grpc.StatusCode.UNAUTHENTICATED, "BAD_TOKEN", "Invalid seat token.")
    return seat
