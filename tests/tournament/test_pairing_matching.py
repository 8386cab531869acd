"""Swiss tables of two by maximum-weight matching (``pairing="matching"``, every new
tournament) against the depth-first search of the tournaments created before it.

* Whenever a repeat-free pairing exists for an allowed bye, both methods give the same tables
  and bye (the matching encodes the search's order exactly), so the search's records and the
  matching's agree wherever the search was exact.
* When every pairing repeats, the matching has exactly the fewest repeats (checked against an
  exhaustive enumeration), where the search settles for a greedy pairing.
* Where the search runs out of its step budget, the matching still finds the repeat-free
  pairing.
* A ``TournamentCreated`` written before the field existed reads as ``"search"`` and encodes
  to the same bytes; a record made that way still verifies, and new ones say ``"matching"``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.tournament import pairing
from domain.tournament.errors import TournamentError
from domain.tournament.events import TournamentCreated, decode_event, encode_event
from service.tournaments.record import verify_tournament
from tests.tournament.helpers import BotRun, fast_dir, run_bot_tournament

BUDGET = settings(max_examples=300, derandomize=True, deadline=None)
Met = dict[int, frozenset[int]]


@st.composite
def rounds(draw: st.DrawFn) -> tuple[list[int], Met, dict[int, int]]:
    """A standings order, who met whom (sparse to dense) and the byes so far."""
    n = draw(st.integers(2, 11))
    ranked = draw(st.permutations(range(n)))
    density = draw(st.sampled_from([0.0, 0.2, 0.5, 0.8, 1.0]))
    met: dict[int, set[int]] = {e: set() for e in range(n)}
    for a in range(n):
        for b in range(a + 1, n):
            if draw(st.floats(0, 1)) < density:
                met[a].add(b)
                met[b].add(a)
    byes = {e: draw(st.integers(0, 2)) for e in range(n)}
    return list(ranked), {e: frozenset(m) for e, m in met.items()}, byes


def _repeats(tables: Sequence[tuple[int, ...]], met: Met) -> int:
    return sum(1 for a, b in tables if b in met[a])


def _fewest_repeats(players: list[int], met: Met) -> int:
    """The fewest repeats of any pairing of ``players`` (exhaustive)."""
    if not players:
        return 0
    first, rest = players[0], players[1:]
    return min(
        (partner in met[first]) + _fewest_repeats(rest[:i] + rest[i + 1 :], met)
        for i, partner in enumerate(rest)
    )


@BUDGET
@given(case=rounds())
def test_matching_is_the_search_wherever_a_repeat_free_pairing_exists(
    case: tuple[list[int], Met, dict[int, int]],
) -> None:
    """Same tables, same bye, whenever the search found a repeat-free pairing."""
    ranked, met, byes = case
    searched = pairing.swiss_round(ranked, met, byes, 2, "search")
    matched = pairing.swiss_round(ranked, met, byes, 2, "matching")
    if _repeats(searched[0], met) == 0:
        assert matched == searched
    seated = sorted([e for t in matched[0] for e in t] + list(matched[1]))
    assert seated == sorted(ranked)


@BUDGET
@given(case=rounds())
def test_matching_has_the_fewest_repeats_over_every_allowed_bye(
    case: tuple[list[int], Met, dict[int, int]],
) -> None:
    """Exactly the fewest repeats any allowed bye and pairing can have; the bye (odd counts)
    goes to an entrant with the fewest byes."""
    ranked, met, byes = case
    tables, bye = pairing.swiss_round(ranked, met, byes, 2, "matching")
    allowed = pairing.bye_candidates(ranked, byes) if len(ranked) % 2 else [None]
    best = min(_fewest_repeats([e for e in ranked if e != out], met) for out in allowed)
    assert _repeats(tables, met) == best
    assert list(bye) in ([[e] for e in allowed if e is not None] or [[]])


def test_matching_finds_what_the_search_gives_up_on() -> None:
    """24 entrants; the last has met everyone but the leader. The search pairs the leader
    with the second, then spends its budget on the rest before settling for a repeat; the
    matching pairs the leader with the last and keeps every other table in order."""
    n = 24
    met: Met = {e: frozenset({n - 1}) for e in range(1, n - 1)}
    met[0] = frozenset()
    met[n - 1] = frozenset(range(1, n - 1))
    ranked = list(range(n))
    searched, _ = pairing.swiss_round(ranked, met, {}, 2, "search")
    matched, _ = pairing.swiss_round(ranked, met, {}, 2, "matching")
    assert _repeats(searched, met) == 1
    assert matched == ((0, n - 1), *((i, i + 1) for i in range(1, n - 1, 2)))


def test_an_unknown_pairing_method_is_a_typed_error() -> None:
    """A method outside ``PAIRINGS`` is refused, naming it."""
    with pytest.raises(TournamentError) as raised:
        pairing.swiss_round([0, 1], {}, {}, 2, "hungarian")
    assert raised.value.code == "UNKNOWN_FORMAT" and "hungarian" in str(raised.value)


def test_a_created_event_without_pairing_reads_as_search_and_keeps_its_bytes() -> None:
    """An event written before ``pairing`` existed: same bytes after decoding and encoding."""
    fields = {
        "type": "TournamentCreated",
        "tournament_id": "tournament-old",
        "name": "old",
        "game_type": "tapestry",
        "options": {},
        "format": "swiss",
        "rounds": 2,
        "table_size": 2,
        "seed_commitment": "00" * 32,
    }
    old_payload = msgspec.msgpack.encode(fields)
    event = decode_event("TournamentCreated", old_payload)
    assert isinstance(event, TournamentCreated) and event.pairing == "search"
    assert encode_event(event) == ("TournamentCreated", old_payload)


@pytest.fixture(scope="module", params=pairing.PAIRINGS)
def made(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, BotRun]]:
    """A finished 5-entrant Swiss tournament (Rise & Fall, random bots) with each method."""
    method = str(request.param)
    with fast_dir(tmp_path_factory.mktemp(f"pairing-{method}")) as base:
        run = run_bot_tournament(
            base / "t.db",
            game="riseandfall",
            format="swiss",
            entrants=5,
            rounds=3,
            master_seed=b"pairing-methods",
            pairing_method=method,
        )
        yield method, run
        run.close()


def test_records_of_either_method_verify(made: tuple[str, BotRun]) -> None:
    """A record made with the search (as every record before) or the matching verifies; only
    the matching's names its method."""
    method, run = made
    created = next(
        msgspec.json.decode(line)["event"]
        for line in run.lines
        if b'"tournament_event"' in line and b"TournamentCreated" in line
    )
    assert created.get("pairing") == (None if method == "search" else "matching")
    report = verify_tournament(run.lines)
    assert report.ok, report.problems
