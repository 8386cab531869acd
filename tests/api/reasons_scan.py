"""Every error reason the server can emit, found in the source (the enum's test oracle).

The scan reads ``domain/``, ``service/`` and ``projections/`` with :mod:`ast` and collects
the UPPER_SNAKE_CASE string constants passed to the constructors of typed errors
(``RuleViolation`` and its helpers, ``MalformedCommand``, ``TournamentError``, the service
errors, ``ApiError`` and the web port's ``typed_error``) and the ``reason`` class attributes
of service errors. Codes built at run time (f-strings) are listed in :data:`COMPUTED` with
where they come from.
"""

from __future__ import annotations

import ast
import pathlib
import re
from collections import defaultdict

ROOT = pathlib.Path(__file__).resolve().parents[2]
UPPER = re.compile(r"^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$|^[A-Z]{3,}$")

#: callables whose string arguments are error codes
CONSTRUCTORS = frozenset(
    {
        "RuleViolation",
        "Violation",
        "MalformedCommand",
        "fail",
        "_violation",
        "_malformed",
        "TournamentError",
        "TournamentRejected",
        "CampaignError",
        "CampaignRejected",
        "InvalidArgument",
        "ServiceError",
        "ApiError",
        "typed_error",
    }
)

#: codes computed at run time: code -> where
COMPUTED = {
    # domain/riseandfall/worldbuild.py: f"{kind.upper()}_NOT_ON_{below.upper()}"
    "FOREST_NOT_ON_PLAIN": "domain/riseandfall/worldbuild.py",
    "MOUNTAIN_NOT_ON_FOREST": "domain/riseandfall/worldbuild.py",
    "GLACIER_NOT_ON_MOUNTAIN": "domain/riseandfall/worldbuild.py",
    # domain/riseandfall/worldboard.py: _Board.sea_error returns (code, message)
    "SEA_OVERLAP": "domain/riseandfall/worldboard.py",
    "SEA_MUST_TOUCH_TWO": "domain/riseandfall/worldboard.py",
    "SEA_ENCLOSES_EMPTY": "domain/riseandfall/worldboard.py",
}

#: codes in the source that are never sent as a reason: internal defaults; the game setup's
#: refusals (CreateGame reports them as INVALID_FIELD on the options or seat names, a
#: tournament as BAD_OPTIONS / BAD_TABLE_SIZE); the simulation CLI's; the campaign rule's
#: codes of a request field that cannot be right (the API sends INVALID_FIELD naming the
#: field: ``service.api.campaigns.FIELD_OF``); the campaign record verifier's (a problem in
#: VerifyCampaignRecord's answer, not a status)
NOT_SENT = frozenset(
    {
        "TAMPERED",
        "BAD_ID",
        "NO_PLAYER",
        "NATION",
        "MODE",
        "SIDE",
        "CIV_NATION",
        "CHANGE",
        "CARD",
        "SERVICE_ERROR",
        "INVALID_ARGUMENT",
        "RULE_VIOLATION",
        "TOURNAMENT_RULE",
        "SEATS",
        "NATIONS",
        "BOX",
        "SIDES",
        "SIMULATION_FAILED",
    }
)


def _callee(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr
    return getattr(func, "id", "")


def emitted_reasons() -> dict[str, set[str]]:
    """Each code found in the source, with the files that raise it."""
    found: dict[str, set[str]] = defaultdict(set)
    for top in ("domain", "service", "projections"):
        for path in sorted((ROOT / top).rglob("*.py")):
            if "gen" in path.parts:
                continue
            where = str(path.relative_to(ROOT))
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Call) and _callee(node) in CONSTRUCTORS:
                    for arg in node.args:
                        if (
                            isinstance(arg, ast.Constant)
                            and isinstance(arg.value, str)
                            and UPPER.match(arg.value)
                        ):
                            found[arg.value].add(where)
                elif (
                    isinstance(node, ast.Assign)
                    and len(node.targets) == 1
                    and getattr(node.targets[0], "id", "") == "reason"
                    and isinstance(node.value, ast.Constant)
                    and isinstance(node.value.value, str)
                ):
                    found[node.value.value].add(where)
    for code, where in COMPUTED.items():
        found[code].add(where)
    for code in NOT_SENT:
        found.pop(code, None)
    return dict(found)


def reason_docs() -> list[tuple[str, str, str]]:
    """``(reason, section, comment)`` of each ErrorReason value, in errors.proto's order."""
    text = (ROOT / "proto" / "annales" / "v1" / "errors.proto").read_text()
    body = text.split("enum ErrorReason {", 1)[1].split("}", 1)[0]
    docs: list[tuple[str, str, str]] = []
    comment: list[str] = []
    section: list[str] = []
    heading = False  # inside a "// --- ... ---" heading spread over several lines
    for raw in body.splitlines():
        line = raw.strip()
        if line.startswith("// ---") or heading:
            section = [*section, line.strip("/- ")] if heading else [line.strip("/- ")]
            heading = not line.endswith("---")
            comment = []
        elif line.startswith("//"):
            comment.append(line[2:].strip())
        elif line.startswith("ERROR_REASON_"):
            name = line.split("=", 1)[0].strip()[len("ERROR_REASON_") :]
            if name != "UNSPECIFIED":
                docs.append((name, " ".join(section), " ".join(comment)))
            comment = []
    return docs


_STATUSES = (
    "INVALID_ARGUMENT",
    "FAILED_PRECONDITION",
    "RESOURCE_EXHAUSTED",
    "NOT_FOUND",
    "UNAUTHENTICATED",
    "PERMISSION_DENIED",
    "ABORTED",
    "UNAVAILABLE",
    "INTERNAL",
)


def reasons_table() -> str:
    """The Markdown table of docs/api.md (``python -m tests.api.reasons_scan`` prints it)."""
    rows = ["| reason | status | group | meaning |", "|---|---|---|---|"]
    for name, section, doc in reason_docs():
        first = re.split(r"[.:]", doc, maxsplit=1)[0]
        status = first if first in _STATUSES else next(
            (word for word in re.findall(r"[A-Z_]+", section) if word in _STATUSES), ""
        )  # fmt: skip
        meaning = doc[len(first) + 1 :].strip() if first in _STATUSES else doc
        group = section.split(" (")[0]
        rows.append(f"| `{name}` | {status} | {group} | {meaning.replace('|', '/')} |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(reasons_table())
