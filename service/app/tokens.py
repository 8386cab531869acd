"""The API's bearer tokens: their format and their stored form, shared by every service
that hands out tokens (game creation, tournaments, campaigns).

A token reads ``<game id>.<part>.<secret>``: ``part`` is the seat number or ``judge``, the
secret 32 URL-safe base64 characters (24 random bytes). Only its SHA-256 (hex) is stored.
"""

from __future__ import annotations

import hashlib
import secrets

#: the seat part of a judge token
JUDGE_PART = "judge"


def new_tokens(game_id: str, seats: int) -> list[str]:
    """One fresh secret token per seat."""
    return [f"{game_id}.{seat}.{secrets.token_urlsafe(24)}" for seat in range(seats)]


def new_judge_token(game_id: str) -> str:
    """A fresh judge token for ``game_id``."""
    return f"{game_id}.{JUDGE_PART}.{secrets.token_urlsafe(24)}"


def token_hash(token: str) -> str:
    """The stored form of a token."""
    return hashlib.sha256(token.encode()).hexdigest()
