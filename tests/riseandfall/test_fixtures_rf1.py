"""Records played under ``riseandfall/1`` before ``riseandfall/2`` existed verify for ever.

Rule: "a rules change is a new ruleset; old rulesets stay runnable and records exported under
them verify forever". The fixtures were written by
``tests/riseandfall/fixtures/make_fixtures.py`` from the code of the square world; they are
re-executed command by command under ``riseandfall/1`` and every event hash must match.
"""

from __future__ import annotations

from pathlib import Path

from domain.registry import codec_for, get_ruleset
from service.app.ledger import SETUP_COMMAND_ID, Ledger
from service.audit.records import parse_lines, verify_record

FIXTURES = Path(__file__).parent / "fixtures"


def _reexecute_with_seed(lines: list[bytes], seed: bytes) -> int:
    """Re-execute every command of a record from ``seed``; the number of events matched.

    The record's seed is still secret (the game is not over), so the verifier checks only its
    hash chain; with the seed kept beside the fixture this replays it like the verifier does
    for a finished game.
    """
    items = parse_lines(lines)
    header = items[0]
    game = get_ruleset(header["ruleset"])
    codec = codec_for(game)
    ledger: Ledger | None = None
    recorded: list[str] = []
    produced: list[str] = []
    for item in items[1:]:
        if item["type"] == "event":
            recorded.append(item["hash"])
            continue
        if item["command_id"] == SETUP_COMMAND_ID:
            ledger, envelopes = Ledger.create(
                header["game_id"],
                header["game_type"],
                header["options"],
                header["seats"],
                seed,
                header["ruleset"],
            )
        else:
            assert ledger is not None
            command = codec.command_from_data(item["command"])
            _, envelopes = ledger.submit(
                int(item["seat"]),
                command,
                str(item["command_id"]),
                seed,
                lambda version: None,
                item["idempotency_key"],
            )
        produced.extend(e.hash for e in envelopes)
    assert produced == recorded
    return len(produced)


def test_finished_riseandfall_1_record_reexecutes() -> None:
    """The finished 2-seat record (seed revealed) re-executes under ``riseandfall/1``."""
    lines = (FIXTURES / "rf1_finished_2p.jsonl").read_bytes().splitlines()
    assert b'"ruleset":"riseandfall/1"' in lines[0]
    report = verify_record(lines)
    assert report.ok, report.message
    assert report.reexecuted and report.events == 2474


def test_unfinished_riseandfall_1_record_verifies_and_reexecutes() -> None:
    """The unfinished 4-seat record verifies (hash chain) and re-executes from its kept seed."""
    lines = (FIXTURES / "rf1_unfinished_4p.jsonl").read_bytes().splitlines()
    report = verify_record(lines)
    assert report.ok, report.message
    assert not report.reexecuted
    seed = bytes.fromhex((FIXTURES / "rf1_unfinished_4p.seed").read_text().strip())
    assert _reexecute_with_seed(lines, seed) == report.events
