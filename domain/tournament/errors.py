"""The typed error of the tournament rules."""

from __future__ import annotations


class TournamentError(Exception):
    """A tournament operation the rules refuse: ``code`` (UPPER_SNAKE_CASE) names the rule."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
