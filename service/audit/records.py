"""Portable game records (JSON lines) and their offline verification.

A record is one JSON object per line: a header, then for each command (the setup first) a
command line followed by one line per event it produced (envelope fields, readable event,
base64 msgpack payload, previous hash and hash). ``docs/record-format.md`` specifies every
field, the canonical JSON (RFC 8785), which bytes each hash covers and the seed commitment.

* writing: :func:`~service.audit.export.export_lines` (per viewer) and
  :func:`~service.audit.export.judge_record` (a judge's full record at any version);
* reading: :func:`~service.audit.format.parse_record` (typed, never crashes);
* verifying: :func:`~service.audit.verify.verify_record` — one of five outcomes
  (:class:`~service.audit.verdicts.Outcome`), never an exception.

This module keeps the names other packages import.
"""

from __future__ import annotations

from service.audit.export import EventFilter, Viewer, export_lines, judge_record
from service.audit.format import RECORD_FORMAT, RecordError, parse_lines, parse_record
from service.audit.verdicts import Divergence, Outcome, VerifyReport
from service.audit.verify import verify_record

__all__ = [
    "RECORD_FORMAT",
    "Divergence",
    "EventFilter",
    "Outcome",
    "RecordError",
    "VerifyReport",
    "Viewer",
    "export_lines",
    "judge_record",
    "parse_lines",
    "parse_record",
    "verify_record",
]
