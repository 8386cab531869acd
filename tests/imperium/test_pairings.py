"""Every pairing of Classics nations, and random 3-4 player tables, play seeded bot games to the
end ("Comment jouer", "Fin de partie", "Effondrement").

The issue asks: *every pairing of Classics nations (56 ordered pairs) and random 3-4 player
tables play 50 seeded bot games each to a scoring or a collapse*. The cases are data: a case
is a table (one nation per seat, fixed through ``ImperiumOptions.nations``) and the seeds it
plays; each game is played by ``domain.bots`` random bots through ``decide`` / ``evolve``
alone, with the power-card faces drawn from the game's seed so both faces of every nation are
met. A game passes when it reaches a final scoring (``end_trigger`` set) or a collapse, has
winners among its seats, and a fresh fold of its events equals the state held during play.

* the normal run plays a small seeded sample (:data:`SAMPLE_PAIRS` pairings and one table of
  each size, :data:`SAMPLE_GAMES` games each: a few seconds);
* ``make long`` (marker ``long``) plays all 56 ordered pairs and :data:`TABLES_PER_SIZE`
  random tables of 3 and of 4 players, :data:`LONG_GAMES` games each.
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
#: every ordered pair of Classics nations (seat 0, seat 1): 8 x 7 = 56.
PAIRS: list[tuple[str, ...]] = list(itertools.permutations(C.CLASSICS_NATIONS, 2))
#: seeded games per case in ``make long`` (the issue's number).
LONG_GAMES = 50
#: random tables of 3 and of 4 players in ``make long``.
TABLES_PER_SIZE = 10
#: the normal run: this many pairings (spread over the 56), one table of 3 and one of 4 ...
SAMPLE_PAIRS = 8
#: ... each playing this many games.
SAMPLE_GAMES = 3
#: a game that has not ended after this many commands is reported as stuck.
MAX_COMMANDS = 20_000


def random_table(players: int, index: int) -> tuple[str, ...]:
    """Random table ``index`` of ``players`` different Classics nations (seeded)."""
    chance = Chance(f"imperium-table-{players}-{index}".encode(), 0)
    order = chance.permutation(len(C.CLASSICS_NATIONS))
    return tuple(C.CLASSICS_NATIONS[i] for i in order[:players])


def faces(nations: tuple[str, ...], seed: int) -> tuple[str, ...]:
    """The power-card face of each seat for game ``seed`` (drawn, so both faces are met)."""
    chance = Chance(f"imperium-faces-{'-'.join(nations)}-{seed}".encode(), 0)
    return tuple("A" if chance.below(2) else "B" for _ in nations)


def play_game(nations: tuple[str, ...], seed: int) -> str | None:
    """One seeded bot game at this table; ``None`` when it passes, else what went wrong."""
    options = GAME.decode_options({"nations": list(nations), "sides": list(faces(nations, seed))})
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
    """Each nation against the next one: every nation sits once in each seat."""
    nations = C.CLASSICS_NATIONS
    return [(nations[i], nations[(i + 1) % len(nations)]) for i in range(SAMPLE_PAIRS)]


SAMPLE_CASES = [*_sample_pairs(), random_table(3, 0), random_table(4, 0)]
LONG_CASES = [
    *PAIRS,
    *(random_table(players, i) for players in (3, 4) for i in range(TABLES_PER_SIZE)),
]


def test_the_cases_are_the_issues() -> None:
    """56 ordered pairs of the eight Classics nations, plus 3- and 4-player tables of
    different nations; the sample has each nation once in each seat."""
    assert len(C.CLASSICS_NATIONS) == 8 and len(set(PAIRS)) == 56
    assert all(a != b for a, b in PAIRS)
    tables = LONG_CASES[len(PAIRS) :]
    assert sorted(len(t) for t in tables) == [3] * TABLES_PER_SIZE + [4] * TABLES_PER_SIZE
    assert all(len(set(t)) == len(t) for t in tables)
    assert len(set(tables)) == len(tables)
    sample = _sample_pairs()
    assert set(sample) <= set(PAIRS)
    assert (
        sorted(p[0] for p in sample) == sorted(p[1] for p in sample) == sorted(C.CLASSICS_NATIONS)
    )


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
def test_every_pairing_and_table_plays_fifty_games(nations: tuple[str, ...]) -> None:
    """``make long``: every ordered pair and each random table, 50 seeded games each."""
    failures = play_case(nations, range(1000, 1000 + LONG_GAMES))
    assert not failures, f"{len(failures)} of {LONG_GAMES} games failed:\n" + "\n".join(failures)
