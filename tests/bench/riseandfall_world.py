"""Rise & Fall world building: ``legal_actions`` per decision on hexes (``riseandfall/2``)
against the square world (``riseandfall/1``) in the same run.

Seeded games with the seats building the world (option ``world="players"``, random bots):
every world-building decision's ``legal_actions`` is timed cold (the minimum-moves and
relocation-search caches emptied first), giving the median and p99 per decision and, over
every decision whose tiles could only be laid by moving plains, the slowest relocation search.
A constructed case (two rows of sea hexes where a plain fits only after moving two) times the
exact search on its own. Each line ends with the ratio ``riseandfall/2`` / ``riseandfall/1``.
Last, seeded hex worlds packed with plains until one fits nowhere
(:mod:`tests.riseandfall.packed_worlds`) time the engine's pruned relocation search against
the exhaustive one it replaced (:mod:`tests.riseandfall.unpruned_relocation`), minimum and
legal actions together.

Run alone: ``python -m tests.bench.riseandfall_world [GAMES]`` (default 20 games per player
count; the issue's figure is over 500). Nothing is asserted.
"""

from __future__ import annotations

import statistics
import sys
import time

from domain.bots import RandomBot
from domain.core import Chance
from domain.registry import get_ruleset
from domain.riseandfall.relocation import _CASCADES, _MIN_CACHE
from domain.riseandfall.worldbuild import legal_placements, minimum_moves

GAMES = 20


def _world_decisions(ruleset: str, seats: int, games: int) -> tuple[list[float], float, int]:
    """Cold ``legal_actions`` times (s) of every world decision, the slowest one that had to
    move plains, and how many decisions moved plains."""
    game = get_ruleset(ruleset)
    times: list[float] = []
    worst_relocation = 0.0
    relocations = 0
    for seed in range(games):
        state = game.initial(game.decode_options({"world": "players"}), seats)
        for event in game.setup(state, Chance(b"bench-world-%d" % seed, 0)):
            state = game.evolve(state, event)
        bot = RandomBot(b"bench-bot-%d" % seed)
        step = 0
        while state.phase == "world":
            seat = state.actor
            _MIN_CACHE.clear()
            _CASCADES.clear()
            start = time.perf_counter()
            actions = game.legal_actions(state, seat)
            spent = time.perf_counter() - start
            times.append(spent)
            command = bot.choose(game, state, seat)
            if command.placement.moves:  # type: ignore[attr-defined]
                relocations += 1
                worst_relocation = max(worst_relocation, spent)
            assert actions
            step += 1
            for event in game.decide(state, seat, command, Chance(b"bench-d-%d" % seed, step)):
                state = game.evolve(state, event)
    return times, worst_relocation, relocations


def _constructed_search() -> float:
    """Seconds of the exact search on two rows of 9 sea hexes holding plains at q 1-3 and
    5-7: the next plain fits only after moving both (minimum 2)."""
    from tests.riseandfall.test_hexplains import strip_world

    world = strip_world(9, [1, 5])
    _MIN_CACHE.clear()
    _CASCADES.clear()
    start = time.perf_counter()
    assert minimum_moves(world, 1, None) == 2
    legal_placements(world, "plain", 1, None)
    return time.perf_counter() - start


#: (seed, sea cells, tight packing) of the packed worlds timed (minimum 1 to 4 moves, or none).
PACKED = [(seed, size, False) for seed in range(6) for size in (40, 56, 90)] + [
    (seed, size, True) for seed in range(2) for size in (48, 90)
]


def _packed_searches() -> list[tuple[str, float, float]]:
    """Per packed world: its label, then seconds of the pruned and of the exhaustive search."""
    from tests.riseandfall.packed_worlds import packed_world
    from tests.riseandfall.unpruned_relocation import unpruned_minimum_moves, unpruned_relocations

    rows = []
    for seed, size, tight in PACKED:
        world, shape = packed_world(seed, size, tight)
        _MIN_CACHE.clear()
        _CASCADES.clear()
        start = time.perf_counter()
        needed = minimum_moves(world, shape, None)
        legal_placements(world, "plain", shape, None)
        pruned = time.perf_counter() - start
        start = time.perf_counter()
        assert unpruned_minimum_moves(world, shape, None) == needed
        unpruned_relocations(world, shape, None)
        exhaustive = time.perf_counter() - start
        label = f"seed {seed}, {size} sea cells{', tight' if tight else ''}: minimum {needed}"
        rows.append((label, pruned, exhaustive))
    return rows


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def main(games: int = GAMES) -> None:
    """Print the figures for 2, 3 and 4 seats, both rulesets."""
    for seats in (2, 3, 4):
        rows = {}
        for ruleset in ("riseandfall/1", "riseandfall/2"):
            rows[ruleset] = _world_decisions(ruleset, seats, games)
        square, hexes = rows["riseandfall/1"], rows["riseandfall/2"]
        for label, pick in (
            ("median", lambda t: statistics.median(t[0])),
            ("p99", lambda t: _p99(t[0])),
        ):
            a, b = pick(square), pick(hexes)
            print(
                f"{seats}p world legal_actions {label}: square {a * 1e3:.2f} ms | "
                f"hex {b * 1e3:.2f} ms | ratio hex/square {b / a:.2f}"
            )
        print(
            f"{seats}p plain relocations over {games} games: square {square[2]} decisions, "
            f"slowest {square[1] * 1e3:.1f} ms | hex {hexes[2]} decisions, slowest "
            f"{hexes[1] * 1e3:.1f} ms"
        )
    print(f"constructed 2-move relocation search on hexes: {_constructed_search() * 1e3:.1f} ms")
    rows = _packed_searches()
    for label, pruned, exhaustive in rows:
        print(
            f"packed world {label}: pruned {pruned * 1e3:.1f} ms | exhaustive "
            f"{exhaustive * 1e3:.1f} ms | ratio {pruned / exhaustive:.2f}"
        )
    total_pruned = sum(r[1] for r in rows)
    total_exhaustive = sum(r[2] for r in rows)
    print(
        f"packed worlds, {len(rows)} searches: pruned {total_pruned:.2f} s | exhaustive "
        f"{total_exhaustive:.2f} s | worst pruned {max(r[1] for r in rows) * 1e3:.0f} ms, "
        f"worst exhaustive {max(r[2] for r in rows) * 1e3:.0f} ms"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else GAMES)
