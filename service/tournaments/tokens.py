"""Seat tokens of tournament games, derived from the tournament's secret token key."""

from __future__ import annotations

import base64
import hashlib
import hmac


def seat_token(token_key: bytes, game_id: str, seat: int) -> str:
    """A seat token in the API's format ``<game id>.<seat>.<secret>``.

    The secret is ``HMAC-SHA-256(token key, "{game id}/{seat}")`` (URL-safe base64): the
    tournament's token key is random, stored with the secrets and never published, so the
    organiser can show a person's tokens again at any time while nobody else can derive them.
    """
    digest = hmac.new(token_key, f"{game_id}/{seat}".encode(), hashlib.sha256).digest()
    return f"{game_id}.{seat}.{base64.urlsafe_b64encode(digest).decode().rstrip('=')}"


def token_key_id(tournament_id: str) -> str:
    """The id under which a tournament's token key is kept with the secrets."""
    return f"{tournament_id}/tokens"
