"""A tiny game for kernel tests: seats race to 10 by steps and die rolls.

On its turn a seat may ``Step`` (1 or 2 squares, at most twice), ``Roll`` a die (a reveal),
and must ``Pass`` to end its turn. First to 10 squares wins.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.core import Chance, Command, Event, Game, Outcome, Pending, RuleViolation


class RaceOptions(msgspec.Struct, frozen=True):
    """Options: the finish line."""

    goal: int = 10


class RaceState(msgspec.Struct):
    """Positions, whose turn, steps taken this turn, turn counter."""

    goal: int
    positions: list[int]
    turn_seat: int = 0
    steps: int = 0
    turn: int = 0


class Step(Command, frozen=True, kw_only=True):
    """Move 1 or 2 squares."""

    n: int


class Roll(Command, frozen=True, kw_only=True):
    """Roll a die and move that far."""


class Pass(Command, frozen=True, kw_only=True):
    """End the turn."""


class Stepped(Event, frozen=True, kw_only=True):
    """A seat moved."""

    seat: int
    n: int


class Rolled(Event, frozen=True, kw_only=True):
    """A die was rolled (reveals information)."""

    REVEALS = True
    seat: int
    face: int


class Passed(Event, frozen=True, kw_only=True):
    """The turn passed."""

    seat: int


class FirstSeatDrawn(Event, frozen=True, kw_only=True):
    """Setup: who starts."""

    REVEALS = True
    seat: int


class Race(Game[RaceState]):
    """The toy race."""

    name = "race"
    ruleset_version = "race/1"
    min_seats = 2
    max_seats = 4
    state_type = RaceState
    options_type = RaceOptions
    command_type = Step | Roll | Pass
    event_type = Stepped | Rolled | Passed | FirstSeatDrawn

    def initial(self, options: Any, seats: int) -> RaceState:
        return RaceState(goal=options.goal, positions=[0] * seats)

    def setup(self, state: RaceState, chance: Chance) -> list[Event]:
        return [FirstSeatDrawn(seat=chance.below(len(state.positions)))]

    def decide(self, state: RaceState, seat: int, command: Command, chance: Chance) -> list[Event]:
        if self.is_over(state):
            raise RuleViolation("GAME_OVER", "over")
        if seat != state.turn_seat:
            raise RuleViolation("NOT_YOUR_TURN", "wait")
        if isinstance(command, Step):
            if command.n not in (1, 2):
                raise RuleViolation("BAD_STEP", "1 or 2")
            if state.steps >= 2:
                raise RuleViolation("TOO_MANY_STEPS", "two steps per turn")
            return [Stepped(seat=seat, n=command.n)]
        if isinstance(command, Roll):
            return [Rolled(seat=seat, face=chance.below(6) + 1)]
        if isinstance(command, Pass):
            return [Passed(seat=seat)]
        raise RuleViolation("UNKNOWN", "unknown command")

    def evolve(self, state: RaceState, event: Event) -> RaceState:
        if isinstance(event, FirstSeatDrawn):
            state.turn_seat = event.seat
        elif isinstance(event, Stepped):
            state.positions[event.seat] += event.n
            state.steps += 1
        elif isinstance(event, Rolled):
            state.positions[event.seat] += event.face
        elif isinstance(event, Passed):
            state.turn_seat = (state.turn_seat + 1) % len(state.positions)
            state.steps = 0
            state.turn += 1
        return state

    def legal_actions(self, state: RaceState, seat: int) -> list[Command]:
        if self.is_over(state) or seat != state.turn_seat:
            return []
        steps: list[Command] = [Step(n=1), Step(n=2)] if state.steps < 2 else []
        return [*steps, Roll(), Pass()]

    def pending(self, state: RaceState) -> Pending:
        if self.is_over(state):
            return Pending((), "over")
        return Pending((state.turn_seat,), "move")

    def view(self, state: RaceState, seat: int | None) -> msgspec.Struct:
        return state

    def is_over(self, state: RaceState) -> bool:
        return max(state.positions) >= state.goal

    def outcome(self, state: RaceState) -> Outcome | None:
        if not self.is_over(state):
            return None
        best = max(state.positions)
        winners = tuple(i for i, p in enumerate(state.positions) if p == best)
        return Outcome(tuple(state.positions), winners)

    def turn_key(self, state: RaceState) -> str:
        return f"{state.turn}:{state.turn_seat}"

    def seat_count(self, state: RaceState) -> int:
        return len(state.positions)
