"""Seat names of simulated games, and the bot kind read back from them.

A simulated game names the bot of seat ``s`` ``"{kind}#{s}"`` (``"random#0"``,
``"random#1"``): seat names are unique in a game, so charts keyed by seat never merge two
seats. Statistics per bot kind (``annales simulate``'s tables, the leaderboard of simulated
games) read the kind back with :func:`bot_kind`, the one place that parses these names.
"""

from __future__ import annotations

#: the prefix of every simulated game id (see :func:`service.simulation.runner.game_id`).
SIM_PREFIX = "sim-"


def seat_name(kind: str, seat: int) -> str:
    """The name of the bot of ``kind`` at ``seat`` in a simulated game.

    >>> seat_name("random", 1)
    'random#1'
    """
    return f"{kind}#{seat}"


def bot_kind(name: str) -> str:
    """The bot kind of a simulated seat name: the name without its ``#seat`` suffix.

    Names of games simulated before seat suffixes existed are the kind itself and come back
    unchanged.

    >>> bot_kind("random#1"), bot_kind("greedy")
    ('random', 'greedy')
    """
    kind, sep, seat = name.rpartition("#")
    return kind if sep and kind and seat.isdigit() else name


def player_of(game_id: str, name: str) -> str:
    """The player a seat counts for in the leaderboard: its bot kind in a simulated game
    (id starting with :data:`SIM_PREFIX`), else its name as given."""
    return bot_kind(name) if game_id.startswith(SIM_PREFIX) else name
