"""Per-game encoding of events and commands, with an upcasting hook for old schemas.

Events and commands are msgpack-encoded tagged ``msgspec.Struct`` values. An event stored
under an older schema version is decoded to plain data, passed through the registered
upcasters (one per ``(tag, from_schema)`` step) and converted to today's type, so replaying a
stored game never depends on today's field layout.

>>> from domain.core.kernel_events import Undone
>>> codec = Codec(event_types=(), command_types=())
>>> kind, schema, payload = codec.encode_event(Undone(to_version=3))
>>> codec.decode_event(kind, schema, payload)
Undone(to_version=3)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Union

import msgspec

from domain.core.errors import MalformedCommand
from domain.core.game import Command, Event
from domain.core.kernel_events import KERNEL_COMMAND_TYPES, KERNEL_EVENT_TYPES

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
_UPCASTERS: dict[tuple[str, int], Upcaster] = {}


def register_upcaster(kind: str, from_schema: int) -> Callable[[Upcaster], Upcaster]:
    """Register a function turning event ``kind`` at ``from_schema`` into ``from_schema + 1``.

    The function takes and returns the event as plain data (a dict with a ``"type"`` tag).
    """

    def register(function: Upcaster) -> Upcaster:
        _UPCASTERS[(kind, from_schema)] = function
        return function

    return register


def _tag(cls: type[msgspec.Struct]) -> str:
    tag = cls.__struct_config__.tag
    return str(tag)


def _union(types: Iterable[type[Any]]) -> Any:
    listed: tuple[Any, ...] = tuple(types)
    return Union[listed]  # noqa: UP007


class Codec:
    """Encodes and decodes one game's events and commands (kernel ones included)."""

    def __init__(
        self,
        event_types: Iterable[type[Event]],
        command_types: Iterable[type[Command]],
    ) -> None:
        events = (*KERNEL_EVENT_TYPES, *event_types)
        commands = (*KERNEL_COMMAND_TYPES, *command_types)
        self.event_classes: dict[str, type[Event]] = {_tag(t): t for t in events}
        self.command_classes: dict[str, type[Command]] = {_tag(t): t for t in commands}
        self.event_union = _union(events)
        self.command_union = _union(commands)
        self._encoder = msgspec.msgpack.Encoder()
        self._event_decoder = msgspec.msgpack.Decoder(self.event_union)
        self._command_decoder = msgspec.msgpack.Decoder(self.command_union)

    # -- events -------------------------------------------------------------------------
    def encode_event(self, event: Event) -> tuple[str, int, bytes]:
        """``(kind, schema, payload)`` of an event."""
        cls = type(event)
        return _tag(cls), cls.SCHEMA, self._encoder.encode(event)

    def decode_event(self, kind: str, schema: int, payload: bytes) -> Event:
        """The event stored as ``payload``, upcast to today's schema if needed."""
        cls = self.event_classes[kind]
        if schema == cls.SCHEMA:
            return self._event_decoder.decode(payload)  # type: ignore[no-any-return]
        data = msgspec.msgpack.decode(payload)
        for step in range(schema, cls.SCHEMA):
            data = _UPCASTERS[(kind, step)](data)
        return msgspec.convert(data, type=cls)

    # -- commands -----------------------------------------------------------------------
    def encode_command(self, command: Command) -> bytes:
        """The command's msgpack bytes."""
        return self._encoder.encode(command)

    def decode_command(self, payload: bytes) -> Command:
        """A command from msgpack bytes (raises ``MalformedCommand``)."""
        try:
            return self._command_decoder.decode(payload)  # type: ignore[no-any-return]
        except msgspec.DecodeError as error:
            raise MalformedCommand("MALFORMED_COMMAND", str(error)) from error

    def command_from_data(self, data: Any) -> Command:
        """A command from plain data such as JSON (raises ``MalformedCommand``)."""
        try:
            return msgspec.convert(data, type=self.command_union)  # type: ignore[no-any-return]
        except msgspec.ValidationError as error:
            raise MalformedCommand("MALFORMED_COMMAND", str(error)) from error

    def command_to_data(self, command: Command) -> Any:
        """A command as plain data (JSON-ready)."""
        return msgspec.to_builtins(command)

    def event_to_data(self, event: Event) -> Any:
        """An event as plain data (JSON-ready)."""
        return msgspec.to_builtins(event)
