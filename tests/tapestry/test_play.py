"""Whole seeded random-bot games ("Déroulement du jeu", "Fin de la partie").

* games for 2, 3, 4 and 5 players finish with every seat past its fifth income turn;
* a fresh fold of the events equals the state held during play;
* ``legal_actions`` is sound (every listed command is accepted) and refuses obvious
  non-listed commands on sampled states;
* the same seed and commands give identical events (determinism).
"""

from __future__ import annotations

import msgspec
import pytest

from domain.core import Chance, Command, Event, RuleViolation
from domain.tapestry.commands import Advance, Choose, PlayTapestry, TakeIncome
from domain.tapestry.content import TAPESTRY_CARDS, TRACKS
from domain.tapestry.state import TapestryState
from tests.tapestry.helpers import GAME


def _bytes(state: TapestryState) -> bytes:
    return msgspec.json.encode(msgspec.to_builtins(state), order="sorted")


def random_game(
    seats: int, seed: int, sample_every: int = 0
) -> tuple[TapestryState, list[Event], int]:
    """Play a whole game with uniform random choices; check samples on the way."""
    game_seed = f"game-{seed}".encode()
    state = GAME.initial(GAME.decode_options({}), seats)
    log: list[Event] = list(GAME.setup(state, Chance(game_seed, 0)))
    for event in log:
        GAME.evolve(state, event)
    bot = Chance(f"bot-{seed}".encode(), 0)
    commands = 0
    while not GAME.is_over(state):
        pending = GAME.pending(state)
        assert pending.seats, pending
        seat = pending.seats[0]
        actions = GAME.legal_actions(state, seat)
        assert actions, (pending, state.agenda[-1:])
        if sample_every and commands % sample_every == 0:
            check_sound(state, seat, actions, game_seed, len(log))
        command = bot.choice(actions)
        events = GAME.decide(state, seat, command, Chance(game_seed, len(log)))
        for event in events:
            GAME.evolve(state, event)
        log.extend(events)
        commands += 1
        assert commands < 5000
    return state, log, commands


def check_sound(
    state: TapestryState, seat: int, actions: list[Command], seed: bytes, version: int
) -> None:
    """Every listed command is accepted; a few unlisted ones are refused."""
    for action in actions:
        GAME.decide(state, seat, action, Chance(seed, version))
    waiting = GAME.pending(state).seats
    for other in (s for s in range(state.n) if s not in waiting):
        assert GAME.legal_actions(state, other) == []
    probes: list[Command] = [Choose(index=99), TakeIncome()]
    probes += [Advance(track=t, payment=p) for t in TRACKS for p in ((), ("coin",), ("food",))]
    probes += [PlayTapestry(card=c) for c in TAPESTRY_CARDS]
    for probe in probes:
        if probe in actions:
            continue
        with pytest.raises(RuleViolation):
            GAME.decide(state, seat, probe, Chance(seed, version))


def replay(log: list[Event], seats: int) -> TapestryState:
    """A fresh fold of the events."""
    state = GAME.initial(GAME.decode_options({}), seats)
    for event in log:
        GAME.evolve(state, event)
    return state


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [1, 2])
def test_random_games_finish_and_refold(seats: int, seed: int) -> None:
    """ "Fin de la partie": every seat ends after its 5th income turn; the fold is exact."""
    state, log, _ = random_game(seats, seed, sample_every=17)
    assert all(s.finished and s.income_turns == 5 for s in state.seats)
    assert GAME.outcome(state) is not None
    assert _bytes(replay(log, seats)) == _bytes(state)


@pytest.mark.long
@pytest.mark.parametrize("seats", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", range(3, 23))
def test_many_random_games(seats: int, seed: int) -> None:
    """The long run: many more seeded games finish and refold exactly."""
    state, log, _ = random_game(seats, seed, sample_every=50)
    assert all(s.finished for s in state.seats)
    assert _bytes(replay(log, seats)) == _bytes(state)


def test_same_seed_same_events() -> None:
    """Determinism: the same seed and commands give identical events."""
    _, first, _ = random_game(3, 7)
    _, second, _ = random_game(3, 7)
    encode = msgspec.msgpack.encode
    assert [encode(e) for e in first] == [encode(e) for e in second]


def test_events_are_small_and_typed() -> None:
    """Events round-trip through the game's tagged union (as the event store keeps them)."""
    _, log, _ = random_game(2, 3)
    decoder = msgspec.msgpack.Decoder(GAME.event_type)
    for event in log:
        assert decoder.decode(msgspec.msgpack.encode(event)) == event
