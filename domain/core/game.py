"""The decider contract every game implements.

A game is a pure *decider* (see ``docs/architecture.md``):

* :meth:`Game.initial` builds the state before anything happened, from options and seat count;
* :meth:`Game.setup` decides the opening events (random world, first player, shuffles…);
* :meth:`Game.decide` turns a command of a seat into events, or raises
  :class:`~domain.core.errors.RuleViolation`;
* :meth:`Game.evolve` folds one event into the state — total, never fails, never draws;
* :meth:`Game.legal_actions` lists exactly the commands :meth:`Game.decide` accepts for a seat;
* :meth:`Game.pending` says who must decide what now;
* :meth:`Game.view` is everything a seat (or a spectator, ``None``) may see;
* :meth:`Game.redact_event` hides from a viewer what an event says that the viewer may not see.

States are mutable :class:`msgspec.Struct` objects: :meth:`Game.evolve` updates the state in
place and returns it (the python-chess way: no copy per event). Code that needs an earlier state
keeps a copy made with :meth:`Game.copy_state` (a msgpack round trip), e.g. the service's
snapshots. :meth:`Game.decide` and :meth:`Game.legal_actions` never modify the state they get.

Commands and events are ``msgspec.Struct`` classes with ``tag=True`` forming one tagged union
per game; events must not contain dicts with non-string keys (their bytes are hashed).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar, Generic, TypeVar

import msgspec

from domain.core.chance import Chance
from domain.core.errors import MalformedCommand

S = TypeVar("S", bound=msgspec.Struct)


class Event(msgspec.Struct, tag=True, frozen=True, kw_only=True):
    """Base class of every event (kernel and game events).

    Class attributes (not serialised):
        REVEALS: ``True`` when the event makes public something nobody knew (a die roll, a draw,
            a shuffle, the reveal of sealed choices): undo never goes past such an event.
        SCHEMA: the event's schema version; raise it on a breaking change and register an
            upcaster (see :mod:`domain.core.upcasting`).
    """

    REVEALS: ClassVar[bool] = False
    SCHEMA: ClassVar[int] = 1


class Command(msgspec.Struct, tag=True, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Base class of every command a seat can send."""


class Pending(msgspec.Struct, frozen=True):
    """Who must decide what now.

    Attributes:
        seats: the seats that may act now (several for simultaneous choices), ascending.
        decision: a stable name of the decision point, e.g. ``"choose_card"``.
        prompt: a short sentence for a player.
    """

    seats: tuple[int, ...]
    decision: str
    prompt: str = ""


class Outcome(msgspec.Struct, frozen=True):
    """The result of a finished game.

    Attributes:
        scores: final score per seat.
        winners: the winning seats (several on a tie), ascending.
        details: a per-seat score sheet, free structure per game (string keys only).
    """

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    details: tuple[dict[str, int], ...] = ()


class PartyScore(msgspec.Struct, frozen=True):
    """The score of a party that holds no seat: an automated opponent played by the rules
    themselves (Tapestry's Automa, Imperium's C.I.V.).

    Attributes:
        name: the party's name, e.g. ``"Automa"``.
        score: its current (or final) score.
        winner: ``True`` once the game is over if this party won (the seats in
            :attr:`Outcome.winners` did not).
    """

    name: str
    score: int
    winner: bool = False


class Game(ABC, Generic[S]):
    """A game's rules as a pure decider. Subclasses are stateless singletons."""

    #: registry name of the game, e.g. ``"riseandfall"``.
    name: ClassVar[str]
    #: version of the rules implementation; stored with every game and event.
    ruleset_version: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    #: the state struct type.
    state_type: ClassVar[type[msgspec.Struct]]
    #: the options struct type (decoded from the options given at creation).
    options_type: ClassVar[type[msgspec.Struct]]
    #: options added to ``options_type`` after the ruleset was first released: recorded in
    #: the creation event only when not at their default (see :meth:`recorded_options`).
    late_options: ClassVar[frozenset[str]] = frozenset()
    #: the tagged union of the game's commands (a ``Union[...]`` type).
    command_type: ClassVar[Any]
    #: the tagged union of the game's events (a ``Union[...]`` type).
    event_type: ClassVar[Any]

    # -- construction -----------------------------------------------------------------
    @abstractmethod
    def initial(self, options: Any, seats: int) -> S:
        """The state before any event: options and seat count only, no randomness."""

    @abstractmethod
    def setup(self, state: S, chance: Chance) -> list[Event]:
        """The opening events (random world, first player…), decided once at creation."""

    # -- the decider ------------------------------------------------------------------
    @abstractmethod
    def decide(self, state: S, seat: int, command: Command, chance: Chance) -> list[Event]:
        """The events that follow from ``command`` by ``seat``; raises ``RuleViolation``."""

    @abstractmethod
    def evolve(self, state: S, event: Event) -> S:
        """Fold one event into ``state`` (in place) and return it. Total: never raises."""

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> list[Command]:
        """Every command ``decide`` accepts from ``seat`` now, and nothing else."""

    @abstractmethod
    def pending(self, state: S) -> Pending:
        """Who must decide what now (empty seats when the game is over)."""

    # -- visibility -------------------------------------------------------------------
    @abstractmethod
    def view(self, state: S, seat: int | None) -> msgspec.Struct:
        """Everything ``seat`` may see (``None``: a spectator)."""

    def redact_event(self, state: S, event: Event, viewer: int | None) -> Event:
        """``event`` as ``viewer`` may see it, given the state *after* the event.

        The default shows every event unchanged; games with hidden information override it.
        """
        return event

    # -- progress ---------------------------------------------------------------------
    @abstractmethod
    def is_over(self, state: S) -> bool:
        """``True`` once the game has ended."""

    def is_setup(self, state: S) -> bool:
        """``True`` while the game is still being set up by the seats. Default: never."""
        return False

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """The final result, or ``None`` while the game goes on."""

    @abstractmethod
    def turn_key(self, state: S) -> str:
        """Identifies the current turn; undo stays within one value of it."""

    def scores(self, state: S) -> tuple[int, ...]:
        """The current score of each seat (the final one once over). Default: zeros."""
        outcome = self.outcome(state)
        if outcome is not None:
            return outcome.scores
        return tuple(0 for _ in range(self.seat_count(state)))

    def parties(self, state: S) -> tuple[PartyScore, ...]:
        """The automated opponents of a game and their current (or final) scores, in a fixed
        order. Default: none — every party is a seat."""
        return ()

    @abstractmethod
    def seat_count(self, state: S) -> int:
        """Number of seats in the game."""

    def balance_keys(self, state: S) -> tuple[str, ...]:
        """One public balance key per seat, for balance statistics across games.

        A game overrides it with what its seats start with (a civilisation, a nation, a
        starting option: e.g. ``"Alchemists"``); the key must be public information. Default:
        the seat position, ``("seat 0", "seat 1", …)`` — numbered from 0 as everywhere else
        (the API, ``annales play --seat 0``, the views' ``name#0``).
        """
        return tuple(f"seat {seat}" for seat in range(self.seat_count(state)))

    # -- content ------------------------------------------------------------------------
    def assumptions(self) -> list[str]:
        """Every content fact no source gives, which the game's content files mark
        ``assumed``: one line each, listed by ``annales content report --game NAME``.

        Default: none (a game without content files assumes nothing).
        """
        return []

    def missing_content(self) -> list[str]:
        """Every component the game's boxes hold whose facts are in none of our sources (left
        out of play): one line each, listed by ``annales content report --game NAME`` under
        "not in our sources". Default: none."""
        return []

    def notes(self, state: S) -> tuple[str, ...]:
        """Public remarks about this game's setup that its options do not say by themselves
        (e.g. components of a chosen box left out because no source gives them), reported by
        GetGame. Default: none."""
        return ()

    # -- helpers shared by every game ---------------------------------------------------
    def copy_state(self, state: S) -> S:
        """An independent deep copy of ``state`` (msgpack round trip)."""
        return msgspec.msgpack.decode(msgspec.msgpack.encode(state), type=type(state))

    def encode_state(self, state: S) -> bytes:
        """The state's canonical bytes (used by snapshots and equality checks)."""
        return msgspec.msgpack.encode(state)

    def decode_state(self, data: bytes) -> S:
        """The state encoded by :meth:`encode_state`."""
        state: S = msgspec.msgpack.decode(data, type=self.state_type)  # type: ignore[assignment]
        return state

    def recorded_options(self, options: Any) -> dict[str, Any]:
        """``options`` (an ``options_type``) as the creation event records them: every option,
        sorted by name, except the :attr:`late_options` left at their default — so that the
        creation events of games created before those options existed, and re-executed from
        their records, stay byte-identical."""
        data = msgspec.to_builtins(options)
        defaults = msgspec.to_builtins(self.options_type())
        return {
            key: value
            for key, value in sorted(data.items())
            if key not in self.late_options or value != defaults.get(key)
        }

    def decode_options(self, options: dict[str, Any] | None) -> Any:
        """Options from plain data, validated: raises ``MalformedCommand`` naming an unknown
        option key and its value, ``msgspec.ValidationError`` for a bad value."""
        known = msgspec.structs.fields(self.options_type)
        names = {field.encode_name for field in known}
        for key, value in (options or {}).items():
            if key not in names:
                raise MalformedCommand(
                    "INVALID_OPTION",
                    f"Unknown option {key!r} (value {value!r}) for {self.ruleset_version}; "
                    f"known options: {', '.join(sorted(names)) or 'none'}.",
                )
        return msgspec.convert(options or {}, type=self.options_type)

    def replay(self, state: S, events: Sequence[Event]) -> S:
        """Fold several events into ``state``."""
        for event in events:
            state = self.evolve(state, event)
        return state
