"""Hypothesis strategies for adversarial values and whole protobuf messages.

:func:`message_of` builds a strategy for any message type from its descriptor: every field
optional, scalars drawn from boundary values (0, ±1, the type's limits), unknown enum
numbers, empty / odd / huge strings, random bytes, short and (rarely) long repeated fields,
one alternative (or none) per ``oneof``. The result is always a *structurally valid* message:
the adversarial part is in the values.
"""

from __future__ import annotations

from typing import Any

from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message
from hypothesis import strategies as st

I32 = (-(2**31), 2**31 - 1)
I64 = (-(2**63), 2**63 - 1)
U32 = (0, 2**32 - 1)
U64 = (0, 2**64 - 1)

#: Strings a server might treat specially: digits of other scripts (``"²".isdigit()`` is
#: true but ``int("²")`` fails), content names of the three games, separators, control and
#: bidirectional characters, markup and injection attempts.
ODD_STRINGS = (
    "0",
    "-1",
    "1",
    "00",
    "²",
    "٣",
    "１",
    "9" * 30,
    "1e3",
    " 1",
    "\x00",
    "\n",
    "\u202e",
    "🂡",
    "riseandfall",
    "tapestry",
    "imperium",
    "romans",
    "celts",
    "A",
    "B",
    "1UNC10",
    "1:hand",
    "market/2",
    "deck:region",
    "pile/region",
    "city",
    "food",
    "military",
    "Bearer x",
    "'; DROP TABLE events;--",
    "%s%n",
    "../../etc/passwd",
    "setup",
)

#: Lengths just over the server's limits (128 ids and keys, 64 names, 256 seeds), larger
#: ones, and a 5 MiB one (under the 64 MiB receive limit since tournament records travel
#: whole: our own field limits must refuse it with a typed error).
HUGE_LENGTHS = (65, 129, 257, 4_096, 100_000, 1_000_000)
OVER_LIMIT = 5 * 1024 * 1024

small_ints = st.sampled_from((0, 1, -1, 2, 3, 4, 5, 6, 7, 10, 63, 64, 100, 255, 256, 1000))


def ints(low: int, high: int) -> st.SearchStrategy[int]:
    """Boundary and random integers in ``[low, high]``."""
    edges = sorted(
        {v for v in (low, low + 1, high - 1, high, 0, 1, -1, 2**31 - 1) if low <= v <= high}
    )
    return st.one_of(
        small_ints.filter(lambda v: low <= v <= high),
        st.sampled_from(edges),
        st.integers(low, high),
    )


def huge_text() -> st.SearchStrategy[str]:
    """A long string of one repeated character (cheap to draw, large on the wire)."""
    return st.builds(lambda c, n: c * n, st.sampled_from("xé9"), st.sampled_from(HUGE_LENGTHS))


odd_strings = st.sampled_from(ODD_STRINGS)


def texts() -> st.SearchStrategy[str]:
    """Empty, short random, odd and (less often) huge strings."""
    short = st.text(max_size=12)
    return st.one_of(st.just(""), short, odd_strings, odd_strings, short, huge_text())


def blobs() -> st.SearchStrategy[bytes]:
    """Empty, short random and (less often) large byte strings."""
    large = st.builds(
        lambda b, n: b * n, st.sampled_from((b"\x00", b"\xff", b"{")), st.sampled_from(HUGE_LENGTHS)
    )
    return st.one_of(st.just(b""), st.binary(max_size=48), st.binary(max_size=8), large)


def scalar(field: FieldDescriptor, huge: bool = True) -> st.SearchStrategy[Any]:
    """Adversarial values of a scalar (or enum) field's type (``huge``: strings and bytes
    may be megabytes long)."""
    kind = field.type
    if kind in (
        FieldDescriptor.TYPE_INT32,
        FieldDescriptor.TYPE_SINT32,
        FieldDescriptor.TYPE_SFIXED32,
    ):
        return ints(*I32)
    if kind in (
        FieldDescriptor.TYPE_INT64,
        FieldDescriptor.TYPE_SINT64,
        FieldDescriptor.TYPE_SFIXED64,
    ):
        return ints(*I64)
    if kind in (FieldDescriptor.TYPE_UINT32, FieldDescriptor.TYPE_FIXED32):
        return ints(*U32)
    if kind in (FieldDescriptor.TYPE_UINT64, FieldDescriptor.TYPE_FIXED64):
        return ints(*U64)
    if kind == FieldDescriptor.TYPE_BOOL:
        return st.booleans()
    if kind == FieldDescriptor.TYPE_FLOAT:
        return st.floats(width=32)
    if kind == FieldDescriptor.TYPE_DOUBLE:
        return st.floats()
    if kind == FieldDescriptor.TYPE_ENUM:
        enum: Any = field.enum_type
        numbers = [v.number for v in enum.values]
        return st.one_of(st.sampled_from(numbers), st.sampled_from(numbers), ints(*I32))
    if kind == FieldDescriptor.TYPE_STRING:
        return texts() if huge else st.one_of(st.just(""), st.text(max_size=12), odd_strings)
    if kind == FieldDescriptor.TYPE_BYTES:
        return blobs() if huge else st.binary(max_size=16)
    raise TypeError(f"no strategy for field type {kind} ({field.full_name})")


def _is_map(field: FieldDescriptor) -> bool:
    return bool(
        field.is_repeated
        and field.message_type is not None
        and field.message_type.GetOptions().map_entry
    )


def _single(field: FieldDescriptor, depth: int) -> st.SearchStrategy[Any]:
    if field.message_type is not None:
        return message_dict(field.message_type, depth + 1)
    return scalar(field, huge=depth <= 1)  # deeper: no huge values (they multiply)


def _field(field: FieldDescriptor, depth: int) -> st.SearchStrategy[Any]:
    if _is_map(field):
        entry: Any = field.message_type
        keys = scalar(entry.fields_by_name["key"])
        values = _single(entry.fields_by_name["value"], depth)
        return st.dictionaries(keys, values, max_size=3)
    if field.is_repeated:
        one = _single(field, depth)
        few = st.lists(one, max_size=3)
        # Long lists only of small values: 2,000 copies of a 1 MB string (or of a message
        # holding long lists) would make gigabytes.
        if field.message_type is not None:
            return few
        small = st.sampled_from(ODD_STRINGS) if field.type == FieldDescriptor.TYPE_STRING else one
        if field.type == FieldDescriptor.TYPE_BYTES:
            small = st.binary(max_size=8)
        many = st.builds(lambda x, n: [x] * n, small, st.sampled_from((100, 2_000)))
        return st.one_of(few, few, many)
    return _single(field, depth)


_CACHE: dict[tuple[str, int], st.SearchStrategy[dict[str, Any]]] = {}
MAX_DEPTH = 6


def message_dict(descriptor: Descriptor, depth: int = 0) -> st.SearchStrategy[dict[str, Any]]:
    """Keyword arguments of a random message of type ``descriptor`` (see :func:`build`)."""
    key = (descriptor.full_name, depth)
    cached = _CACHE.get(key)
    if cached is not None:
        return cached
    if depth > MAX_DEPTH:
        strategy: st.SearchStrategy[dict[str, Any]] = st.just({})
    else:
        in_oneof = {f.name for o in descriptor.oneofs for f in o.fields if len(o.fields) > 1}
        plain = {f.name: _field(f, depth) for f in descriptor.fields if f.name not in in_oneof}
        alternatives = [
            st.fixed_dictionaries({f.name: _field(f, depth)})
            for o in descriptor.oneofs
            if len(o.fields) > 1
            for f in o.fields
        ]
        base = st.fixed_dictionaries({}, optional=plain)
        if alternatives:
            choice = st.one_of(st.just({}), *alternatives)
            strategy = st.builds(lambda a, b: {**a, **b}, base, choice)
        else:
            strategy = base
    _CACHE[key] = strategy
    return strategy


def build(cls: type[Message], data: dict[str, Any]) -> Message:
    """A message of type ``cls`` from :func:`message_dict` output."""
    message = cls()
    _fill(message, data)
    return message


def _fill(message: Message, data: dict[str, Any]) -> None:
    descriptor: Any = message.DESCRIPTOR
    for name, value in data.items():
        field = descriptor.fields_by_name[name]
        target = getattr(message, name)
        if _is_map(field):
            value_field = field.message_type.fields_by_name["value"]
            for key, item in value.items():
                if value_field.message_type is not None:
                    _fill(target[key], item)
                else:
                    target[key] = item
        elif field.is_repeated:
            for item in value:
                if field.message_type is not None:
                    _fill(target.add(), item)
                else:
                    target.append(item)
        elif field.message_type is not None:
            target.SetInParent()
            _fill(target, value)
        else:
            setattr(message, name, value)


def message_of(cls: type[Message]) -> st.SearchStrategy[Message]:
    """Random, structurally valid messages of type ``cls`` with adversarial values."""
    descriptor: Any = cls.DESCRIPTOR
    return message_dict(descriptor).map(lambda data: build(cls, data))


def replacement(field: FieldDescriptor, pick: int, text: str) -> Any:
    """A deterministic adversarial replacement value for ``field`` (used to mutate legal
    actions at run time): ``pick`` chooses among boundary values, ``text`` is used for strings.
    """
    kind = field.cpp_type
    if kind in (FieldDescriptor.CPPTYPE_INT32, FieldDescriptor.CPPTYPE_INT64):
        low, high = I32 if kind == FieldDescriptor.CPPTYPE_INT32 else I64
        return max(low, min(high, pick))
    if kind in (FieldDescriptor.CPPTYPE_UINT32, FieldDescriptor.CPPTYPE_UINT64):
        high = U32[1] if kind == FieldDescriptor.CPPTYPE_UINT32 else U64[1]
        return max(0, min(high, pick))
    if kind == FieldDescriptor.CPPTYPE_BOOL:
        return bool(pick % 2)
    if kind in (FieldDescriptor.CPPTYPE_FLOAT, FieldDescriptor.CPPTYPE_DOUBLE):
        return float(pick)
    if kind == FieldDescriptor.CPPTYPE_ENUM:
        return max(I32[0], min(I32[1], pick))
    if field.type == FieldDescriptor.TYPE_BYTES:
        return text.encode()
    return text
