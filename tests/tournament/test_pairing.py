"""Pairing and standings properties (pure, hypothesis with a fixed seed and budget).

* Swiss: every entrant plays or has a bye once per round; byes rotate (a bye always goes
  to an entrant with the fewest byes); no repeat pairing while one is avoidable (checked
  against an exhaustive search over every allowed bye choice).
* Round robin: everyone meets everyone exactly once; with an odd count, one bye each.
* Standings: totals consistent (every game hands out ``k(k−1)`` points, a bye ``2(k−1)``),
  ranks follow the documented tiebreaks.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.tournament import engine, pairing
from domain.tournament.errors import TournamentError
from domain.tournament.standings import bye_points, game_points

BUDGET = settings(max_examples=120, derandomize=True, deadline=None)


def _repeat_free_exists(players: Sequence[int], met: dict[int, frozenset[int]]) -> bool:
    if not players:
        return True
    first, rest = players[0], list(players[1:])
    return any(
        p not in met[first] and _repeat_free_exists(rest[:i] + rest[i + 1 :], met)
        for i, p in enumerate(rest)
    )


@pytest.mark.parametrize("method", pairing.PAIRINGS)
@BUDGET
@given(
    n=st.integers(2, 10),
    data=st.data(),
)
def test_swiss_byes_rotate_and_no_avoidable_repeats(
    method: str, n: int, data: st.DataObject
) -> None:
    """Swiss over n−1 rounds with random standings orders between rounds (each method)."""
    met: dict[int, frozenset[int]] = {e: frozenset() for e in range(n)}
    byes: dict[int, int] = dict.fromkeys(range(n), 0)
    for _ in range(n - 1):
        ranked = data.draw(st.permutations(range(n)))
        tables, round_byes = pairing.swiss_round(ranked, met, byes, 2, method)
        seated = sorted([e for t in tables for e in t] + list(round_byes))
        assert seated == list(range(n))
        assert len(round_byes) == n % 2
        fewest = min(byes.values())
        for entrant in round_byes:
            assert byes[entrant] == fewest, "a bye went to someone with more byes"
        repeats = [t for t in tables if t[1] in met[t[0]]]
        if repeats:
            choices = pairing.bye_candidates(ranked, byes) if n % 2 else [None]
            for bye in choices:
                players = [e for e in ranked if e != bye]
                assert not _repeat_free_exists(players, met), f"repeat {repeats} was avoidable"
        for a, b in tables:
            met[a] = met[a] | {b}
            met[b] = met[b] | {a}
        for entrant in round_byes:
            byes[entrant] += 1
    if n % 2:
        assert max(byes.values()) - min(byes.values()) <= 1


@BUDGET
@given(n=st.integers(2, 12), order_seed=st.permutations(range(12)))
def test_round_robin_meets_everyone_once(n: int, order_seed: list[int]) -> None:
    """Circle method: each pair exactly once; odd counts give one bye each."""
    order = [e for e in order_seed if e < n]
    pairs: list[tuple[int, int]] = []
    byes: list[int] = []
    for r in range(1, pairing.round_robin_rounds(n) + 1):
        tables, round_byes = pairing.round_robin_round(order, r)
        seated = sorted([e for t in tables for e in t] + list(round_byes))
        assert seated == sorted(order)
        pairs.extend(tuple(sorted(t)) for t in tables)  # type: ignore[misc]
        byes.extend(round_byes)
    expected = [(a, b) for a in range(n) for b in range(a + 1, n)]
    assert sorted(pairs) == expected
    assert sorted(byes) == (list(range(n)) if n % 2 else [])


def test_round_robin_refuses_an_extra_round() -> None:
    """A round beyond the full schedule is a typed error naming the rule."""
    try:
        pairing.round_robin_round([0, 1, 2, 3], 4)
    except TournamentError as error:
        assert error.code == "ROUND_ROBIN_TOO_MANY_ROUNDS"
    else:
        raise AssertionError("expected a TournamentError")


@BUDGET
@given(
    n=st.integers(2, 9),
    size=st.integers(2, 3),
    fmt=st.sampled_from(["swiss", "duplicate", "round_robin"]),
    data=st.data(),
)
def test_standings_totals_consistent(n: int, size: int, fmt: str, data: st.DataObject) -> None:
    """A whole tournament through the pure engine with drawn game results."""
    if fmt == "round_robin":
        size = 2
    if n < size:
        n = size
    state = engine.TournamentState()
    most = pairing.round_robin_rounds(n) if fmt == "round_robin" else 3
    master = b"property"
    engine.create(
        state,
        tournament_id="tournament-p",
        name="p",
        game_type="any",
        options={},
        format=fmt,
        rounds=data.draw(st.integers(0, min(3, most))),
        table_size=size,
        master_seed=master,
    )
    for i in range(n):
        engine.register(state, f"e{i}", "bot", "random")
    engine.start(state, master)
    while state.ended is None:
        for game in state.round_games(state.current_round):
            if game.game_id in state.results:
                continue
            scores = tuple(data.draw(st.lists(st.integers(0, 5), min_size=size, max_size=size)))
            best = max(scores)
            winners = tuple(i for i, s in enumerate(scores) if s == best)
            engine.record_result(state, master, game.game_id, scores, winners, 10, "h")
            if state.ended is not None:
                break
    rows = state.ended.standings
    games = len(state.results)
    byes = sum(len(p.byes) for p in state.pairings.values())
    assert sum(r.points for r in rows) == games * size * (size - 1) + byes * bye_points(size)
    assert [r.rank for r in rows] == list(range(1, n + 1))
    assert sorted(r.entrant for r in rows) == list(range(n))
    for row in rows:
        assert row.games + row.byes == state.rounds
    keys = [(-r.points, -r.score, -r.buchholz, r.lot) for r in rows]
    assert keys == sorted(keys)
    assert sum(r.score for r in rows) == sum(sum(res.scores) for res in state.results.values())


def test_game_points_examples() -> None:
    """Win 2 / draw 1 / loss 0 against each other seat; the game's winners decide ties."""
    assert game_points((5, 7), (1,)) == (0, 2)
    assert game_points((7, 7), (0, 1)) == (1, 1)
    assert game_points((7, 7), (0,)) == (2, 0)  # the game's own tiebreak chose seat 0
    assert game_points((9, 4, 4), (0,)) == (4, 1, 1)
