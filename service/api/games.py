"""How each game appears in the API: its ``GameType`` value and its field in the ``oneof``s.

Adding a game to the API means adding its ``.proto`` and one :class:`ApiGame` line here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from annales.v1 import annales_pb2 as pb

from service.api.convert import ProtoMismatch, fill


@dataclass(frozen=True)
class ApiGame:
    """A game's names in the API."""

    name: str  # registry name, e.g. "riseandfall"
    game_type: Any  # GameType enum value (pb.GameType)
    field: str  # field name in the Action / GameView / GameOptions / GameEvent oneofs
    prefix: str  # message-name prefix of the game's messages


API_GAMES: tuple[ApiGame, ...] = (
    ApiGame("riseandfall", pb.GAME_TYPE_RISE_AND_FALL, "rise_and_fall", "RiseAndFall"),
    ApiGame("tapestry", pb.GAME_TYPE_TAPESTRY, "tapestry", "Tapestry"),
    ApiGame("imperium", pb.GAME_TYPE_IMPERIUM, "imperium", "Imperium"),
)
BY_NAME = {g.name: g for g in API_GAMES}
BY_TYPE = {g.game_type: g for g in API_GAMES}


def typed_options(game_type: str, options: dict[str, Any]) -> pb.GameOptions:
    """A game's stored options (normalised plain data) as the typed ``GameOptions``.

    Options the proto cannot hold (a game recorded under an older ruleset whose options have
    since changed) leave the message empty rather than fail the call: ``options_json`` still
    carries them.
    """
    message = pb.GameOptions()
    api = BY_NAME.get(game_type)
    if api is not None:
        try:
            fill(getattr(message, api.field), options, api.prefix)
        except ProtoMismatch:
            message.Clear()
    return message
