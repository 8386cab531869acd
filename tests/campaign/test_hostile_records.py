"""``verify_record`` (VerifyCampaignRecord, ``annales campaign verify``) on hostile records:
a plain "not ok" with the problem named, never an exception (the fuzzer found a JSON line that
was not an object answered INTERNAL)."""

from __future__ import annotations

import pytest

from service.campaigns.service import verify_record

HOSTILE = [
    b"",
    b"3",
    b"\xff\xfe",
    b"[1]",
    b"{}\n5",
    b'{"format": 1}\n"row"',
    b'{"format": 1, "campaign_id": 3, "events": 1}\n{"seq": "x", "command_id": [], "ruleset": 1,'
    b' "schema": {}, "kind": 2, "payload": "!!", "prev_hash": 1, "hash": 2}',
    b'{"format": 1}\n{"seq": 1, "command_id": "a", "ruleset": "r", "schema": 1,'
    b' "kind": "CampaignCreated", "payload": "e30=", "prev_hash": 7, "hash": null}',
]


@pytest.mark.parametrize("record", HOSTILE)
def test_hostile_campaign_record_is_refused_not_raised(record: bytes) -> None:
    ok, problems, _ = verify_record(record.splitlines())
    assert not ok and problems
