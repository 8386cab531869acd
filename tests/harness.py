"""Game-agnostic helpers for tests: play seeded bot games in memory through the kernel.

A :class:`Table` holds a :class:`~domain.core.match.Match` and its log exactly as the service
would (same ``Ledger`` code, same envelopes), without a store — fast enough for hundreds of games.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from domain.bots import Bot, make_bot
from domain.core import Command, Event, Match, StoredEvent, replay_events
from domain.core.envelope import Envelope
from service.app.ledger import Ledger


class Table:
    """An in-memory game: a ledger, its envelopes and copies of states at each version."""

    def __init__(
        self,
        game_type: str,
        seats: int,
        seed: bytes,
        options: dict[str, Any] | None = None,
        keep_states: bool = False,
        ruleset: str | None = None,
    ) -> None:
        self.seed = seed
        self.ledger, self.envelopes = Ledger.create(
            "test-game",
            game_type,
            options or {},
            [f"seat{i}" for i in range(seats)],
            seed,
            ruleset,
        )
        self.keep_states = keep_states
        self.states: dict[int, bytes] = {}
        self.counter = 0
        self._save()

    @property
    def match(self) -> Match:
        """The live match."""
        return self.ledger.match

    @property
    def game(self) -> Any:
        """The game's rules."""
        return self.ledger.game

    def _save(self) -> None:
        if self.keep_states:
            self.states[self.match.version] = self.game.encode_state(self.match.state)

    def state_at(self, version: int) -> Any:
        """A private copy of the game state at ``version`` (needs ``keep_states`` or a fold)."""
        if version in self.states:
            return self.game.decode_state(self.states[version])
        return replay_events(self.game, self.stored()[:version]).state

    def submit(self, seat: int, command: Command) -> list[Envelope]:
        """Decide and fold a command, as the service would (raises ``RuleViolation``)."""
        self.counter += 1
        _, envelopes = self.ledger.submit(
            seat, command, f"cmd{self.counter}", self.seed, self.state_at
        )
        self.envelopes.extend(envelopes)
        self._save()
        return envelopes

    def stored(self) -> list[StoredEvent]:
        """The log as the kernel's fold takes it."""
        codec = self.ledger.codec
        return [
            StoredEvent(
                e.seq, e.command_id, e.seat, codec.decode_event(e.kind, e.schema, e.payload)
            )
            for e in self.envelopes
        ]

    def decode(self, envelope: Envelope) -> Event:
        """The event of an envelope."""
        return self.ledger.codec.decode_event(envelope.kind, envelope.schema, envelope.payload)

    def is_over(self) -> bool:
        """``True`` once the game has ended."""
        return bool(self.game.is_over(self.match.state))


def play(
    table: Table,
    bots: dict[int, Bot],
    max_commands: int = 200_000,
    before: Callable[[Table, int, Command], None] | None = None,
) -> int:
    """Let bots play every pending decision until the end; returns commands played."""
    played = 0
    while not table.is_over() and played < max_commands:
        pending = table.game.pending(table.match.state)
        if not pending.seats:
            raise AssertionError(f"no seat to act but the game is not over: {pending}")
        seat = pending.seats[0]
        command = bots[seat].choose(table.game, table.match.state, seat)
        if before is not None:
            before(table, seat, command)
        table.submit(seat, command)
        played += 1
    return played


def random_game(
    game_type: str,
    seats: int,
    seed: int,
    bot: str = "random",
    options: dict[str, Any] | None = None,
    ruleset: str | None = None,
) -> Table:
    """A whole seeded bot game (under ``ruleset``, default the game's newest)."""
    table = Table(game_type, seats, f"game-{seed}".encode(), options, ruleset=ruleset)
    bots = {i: make_bot(bot, f"bot-{seed}-{i}".encode()) for i in range(seats)}
    play(table, bots)
    return table


def state_bytes(game: Any, state: Any) -> bytes:
    """Canonical comparison bytes of a state (dicts sorted)."""
    return msgspec.json.encode(msgspec.to_builtins(state), order="sorted")
