"""Kernel tests on a toy game: fold, undo policy (docs/architecture.md "Undo"), seed reveal."""

from __future__ import annotations

from typing import Any

import pytest

from domain.core import (
    Chance,
    GameCreated,
    Match,
    RequestUndo,
    RespondUndo,
    RuleViolation,
    StoredEvent,
    Undo,
    replay_events,
    seed_commitment,
)
from tests.core.toygame import Pass, Race, RaceOptions, Roll, Step

SEED = b"kernel-test"


class Table:
    """Drives a toy match and keeps the log, like the service does."""

    def __init__(self, seats: int = 2) -> None:
        self.game = Race()
        self.match = Match(self.game, self.game.initial(RaceOptions(), seats))
        self.log: list[StoredEvent] = []
        self.states: dict[int, bytes] = {}
        header = GameCreated(
            game_type="race",
            ruleset="race/1",
            options={"goal": 10},
            seat_names=tuple(f"s{i}" for i in range(seats)),
            seed_commitment=seed_commitment(SEED),
        )
        self._record("setup", -1, [header])
        self._record("setup", -1, self.game.setup(self.match.state, Chance(SEED, 1)))
        self.counter = 0

    def _record(self, command_id: str, seat: int, events: list[Any]) -> None:
        for event in events:
            seq = self.match.version + 1
            self.match.apply(
                event, seq=seq, command_id=command_id, seat=seat, state_at=self.state_at
            )
            self.log.append(StoredEvent(seq, command_id, seat, event))
            self.states[seq] = self.game.encode_state(self.match.state)

    def state_at(self, version: int) -> Any:
        return self.game.decode_state(self.states[version])

    def play(self, seat: int, command: Any) -> list[Any]:
        self.counter += 1
        before = self.match.version
        events = self.match.execute(seat, command, f"c{self.counter}", SEED, self.state_at)
        for offset, event in enumerate(events):
            seq = before + offset + 1
            self.log.append(StoredEvent(seq, f"c{self.counter}", seat, event))
            self.states[seq] = self.game.encode_state(self.match.state)
        return events

    @property
    def seat(self) -> int:
        return int(self.match.state.turn_seat)


def test_undo_own_steps_restores_exact_state() -> None:
    """docs/architecture.md, Undo: own actions back to the turn start; state equals the target's."""
    table = Table()
    seat = table.seat
    start = table.game.encode_state(table.match.state)
    table.play(seat, Step(n=2))
    after_one = table.game.encode_state(table.match.state)
    table.play(seat, Step(n=1))
    table.play(seat, Undo())
    assert table.game.encode_state(table.match.state) == after_one
    table.play(seat, Undo())
    assert table.game.encode_state(table.match.state) == start
    with pytest.raises(RuleViolation) as err:
        table.play(seat, Undo())
    assert err.value.code == "UNDO_PAST_REVEAL"  # the setup is the floor


def test_undo_never_past_a_reveal() -> None:
    """docs/architecture.md Undo: never past an event that revealed information (a die roll)."""
    table = Table()
    seat = table.seat
    table.play(seat, Roll())
    with pytest.raises(RuleViolation) as err:
        table.play(seat, Undo())
    assert err.value.code == "UNDO_PAST_REVEAL"
    with pytest.raises(RuleViolation):
        table.play(seat, RequestUndo(to_version=2))


def test_undo_not_past_turn_or_other_seat_without_approval() -> None:
    """docs/architecture.md Undo: not past another player's action; further back needs approval."""
    table = Table()
    first = table.seat
    table.play(first, Step(n=1))
    table.play(first, Pass())
    with pytest.raises(RuleViolation) as err:
        table.play(first, Undo())
    assert err.value.code == "UNDO_PAST_TURN"
    second = table.seat
    table.play(second, Step(n=2))
    with pytest.raises(RuleViolation) as err:
        table.play(first, Undo())
    assert err.value.code == "UNDO_OTHER_SEAT"
    target = table.match.undo_boundaries()[0]
    table.play(first, RequestUndo(to_version=target))
    with pytest.raises(RuleViolation) as err:
        table.play(second, Step(n=1))
    assert err.value.code == "UNDO_REQUEST_OPEN"
    events = table.play(second, RespondUndo(approve=True))
    assert [type(e).__name__ for e in events] == ["UndoApproved", "Undone"]
    assert table.game.encode_state(table.match.state) == table.states[target]


def test_declined_request_changes_nothing() -> None:
    """docs/architecture.md Undo: request -> decline is recorded and the game goes on unchanged."""
    table = Table(seats=3)
    first = table.seat
    table.play(first, Step(n=1))
    table.play(first, Pass())
    before = table.game.encode_state(table.match.state)
    target = table.match.undo_boundaries()[0]
    table.play(first, RequestUndo(to_version=target))
    other = (first + 1) % 3
    table.play(other, RespondUndo(approve=True))
    table.play((first + 2) % 3, RespondUndo(approve=False))
    assert table.match.kernel.undo_request is None
    assert table.game.encode_state(table.match.state) == before


def test_replay_equals_live_fold_with_undos() -> None:
    """A fresh fold of the log equals the state held live, undos included."""
    table = Table()
    for _ in range(30):
        seat = table.seat
        table.play(seat, Step(n=1))
        table.play(seat, Undo())
        table.play(seat, Step(n=2))
        if table.game.is_over(table.match.state):
            break
        table.play(seat, Pass())
    replayed = replay_events(table.game, table.log)
    assert table.game.encode_state(replayed.state) == table.game.encode_state(table.match.state)
    assert replayed.kernel.seed == SEED.hex()


def test_seed_revealed_when_game_ends() -> None:
    """docs/architecture.md, Randomness: the game's end reveals the seed matching its commitment."""
    table = Table()
    while not table.game.is_over(table.match.state):
        seat = table.seat
        events = table.play(seat, Roll())
        if not table.game.is_over(table.match.state):
            table.play(seat, Pass())
    assert type(events[-1]).__name__ == "SeedRevealed"
    assert seed_commitment(bytes.fromhex(table.match.kernel.seed or "")) == seed_commitment(SEED)
    with pytest.raises(RuleViolation) as err:
        table.play(table.seat, Pass())
    assert err.value.code == "GAME_OVER"
