"""``make bench`` — engine, store and application throughput, as ratios to raw operations.

Engine: Rise & Fall folding / deciding, a complete 4-player Tapestry game (decide +
evolve, events per game, ``legal_actions`` per decision), the Tapestry bot (decision time,
win rate against the random bot), a complete 4-player game with each expansion box alone and
with the three together beside the base game (``tests/bench/tapestry_expansions.py``), and a
complete 3-player Imperium game (decide + evolve,
decisions per second, ``legal_actions`` per decision).

Then the gRPC API, the projections and several servers on PostgreSQL (``tests/bench/api.py``,
``projections.py``, ``scaleout.py``, ``cluster_load.py``).

Every number is printed next to a raw operation measured in the same run on the same machine
(msgspec decode, an SQLite insert with the same durability setting), so the ratios stay
meaningful on other hardware. Nothing is asserted.
"""

from __future__ import annotations

import importlib
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import msgspec

from domain.bots import make_bot
from domain.core import Chance, Undo
from service.app.application import GameService
from service.store.config import StoreConfig
from service.store.eventstore import EventStore
from tests.harness import Table, random_game


def _rate(count: int, seconds: float) -> float:
    return count / seconds if seconds > 0 else float("inf")


def _timed(function: Callable[[], object], repeat: int = 1) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        function()
    return (time.perf_counter() - start) / repeat


def bench_engine() -> None:
    """Events folded/s and commands decided/s against raw msgspec decoding."""
    tables = [random_game("riseandfall", seats, seed) for seats in (2, 3, 4) for seed in range(3)]
    payloads = [(t, [e for e in t.envelopes]) for t in tables]
    events_total = sum(len(envs) for _, envs in payloads)
    decoded = [(t, [t.decode(e) for e in envs]) for t, envs in payloads]

    def fold() -> None:
        for table, events in decoded:
            game = table.game
            state = game.initial(game.decode_options({}), table.match.seats)
            for event in events[1:]:
                if type(event).__module__.startswith("domain.riseandfall"):
                    state = game.evolve(state, event)

    def raw_decode() -> None:
        for table, envelopes in payloads:
            codec = table.ledger.codec
            for envelope in envelopes:
                codec.decode_event(envelope.kind, envelope.schema, envelope.payload)

    fold_s = _timed(fold, 3)
    raw_s = _timed(raw_decode, 3)
    print(
        f"fold: {_rate(events_total, fold_s):,.0f} events/s | raw msgspec decode "
        f"{_rate(events_total, raw_s):,.0f} events/s | ratio fold/raw {raw_s / fold_s:.2f}"
    )

    decided = 0
    decide_time = 0.0
    legal_time = 0.0
    for seed in range(3):
        table = Table("riseandfall", 3, f"decide-{seed}".encode())
        bots = {i: make_bot("random", f"d{seed}{i}".encode()) for i in range(3)}
        while not table.is_over():
            state = table.match.state
            seat = table.game.pending(state).seats[0]
            t0 = time.perf_counter()
            actions = table.game.legal_actions(state, seat)
            t1 = time.perf_counter()
            command = bots[seat]._chance().choice(actions)
            table.game.decide(state, seat, command, Chance(b"b", table.match.version))
            t2 = time.perf_counter()
            legal_time += t1 - t0
            decide_time += t2 - t1
            table.submit(seat, command)
            decided += 1
    print(
        f"decide: {_rate(decided, decide_time):,.0f} commands/s | legal_actions: "
        f"{_rate(decided, legal_time):,.0f} enumerations/s | ratio decide/raw-decode "
        f"{_rate(decided, decide_time) / _rate(events_total, raw_s):.3f}"
    )


#: complete 4-player random-bot Tapestry games timed by :func:`bench_tapestry`.
TAPESTRY_GAMES = 8


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_tapestry() -> None:
    """A complete 4-player random-bot Tapestry game in the engine alone (no storage, no
    ledger): time of ``decide`` + ``evolve``, events per game, and ``legal_actions`` per
    decision (median, p99) — against raw msgspec operations on the same data, measured now:
    msgpack decoding of the game's events, and a msgpack round trip (encode + decode) of the
    state at each decision (what ``decide`` pays once to work on a private copy)."""
    from domain.registry import get_game
    from domain.tapestry.state import TapestryState

    game = get_game("tapestry")
    engine_s: list[float] = []
    counts: list[int] = []
    decisions = 0
    legal: list[float] = []
    state_trips: list[float] = []
    payloads: list[bytes] = []
    for seed in range(TAPESTRY_GAMES):
        bots = {i: make_bot("random", f"tb{seed}-{i}".encode()) for i in range(4)}
        state = game.initial(game.decode_options({}), 4)
        t0 = time.perf_counter()
        events = game.setup(state, Chance(f"tapestry-bench-{seed}".encode(), 0))
        for event in events:
            state = game.evolve(state, event)
        spent = time.perf_counter() - t0
        produced = list(events)
        step = 0
        while not game.is_over(state):
            seat = game.pending(state).seats[0]
            t0 = time.perf_counter()
            actions = game.legal_actions(state, seat)
            t1 = time.perf_counter()
            command = bots[seat]._chance().choice(actions)
            t2 = time.perf_counter()
            step += 1
            new = game.decide(state, seat, command, Chance(f"tapestry-bench-{seed}".encode(), step))
            for event in new:
                state = game.evolve(state, event)
            t3 = time.perf_counter()
            blob = msgspec.msgpack.encode(state)
            msgspec.msgpack.decode(blob, type=TapestryState)
            t4 = time.perf_counter()
            legal.append(t1 - t0)
            state_trips.append(t4 - t3)
            spent += t3 - t2
            produced.extend(new)
            decisions += 1
        engine_s.append(spent)
        counts.append(len(produced))
        payloads.extend(msgspec.msgpack.encode(e) for e in produced)
    decoder = msgspec.msgpack.Decoder(game.event_type)
    raw_s = _timed(lambda: [decoder.decode(b) for b in payloads], 3)
    raw_per_game = raw_s / TAPESTRY_GAMES
    engine = statistics.median(engine_s)
    events = statistics.median(counts)
    print(
        f"tapestry 4p random game, engine only: median {engine * 1000:.1f} ms decide+evolve "
        f"({decisions / TAPESTRY_GAMES:.0f} decisions, {events:.0f} events/game) | raw msgspec "
        f"decode of its events {raw_per_game * 1000:.2f} ms | ratio engine/raw-decode "
        f"{engine / raw_per_game:.0f}x"
    )
    trip = statistics.median(state_trips)
    print(
        f"tapestry legal_actions per decision: median {statistics.median(legal) * 1e6:.0f} us, "
        f"p99 {_percentile(legal, 0.99) * 1e6:.0f} us | raw msgpack round trip of the state "
        f"{trip * 1e6:.0f} us | ratio median {statistics.median(legal) / trip:.2f}x, "
        f"p99 {_percentile(legal, 0.99) / trip:.2f}x"
    )


#: 2-player games of the Tapestry bot against the random bot timed by :func:`bench_tapestry_bot`.
TAPESTRY_BOT_GAMES = 6


def bench_tapestry_bot() -> None:
    """The Tapestry bot (``make_bot("tapestry")``) against the random bot in 2-player games,
    seats alternating: its decision time (median, p99) and win rate, against a raw operation
    measured now on the same states: a msgpack round trip of the state (what one ply of its
    lookahead pays at least once per legal action)."""
    from domain.registry import get_game
    from domain.tapestry.state import TapestryState

    game = get_game("tapestry")
    decisions: list[float] = []
    trips: list[float] = []
    won = 0
    for seed in range(TAPESTRY_BOT_GAMES):
        smart = seed % 2
        bots = {smart: make_bot("tapestry", f"tbot{seed}".encode()),
                1 - smart: make_bot("random", f"trnd{seed}".encode())}  # fmt: skip
        state = game.initial(game.decode_options({}), 2)
        for event in game.setup(state, Chance(f"tapestry-bot-{seed}".encode(), 0)):
            state = game.evolve(state, event)
        step = 0
        while not game.is_over(state):
            seat = game.pending(state).seats[0]
            t0 = time.perf_counter()
            command = bots[seat].choose(game, state, seat)
            t1 = time.perf_counter()
            if seat == smart:
                blob = msgspec.msgpack.encode(state)
                msgspec.msgpack.decode(blob, type=TapestryState)
                trips.append(time.perf_counter() - t1)
                decisions.append(t1 - t0)
            step += 1
            for event in game.decide(state, seat, command, Chance(f"tb-{seed}".encode(), step)):
                state = game.evolve(state, event)
        scores = game.scores(state)
        won += scores[smart] > scores[1 - smart]
    median, p99, trip = (
        statistics.median(decisions), _percentile(decisions, 0.99), statistics.median(trips)
    )  # fmt: skip
    print(
        f"tapestry bot vs random, 2p: won {won}/{TAPESTRY_BOT_GAMES} | decision median "
        f"{median * 1000:.2f} ms, p99 {p99 * 1000:.1f} ms ({len(decisions)} decisions) | raw "
        f"msgpack round trip of the state {trip * 1e6:.0f} us | ratio median {median / trip:.0f}x,"
        f" p99 {p99 / trip:.0f}x"
    )


#: complete 3-player random-bot Imperium games timed by :func:`bench_imperium`.
IMPERIUM_GAMES = 8


def bench_imperium() -> None:
    """A complete 3-player random-bot Imperium game in the engine alone (no storage, no
    ledger): time of ``decide`` + ``evolve`` per game and decisions per second, events per game,
    and ``legal_actions`` per decision (median, p99) — against raw msgspec operations on the
    same data, measured now: msgpack decoding of the game's events, and a msgpack round trip
    (encode + decode) of the state at each decision (what ``decide`` pays once to work on a
    private copy)."""
    from domain.imperium.state import ImperiumState
    from domain.registry import get_game

    game = get_game("imperium")
    engine_s: list[float] = []
    counts: list[int] = []
    decisions = 0
    legal: list[float] = []
    state_trips: list[float] = []
    payloads: list[bytes] = []
    for seed in range(IMPERIUM_GAMES):
        bots = {i: make_bot("random", f"ib{seed}-{i}".encode()) for i in range(3)}
        chance_seed = f"imperium-bench-{seed}".encode()
        state = game.initial(game.decode_options({}), 3)
        t0 = time.perf_counter()
        events = game.setup(state, Chance(chance_seed, 0))
        for event in events:
            state = game.evolve(state, event)
        spent = time.perf_counter() - t0
        produced = list(events)
        step = 0
        while not game.is_over(state):
            seat = game.pending(state).seats[0]
            t0 = time.perf_counter()
            actions = game.legal_actions(state, seat)
            t1 = time.perf_counter()
            command = bots[seat]._chance().choice(actions)
            t2 = time.perf_counter()
            step += 1
            new = game.decide(state, seat, command, Chance(chance_seed, step))
            for event in new:
                state = game.evolve(state, event)
            t3 = time.perf_counter()
            blob = msgspec.msgpack.encode(state)
            msgspec.msgpack.decode(blob, type=ImperiumState)
            t4 = time.perf_counter()
            legal.append(t1 - t0)
            state_trips.append(t4 - t3)
            spent += t3 - t2
            produced.extend(new)
            decisions += 1
        engine_s.append(spent)
        counts.append(len(produced))
        payloads.extend(msgspec.msgpack.encode(e) for e in produced)
    decoder = msgspec.msgpack.Decoder(game.event_type)
    raw_s = _timed(lambda: [decoder.decode(b) for b in payloads], 3)
    raw_per_game = raw_s / IMPERIUM_GAMES
    engine = statistics.median(engine_s)
    events = statistics.median(counts)
    per_decision = sum(engine_s) / decisions
    trip = statistics.median(state_trips)
    print(
        f"imperium 3p random game, engine only: median {engine * 1000:.1f} ms decide+evolve "
        f"({decisions / IMPERIUM_GAMES:.0f} decisions, {events:.0f} events/game) | raw msgspec "
        f"decode of its events {raw_per_game * 1000:.2f} ms | ratio engine/raw-decode "
        f"{engine / raw_per_game:.0f}x"
    )
    print(
        f"imperium decisions: {_rate(decisions, sum(engine_s)):,.0f} decisions/s decide+evolve "
        f"({per_decision * 1e6:.0f} us each) | raw msgpack round trip of the state "
        f"{trip * 1e6:.0f} us | ratio decision/state-round-trip {per_decision / trip:.1f}x"
    )
    print(
        f"imperium legal_actions per decision: median {statistics.median(legal) * 1e6:.0f} us, "
        f"p99 {_percentile(legal, 0.99) * 1e6:.0f} us | ratio to the state round trip: median "
        f"{statistics.median(legal) / trip:.2f}x, p99 {_percentile(legal, 0.99) / trip:.2f}x"
    )


def _long_game(service: GameService, target_events: int) -> str:
    """A game of at least ``target_events`` events: bot play padded with undo/redo cycles."""
    game_id = service.create_game("riseandfall", {"trophies": 6}, ["a", "b", "c"], b"long").game_id
    bots = {i: make_bot("random", f"long{i}".encode()) for i in range(3)}
    while service.head(game_id).version < target_events:
        match = service.head(game_id)
        game = match.game
        if game.is_over(match.state):
            break
        seat = game.pending(match.state).seats[0]
        command = bots[seat].choose(game, match.state, seat)
        service.submit(game_id, seat, command)
        try:
            service.submit(game_id, seat, Undo())
            service.submit(game_id, seat, command)
        except Exception:
            pass
    return game_id


def bench_store(tmp: Path) -> None:
    """Materialisation of a 5,000-event game, and committed commands/s vs raw SQLite."""
    service = GameService(EventStore(StoreConfig(path=str(tmp / "bench.db"))))
    t0 = time.perf_counter()
    game_id = _long_game(service, 5_000)
    elapsed = time.perf_counter() - t0
    last = service.store.last_seq(game_id)
    commands = len({e.command_id for e in service.store.read(game_id)})
    print(
        f"application on SQLite: {commands} commands committed in {elapsed:.2f} s = "
        f"{_rate(commands, elapsed):,.0f} commands/s ({last} events)"
    )

    raw_path = tmp / "raw.db"
    connection = sqlite3.connect(raw_path, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=FULL")
    connection.execute("CREATE TABLE t (id TEXT, v INTEGER, data BLOB, PRIMARY KEY (id, v))")
    blob = b"x" * 300
    n = 2000
    start = time.perf_counter()
    for i in range(n):
        connection.execute("BEGIN")
        connection.execute("INSERT INTO t VALUES (?, ?, ?)", ("g", i, blob))
        connection.execute("COMMIT")
    raw_rate = _rate(n, time.perf_counter() - start)
    print(
        f"raw SQLite insert, 1 row/commit, WAL synchronous=FULL: {raw_rate:,.0f} rows/s | "
        f"ratio application/raw {_rate(commands, elapsed) / raw_rate:.2f}"
    )

    fresh = GameService(service.store)
    for label, version in (("head", last), ("version N/2", last // 2), ("version 137", 137)):
        times = []
        for _ in range(15):
            start = time.perf_counter()
            fresh.materialise(game_id, version)
            times.append(time.perf_counter() - start)
        print(
            f"materialise {label} of a {last}-event game: median "
            f"{statistics.median(times) * 1000:.2f} ms, max {max(times) * 1000:.2f} ms "
            f"(snapshot every {service.snapshot_every} events)"
        )
    snapshot = service.store.latest_snapshot(game_id)
    assert snapshot is not None
    raw_snapshot = _timed(lambda: msgspec.msgpack.decode(snapshot[1]), 50)
    print(f"raw msgpack decode of one snapshot: {raw_snapshot * 1000:.3f} ms")


def main() -> None:
    """Run every benchmark and print the results."""
    print("== engine (Rise & Fall, no storage) ==")
    bench_engine()
    print("== engine (Tapestry, no storage) ==")
    bench_tapestry()
    bench_tapestry_bot()
    print("== engine (Tapestry solo against the Automa, no storage) ==")
    importlib.import_module("tests.bench.tapestry_solo").main()
    print("== engine (Tapestry with its expansion boxes, no storage) ==")
    importlib.import_module("tests.bench.tapestry_expansions").main()
    print("== engine (Imperium, no storage) ==")
    bench_imperium()
    with tempfile.TemporaryDirectory() as tmp:
        print("== store and application (SQLite file) ==")
        bench_store(Path(tmp))
    for title, module in (("the write path (SQLite)", "tests.bench.writepath"),
                          ("PostgreSQL: time under the events table's lock", "tests.bench.pglock"),
                          ("gRPC API", "tests.bench.api"),
                          ("GetView with and without its cache", "tests.bench.views"),
                          ("projections", "tests.bench.projections"),
                          ("several servers on PostgreSQL", "tests.bench.scaleout"),
                          ("scale-out load: servers and client processes (PostgreSQL)",
                           "tests.bench.cluster_load"),
                          ("simulation (annales simulate)", "tests.bench.simulate"),
                          ("web port: Connect against gRPC", "tests.bench.web"),
                          ("Rise & Fall world building, hex vs square",
                           "tests.bench.riseandfall_world"),
                          ("round trips per game", "tests.bench.roundtrips"),
                          ("Imperium solo (C.I.V.)", "tests.bench.solo")):  # fmt: skip
        print(f"== {title} ==")
        importlib.import_module(module).main()


if __name__ == "__main__":
    main()
