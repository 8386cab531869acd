"""Match points and standings with documented tiebreaks.

**Match points of a game**: each seat meets every other seat of its table; a seat ranked
ahead gets 2 points from that pairing, a tie 1 each, behind 0. A seat's rank key is
``(is a winner, score)`` — the game's own tiebreaks decide ``winners`` (``Game.outcome``).
With tables of two this is the usual win 2 / draw 1 / loss 0. A **bye** is worth a win
against every seat of a table (``2 × (table size − 1)``) and a score of 0.

**Standings order** (highest first):

1. match points;
2. total game score (sum of the entrant's scores in its games);
3. Buchholz: the sum of the current match points of every opponent met (once per game met);
4. the entrant's lot, ``HMAC(master seed, "lot/{tid}/{entrant}")`` — lower first.

Every game distributes ``k × (k − 1)`` points (``k`` seats), so the points of all entrants add
up to ``Σ games k(k−1) + byes × 2(k−1)`` — a property the tests check.

>>> game_points((10, 10, 3), (0, 1))
(3, 3, 0)
>>> game_points((5, 7), (1,))
(0, 2)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from domain.tournament.events import StandingRow


def game_points(scores: Sequence[int], winners: Sequence[int]) -> tuple[int, ...]:
    """Match points of each seat of a finished game (see the module docstring)."""
    keys = [(seat in winners, score) for seat, score in enumerate(scores)]
    points: list[int] = []
    for me, mine in enumerate(keys):
        total = 0
        for other, theirs in enumerate(keys):
            if other == me:
                continue
            total += 2 if mine > theirs else 1 if mine == theirs else 0
        points.append(total)
    return tuple(points)


def bye_points(table_size: int) -> int:
    """Match points of a bye."""
    return 2 * (table_size - 1)


@dataclass(frozen=True)
class Played:
    """One finished game from the standings' point of view: entrants by seat, points, scores."""

    entrants: tuple[int, ...]
    points: tuple[int, ...]
    scores: tuple[int, ...]


def standings(
    names: Sequence[str],
    games: Sequence[Played],
    byes: Sequence[int],
    table_size: int,
    lot: Callable[[int], int],
) -> tuple[StandingRow, ...]:
    """The standings of ``names`` (entrant ``i`` is ``names[i]``) after ``games`` and ``byes``."""
    count = len(names)
    points = [0] * count
    score = [0] * count
    wins = [0] * count
    played = [0] * count
    bye_count = [0] * count
    opponents: list[list[int]] = [[] for _ in range(count)]
    for game in games:
        best = max(game.points)
        for seat, entrant in enumerate(game.entrants):
            points[entrant] += game.points[seat]
            score[entrant] += game.scores[seat]
            played[entrant] += 1
            if game.points[seat] == best and game.points.count(best) == 1:
                wins[entrant] += 1
            opponents[entrant].extend(e for e in game.entrants if e != entrant)
    for entrant in byes:
        points[entrant] += bye_points(table_size)
        bye_count[entrant] += 1
    buchholz = [sum(points[o] for o in opponents[e]) for e in range(count)]
    lots = [lot(e) for e in range(count)]
    order = sorted(range(count), key=lambda e: (-points[e], -score[e], -buchholz[e], lots[e], e))
    return tuple(
        StandingRow(
            rank=rank,
            entrant=e,
            name=names[e],
            points=points[e],
            score=score[e],
            buchholz=buchholz[e],
            wins=wins[e],
            games=played[e],
            byes=bye_count[e],
            lot=lots[e],
        )
        for rank, e in enumerate(order, start=1)
    )
