"""Pairing formats: round robin, Swiss (byes, no repeat pairings while avoidable), duplicate.

Entrants are numbers (their registration order). Every function is deterministic: ties are
broken by the order the caller passes (the standings, then a seed-derived key).

* **Round robin** (tables of two): the circle method over a seed-derived order; with an odd
  number of entrants one entrant sits out each round (a bye). ``n - 1`` rounds (``n`` if odd)
  meet everyone exactly once.
* **Swiss**: entrants in standings order; ``n mod table size`` byes go to the entrants with
  the fewest byes so far, the lowest-ranked first (so byes rotate: nobody gets a second bye
  before everyone had one). Tables of two are found by one of two methods, named by the
  tournament (``TournamentCreated.pairing``, :data:`PAIRINGS`):

  - ``matching`` (every tournament created since this method exists): one maximum-weight
    perfect matching (``networkx``, Edmonds' blossom algorithm, integer weights) whose weights
    rank, in this order, the fewest repeat pairings, the earliest allowed choice of byes, then
    the standings order kept as much as possible — the first entrant with the best-ranked
    partner it can have, then the next unpaired one, and so on. It is exact for any number of
    entrants: no repeat while a repeat-free pairing exists for some allowed choice of byes,
    else exactly the fewest repeats.
  - ``search`` (tournaments created before, whose records carry no ``pairing``): a
    depth-first search in the same order, exhaustive up to :data:`SEARCH_BUDGET` steps; when
    it finds no repeat-free pairing, the fewest repeats found greedily are used. Both give the
    same tables whenever a repeat-free pairing exists and the search finds it within its
    budget (property-tested).

  Larger tables are filled greedily in standings order, avoiding entrants who already met
  where possible (both methods).
* **Duplicate**: paired like Swiss; what differs is the seeds (see
  :mod:`domain.tournament.seeds`): every table of a round shares one game seed, seats rotated.

>>> round_robin_round([0, 1, 2, 3], 1)
(((0, 3), (1, 2)), ())
>>> swiss_round([0, 1, 2], {}, {}, 2)
(((0, 1),), (2,))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import networkx as nx

from domain.tournament.errors import TournamentError

#: how tables of two are paired (see the module docstring): the first is the default of a
#: ``TournamentCreated`` that names none (the records made before the second existed).
PAIRINGS = ("search", "matching")
#: steps the repeat-free pairing search may take before settling for fewest repeats.
SEARCH_BUDGET = 200_000

Tables = tuple[tuple[int, ...], ...]


def round_robin_rounds(entrants: int) -> int:
    """Rounds of a full round robin (everyone meets everyone once)."""
    return entrants - 1 if entrants % 2 == 0 else entrants


def round_robin_round(order: Sequence[int], round_number: int) -> tuple[Tables, tuple[int, ...]]:
    """Tables of two and byes of round ``round_number`` (1-based) of the circle method."""
    slots: list[int | None] = list(order)
    if len(slots) % 2:
        slots.append(None)
    n = len(slots)
    if not 1 <= round_number <= n - 1:
        raise TournamentError(
            "ROUND_ROBIN_TOO_MANY_ROUNDS",
            f"a round robin of {len(order)} entrants has {n - 1} rounds, not {round_number}",
        )
    shift = round_number - 1
    rest = slots[1:]
    rest = rest[len(rest) - shift :] + rest[: len(rest) - shift] if shift else rest
    circle = [slots[0], *rest]
    tables: list[tuple[int, ...]] = []
    byes: list[int] = []
    for i in range(n // 2):
        a, b = circle[i], circle[n - 1 - i]
        if a is None or b is None:
            byes.append(b if a is None else a)  # type: ignore[arg-type]
        else:
            tables.append((a, b))
    return tuple(tables), tuple(byes)


def _pair_without_repeats(
    ranked: Sequence[int], met: Mapping[int, frozenset[int]], budget: list[int]
) -> list[tuple[int, int]] | None:
    if not ranked:
        return []
    first, rest = ranked[0], ranked[1:]
    seen = met.get(first, frozenset())
    for index, partner in enumerate(rest):
        budget[0] -= 1
        if budget[0] < 0:
            return None
        if partner in seen:
            continue
        tail = _pair_without_repeats([*rest[:index], *rest[index + 1 :]], met, budget)
        if tail is not None:
            return [(first, partner), *tail]
    return None


def _pair_greedily(
    ranked: Sequence[int], met: Mapping[int, frozenset[int]]
) -> list[tuple[int, int]]:
    left = list(ranked)
    pairs: list[tuple[int, int]] = []
    while left:
        first = left.pop(0)
        seen = met.get(first, frozenset())
        index = next((i for i, p in enumerate(left) if p not in seen), 0)
        pairs.append((first, left.pop(index)))
    return pairs


def _groups_greedily(
    ranked: Sequence[int], met: Mapping[int, frozenset[int]], size: int
) -> list[tuple[int, ...]]:
    left = list(ranked)
    groups: list[tuple[int, ...]] = []
    while left:
        group = [left.pop(0)]
        while len(group) < size:
            index = next(
                (
                    i
                    for i, p in enumerate(left)
                    if not any(p in met.get(q, frozenset()) for q in group)
                ),
                0,
            )
            group.append(left.pop(index))
        groups.append(tuple(group))
    return groups


def bye_candidates(ranked: Sequence[int], byes_so_far: Mapping[int, int]) -> list[int]:
    """Entrants who may get a bye, in preference order: fewest byes, then lowest ranked."""
    fewest = min(byes_so_far.get(e, 0) for e in ranked)
    return [e for e in reversed(ranked) if byes_so_far.get(e, 0) == fewest]


def swiss_round(
    ranked: Sequence[int],
    met: Mapping[int, frozenset[int]],
    byes_so_far: Mapping[int, int],
    table_size: int,
    method: str = "matching",
) -> tuple[Tables, tuple[int, ...]]:
    """One Swiss round: ``ranked`` in standings order, ``met[e]`` = opponents so far;
    ``method``: how tables of two are paired (:data:`PAIRINGS`)."""
    if method not in PAIRINGS:
        raise TournamentError("UNKNOWN_FORMAT", f"pairing {method!r} is not one of {PAIRINGS}")
    if len(ranked) < table_size:
        raise TournamentError(
            "TOO_FEW_ENTRANTS", f"{len(ranked)} entrants cannot fill a table of {table_size}"
        )
    bye_count = len(ranked) % table_size
    choices: list[tuple[int, ...]] = [()]
    if bye_count:
        candidates = bye_candidates(ranked, byes_so_far)
        if len(candidates) >= bye_count:
            choices = [
                tuple(candidates[i : i + bye_count]) for i in range(len(candidates) - bye_count + 1)
            ]
        else:  # everyone with the fewest byes sits out, the rest by the same rule
            remaining = [e for e in reversed(ranked) if e not in candidates]
            more = sorted(remaining, key=lambda e: byes_so_far.get(e, 0))
            choices = [tuple([*candidates, *more][:bye_count])]
    if table_size == 2 and method == "matching":
        return _pair_by_matching(ranked, met, choices)
    if table_size == 2:
        budget = [SEARCH_BUDGET]
        for byes in choices:
            players = [e for e in ranked if e not in byes]
            pairs = _pair_without_repeats(players, met, budget)
            if pairs is not None:
                return tuple(pairs), tuple(sorted(byes))
            if budget[0] < 0:
                break
        byes = choices[0]
        players = [e for e in ranked if e not in byes]
        return tuple(_pair_greedily(players, met)), tuple(sorted(byes))
    byes = choices[0]
    players = [e for e in ranked if e not in byes]
    return tuple(_groups_greedily(players, met, table_size)), tuple(sorted(byes))


def _pair_by_matching(
    ranked: Sequence[int], met: Mapping[int, frozenset[int]], choices: Sequence[tuple[int, ...]]
) -> tuple[Tables, tuple[int, ...]]:
    """Tables of two and the bye (one of ``choices``, each of at most one entrant) from one
    maximum-weight perfect matching over the ranks ``0 .. n-1`` of ``ranked``.

    The weight of a pairing is a number in base ``n``: entrant ``x``'s digit, of weight
    ``n ** (n - 1 - x)``, is ``n - 1 - partner(x)``, so a heavier pairing is one where the
    best-ranked entrant whose partner differs has a better-ranked partner. A bye edge (to a
    dummy node) adds the choice's preference above every such sum, and each non-repeat edge
    adds more than all the rest together: the heaviest perfect matching has the fewest
    repeats, then the earliest bye choice, then the standings order. Weights are integers, so
    the algorithm computes exactly; the heaviest matching is unique (no two pairings weigh the
    same), so the tables do not depend on the order the algorithm looks at edges.
    """
    n = len(ranked)
    lex_bound = n**n  # above any sum of the standings digits
    no_repeat = n ** (n + 2)  # above any sum of the standings digits and a bye's preference
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(range(n))
    for i in range(n):
        seen = met.get(ranked[i], frozenset())
        for j in range(i + 1, n):
            order = n ** (n - 1 - i) * (n - 1 - j) + n ** (n - 1 - j) * (n - 1 - i)
            graph.add_edge(i, j, weight=order + (0 if ranked[j] in seen else no_repeat))
    dummy = n
    position = {entrant: index for index, entrant in enumerate(ranked)}
    byes_possible = [choice for choice in choices if choice]
    for preference, choice in enumerate(byes_possible):
        (entrant,) = choice
        bonus = (len(byes_possible) - preference) * lex_bound
        graph.add_edge(position[entrant], dummy, weight=no_repeat + bonus)
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    partner: dict[int, int] = {}
    for a, b in matched:
        partner[a], partner[b] = b, a
    byes = (ranked[partner[dummy]],) if dummy in partner else ()
    tables: list[tuple[int, ...]] = []
    paired: set[int] = {dummy}
    for index in range(n):
        if index not in paired and partner.get(index, dummy) != dummy:
            paired.update((index, partner[index]))
            tables.append((ranked[index], ranked[partner[index]]))
    return tuple(tables), byes
