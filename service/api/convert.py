"""Generic conversion between msgspec values and protobuf messages, driven by descriptors.

Protos mirror the domain's structs by naming convention, so one mechanism serves every game:

* a struct field ``x`` is the proto field ``x`` (same name); lists and tuples are ``repeated``;
  ``T | None`` is a proto3 ``optional`` (or a message field) left unset for ``None``;
* a ``Literal[...]`` string is a proto enum whose value names are the enum's prefix (its
  ``*_UNSPECIFIED`` name without ``UNSPECIFIED``) plus the upper-cased string, e.g. ``"city"``
  ↔ ``RISE_AND_FALL_PIECE_CITY``; the empty string (a hidden value, or none) is the zero value
  ``*_UNSPECIFIED``, and the zero value reads back as ``""``;
* a list nested in a list is a repeated message ``<Name>List { repeated T values = 1; }``;
* a dict nested in a list is a repeated message ``<Name>Map { map<string, T> values = 1; }``;
* a tagged union (a dict with ``"type": Tag``) is a message with one ``oneof`` whose field
  ``snake_case(Tag)`` holds a message named ``<prefix><Tag>``, the prefix being the game's
  (``RiseAndFall``) or empty for kernel events.

Missing proto fields raise :class:`ProtoMismatch`, so a proto out of step with the domain fails
loudly in tests rather than silently dropping data.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message


class ProtoMismatch(ValueError):
    """The proto and the domain struct disagree (a programming error, not bad input)."""


_WORD_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


@functools.cache
def snake(name: str) -> str:
    """``"PlaceTile"`` → ``"place_tile"``; an acronym stays one word (``"VPScored"`` →
    ``"vp_scored"``).

    >>> snake("CardsRevealed")
    'cards_revealed'
    >>> snake("VPScored")
    'vp_scored'
    """
    return _WORD_BOUNDARY.sub("_", name).lower()


@functools.cache
def _enum_prefix(enum: Any) -> str:
    zero = enum.values_by_number[0].name
    if not zero.endswith("UNSPECIFIED"):
        raise ProtoMismatch(f"enum {enum.full_name} does not start with *_UNSPECIFIED")
    return str(zero)[: -len("UNSPECIFIED")]


@functools.cache
def _real_oneofs(descriptor: Descriptor) -> tuple[Any, ...]:
    """Oneofs written in the proto (not the synthetic ones of proto3 ``optional`` fields)."""
    return tuple(
        o
        for o in descriptor.oneofs
        if not (len(o.fields) == 1 and o.name == "_" + o.fields[0].name)
    )


@functools.cache
def _is_list_wrapper(descriptor: Descriptor) -> bool:
    """A message ``XList { repeated T values = 1; }`` stands for a list nested in a list."""
    return bool(
        descriptor.name.endswith("List")
        and len(descriptor.fields) == 1
        and descriptor.fields[0].name == "values"
        and descriptor.fields[0].is_repeated
    )


@functools.cache
def _is_map_wrapper(descriptor: Descriptor) -> bool:
    """A message ``XMap { map<string, T> values = 1; }`` stands for a dict nested in a list."""
    return bool(
        descriptor.name.endswith("Map")
        and len(descriptor.fields) == 1
        and descriptor.fields[0].name == "values"
        and _is_map(descriptor.fields[0])
    )


def _is_repeated(field: FieldDescriptor) -> bool:
    return bool(field.is_repeated)


@functools.cache
def _is_map(field: FieldDescriptor) -> bool:
    return bool(
        _is_repeated(field)
        and field.message_type is not None
        and field.message_type.GetOptions().map_entry
    )


@functools.cache
def _fields_by_name(descriptor: Descriptor) -> dict[str, Any]:
    return dict(descriptor.fields_by_name)


@functools.cache
def _tagged_union(descriptor: Descriptor) -> bool:
    """A message with one written oneof and no ``type`` field: a tagged union's target."""
    return len(_real_oneofs(descriptor)) == 1 and "type" not in _fields_by_name(descriptor)


def fill(message: Message, data: Any, prefix: str = "") -> Message:
    """Write plain data (``msgspec.to_builtins`` output) into ``message``; returns it."""
    descriptor: Any = message.DESCRIPTOR
    if isinstance(data, dict) and "type" in data and _tagged_union(descriptor):
        tag = str(data["type"])
        field = _fields_by_name(descriptor).get(snake(tag))
        if field is None or field.message_type is None:
            raise ProtoMismatch(f"{descriptor.full_name} has no oneof field for {tag!r}")
        inner = getattr(message, field.name)
        inner.SetInParent()
        rest = {k: v for k, v in data.items() if k != "type"}
        fill(inner, rest, prefix)
        return message
    if isinstance(data, list | tuple) and _is_list_wrapper(descriptor):
        _set_field(message, descriptor.fields[0], data, prefix)
        return message
    if isinstance(data, dict) and _is_map_wrapper(descriptor):
        _set_field(message, descriptor.fields[0], data, prefix)
        return message
    if not isinstance(data, dict):
        raise ProtoMismatch(f"{descriptor.full_name} expects an object, got {type(data)}")
    fields = _fields_by_name(descriptor)
    for key, value in data.items():
        field = fields.get(key)
        if field is None:
            raise ProtoMismatch(f"{descriptor.full_name} has no field {key!r}")
        if value is None:
            continue
        _set_field(message, field, value, prefix)
    return message


@functools.cache
def _enum_numbers(enum: Any) -> dict[str, int]:
    """An enum's numbers by value name."""
    return {value.name: value.number for value in enum.values}


def _scalar_in(field: Any, value: Any) -> Any:
    kind, enum = _scalar_kind(field)
    if kind == _ENUM:
        if value == "":
            _enum_prefix(enum)
            return 0
        name = _enum_prefix(enum) + str(value).upper()
        number = _enum_numbers(enum).get(name)
        if number is None:
            raise ProtoMismatch(f"enum {enum.full_name} has no value {name}")
        return number
    if kind == _BYTES and isinstance(value, str):
        return value.encode()
    return value


_PLAIN, _ENUM, _BYTES = 0, 1, 2
#: how a field is written: map, repeated (of messages or not), message, or scalar
_MAP, _REPEATED_MESSAGE, _REPEATED_SCALAR, _MESSAGE, _SCALAR = range(5)


@functools.cache
def _scalar_kind(field: Any) -> tuple[int, Any]:
    if field.type == FieldDescriptor.TYPE_ENUM:
        return _ENUM, field.enum_type
    if field.type == FieldDescriptor.TYPE_BYTES:
        return _BYTES, None
    return _PLAIN, None


@functools.cache
def _shape(field: Any) -> tuple[int, str, Any]:
    """(how the field is written, its name, the map's value field)."""
    if _is_map(field):
        return _MAP, field.name, field.message_type.fields_by_name["value"]
    if field.is_repeated:
        kind = _REPEATED_MESSAGE if field.message_type is not None else _REPEATED_SCALAR
        return kind, field.name, None
    return (_MESSAGE if field.message_type is not None else _SCALAR), field.name, None


def _set_field(message: Message, field: Any, value: Any, prefix: str) -> None:
    kind, name, value_field = _shape(field)
    if kind == _MAP:
        target = getattr(message, name)
        for key, item in value.items():
            if value_field.message_type is not None:
                fill(target[key], item, prefix)
            else:
                target[key] = _scalar_in(value_field, item)
        return
    if kind == _REPEATED_MESSAGE:
        target = getattr(message, name)
        for item in value:
            fill(target.add(), item, prefix)
        return
    if kind == _REPEATED_SCALAR:
        getattr(message, name).extend(_scalar_in(field, item) for item in value)
        return
    if kind == _MESSAGE:
        inner = getattr(message, name)
        inner.SetInParent()
        fill(inner, value, prefix)
        return
    setattr(message, name, _scalar_in(field, value))


def read(message: Message, prefix: str = "") -> Any:
    """Plain data from ``message``, ready for ``msgspec.convert`` (inverse of :func:`fill`)."""
    descriptor: Any = message.DESCRIPTOR
    if _is_list_wrapper(descriptor) or _is_map_wrapper(descriptor):
        return _get_field(message, descriptor.fields[0], prefix)
    oneofs = _real_oneofs(descriptor)
    if len(oneofs) == 1 and len(descriptor.fields) == len(oneofs[0].fields):
        which = message.WhichOneof(oneofs[0].name)
        if which is None:
            raise ValueError(f"{descriptor.full_name}: no alternative is set")
        field = descriptor.fields_by_name[which]
        inner_name = field.message_type.name
        tag = inner_name[len(prefix) :] if inner_name.startswith(prefix) else inner_name
        return {"type": tag, **read(getattr(message, which), prefix)}
    out: dict[str, Any] = {}
    for field, optional in _read_fields(descriptor):
        if optional and not message.HasField(field.name):
            continue
        out[field.name] = _get_field(message, field, prefix)
    return out


@functools.cache
def _read_fields(descriptor: Descriptor) -> tuple[tuple[Any, bool], ...]:
    """Each field, and whether it is read only when set (presence, not repeated)."""
    return tuple((f, bool(f.has_presence and not _is_repeated(f))) for f in descriptor.fields)


@functools.cache
def _enum_names(enum: Any) -> dict[int, str]:
    """An enum's plain value names (prefix dropped, lower case) by number."""
    prefix = len(_enum_prefix(enum))
    return {value.number: value.name[prefix:].lower() for value in enum.values}


def _scalar_out(field: Any, value: Any) -> Any:
    kind, enum = _scalar_kind(field)
    if kind == _ENUM:
        return "" if value == 0 else _enum_names(enum).get(value, "")
    return value


def _get_field(message: Message, field: Any, prefix: str) -> Any:
    kind, name, value_field = _shape(field)
    value = getattr(message, name)
    if kind == _MAP:
        if value_field.message_type is not None:
            return {k: read(v, prefix) for k, v in value.items()}
        return {k: _scalar_out(value_field, v) for k, v in value.items()}
    if kind == _REPEATED_MESSAGE:
        return [read(item, prefix) for item in value]
    if kind == _REPEATED_SCALAR:
        return [_scalar_out(field, item) for item in value]
    if kind == _MESSAGE:
        return read(value, prefix)
    return _scalar_out(field, value)
