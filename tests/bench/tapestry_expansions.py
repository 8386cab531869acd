"""``make bench`` — Tapestry with its expansion boxes, engine only.

A complete 4-player seeded game (``tapestry/2``, random players, the setup's choices
included) timed in the engine alone — ``decide`` + ``evolve`` of every command, no storage —
for the base game, each box alone (Plans & Ploys, Arts & Architecture, Fantasies & Futures)
and the three boxes together, on the same seeds in the same run, printed side by side: the
median engine time per game, its ratio to the base game, and the median commands and events
per game. The configurations take turns game by game and the time is the process's CPU time
(``time.process_time``), so that a machine shared with other work skews them alike. Nothing is
asserted.
"""

from __future__ import annotations

import statistics
import time

from domain.core import Chance
from domain.tapestry.game import TapestryGame2
from domain.tapestry.state import EXPANSIONS

#: seeded games timed per configuration (the median is printed).
GAMES = 5
SEATS = 4
#: (label, boxes in play), printed in this order.
CONFIGURATIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("base", ()),
    ("PP", ("plans_and_ploys",)),
    ("AA", ("arts_and_architecture",)),
    ("FF", ("fantasies_and_futures",)),
    ("PP+AA+FF", EXPANSIONS),
)


def play(boxes: tuple[str, ...], seed: int) -> tuple[float, int, int]:
    """One complete game: engine seconds, commands decided, events."""
    game = TapestryGame2()
    game_seed = f"expansion-bench-{seed}".encode()
    players = Chance(f"expansion-bench-players-{seed}".encode(), 0)
    state = game.initial(game.decode_options({"expansions": list(boxes)}), SEATS)
    t0 = time.process_time()
    log = list(game.setup(state, Chance(game_seed, 0)))
    for event in log:
        game.evolve(state, event)
    engine = time.process_time() - t0
    commands = 0
    while not game.is_over(state):
        seat = game.pending(state).seats[0]
        command = players.choice(game.legal_actions(state, seat))
        t1 = time.process_time()
        events = game.decide(state, seat, command, Chance(game_seed, len(log)))
        for event in events:
            game.evolve(state, event)
        engine += time.process_time() - t1
        log.extend(events)
        commands += 1
    return engine, commands, len(log)


def main() -> None:
    """Print the engine time of a complete game per configuration, side by side."""
    results: dict[str, list[tuple[float, int, int]]] = {label: [] for label, _ in CONFIGURATIONS}
    for seed in range(GAMES):  # round robin: each configuration meets the same load
        for label, boxes in CONFIGURATIONS:
            results[label].append(play(boxes, seed))
    rows: list[tuple[str, float, float, float]] = []
    for label, _ in CONFIGURATIONS:
        runs = results[label]
        rows.append(
            (
                label,
                statistics.median(r[0] for r in runs),
                statistics.median(r[1] for r in runs),
                statistics.median(r[2] for r in runs),
            )
        )
    base = rows[0][1]
    print(
        f"{SEATS}-player game, median of {GAMES} seeded games (random players), engine only, "
        "CPU time:"
    )
    print("  " + " | ".join(f"{label:>9}" for label, *_ in rows))
    print("  " + " | ".join(f"{seconds * 1000:7.0f}ms" for _, seconds, _, _ in rows) + "  time")
    print("  " + " | ".join(f"{seconds / base:8.2f}x" for _, seconds, _, _ in rows) + "  vs base")
    print("  " + " | ".join(f"{cmds:9.0f}" for _, _, cmds, _ in rows) + "  commands")
    print("  " + " | ".join(f"{s * 1e6 / c:7.0f}us" for _, s, c, _ in rows) + "  per command")
    print("  " + " | ".join(f"{events:9.0f}" for _, _, _, events in rows) + "  events")


if __name__ == "__main__":
    main()
