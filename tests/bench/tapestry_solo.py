"""``make bench`` — solo Tapestry (the Automa and the Shadow Empire), engine only.

* engine time per human decision, the bots' turns included (``decide`` + ``evolve`` of every
  command of the one seat: the bots play inside those commands), median and p99, against a raw
  msgpack round trip of the state measured on the same decisions (what ``decide`` pays once
  to work on a private copy);
* a complete solo game (random human): median engine time, decisions and events per game,
  against raw msgpack decoding of its events;
* the win rate of the project's Tapestry bot against the Automa at each level (a balance
  figure, printed, never asserted).
"""

from __future__ import annotations

import statistics
import time

import msgspec

from domain.bots import make_bot
from domain.core import Chance
from domain.tapestry.game import TapestryGame
from domain.tapestry.state import TapestryState

#: random-human solo games timed per level.
GAMES = 6
#: games of the Tapestry bot against the Automa per level (win rate).
BOT_GAMES = 8


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _game(
    game: TapestryGame, level: int, seed: int, bot: str
) -> tuple[TapestryState, list[float], list[float], list[bytes], float]:
    """One solo game: per-decision engine times, state round trips, event payloads, total."""
    game_seed = f"solo-bench-{level}-{seed}".encode()
    state = game.initial(game.decode_options({"automa_level": level}), 1)
    t0 = time.perf_counter()
    events = game.setup(state, Chance(game_seed, 0))
    for event in events:
        game.evolve(state, event)
    total = time.perf_counter() - t0
    player = make_bot(bot, f"{bot}-{seed}".encode())
    payloads = [msgspec.msgpack.encode(e) for e in events]
    per_decision: list[float] = []
    trips: list[float] = []
    version = len(events)
    while not game.is_over(state):
        command = player.choose(game, state, 0)
        t1 = time.perf_counter()
        new = game.decide(state, 0, command, Chance(game_seed, version))
        for event in new:
            game.evolve(state, event)
        t2 = time.perf_counter()
        msgspec.msgpack.decode(msgspec.msgpack.encode(state), type=TapestryState)
        t3 = time.perf_counter()
        per_decision.append(t2 - t1)
        trips.append(t3 - t2)
        total += t2 - t1
        version += len(new)
        payloads.extend(msgspec.msgpack.encode(e) for e in new)
    return state, per_decision, trips, payloads, total


def main() -> None:
    """Print the solo benchmarks."""
    game = TapestryGame()
    decisions: list[float] = []
    trips: list[float] = []
    totals: list[float] = []
    counts: list[int] = []
    events: list[int] = []
    payloads: list[bytes] = []
    for level in (1, 2, 3, 4, 5, 6):
        for seed in range(GAMES):
            _, per, trip, blobs, total = _game(game, level, seed, "random")
            decisions += per
            trips += trip
            totals.append(total)
            counts.append(len(per))
            events.append(len(blobs))
            payloads += blobs
    decoder = msgspec.msgpack.Decoder(game.event_type)
    start = time.perf_counter()
    for blob in payloads:
        decoder.decode(blob)
    raw_per_game = (time.perf_counter() - start) / len(totals)
    trip = statistics.median(trips)
    median, p99 = statistics.median(decisions), _percentile(decisions, 0.99)
    print(
        f"solo engine time per human decision (bots' turns included): median "
        f"{median * 1e6:.0f} us, p99 {p99 * 1e6:.0f} us | raw msgpack round trip of the state "
        f"{trip * 1e6:.0f} us | ratio median {median / trip:.2f}x, p99 {p99 / trip:.2f}x"
    )
    engine = statistics.median(totals)
    print(
        f"solo game (random human), engine only: median {engine * 1000:.1f} ms "
        f"({statistics.median(counts):.0f} decisions, {statistics.median(events):.0f} events) | "
        f"raw msgspec decode of its events {raw_per_game * 1000:.2f} ms | ratio "
        f"{engine / raw_per_game:.0f}x"
    )
    for level in (1, 2, 3, 4, 5, 6):
        wins, margins = 0, []
        for seed in range(BOT_GAMES):
            state, *_ = _game(game, level, 100 + seed, "tapestry")
            assert state.solo is not None
            wins += bool(state.winners)
            margins.append(state.seats[0].vp - state.solo.vp)
        print(
            f"tapestry bot vs Automa level {level}: won {wins}/{BOT_GAMES} "
            f"({100 * wins / BOT_GAMES:.0f}%), median margin {statistics.median(margins):+.0f} VP"
        )


if __name__ == "__main__":
    main()
