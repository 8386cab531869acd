"""The games this service knows, by name.

>>> sorted(GAMES)
['imperium', 'riseandfall', 'tapestry']
>>> get_game("riseandfall").name
'riseandfall'
"""

from __future__ import annotations

from typing import Any

from domain.core.codec import Codec
from domain.core.errors import MalformedCommand
from domain.core.game import Game
from domain.imperium.game import ImperiumGame
from domain.riseandfall.game import RiseAndFall
from domain.tapestry.game import TapestryGame

GAMES: dict[str, Game[Any]] = {
    game.name: game for game in (RiseAndFall(), TapestryGame(), ImperiumGame())
}
_CODECS: dict[str, Codec] = {}


def get_game(name: str) -> Game[Any]:
    """The game called ``name`` (raises ``MalformedCommand`` for an unknown name)."""
    try:
        return GAMES[name]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise MalformedCommand("UNKNOWN_GAME", f"Unknown game {name!r}; known: {known}.") from None


def get_codec(name: str) -> Codec:
    """The event/command codec of the game called ``name`` (built once)."""
    codec = _CODECS.get(name)
    if codec is None:
        game = get_game(name)
        codec = Codec(game_event_types(game), game_command_types(game))
        _CODECS[name] = codec
    return codec


def _members(union: Any) -> tuple[Any, ...]:
    args = getattr(union, "__args__", None)
    return tuple(args) if args else (union,)


def game_event_types(game: Game[Any]) -> tuple[Any, ...]:
    """The event classes of a game's event union."""
    return _members(game.event_type)


def game_command_types(game: Game[Any]) -> tuple[Any, ...]:
    """The command classes of a game's command union."""
    return _members(game.command_type)
