"""Checks shared by the per-game proto tests (``test_<game>_proto.py``).

* :class:`Mirror` compares a game's domain types (msgspec) with its proto descriptors under
  the naming conventions of :mod:`service.api.convert`, whatever the converter can do;
* :func:`compile_proto` compiles a ``.proto`` with its comments; :func:`missing_comments`,
  :func:`aip_problems` and :func:`stale_stubs` are the buf-like lint (every element commented,
  AIP / buf naming, generated stubs current);
* :func:`round_trip` sends a domain value through ``outer.<field>``: fill, bytes, parse, read,
  convert.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import msgspec.inspect as mi
from google.protobuf import descriptor_pb2
from google.protobuf.descriptor import Descriptor, EnumDescriptor, FieldDescriptor
from google.protobuf.message import Message
from grpc_tools import protoc

from service.api.convert import fill, read, snake

ROOT = Path(__file__).resolve().parents[2]

_SCALARS: dict[type[mi.Type], tuple[int, ...]] = {
    mi.IntType: (
        FieldDescriptor.TYPE_INT32,
        FieldDescriptor.TYPE_INT64,
        FieldDescriptor.TYPE_SINT32,
        FieldDescriptor.TYPE_SINT64,
    ),
    mi.StrType: (FieldDescriptor.TYPE_STRING,),
    mi.BoolType: (FieldDescriptor.TYPE_BOOL,),
    mi.FloatType: (FieldDescriptor.TYPE_DOUBLE,),
}
_SEQUENCES = (mi.ListType, mi.VarTupleType)


def round_trip(outer: Message, field: str, prefix: str, value: msgspec.Struct, kind: Any) -> Any:
    """``value`` through ``outer.<field>``: fill, bytes, parse, read, ``msgspec.convert``."""
    fill(getattr(outer, field), msgspec.to_builtins(value), prefix)
    parsed = type(outer).FromString(outer.SerializeToString())
    oneofs = [o for o in outer.DESCRIPTOR.oneofs if not o.name.startswith("_")]
    assert any(parsed.WhichOneof(o.name) == field for o in oneofs)
    return msgspec.convert(read(getattr(parsed, field), prefix), kind)


def _without_none(t: mi.Type) -> tuple[mi.Type, bool]:
    if isinstance(t, mi.UnionType) and any(isinstance(o, mi.NoneType) for o in t.types):
        rest = [o for o in t.types if not isinstance(o, mi.NoneType)]
        if len(rest) == 1:
            return rest[0], True
        return mi.UnionType(tuple(rest)), True
    return t, False


def _is_list_wrapper(message: Descriptor | None) -> bool:
    return (
        message is not None
        and message.name.endswith("List")
        and len(message.fields) == 1
        and message.fields[0].name == "values"
        and message.fields[0].is_repeated
    )


def _is_map_wrapper(message: Descriptor | None) -> bool:
    return (
        message is not None
        and message.name.endswith("Map")
        and len(message.fields) == 1
        and message.fields[0].name == "values"
        and _is_map(message.fields[0])
    )


def _is_map(field: FieldDescriptor) -> bool:
    return bool(
        field.is_repeated
        and field.message_type is not None
        and field.message_type.GetOptions().map_entry
    )


def _homogeneous(t: mi.TupleType) -> mi.Type | None:
    """The item type of a fixed tuple whose items all have one type (else ``None``)."""
    first = t.item_types[0] if t.item_types else None
    if first is None or any(item != first for item in t.item_types):
        return None
    return first


class Mirror:
    """Compares domain types with proto descriptors; collects every difference.

    The proto forms: a struct is a message ``<prefix><Class>`` with the same field names; a
    sequence (or a fixed tuple of one item type) is ``repeated``; a list nested in a list, or an
    optional list, is a wrapper ``XList { repeated T values = 1; }``; ``T | None`` has presence;
    a ``Literal`` is an enum (``*_UNSPECIFIED`` first, standing for ``""``); a
    ``dict[str, T]`` is a ``map`` (a dict nested in a list, a wrapper
    ``XMap { map<string, T> values = 1; }``); a tagged union is a message holding exactly
    one ``oneof`` of ``<prefix><Class>`` messages.
    """

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.problems: list[str] = []

    def fail(self, where: str, what: str) -> None:
        """Record one difference."""
        self.problems.append(f"{where}: {what}")

    def union(self, types: tuple[type[msgspec.Struct], ...], message: Descriptor) -> None:
        """A tagged union of structs against a message with one ``oneof``."""
        where = message.full_name
        if len(message.oneofs) != 1 or len(message.oneofs[0].fields) != len(message.fields):
            self.fail(where, "a tagged union is a message holding exactly one oneof")
        expected = {snake(t.__name__): t for t in types}
        if set(expected) != set(message.fields_by_name):
            self.fail(where, f"oneof fields {sorted(message.fields_by_name)} != {sorted(expected)}")
        for name, cls in expected.items():
            field = message.fields_by_name.get(name)
            if field is None:
                continue
            info = mi.type_info(cls)
            assert isinstance(info, mi.StructType)
            if info.tag != cls.__name__:
                self.fail(where, f"{cls.__name__} is tagged {info.tag!r}, not its class name")
            if field.message_type is None or field.message_type.name != self.prefix + cls.__name__:
                self.fail(f"{where}.{name}", f"must hold message {self.prefix}{cls.__name__}")
            else:
                self.struct(info, field.message_type)

    def struct(self, info: mi.StructType, message: Descriptor) -> None:
        """A struct against a message, field by field."""
        where = message.full_name
        names = [f.encode_name for f in info.fields]
        if set(names) != set(message.fields_by_name):
            self.fail(where, f"fields {sorted(message.fields_by_name)} != domain {sorted(names)}")
        if info.array_like and [f.name for f in message.fields] != names:
            self.fail(where, "an array_like struct's fields must be declared in domain order")
        for f in info.fields:
            field = message.fields_by_name.get(f.encode_name)
            if field is not None:
                self.field(f"{where}.{field.name}", f.type, field, has_default=not f.required)

    def field(self, where: str, t: mi.Type, field: FieldDescriptor, has_default: bool) -> None:
        """One struct field against one proto field."""
        t, nullable = _without_none(t)
        if nullable and not field.has_presence:
            self.fail(where, "`T | None` needs presence: proto3 optional or a message")
        if not nullable and not has_default and field.has_presence and field.message_type is None:
            self.fail(where, "`optional` in the proto but neither nullable nor defaulted")
        if isinstance(t, mi.DictType):
            self.mapping(where, t, field)
            return
        if isinstance(t, mi.TupleType) and _homogeneous(t) is not None and field.is_repeated:
            self.element(where, _homogeneous(t), field)  # type: ignore[arg-type]
            return
        if isinstance(t, _SEQUENCES):
            if nullable:  # an optional list: a wrapper message
                wrapper = field.message_type
                if field.is_repeated or not _is_list_wrapper(wrapper):
                    self.fail(where, "`tuple[...] | None` is a message `XList {repeated values}`")
                else:
                    self.element(where, t.item_type, wrapper.fields[0])
            elif not field.is_repeated:
                self.fail(where, "a sequence is `repeated`")
            else:
                self.element(where, t.item_type, field)
            return
        if field.is_repeated:
            self.fail(where, "`repeated` but the domain holds one value")
            return
        self.single(where, t, field)

    def mapping(self, where: str, t: mi.DictType, field: FieldDescriptor) -> None:
        """A ``dict[str, T]`` against a ``map<string, T>``."""
        if not _is_map(field):
            self.fail(where, "a dict is a `map<string, T>`")
            return
        if not isinstance(t.key_type, mi.StrType):
            self.fail(where, "only string keys have a proto map form")
        value = field.message_type.fields_by_name["value"]
        if isinstance(t.value_type, _SEQUENCES):
            if not _is_list_wrapper(value.message_type):
                self.fail(where, "a dict of lists maps to a message `XList {repeated values}`")
            else:
                self.single(where, t.value_type.item_type, value.message_type.fields[0])
            return
        self.single(where, t.value_type, value)

    def element(self, where: str, t: mi.Type, field: FieldDescriptor) -> None:
        """The item type of a sequence against a ``repeated`` field."""
        if isinstance(t, _SEQUENCES) or (
            isinstance(t, mi.TupleType) and _homogeneous(t) is not None
        ):
            item = t.item_type if isinstance(t, _SEQUENCES) else _homogeneous(t)
            if not _is_list_wrapper(field.message_type):
                self.fail(where, "a list of lists repeats a message `XList {repeated values}`")
            else:
                self.single(where, item, field.message_type.fields[0])  # type: ignore[arg-type]
            return
        self.single(where, t, field)

    def single(self, where: str, t: mi.Type, field: FieldDescriptor) -> None:
        """One value against a non-repeated field (or the items of a repeated one)."""
        if isinstance(t, mi.LiteralType):
            self.enum(where, t, field.enum_type)
        elif isinstance(t, mi.UnionType) and all(isinstance(o, mi.StructType) for o in t.types):
            if field.message_type is None:
                self.fail(where, "a tagged union is a message")
            else:
                self.union(tuple(o.cls for o in t.types), field.message_type)  # type: ignore[union-attr]
        elif isinstance(t, mi.DictType):  # a dict nested in a list: a wrapper message
            wrapper = field.message_type
            if not _is_map_wrapper(wrapper):
                self.fail(where, "a dict in a list is a message `XMap {map<string, T> values}`")
            else:
                self.mapping(where, t, wrapper.fields[0])  # type: ignore[union-attr]
        elif isinstance(t, mi.StructType):
            name = self.prefix + t.cls.__name__
            if field.message_type is None or field.message_type.name != name:
                self.fail(where, f"must be message {name}")
            else:
                self.struct(t, field.message_type)
        elif isinstance(t, mi.TupleType):  # fixed tuple: a message, positionally
            message = field.message_type
            if message is None or len(message.fields) != len(t.item_types):
                self.fail(where, "a fixed tuple is a message with one field per item")
            else:
                for item, sub in zip(t.item_types, message.fields, strict=True):
                    self.single(f"{where}.{sub.name}", item, sub)
        elif type(t) in _SCALARS:
            if field.type not in _SCALARS[type(t)]:
                self.fail(where, f"proto type {field.type} does not hold {type(t).__name__}")
        else:
            self.fail(where, f"no proto form for {t}")

    def enum(self, where: str, t: mi.LiteralType, enum: EnumDescriptor | None) -> None:
        """A ``Literal`` against an enum."""
        if enum is None:
            self.fail(where, "a Literal is an enum")
            return
        zero = enum.values_by_number[0].name
        if not zero.endswith("_UNSPECIFIED"):
            self.fail(enum.full_name, "the zero value is *_UNSPECIFIED")
            return
        prefix = zero[: -len("UNSPECIFIED")]
        # "" (hidden, or none) is the zero value *_UNSPECIFIED (service.api.convert)
        expected = {prefix + str(v).upper() for v in t.values if v != ""}
        actual = {v.name for v in enum.values if v.number != 0}
        if expected != actual:
            self.fail(where, f"enum values {sorted(actual)} != {sorted(expected)}")


# -- comments, naming, stubs (buf-like lint) -----------------------------------------------


def compile_proto(out_dir: Path, proto: str) -> descriptor_pb2.FileDescriptorProto:
    """``proto`` (e.g. ``"annales/v1/tapestry.proto"``) compiled now, with its comments."""
    out = out_dir / (Path(proto).stem + ".pb")
    code = protoc.main(
        ["protoc", f"-I{ROOT / 'proto'}", "--include_source_info",
         f"--descriptor_set_out={out}", str(ROOT / "proto" / proto)]
    )  # fmt: skip
    assert code == 0, f"protoc failed on {proto}"
    (file,) = descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes()).file
    return file


def elements(file: descriptor_pb2.FileDescriptorProto) -> Iterator[tuple[tuple[int, ...], str]]:
    """(source path, name) of every message, field, oneof, enum and enum value (the entry
    messages protoc makes for ``map`` fields are not written in the file: left out)."""

    def enum(path: tuple[int, ...], e: descriptor_pb2.EnumDescriptorProto) -> Iterator[Any]:
        yield path, e.name
        for j, v in enumerate(e.value):
            yield (*path, 2, j), f"{e.name}.{v.name}"

    def message(path: tuple[int, ...], m: descriptor_pb2.DescriptorProto) -> Iterator[Any]:
        yield path, m.name
        for j, f in enumerate(m.field):
            yield (*path, 2, j), f"{m.name}.{f.name}"
        for j, o in enumerate(m.oneof_decl):
            if not o.name.startswith("_"):  # not the synthetic oneof of `optional`
                yield (*path, 8, j), f"{m.name}.{o.name}"
        for j, n in enumerate(m.nested_type):
            if not n.options.map_entry:
                yield from message((*path, 3, j), n)
        for j, e in enumerate(m.enum_type):
            yield from enum((*path, 4, j), e)

    for i, m in enumerate(file.message_type):
        yield from message((4, i), m)
    for i, e in enumerate(file.enum_type):
        yield from enum((5, i), e)
    for i, s in enumerate(file.service):
        yield (6, i), s.name


def missing_comments(file: descriptor_pb2.FileDescriptorProto) -> list[str]:
    """The elements of ``file`` without a leading comment."""
    comments = {
        tuple(loc.path): loc.leading_comments.strip() for loc in file.source_code_info.location
    }
    return [name for path, name in elements(file) if not comments.get(path)]


#: field numbers from here up are blocks reserved for parallel work (see :func:`aip_problems`).
RESERVED_BLOCKS = 200
_PASCAL = re.compile(r"^[A-Z][A-Za-z0-9]*$")
_SNAKE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")


def aip_problems(file: descriptor_pb2.FileDescriptorProto, prefix: str) -> list[str]:
    """Names against AIP / buf style: package, prefixes, PascalCase messages, snake_case
    fields, contiguous field numbers, enums starting at ``*_UNSPECIFIED = 0``.

    Field numbers from :data:`RESERVED_BLOCKS` up are blocks handed to work done in parallel
    (e.g. 200-299 for rules completed while the API is written): only the numbers below it
    must run from 1 without a gap (protoc already refuses duplicates)."""
    bad: list[str] = []
    if file.package != "annales.v1" or file.syntax != "proto3":
        bad.append(f"package {file.package} / syntax {file.syntax}")
    for m in file.message_type:
        if not (m.name.startswith(prefix) and _PASCAL.match(m.name)):
            bad.append(m.name)
        numbers = sorted(f.number for f in m.field if f.number < RESERVED_BLOCKS)
        if numbers != list(range(1, len(numbers) + 1)):
            bad.append(f"{m.name}: field numbers {numbers}")
        bad += [f"{m.name}.{f.name}" for f in m.field if not _SNAKE.match(f.name)]
    for e in file.enum_type:
        upper = re.sub(r"(?<!^)(?=[A-Z])", "_", e.name).upper() + "_"
        if not (e.name.startswith(prefix) and _PASCAL.match(e.name)):
            bad.append(e.name)
        if e.value[0].number != 0 or e.value[0].name != upper + "UNSPECIFIED":
            bad.append(f"{e.name}: zero value {e.value[0].name}")
        bad += [f"{e.name}.{v.name}" for v in e.value if not v.name.startswith(upper)]
    return bad


def _clear_json_names(messages: Any) -> None:
    for message in messages:  # the Python plugin's copy leaves json_name out
        for field in message.field:
            field.ClearField("json_name")
        _clear_json_names(message.nested_type)


def stale_stubs(file: descriptor_pb2.FileDescriptorProto, serialized_pb: bytes) -> bool:
    """``True`` when the generated module (its ``DESCRIPTOR.serialized_pb``) is not the
    ``.proto`` of today (run ``make proto``)."""
    now = descriptor_pb2.FileDescriptorProto()
    now.CopyFrom(file)
    now.ClearField("source_code_info")
    _clear_json_names(now.message_type)
    stubs = descriptor_pb2.FileDescriptorProto.FromString(serialized_pb)
    _clear_json_names(stubs.message_type)
    return stubs != now


def game_mirror_problems(
    prefix: str,
    commands: Any,
    events: Any,
    messages: tuple[Descriptor, Descriptor],
    structs: tuple[tuple[type[msgspec.Struct], Descriptor], ...],
) -> list[str]:
    """Every difference between a game's domain and its proto: the command and event unions
    against ``messages`` (action, event), and each ``(struct, message)`` of ``structs``."""
    mirror = Mirror(prefix)
    mirror.union(commands, messages[0])
    mirror.union(events, messages[1])
    for domain, message in structs:
        info = mi.type_info(domain)
        assert isinstance(info, mi.StructType)
        mirror.struct(info, message)
    return mirror.problems


def common_api_problems(field: str, inner: tuple[Descriptor, ...]) -> list[str]:
    """Where ``GameOptions`` / ``Action`` / ``GameView`` / ``GameEvent`` do not hold the game's
    options, action, view and event messages (``inner``, in that order) in field ``field``."""
    from annales.v1 import annales_pb2 as pb

    outers = (pb.GameOptions, pb.Action, pb.GameView, pb.GameEvent)
    problems = []
    for outer, message in zip(outers, inner, strict=True):
        found = outer.DESCRIPTOR.fields_by_name.get(field)
        if found is None or found.message_type is not message:
            problems.append(f"{outer.DESCRIPTOR.name}.{field} is not a {message.full_name}")
    return problems
