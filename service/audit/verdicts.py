"""The verdicts of the record verifier: the five outcomes, where a record first goes wrong,
the report, and the exception the checks raise to stop at the first problem.

:mod:`service.audit.verify` runs the checks; ``docs/record-format.md`` ("Verification and its
outcomes") specifies each outcome.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

import msgspec


class Outcome(enum.Enum):
    """The verdict of :func:`verify_record` (see the module docstring)."""

    VERIFIED = "verified"
    INTACT_AS_FAR_AS_VISIBLE = "intact_as_far_as_visible"
    TAMPERED = "tampered"
    MALFORMED = "malformed"
    UNSUPPORTED = "unsupported"


@dataclass
class Divergence:
    """Where a record first goes wrong: line, sequence number (0 if none), field (a JSON path
    into the line, e.g. ``$.event.card``), expected and found values, and why."""

    seq: int
    expected: str
    found: str
    reason: str
    line: int = 0
    field: str = ""


@dataclass
class VerifyReport:
    """The outcome of :func:`verify_record`; ``ok`` unless tampered, malformed or unsupported."""

    ok: bool
    message: str
    game_type: str = ""
    events: int = 0
    reexecuted: bool = False
    divergence: Divergence | None = None
    notes: list[str] = field(default_factory=list)
    outcome: Outcome = Outcome.VERIFIED
    redacted: int = 0
    unchecked_links: int = 0


class Rejection(Exception):
    """Raised by a check at the first problem; :func:`report_of` turns it into a report."""

    def __init__(self, outcome: Outcome, divergence: Divergence) -> None:
        super().__init__(divergence.reason)
        self.outcome = outcome
        self.divergence = divergence


def tampered(line: int, seq: int, fld: str, expected: Any, found: Any, reason: str) -> Rejection:
    """A ``tampered`` verdict: a recorded value disagrees with what the rest implies."""
    return Rejection(
        Outcome.TAMPERED, Divergence(seq, _text(expected), _text(found), reason, line, fld)
    )


def malformed(line: int, seq: int, fld: str, reason: str) -> Rejection:
    """A ``malformed`` verdict: the record cannot be read as the format says."""
    return Rejection(Outcome.MALFORMED, Divergence(seq, "", "", reason, line, fld))


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    try:
        return msgspec.json.encode(value).decode()
    except (TypeError, msgspec.EncodeError):
        return repr(value)


def first_difference(expected: Any, found: Any, path: str = "$") -> tuple[str, Any, Any] | None:
    """The first path where two JSON-like values differ, with both values there."""
    if isinstance(expected, dict) and isinstance(found, dict):
        for key in [*expected, *(k for k in found if k not in expected)]:
            if key not in found:
                return f"{path}.{key}", expected[key], "(missing)"
            if key not in expected:
                return f"{path}.{key}", "(absent)", found[key]
            deeper = first_difference(expected[key], found[key], f"{path}.{key}")
            if deeper is not None:
                return deeper
        return None
    if isinstance(expected, list | tuple) and isinstance(found, list | tuple):
        for index, (a, b) in enumerate(zip(expected, found, strict=False)):
            deeper = first_difference(a, b, f"{path}[{index}]")
            if deeper is not None:
                return deeper
        if len(expected) != len(found):
            return f"{path}.length", len(expected), len(found)
        return None
    if type(expected) is not type(found) or expected != found:
        return path, expected, found
    return None


def report_of(outcome: Outcome, divergence: Divergence, game_type: str) -> VerifyReport:
    """The report of a record rejected with ``outcome`` at ``divergence``."""
    where = f"line {divergence.line}: " if divergence.line else ""
    if divergence.seq:
        where += f"seq {divergence.seq}: "
    if divergence.field:
        where += f"{divergence.field}: "
    message = f"{outcome.value}: {where}{divergence.reason}"
    if outcome is Outcome.TAMPERED:
        message += f" (expected {divergence.expected}, found {divergence.found})"
    return VerifyReport(False, message, game_type, divergence=divergence, outcome=outcome)
