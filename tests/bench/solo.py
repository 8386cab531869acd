"""Imperium solo against the C.I.V. (no storage): engine time per human decision, the
C.I.V.'s turn included when the decision ends the human's turn (median and p99, as a ratio
to one raw msgpack encode+decode of the state measured in the same run), and the greedy
human's win rate per level (printed, never asserted).

Run: ``.venv/bin/python -m tests.bench.solo [games per level] [ruleset]`` (default: the
newest Imperium ruleset).
"""

from __future__ import annotations

import statistics
import sys
import time

import msgspec

from domain.bots import GreedyBot
from domain.core import Chance
from domain.imperium import content as C
from domain.imperium.civ.content import LEVELS
from domain.imperium.game import ImperiumGame
from domain.imperium.state import ImperiumState
from domain.registry import GAMES, get_ruleset


def _game(game: ImperiumGame, level: str, index: int) -> tuple[list[float], bool, float]:
    human = C.ALL_NATIONS[index % 16]
    civ = C.ALL_NATIONS[(index + 5) % 16]
    state = game.initial({"nations": [human], "civ_nation": civ, "difficulty": level}, 1)
    for event in game.setup(state, Chance(b"bench%d" % index, 0)):
        state = game.evolve(state, event)
    bot = GreedyBot(b"bench%d" % index)
    times: list[float] = []
    count = 0
    raw = 0.0
    while not game.is_over(state):
        command = bot.choose(game, state, 0)
        start = time.perf_counter()
        events = game.decide(state, 0, command, Chance(b"bench%d" % index, count + 1))
        for event in events:
            state = game.evolve(state, event)
        times.append(time.perf_counter() - start)
        count += 1
        if count % 50 == 1:
            t0 = time.perf_counter()
            msgspec.msgpack.decode(msgspec.msgpack.encode(state), type=ImperiumState)
            raw = time.perf_counter() - t0
    return times, bool(state.winners), raw


def main(per_level: int = 6, ruleset: str = "") -> None:
    """Print the timings and win rates under ``ruleset`` (default: the newest)."""
    game = get_ruleset(ruleset) if ruleset else GAMES["imperium"]
    assert isinstance(game, ImperiumGame)
    print(f"solo bench under {game.ruleset_version}, {per_level} games per level")
    every: list[float] = []
    raws: list[float] = []
    for level in LEVELS:
        wins = 0
        for index in range(per_level):
            times, won, raw = _game(game, level, index)
            every.extend(times)
            raws.append(raw)
            wins += won
        print(
            f"solo {level:<10} greedy human wins {wins}/{per_level} ({100 * wins / per_level:.0f}%)"
        )
    every.sort()
    median = statistics.median(every)
    p99 = every[min(len(every) - 1, int(0.99 * len(every)))]
    raw = statistics.median(raws)
    print(f"solo decision (C.I.V. turn included): median {median * 1000:.2f} ms, "
          f"p99 {p99 * 1000:.2f} ms over {len(every)} decisions; "
          f"= {median / raw:.1f}x / {p99 / raw:.1f}x one state msgpack round trip")  # fmt: skip


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 6, sys.argv[2] if len(sys.argv) > 2 else "")
