"""Per-game helpers: domain commands ↔ ``Action`` messages, plain data of views and events.

The client never needs the rules: it sends back the actions ListLegalActions returned,
unchanged. These helpers are for code that wants to *read* an action (a bot, a renderer) or
build one from a domain command; they reuse the server's generic converter
(:mod:`service.api.convert`) and the game's codec (:func:`domain.registry.get_codec`), so
they follow the protos' naming conventions without a hand-written mapping per message.

>>> from domain.riseandfall.commands import Activate
>>> action = command_to_action("riseandfall", Activate(cell=41, action="move", target=42))
>>> action.rise_and_fall.activate.cell
41
>>> action_to_command(action)
Activate(cell=41, action='move', target=42)
>>> game_of_action(action).name
'riseandfall'
"""

from __future__ import annotations

from typing import Any

import msgspec
from annales.v1 import annales_pb2 as pb
from google.protobuf.message import Message

from domain.core.game import Command
from domain.registry import get_codec
from service.api.convert import fill, read
from service.api.games import API_GAMES, BY_NAME, BY_TYPE, ApiGame

__all__ = [
    "API_GAMES",
    "ApiGame",
    "action_data",
    "action_to_command",
    "api_game",
    "command_to_action",
    "event_data",
    "game_of_action",
    "options_message",
    "view_data",
]

BY_FIELD: dict[str, ApiGame] = {g.field: g for g in API_GAMES}


def api_game(game: str | int) -> ApiGame:
    """A game by registry name (``"riseandfall"``), oneof field or ``GameType`` value."""
    found = BY_TYPE.get(game) if isinstance(game, int) else BY_NAME.get(game) or BY_FIELD.get(game)
    if found is None:
        known = ", ".join(g.name for g in API_GAMES)
        raise ValueError(f"unknown game {game!r}; known: {known}")
    return found


def _oneof(message: Message, name: str = "game") -> tuple[ApiGame, Message]:
    which = message.WhichOneof(name)
    if which is None:
        raise ValueError(f"{message.DESCRIPTOR.name} has no game set")
    return BY_FIELD[which], getattr(message, which)


def game_of_action(action: pb.Action) -> ApiGame:
    """The game an ``Action`` belongs to."""
    return _oneof(action)[0]


def action_data(action: pb.Action) -> dict[str, Any]:
    """An action as the plain data of its domain command (``{"type": "Activate", ...}``)."""
    api, inner = _oneof(action)
    data: dict[str, Any] = read(inner, api.prefix)
    return data


def action_to_command(action: pb.Action) -> Command:
    """The domain command an ``Action`` stands for (raises ``MalformedCommand``)."""
    api = game_of_action(action)
    return get_codec(api.name).command_from_data(action_data(action))


def command_to_action(game: str, command: Command) -> pb.Action:
    """The ``Action`` message of a domain command of ``game``."""
    api = api_game(game)
    action = pb.Action()
    fill(getattr(action, api.field), msgspec.to_builtins(command), api.prefix)
    return action


def options_message(game: str, options: dict[str, Any] | None) -> pb.GameOptions:
    """``GameOptions`` from domain option data, e.g. ``{"trophies": 5}``."""
    api = api_game(game)
    message = pb.GameOptions()
    getattr(message, api.field).SetInParent()
    if options:
        fill(getattr(message, api.field), options, api.prefix)
    return message


def view_data(view: pb.GameView) -> dict[str, Any]:
    """A ``GameView`` as plain data (field names as in the proto; unset optionals absent)."""
    api, inner = _oneof(view)
    data: dict[str, Any] = read(inner, api.prefix)
    return data


def event_data(event: pb.GameEvent) -> dict[str, Any]:
    """A ``GameEvent``'s payload as plain data with its ``"type"`` tag (kernel or game)."""
    which = event.WhichOneof("payload")
    if which is None:
        return {"type": event.kind}
    if which == "kernel":
        data: dict[str, Any] = read(event.kernel, "")
        return data
    api = BY_FIELD[which]
    data = read(getattr(event, which), api.prefix)
    return data
