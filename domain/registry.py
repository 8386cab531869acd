"""The games this service knows, by name, and every ruleset each was ever played under.

A *ruleset* is one version of a game's rules (``"riseandfall/1"``). A game is created under a
ruleset — by default its game's newest — which is stored in its first event; replay, undo and
the verification of records always use the ruleset the game was created with. A rules change
is a new ruleset: the old one stays registered, so games and records played under it stay
playable and verifiable for ever.

>>> sorted(GAMES)
['imperium', 'riseandfall', 'tapestry']
>>> get_game("riseandfall").name
'riseandfall'
>>> get_ruleset("tapestry/1").name
'tapestry'
"""

from __future__ import annotations

from typing import Any

from domain.core.codec import Codec
from domain.core.errors import MalformedCommand
from domain.core.game import Game
from domain.imperium.game import (
    ImperiumGame,
    ImperiumGame2,
    ImperiumGame3,
    ImperiumGame4,
    ImperiumGame5,
)
from domain.riseandfall.game import RiseAndFall, RiseAndFallHex
from domain.tapestry.game import TapestryGame, TapestryGame2, TapestryGame3, TapestryGame4

#: Every ruleset ever released, oldest first within each game: a game's last one is the
#: default for new games. Never remove one (records played under it must verify for ever).
_ALL_RULESETS: tuple[Game[Any], ...] = (
    RiseAndFall(),
    RiseAndFallHex(),
    TapestryGame(),
    TapestryGame2(),
    TapestryGame3(),
    TapestryGame4(),
    ImperiumGame(),
    ImperiumGame2(),
    ImperiumGame3(),
    ImperiumGame4(),
    ImperiumGame5(),
)

#: Rules by ruleset name (``"riseandfall/1"``).
RULESETS: dict[str, Game[Any]] = {game.ruleset_version: game for game in _ALL_RULESETS}

#: The default (newest) ruleset of each game, by game name.
GAMES: dict[str, Game[Any]] = {}
for _game in _ALL_RULESETS:
    GAMES[_game.name] = _game

_CODECS: dict[str, Codec] = {}


def get_game(name: str) -> Game[Any]:
    """The game called ``name`` (raises ``MalformedCommand`` for an unknown name)."""
    try:
        return GAMES[name]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise MalformedCommand("UNKNOWN_GAME", f"Unknown game {name!r}; known: {known}.") from None


def get_ruleset(name: str) -> Game[Any]:
    """The rules of the ruleset called ``name`` (raises ``MalformedCommand`` if unknown)."""
    try:
        return RULESETS[name]
    except KeyError:
        known = ", ".join(RULESETS)
        raise MalformedCommand(
            "UNKNOWN_RULESET", f"Unknown ruleset {name!r}; known: {known}."
        ) from None


def rulesets_of(game_name: str) -> list[str]:
    """The ruleset names of a game, oldest first (the last is the default)."""
    return [game.ruleset_version for game in _ALL_RULESETS if game.name == game_name]


def resolve_ruleset(game_type: str, ruleset: str | None) -> Game[Any]:
    """The rules a new game of ``game_type`` is created under: ``ruleset`` when given (it
    must be one of that game's), else the game's default. Raises ``MalformedCommand``."""
    game = get_game(game_type)
    if not ruleset:
        return game
    chosen = get_ruleset(ruleset)
    if chosen.name != game.name:
        known = ", ".join(rulesets_of(game.name))
        raise MalformedCommand(
            "UNKNOWN_RULESET",
            f"Ruleset {ruleset!r} is not a ruleset of {game.name}; known: {known}.",
        )
    return chosen


def codec_for(game: Game[Any]) -> Codec:
    """The event/command codec of a ruleset's rules (built once per ruleset)."""
    codec = _CODECS.get(game.ruleset_version)
    if codec is None:
        codec = Codec(game_event_types(game), game_command_types(game))
        _CODECS[game.ruleset_version] = codec
    return codec


def get_codec(name: str) -> Codec:
    """The event/command codec of the default ruleset of the game called ``name``."""
    return codec_for(get_game(name))


def _members(union: Any) -> tuple[Any, ...]:
    args = getattr(union, "__args__", None)
    return tuple(args) if args else (union,)


def game_event_types(game: Game[Any]) -> tuple[Any, ...]:
    """The event classes of a game's event union."""
    return _members(game.event_type)


def game_command_types(game: Game[Any]) -> tuple[Any, ...]:
    """The command classes of a game's command union."""
    return _members(game.command_type)
