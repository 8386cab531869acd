"""Play a stored game with bots through the application layer (no shortcut around the store).

>>> # see tests/service/test_application.py and ``annales demo``
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from domain.bots import Bot
from service.app.application import GameService

ProgressCallback = Callable[[GameService, str], None]


def play_with_bots(
    service: GameService,
    game_id: str,
    bots: Mapping[int, Bot],
    on_command: ProgressCallback | None = None,
    max_commands: int | None = None,
) -> int:
    """Let ``bots`` (seat → bot) play every pending decision until the game ends.

    Each command is submitted with the expected version and a fresh idempotency key, as a
    remote client would. Returns the number of commands submitted. Stops (and returns) when
    a pending seat has no bot.
    """
    submitted = 0
    while max_commands is None or submitted < max_commands:
        match = service.head(game_id)
        game = match.game
        if game.is_over(match.state):
            return submitted
        pending = game.pending(match.state)
        movers = [seat for seat in pending.seats if seat in bots]
        if not movers:
            return submitted
        seat = movers[0]
        command = bots[seat].choose(game, match.state, seat)
        service.submit(
            game_id,
            seat,
            command,
            expected_version=match.version,
            idempotency_key=f"bot-{seat}-{match.version}",
        )
        submitted += 1
        if on_command is not None:
            on_command(service, game_id)
    return submitted
