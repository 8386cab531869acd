"""``verify`` catches every kind of change.

A changed command, a changed event (in a game, and in the tournament's own stream even with
its hash chain re-sealed), a reordered game and a wrong standing are each reported with the
round, table and sequence number where they were found.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator
from typing import Any

import msgspec
import msgspec.structs
import pytest

from domain.core.envelope import GENESIS, seal
from domain.tournament.events import (
    SCHEMA,
    TOURNAMENT_RULESET,
    decode_event,
    encode_event,
    event_to_data,
)
from service.tournaments.record import TournamentReport, verify_tournament
from tests.tournament.helpers import BotRun, fast_dir, run_bot_tournament

Items = list[dict[str, Any]]


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BotRun]:
    """A small finished Swiss tournament (Tapestry, 4 random bots, 2 rounds)."""
    with fast_dir(tmp_path_factory.mktemp("verify")) as base:
        run = run_bot_tournament(
            base / "t.db",
            game="tapestry",
            format="swiss",
            entrants=4,
            rounds=2,
            master_seed=b"verify-me",
        )
        yield run
        run.close()


def _items(run: BotRun) -> Items:
    return [msgspec.json.decode(line) for line in run.lines]


def _lines(items: Items) -> list[bytes]:
    return [msgspec.json.encode(item) for item in items]


def _section(items: Items, round_number: int, table: int) -> tuple[int, int]:
    """(index of the game's first record line, index past its last line)."""
    for index, item in enumerate(items):
        if item.get("type") == "game" and (item["round"], item["table"]) == (round_number, table):
            return index + 1, index + 1 + int(item["lines"])
    raise AssertionError("no such game")


def _failed(items: Items) -> TournamentReport:
    report = verify_tournament(_lines(items))
    assert not report.ok
    assert report.problems, report.message
    return report


def test_untouched_record_verifies(record: BotRun) -> None:
    """The control: the record as exported verifies."""
    report = verify_tournament(record.lines)
    assert report.ok, report.message
    assert (report.games, report.events) == (4, report.events)


def test_changed_command_is_reported_with_round_table_seq(record: BotRun) -> None:
    """Give a recorded command of round 2, table 1 another command's data."""
    items = _items(record)
    start, end = _section(items, 2, 1)
    commands = [
        i for i in range(start, end) if items[i].get("type") == "command" and items[i]["command"]
    ]
    target = commands[2]
    other = next(i for i in commands[3:] if items[i]["command"] != items[target]["command"])
    items[target]["command"] = items[other]["command"]
    first_seq = items[target + 1]["seq"]
    problem = _failed(items).problems[0]
    assert (problem.round, problem.table, problem.seq) == (2, 1, first_seq)
    assert "round 2, table 1" in str(problem) and f"seq {first_seq}" in str(problem)


def test_changed_game_event_is_reported(record: BotRun) -> None:
    """A changed payload byte breaks the chain; a changed readable form disagrees."""
    items = _items(record)
    start, end = _section(items, 1, 0)
    events = [i for i in range(start, end) if items[i].get("type") == "event"]
    target = events[len(events) // 2]
    payload = bytearray(base64.b64decode(items[target]["payload"]))
    payload[-1] ^= 1
    items[target]["payload"] = base64.b64encode(bytes(payload)).decode()
    problem = _failed(items).problems[0]
    assert (problem.round, problem.table, problem.seq) == (1, 0, items[target]["seq"])

    items = _items(record)
    items[target]["event"] = {**items[target]["event"], "tampered": 1}
    problem = _failed(items).problems[0]
    assert (problem.round, problem.table, problem.seq) == (1, 0, items[target]["seq"])


def _reseal_tournament(items: Items, seq: int, change: dict[str, Any]) -> None:
    """Change fields of tournament event ``seq`` and re-seal the chain after it."""
    prev = GENESIS
    for item in items:
        if item.get("type") != "tournament_event":
            continue
        payload = base64.b64decode(item["payload"])
        if item["seq"] == seq:
            event = msgspec.structs.replace(decode_event(item["kind"], payload), **change)
            payload = encode_event(event)[1]
            item["event"] = event_to_data(event)
        envelope = seal(
            game_id=items[0]["tournament_id"],
            seq=item["seq"],
            command_id=item["command_id"],
            seat=-1,
            ruleset=TOURNAMENT_RULESET,
            schema=SCHEMA,
            kind=item["kind"],
            payload=payload,
            prev_hash=prev,
        )
        item.update(payload=base64.b64encode(payload).decode(), prev_hash=prev, hash=envelope.hash)
        prev = envelope.hash


def _tournament_event(items: Items, kind: str, **match: Any) -> dict[str, Any]:
    return next(
        i
        for i in items
        if i.get("kind") == kind and all(i["event"][k] == v for k, v in match.items())
    )


def test_changed_tournament_event_even_resealed_is_reported(record: BotRun) -> None:
    """A result edited in the tournament stream (chain re-sealed): the recomputation differs."""
    items = _items(record)
    result = _tournament_event(items, "GameResultRecorded", round=1, table=1)
    scores = tuple(s + 50 for s in result["event"]["scores"])
    _reseal_tournament(items, result["seq"], {"scores": scores})
    problem = _failed(items).problems[0]
    assert (problem.round, problem.table, problem.seq) == (1, 1, result["seq"])

    items = _items(record)  # without re-sealing, the chain itself breaks
    result = _tournament_event(items, "GameResultRecorded", round=1, table=1)
    result["event"] = {**result["event"], "scores": [0, 0]}
    problem = _failed(items).problems[0]
    assert problem.seq == result["seq"]


def test_reordered_game_is_reported(record: BotRun) -> None:
    """Swap the records of round 1's two tables."""
    items = _items(record)
    a_start, a_end = _section(items, 1, 0)
    b_start, b_end = _section(items, 1, 1)
    assert a_end + 1 == b_start
    swapped = (
        items[: a_start - 1]
        + items[b_start - 1 : b_end]
        + items[a_start - 1 : a_end]
        + items[b_end:]
    )
    problem = _failed(swapped).problems[0]
    assert (problem.round, problem.table) == (1, 1)
    assert "out of order" in problem.reason


def test_wrong_standing_is_reported(record: BotRun) -> None:
    """An edited standings table; and edited round standings with a re-sealed chain."""
    items = _items(record)
    rows = items[-1]["rows"]
    rows[0]["points"] += 2
    report = _failed(items)
    assert "standings" in report.message

    items = _items(record)
    completed = _tournament_event(items, "RoundCompleted", round=1)
    rows = [dict(r) for r in completed["event"]["standings"]]
    rows[0], rows[1] = {**rows[1], "rank": 1}, {**rows[0], "rank": 2}
    event = decode_event("RoundCompleted", base64.b64decode(completed["payload"]))
    swapped = tuple(msgspec.convert(r, type(event.standings[0])) for r in rows)  # type: ignore[union-attr]
    _reseal_tournament(items, completed["seq"], {"standings": swapped})
    problem = _failed(items).problems[0]
    assert (problem.round, problem.seq) == (1, completed["seq"])
    assert "RoundCompleted" in problem.reason


def test_wrong_master_seed_is_reported(record: BotRun) -> None:
    """A master seed that does not match the published commitment."""
    items = _items(record)
    items[0]["master_seed"] = b"another".hex()
    report = _failed(items)
    assert "commitment" in report.message


def test_changed_tournament_options_even_resealed_are_reported(record: BotRun) -> None:
    """TournamentCreated's options changed and the chain re-sealed: every game recorded other
    options (a stranger's forgery verified, 2026-12-07: the games' options were not checked)."""
    items = _items(record)
    created = _tournament_event(items, "TournamentCreated")
    options = {**created["event"]["options"], "civilizations_dealt": 1}
    _reseal_tournament(items, created["seq"], {"options": options})
    report = _failed(items)
    assert any("options" in problem.reason for problem in report.problems), report.message


@pytest.mark.parametrize("change", ["header game type", "header format", "unknown key",
                                    "missing key", "standings not last"])  # fmt: skip
def test_header_keys_and_standings_place_are_checked(record: BotRun, change: str) -> None:
    """What the stranger's forgeries passed (2026-12-07): the header's game type and format
    against TournamentCreated, each line's keys, the standings as the last line."""
    items = _items(record)
    if change == "header game type":
        items[0]["game_type"] = "imperium"
    elif change == "header format":
        items[0]["format"] = "round_robin" if items[0]["format"] != "round_robin" else "swiss"
    elif change == "unknown key":
        items[0]["note"] = "x"
    elif change == "missing key":
        del next(i for i in items if i.get("type") == "game")["lines"]
    else:
        items.insert(1, items.pop())
    report = verify_tournament(_lines(items))
    assert not report.ok, report.message


def test_game_sections_show_no_idempotency_key(record: BotRun) -> None:
    """The record is public: its games are spectators' records (no key, only digests), as any
    finished game's public record — it showed every key (a stranger's check, 2026-12-07)."""
    items = _items(record)
    headers = [i for i in items if i.get("record") == "annales.game/2"]
    assert headers and all(h["viewer"] == "spectator" for h in headers)
    commands = [i for i in items if i.get("type") == "command" and i["seat"] >= 0]
    assert commands and all(c["idempotency_key"] is None for c in commands)
    assert all(c["idempotency_key_digest"] for c in commands)
