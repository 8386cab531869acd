"""Every pairing of nations of both boxes, and random 3-4 player tables, play seeded bot games
to the end ("Comment jouer", "Fin de partie", "Effondrement", "Combiner les jeux Antique et
Légendes").

The Classics issue asks: *every pairing of Classics nations (56 ordered pairs) and random 3-4
player tables play 50 seeded bot games each*; the Legends issue: *every ordered pair among the
16 nations plays 20 seeded bot games to the end with no exception; random 3-4 player tables
mixing both boxes play 200 games*. The pairs are every ordered pair of :data:`C.ALL_NATIONS`
(the playable nations: a Legends nation is listed there once its rules are implemented). The
cases are data: a case is a table (one nation per seat, fixed through
``ImperiumOptions.nations``) and the seeds it plays; each game is played by ``domain.bots``
random bots through ``decide`` / ``evolve`` alone, with the power-card faces — and, at tables
with a Legends nation, the box of the common cards — drawn from the game's seed so both faces
and both boxes are met. A game passes when it reaches a final scoring (``end_trigger`` set)
or a collapse, has winners among its seats, and a fresh fold of its events equals the state
held during play.

* the normal run plays a small seeded sample (each nation against the next one, a Classics
  and a mixed table of each size, :data:`SAMPLE_GAMES` games each: well under a minute);
* ``make long`` (marker ``long``) plays every ordered pair (:data:`LONG_GAMES` games for a
  pair of Classics nations, :data:`LEGENDS_PAIR_GAMES` for a pair with a Legends nation),
  :data:`TABLES_PER_SIZE` random Classics tables of 3 and of 4 players (:data:`LONG_GAMES`
  each) and :data:`MIXED_TABLES` random tables mixing both boxes (:data:`MIXED_GAMES` each:
  200 games).
"""

from __future__ import annotations

import itertools
import traceback

import msgspec
import pytest

from domain.bots import make_bot
from domain.core import Chance, Event
from domain.imperium import content as C
from domain.imperium.game import ImperiumGame

GAME = ImperiumGame()
#: every ordered pair of playable nations (seat 0, seat 1): 16 x 15 = 240 with both boxes.
PAIRS: list[tuple[str, ...]] = list(itertools.permutations(C.ALL_NATIONS, 2))
#: seeded games per Classics case in ``make long`` (the Classics issue's number).
LONG_GAMES = 50
#: seeded games per pair with a Legends nation in ``make long`` (the Legends issue's number).
LEGENDS_PAIR_GAMES = 20
#: random 3-4 player tables mixing both boxes in ``make long``, and games for each (200 in all).
MIXED_TABLES = 20
MIXED_GAMES = 10
#: random tables of 3 and of 4 players in ``make long``.
TABLES_PER_SIZE = 10
#: the normal run: each playable nation against the next one (:func:`_sample_pairs`), a
#: Classics and a mixed table of 3 and of 4 players, each playing this many games.
SAMPLE_GAMES = 2
#: a game that has not ended after this many commands is reported as stuck.
MAX_COMMANDS = 20_000


def random_table(players: int, index: int) -> tuple[str, ...]:
    """Random table ``index`` of ``players`` different Classics nations (seeded)."""
    chance = Chance(f"imperium-table-{players}-{index}".encode(), 0)
    order = chance.permutation(len(C.CLASSICS_NATIONS))
    return tuple(C.CLASSICS_NATIONS[i] for i in order[:players])


def mixed_table(players: int, index: int) -> tuple[str, ...]:
    """Random table ``index`` of ``players`` different nations with both boxes seated (when
    the Legends box has a playable nation; seeded)."""
    chance = Chance(f"imperium-mixed-{players}-{index}".encode(), 0)
    legends = [k for k in C.ALL_NATIONS if C.NATIONS[k].box == "legends"]
    classics = list(C.CLASSICS_NATIONS)
    first = [chance.choice(legends)] if legends else []
    rest = [k for k in classics + legends if k not in first]
    second = chance.choice(classics)
    rest.remove(second)
    order = chance.permutation(len(rest))
    table = [*first, second, *(rest[i] for i in order)][:players]
    return tuple(table[i] for i in chance.permutation(players))


def box_for(nations: tuple[str, ...], seed: int) -> str:
    """The common-card box of game ``seed``: Classics at an all-Classics table (the Classics
    games as they were), else drawn so both boxes are met."""
    if all(C.NATIONS[k].box == "classics" for k in nations):
        return ""
    chance = Chance(f"imperium-box-{'-'.join(nations)}-{seed}".encode(), 0)
    return C.BOXES[chance.below(2)]


def faces(nations: tuple[str, ...], seed: int) -> tuple[str, ...]:
    """The power-card face of each seat for game ``seed`` (drawn, so both faces are met)."""
    chance = Chance(f"imperium-faces-{'-'.join(nations)}-{seed}".encode(), 0)
    return tuple("A" if chance.below(2) else "B" for _ in nations)


def play_game(nations: tuple[str, ...], seed: int) -> str | None:
    """One seeded bot game at this table; ``None`` when it passes, else what went wrong."""
    options = GAME.decode_options({"nations": list(nations), "sides": list(faces(nations, seed)),
                                   "box": box_for(nations, seed)})  # fmt: skip
    game_seed = f"imperium-pairing-{'-'.join(nations)}-{seed}".encode()
    try:
        state = GAME.initial(options, len(nations))
        log: list[Event] = list(GAME.setup(state, Chance(game_seed, 0)))
        for event in log:
            GAME.evolve(state, event)
        bots = [make_bot("random", game_seed + bytes([i])) for i in range(len(nations))]
        commands = 0
        while not GAME.is_over(state):
            if commands >= MAX_COMMANDS:
                return f"no end after {commands} commands ({GAME.pending(state).decision})"
            seat = GAME.pending(state).seats[0]
            command = bots[seat].choose(GAME, state, seat)
            events = GAME.decide(state, seat, command, Chance(game_seed, len(log)))
            for event in events:
                GAME.evolve(state, event)
            log.extend(events)
            commands += 1
    except Exception as error:  # reported with the table and seed, not raised
        where = traceback.extract_tb(error.__traceback__)[-1]
        return f"{type(error).__name__}: {error} ({where.filename}:{where.lineno})"
    outcome = GAME.outcome(state)
    if outcome is None or not outcome.winners:
        return "ended without winners"
    if not set(outcome.winners) <= set(range(len(nations))):
        return f"winners {outcome.winners} are not seats"
    if not (state.collapse or state.end_trigger):
        return "ended neither by a final scoring nor by a collapse"
    fresh = GAME.initial(options, len(nations))
    for event in log:
        GAME.evolve(fresh, event)
    if msgspec.msgpack.encode(fresh) != msgspec.msgpack.encode(state):
        return "a fresh fold of the events differs from the state held during play"
    return None


def play_case(nations: tuple[str, ...], seeds: range) -> list[str]:
    """Every failure of the games ``seeds`` at this table, one line each."""
    failures = []
    for seed in seeds:
        problem = play_game(nations, seed)
        if problem is not None:
            failures.append(f"{'/'.join(nations)} seed {seed}: {problem}")
    return failures


def _sample_pairs() -> list[tuple[str, ...]]:
    """Each nation against the next one (both boxes interleaved): every playable nation sits
    once in each seat."""
    legends = [k for k in C.ALL_NATIONS if k not in C.CLASSICS_NATIONS]
    nations = [*C.CLASSICS_NATIONS[: len(C.CLASSICS_NATIONS) - len(legends)]]
    for classic, legend in zip(C.CLASSICS_NATIONS[len(nations) :], legends, strict=False):
        nations += [classic, legend]
    nations += legends[len(C.CLASSICS_NATIONS) :]
    return [(nations[i], nations[(i + 1) % len(nations)]) for i in range(len(nations))]


SAMPLE_CASES = [*_sample_pairs(), random_table(3, 0), random_table(4, 0), mixed_table(3, 0),
                mixed_table(4, 0)]  # fmt: skip
TABLE_CASES = [random_table(players, i) for players in (3, 4) for i in range(TABLES_PER_SIZE)]
MIXED_CASES = [mixed_table(3 + i % 2, i) for i in range(MIXED_TABLES)]
LONG_CASES = [*PAIRS, *TABLE_CASES, *MIXED_CASES]


def long_games(nations: tuple[str, ...]) -> int:
    """Seeded games of a ``make long`` case (see the module docstring)."""
    if nations in MIXED_CASES:
        return MIXED_GAMES
    if len(nations) == 2 and any(C.NATIONS[k].box == "legends" for k in nations):
        return LEGENDS_PAIR_GAMES
    return LONG_GAMES


def test_the_cases_are_the_issues() -> None:
    """Every ordered pair of the playable nations (the lists cover ``ALL_NATIONS``, so a
    nation missing from them is missing from ``ALL_NATIONS`` too), 3- and 4-player Classics
    tables, mixed tables of both boxes playing 200 games; the sample has each playable nation
    once in each seat."""
    count = len(C.ALL_NATIONS)
    assert set(C.CLASSICS_NATIONS) <= set(C.ALL_NATIONS) == set(C.NATIONS)
    assert len(set(PAIRS)) == count * (count - 1) == len(PAIRS)
    assert {n for pair in PAIRS for n in pair} == set(C.ALL_NATIONS)
    assert all(a != b for a, b in PAIRS)
    assert sorted(len(t) for t in TABLE_CASES) == [3] * TABLES_PER_SIZE + [4] * TABLES_PER_SIZE
    assert sorted(len(t) for t in MIXED_CASES) == sorted([3, 4] * (MIXED_TABLES // 2))
    for tables in (TABLE_CASES, MIXED_CASES):
        assert all(len(set(t)) == len(t) for t in tables)
        assert len(set(tables)) == len(tables)
    assert sum(long_games(t) for t in MIXED_CASES) == 200
    if count > len(C.CLASSICS_NATIONS):  # mixed tables seat both boxes
        assert all({C.NATIONS[k].box for k in t} == set(C.BOXES) for t in MIXED_CASES)
    sample = _sample_pairs()
    assert set(sample) <= set(PAIRS)
    assert sorted(p[0] for p in sample) == sorted(p[1] for p in sample) == sorted(C.ALL_NATIONS)


def test_faces_vary_and_nations_are_fixed_per_seat() -> None:
    """The options fix each seat's nation and power-card face ("Mise en place des joueurs",
    1-2); the faces drawn for a table cover both A and B over its games."""
    nations = ("greeks", "scythians")
    options = GAME.decode_options({"nations": list(nations), "sides": list(faces(nations, 0))})
    state = GAME.initial(options, 2)
    for event in GAME.setup(state, Chance(b"pairing-setup", 0)):
        GAME.evolve(state, event)
    assert tuple(seat.nation for seat in state.seats) == nations
    for seat, face in zip(state.seats, faces(nations, 0), strict=True):
        power = C.NATIONS[seat.nation].power[0 if face == "A" else 1].id
        assert seat.power == power
    assert {face for seed in range(LONG_GAMES) for face in faces(nations, seed)} == {"A", "B"}


@pytest.mark.parametrize("nations", SAMPLE_CASES, ids="/".join)
def test_sample_games_reach_an_end(nations: tuple[str, ...]) -> None:
    """A seeded sample: each case plays ``SAMPLE_GAMES`` games to a scoring or a collapse."""
    failures = play_case(nations, range(SAMPLE_GAMES))
    assert not failures, "\n".join(failures)


@pytest.mark.long
@pytest.mark.parametrize("nations", LONG_CASES, ids="/".join)
def test_every_pairing_and_table_plays_its_games(nations: tuple[str, ...]) -> None:
    """``make long``: every ordered pair and each random table, :func:`long_games` seeded
    games each (50 Classics, 20 per pair with a Legends nation, 10 per mixed table)."""
    games = long_games(nations)
    failures = play_case(nations, range(1000, 1000 + games))
    assert not failures, f"{len(failures)} of {games} games failed:\n" + "\n".join(failures)
