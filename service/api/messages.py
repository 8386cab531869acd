"""Validation messages as sentences: msgspec's raw texts translated for people.

msgspec reports a bad value as ``Expected `int`, got `str` - at `$.trophies```; the API sends
``trophies: expected a whole number, got text.`` instead, and names the field path (for the
``field`` metadata key) in proto terms.

>>> sentence("Expected `int`, got `str` - at `$.trophies`")
'trophies: expected a whole number, got text.'
>>> field_path("Expected `int`, got `str` - at `$.nations[1]`")
'nations'
>>> sentence("Invalid enum value 'huge' - at `$.world`")
"world: 'huge' is not one of the allowed values."
>>> sentence("Object contains unknown field `colour`")
'colour: unknown field.'
"""

from __future__ import annotations

import re

_TYPES = {
    "int": "a whole number",
    "float": "a number",
    "str": "text",
    "bool": "true or false",
    "array": "a list",
    "object": "an object",
    "null": "nothing",
    "bytes": "bytes",
}

_AT = r"(?: - at `\$(?P<path>[^`]*)`)?"
_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(r"Expected `(?P<want>[^`]+)`, got `(?P<got>[^`]+)`" + _AT),
        "expected {want}, got {got}.",
    ),
    (
        re.compile(r"Expected `(?P<want>[^`]+)` (?P<cmp>[<>]=?) (?P<bound>-?\d+)" + _AT),
        "must be {cmp} {bound}.",
    ),
    (
        re.compile(r"Expected `(?P<want>[^`]+)` of length (?P<cmp>[<>]=?) (?P<bound>\d+)" + _AT),
        "length must be {cmp} {bound}.",
    ),
    (
        re.compile(r"Invalid enum value (?P<value>.+?)" + _AT + "$"),
        "{value} is not one of the allowed values.",
    ),
    (re.compile(r"Object contains unknown field `(?P<name>[^`]+)`" + _AT), "unknown field."),
    (re.compile(r"Object missing required field `(?P<name>[^`]+)`" + _AT), "is required."),
)

_CMP = {">=": "at least", ">": "more than", "<=": "at most", "<": "less than"}


def _type(name: str) -> str:
    first = name.split(" ")[0].split("|")[0].strip()
    return _TYPES.get(first, first)


def _path(match: re.Match[str]) -> str:
    path = (match.groupdict().get("path") or "").lstrip(".")
    name = match.groupdict().get("name")
    if name:
        path = f"{path}.{name}" if path else name
    return re.sub(r"\[\d+\]", "", path).replace("[", ".").rstrip(".")


def field_path(text: str) -> str:
    """The dotted field path a msgspec message names (``""`` when none)."""
    for pattern, _ in _PATTERNS:
        match = pattern.search(text)
        if match:
            return _path(match)
    return ""


def sentence(text: str) -> str:
    """``text`` with any msgspec validation message in it rewritten as a sentence."""
    for pattern, template in _PATTERNS:
        match = pattern.search(text)
        if match is None:
            continue
        parts = match.groupdict()
        words = template.format(
            want=_type(parts.get("want") or ""),
            got=_type(parts.get("got") or ""),
            cmp=_CMP.get(parts.get("cmp") or "", parts.get("cmp") or ""),
            bound=parts.get("bound") or "",
            value=parts.get("value") or "",
        )
        path = _path(match)
        replaced = f"{path}: {words}" if path else words[0].upper() + words[1:]
        return text[: match.start()] + replaced + text[match.end() :]
    return text
