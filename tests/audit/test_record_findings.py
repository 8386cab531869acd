"""What a stranger's own record verifier found in ours (2026-12-07), each now refused:

* a finished game's record cut before ``SeedRevealed`` (the header's count fixed) was
  ``intact_as_far_as_visible`` ("the game is not over"), a judge's was ``verified``: the
  specification says such a record has been cut — now ``tampered``;
* format-2 keys every line carries (``viewer``, ``seed_commitment_scheme``, ``hidden``,
  ``redacted``, ``idempotency_key_digest``) could be deleted: now ``malformed``;
* the header's ``viewer`` was never read (``"bogus"``, ``"seat 7"`` of a game of 3, a judge
  without seed); a payload-less event marked ``redacted: false``, a left-out command not marked
  hidden: now ``malformed``;
* a header ``game_type`` contradicting its ruleset was ``unsupported``: now ``tampered``.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec
import pytest

from service.audit.format import canonical
from service.audit.records import Outcome, judge_record, verify_record
from tests.audit.helpers import export
from tests.audit.test_outcomes import games

__all__ = ["games"]  # the module-scoped games of test_outcomes (a finished, an unfinished)

Items = list[dict[str, object]]


def _items(lines: list[bytes]) -> Items:
    return [msgspec.json.decode(line) for line in lines if line]


def _lines(items: Items) -> list[bytes]:
    return [canonical(item) for item in items]


def _cut(items: Items, drop: int) -> Items:
    """The record without its last ``drop`` events, the header's count fixed."""
    kept = items[:-drop]
    while kept[-1].get("type") == "command":  # no command line without its events
        kept.pop()
    events = sum(1 for item in kept if item.get("type") == "event")
    return [{**kept[0], "events": events}, *kept[1:]]


def test_a_finished_record_cut_before_its_seed_is_tampered(games: dict) -> None:
    """SeedRevealed dropped (and the events before it in its batch): TAMPERED at the last
    line kept, for a spectator's, a seat's and a judge's record alike."""
    service, game_id = games["service"], games["finished"]
    records = {
        "spectator": export(service, game_id, None),
        "seat 1": export(service, game_id, 1),
        "judge": judge_record(service, game_id),
    }
    for viewer, lines in records.items():
        items = _items(lines)
        assert items[-1]["kind"] == "SeedRevealed"
        assert verify_record(lines).outcome is Outcome.VERIFIED
        report = verify_record(_lines(_cut(items, 1)))
        assert report.outcome is Outcome.TAMPERED, (viewer, report.message)
        assert report.divergence is not None and report.divergence.field == "$.events"
        assert "cut" in report.message


def test_a_judge_record_of_an_unfinished_game_says_whose_seed(games: dict) -> None:
    """An unfinished game's judge record is re-executed from the header's seed, not a
    revealed one, and says so."""
    report = verify_record(judge_record(games["service"], games["unfinished"]))
    assert report.outcome is Outcome.VERIFIED
    assert "judge's seed" in report.message and "revealed seed" not in report.message


def _first(items: Items, match: Callable[[dict[str, object]], bool]) -> int:
    return next(i for i, item in enumerate(items) if match(item))


def _hides_command(item: dict[str, object]) -> bool:
    hidden = item.get("hidden")
    return isinstance(hidden, list) and "command" in hidden


def _edit(lines: list[bytes], name: str) -> tuple[Items, str]:
    """The record with the finding ``name`` applied, and the field the verdict must name."""
    items = _items(lines)
    header = items[0]
    command = _first(items, lambda i: i.get("type") == "command" and i["seat"] != -1)
    event = _first(items, lambda i: i.get("type") == "event" and i["seq"] > 2)
    if name.startswith("no "):
        key = name.removeprefix("no ")
        target = 0 if key in header else command if key in items[command] else event
        del items[target][key]
        return items, f"$.{key}"
    if name == "viewer bogus":
        header["viewer"] = "bogus"
    elif name == "viewer seat 3 of 3":
        header["viewer"] = "seat 3"
    elif name == "spectator with a seed":
        header["seed"] = "00"
    elif name == "judge without seed":
        header["viewer"] = "judge"
    elif name == "payload-less event not marked redacted":
        items[_first(items, lambda i: i.get("redacted") is True)]["redacted"] = False
        return items, "$.redacted"
    elif name == "hidden command not marked hidden":
        items[_first(items, _hides_command)]["hidden"] = []
        return items, "$.hidden"
    elif name == "shown command marked hidden":
        items[command]["hidden"] = ["command"]
        return items, "$.hidden"
    else:
        raise AssertionError(name)
    field = {"spectator with a seed": "$.seed", "judge without seed": "$.seed"}
    return items, field.get(name, "$.viewer")


FINISHED = [
    "no viewer", "no seed_commitment_scheme", "no hidden", "no redacted",
    "no idempotency_key_digest", "viewer bogus", "viewer seat 3 of 3", "spectator with a seed",
    "judge without seed", "shown command marked hidden",
]  # fmt: skip
UNFINISHED = ["payload-less event not marked redacted", "hidden command not marked hidden"]


@pytest.mark.parametrize("name", FINISHED + UNFINISHED)
def test_format_2_keys_and_markers_are_checked(games: dict, name: str) -> None:
    """Each finding is MALFORMED, naming line and field."""
    game_id = games["unfinished" if name in UNFINISHED else "finished"]
    items, field = _edit(export(games["service"], game_id, None), name)
    report = verify_record(_lines(items))
    assert report.outcome is Outcome.MALFORMED, report.message
    assert report.divergence is not None and report.divergence.field == field, report.message


def test_a_header_game_type_not_its_ruleset_is_tampered(games: dict) -> None:
    """A Rise & Fall record whose header says imperium: TAMPERED on $.game_type."""
    items = _items(export(games["service"], games["finished"], None))
    items[0]["game_type"] = "imperium"
    report = verify_record(_lines(items))
    assert report.outcome is Outcome.TAMPERED, report.message
    assert report.divergence is not None and report.divergence.field == "$.game_type"
