"""Verification outcomes and hidden idempotency keys.

Every documented outcome of ``docs/record-format.md`` appears here: ``verified``,
``intact_as_far_as_visible``, ``tampered`` (line, field, expected, found), ``malformed``
(renamed keys such as ``"card"`` → ``"bard"`` in a command, wrong types, truncated JSON,
extra and missing lines, wrong encodings) and ``unsupported``. A judge's record of an
unfinished game verifies in full.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from domain.bots import make_bot
from service.app.application import GameService
from service.audit.format import canonical
from service.audit.records import Outcome, judge_record, verify_record
from tests.audit.helpers import export, play


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """One finished game, and one unfinished with a redacted event in the spectator's record."""
    from service.store.config import StoreConfig
    from service.store.eventstore import EventStore

    path = tmp_path_factory.mktemp("outcomes") / "events.db"
    store = EventStore(StoreConfig(kind="sqlite", path=str(path)))
    service = GameService(store)
    finished = play(service, b"outcomes-finished")
    unfinished = play(service, b"outcomes-open", commands=0)
    bots = {i: make_bot("random", b"open" + bytes([i])) for i in range(3)}
    for _ in range(200):  # until a sealed choice is hidden from the spectator
        if b'"redacted":true' in b"".join(export(service, unfinished, None)):
            break
        from service.app.autoplay import play_with_bots

        play_with_bots(service, unfinished, bots, max_commands=1)  # type: ignore[arg-type]
    return {"service": service, "finished": finished, "unfinished": unfinished}


def _items(lines: list[bytes]) -> list[dict[str, object]]:
    return [msgspec.json.decode(line) for line in lines if line]


def _lines(items: list[dict[str, object]]) -> list[bytes]:
    return [canonical(item) for item in items]


def test_finished_spectator_record_is_verified_without_any_key(games: dict) -> None:
    """A spectator's record of a finished game: no idempotency key, only digests, and still
    VERIFIED (every link recomputed from the digests, every command re-executed)."""
    service, game_id = games["service"], games["finished"]
    lines = export(service, game_id, None)
    commands = [i for i in _items(lines) if i.get("type") == "command"]
    assert all(c["idempotency_key"] is None for c in commands)
    keyed = [c for c in commands if c["idempotency_key_digest"] is not None]
    assert keyed and all("idempotency_key" in c["hidden"] for c in keyed)
    report = verify_record(lines)
    assert report.outcome is Outcome.VERIFIED and report.reexecuted, report.message
    assert report.unchecked_links == 0


def test_a_seat_record_keeps_its_own_keys_only(games: dict) -> None:
    """Seat 1's record shows seat 1's keys and hides every other seat's."""
    service, game_id = games["service"], games["finished"]
    commands = [i for i in _items(export(service, game_id, 1)) if i.get("type") == "command"]
    mine = [c for c in commands if c["seat"] == 1]
    others = [c for c in commands if c["seat"] not in (1, -1)]
    assert mine and all(c["idempotency_key"] for c in mine)
    assert others and all(c["idempotency_key"] is None for c in others)
    assert verify_record(export(service, game_id, 1)).outcome is Outcome.VERIFIED


def test_unfinished_spectator_record_is_intact_as_far_as_visible(games: dict) -> None:
    """Nothing wrong, N events redacted, not re-executable yet."""
    service, game_id = games["service"], games["unfinished"]
    report = verify_record(export(service, game_id, None))
    assert report.outcome is Outcome.INTACT_AS_FAR_AS_VISIBLE, report.message
    assert report.ok and not report.reexecuted
    assert report.redacted >= 1
    assert f"{report.redacted} redacted" in report.message


def test_judge_record_of_an_unfinished_game_verifies_in_full(games: dict) -> None:
    """A judge's record carries seed and nonce: the unfinished game is re-executed, at its
    head and at any earlier version."""
    service, game_id = games["service"], games["unfinished"]
    head = service.head(game_id).version
    for version in (head, max(1, head // 2)):
        lines = judge_record(service, game_id, version)
        header = msgspec.json.decode(lines[0])
        assert header["viewer"] == "judge" and header["events"] == version
        assert bytes.fromhex(header["seed"]) == b"outcomes-open"
        report = verify_record(lines)
        assert report.outcome is Outcome.VERIFIED and report.reexecuted, report.message


def test_changed_event_is_tampered_with_field_expected_found(games: dict) -> None:
    """The readable form of an event changed: its line, the field, the expected value."""
    service, game_id = games["service"], games["finished"]
    items = _items(export(service, game_id, None))
    index = next(i for i, item in enumerate(items) if item.get("kind") == "FirstPlayerDrawn")
    event = items[index]["event"]
    assert isinstance(event, dict)
    name = next(k for k, v in event.items() if isinstance(v, int) and k != "type")
    event[name] = int(event[name]) + 1
    report = verify_record(_lines(items))
    assert report.outcome is Outcome.TAMPERED and not report.ok
    divergence = report.divergence
    assert divergence is not None
    assert (divergence.line, divergence.field) == (index + 1, f"$.event.{name}")
    assert (divergence.expected, divergence.found) == (str(event[name] - 1), str(event[name]))


def _bard(items: list[dict[str, object]]) -> tuple[list[dict[str, object]], int]:
    for index, item in enumerate(items):
        command = item.get("command")
        if isinstance(command, dict) and "card" in command:
            command["bard"] = command.pop("card")
            return items, index
    raise AssertionError("no command with a card")


def test_renamed_command_key_is_malformed_not_a_crash(games: dict, tmp_path: Path) -> None:
    """``"card"`` → ``"bard"`` in a command: MALFORMED naming the line and the field, here
    and through ``annales verify`` in a fresh process (no traceback)."""
    service, game_id = games["service"], games["finished"]
    items, index = _bard(_items(export(service, game_id, None)))
    lines = _lines(items)
    report = verify_record(lines)
    assert report.outcome is Outcome.MALFORMED and not report.ok
    assert report.divergence is not None and report.divergence.line == index + 1
    assert "bard" in report.message and report.divergence.field.startswith("$.command")
    path = tmp_path / "bard.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    done = subprocess.run(
        [sys.executable, "-m", "annales_cli.main", "verify", str(path)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 1
    assert "outcome: malformed" in done.stdout and "Traceback" not in done.stdout + done.stderr


def _mutations(lines: list[bytes]) -> dict[str, tuple[list[bytes], Outcome]]:
    items = _items(lines)
    event_at = next(i for i, item in enumerate(items) if item.get("type") == "event" and i > 2)
    wrong_type = [dict(item) for item in items]
    wrong_type[event_at]["seq"] = str(wrong_type[event_at]["seq"])
    missing_key = [dict(item) for item in items]
    del missing_key[event_at]["hash"]
    unknown_key = [dict(item) for item in items]
    unknown_key[event_at]["colour"] = "red"
    bad_line_type = [dict(item) for item in items]
    bad_line_type[event_at]["type"] = "evnt"
    not_base64 = [dict(item) for item in items]
    not_base64[event_at]["payload"] = "!!!"
    return {
        "wrong type": (_lines(wrong_type), Outcome.MALFORMED),
        "missing key": (_lines(missing_key), Outcome.MALFORMED),
        "unknown key": (_lines(unknown_key), Outcome.MALFORMED),
        "unknown line type": (_lines(bad_line_type), Outcome.MALFORMED),
        "payload not base64": (_lines(not_base64), Outcome.MALFORMED),
        "truncated JSON": ([*lines[:event_at], lines[event_at][:20]], Outcome.MALFORMED),
        "not canonical": (
            [*lines[:event_at], lines[event_at].replace(b":", b": ", 1), *lines[event_at + 1 :]],
            Outcome.MALFORMED,
        ),
        "latin-1 bytes": (
            [*lines[:event_at], lines[event_at][:-2] + b"\xe9}", *lines[event_at + 1 :]],
            Outcome.MALFORMED,
        ),
        "empty line inside": ([*lines[:event_at], b"", *lines[event_at:]], Outcome.MALFORMED),
        "not an object": ([*lines[:event_at], b"[1,2]", *lines[event_at:]], Outcome.MALFORMED),
        "empty record": ([], Outcome.MALFORMED),
        "extra line": ([*lines[: event_at + 1], *lines[event_at:]], Outcome.TAMPERED),
        "missing line": ([*lines[:event_at], *lines[event_at + 1 :]], Outcome.TAMPERED),
        "unknown ruleset": (
            _lines([{**items[0], "ruleset": "riseandfall/99"}, *items[1:]]),
            Outcome.UNSUPPORTED,
        ),
        "unknown format": (
            _lines([{**items[0], "record": "annales.game/9"}, *items[1:]]),
            Outcome.MALFORMED,
        ),
    }


@pytest.mark.parametrize(
    "name",
    [
        "wrong type", "missing key", "unknown key", "unknown line type", "payload not base64",
        "truncated JSON", "not canonical", "latin-1 bytes", "empty line inside",
        "not an object", "empty record", "extra line", "missing line", "unknown ruleset",
        "unknown format",
    ],
)  # fmt: skip
def test_every_malformed_record_is_a_typed_result(games: dict, name: str) -> None:
    """Each mutation gives its typed, non-OK outcome with a message (never an exception);
    those about a line name it."""
    service, game_id = games["service"], games["finished"]
    lines, outcome = _mutations(export(service, game_id, None))[name]
    report = verify_record(lines)
    assert report.outcome is outcome, report.message
    assert not report.ok and report.message
    if name not in ("empty record", "unknown ruleset"):
        assert report.divergence is not None and report.divergence.line >= 1, report.message
