"""A game as the kernel sees it: the game's state plus version, undo bookkeeping and the seed.

:class:`Match` folds every event of a game's log — kernel events (undo, seed reveal) and the
game's own — and decides kernel commands with the undo policy of ``docs/architecture.md``:

* :class:`~domain.core.kernel_events.Undo`: a seat takes back its own last command, as long as
  that command revealed nothing, was not followed by another seat's action and belongs to the
  current turn (``Game.turn_key`` unchanged). Repeat it to go back further within the turn.
* :class:`~domain.core.kernel_events.RequestUndo` / ``RespondUndo``: going further back (past
  other seats' actions or turns) needs every other seat's approval. Even then, never past an
  event that revealed information (die rolls, draws, shuffles, reveals of sealed choices, the
  game's setup): that *floor* is absolute, so undo can never re-roll luck or un-see a secret.
* While an undo request is open, game commands are refused (``UNDO_REQUEST_OPEN``).

An ``Undone(to_version)`` event makes the game state exactly the state at ``to_version``; the
undone events stay in the log. Folding it needs the state at that version, which the caller
supplies (``state_at``): the service from its snapshots, :func:`replay_envelopes` from copies.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from domain.core.chance import Chance
from domain.core.errors import RuleViolation
from domain.core.game import Command, Event, Game
from domain.core.kernel_events import (
    GameCreated,
    RequestUndo,
    RespondUndo,
    SeedRevealed,
    Undo,
    UndoApproved,
    UndoDeclined,
    Undone,
    UndoRequested,
)

StateAt = Callable[[int], Any]
#: called with each event of a command and the game state right after it (``Match.execute``)
Observer = Callable[[Event, Any], None]

_KERNEL_EVENTS = (UndoRequested, UndoApproved, UndoDeclined, Undone)


class Batch(msgspec.Struct, frozen=True, array_like=True):
    """The events of one command, as the undo policy sees them.

    Attributes:
        command_id: the command that produced the events.
        seat: the acting seat (-1 for the system).
        start: sequence number of the first event; ``start - 1`` is the version before it.
        end: sequence number of the last event.
        transparent: only undo bookkeeping events (requests, answers, undos).
        turn: ``Game.turn_key`` of the state before the command.
    """

    command_id: str
    seat: int
    start: int
    end: int
    transparent: bool
    turn: str


class UndoRequest(msgspec.Struct, frozen=True, array_like=True):
    """The open request to go back to ``to_version``, and who approved it so far."""

    by: int
    to_version: int
    approvals: tuple[int, ...] = ()


class KernelState(msgspec.Struct, array_like=True):
    """The kernel's part of a match, encodable for snapshots."""

    version: int = 0
    floor: int = 0
    history: list[Batch] = msgspec.field(default_factory=list)
    undo_request: UndoRequest | None = None
    seed: str | None = None
    header: GameCreated | None = None


class Match:
    """One game being played: ``game`` rules, ``state`` of the game, kernel bookkeeping.

    ``Match`` mutates itself as events are applied. It holds no I/O and no clock.
    """

    __slots__ = ("game", "kernel", "state")

    def __init__(self, game: Game[Any], state: Any, kernel: KernelState | None = None) -> None:
        self.game = game
        self.state = state
        self.kernel = kernel if kernel is not None else KernelState()

    # -- properties ---------------------------------------------------------------------
    @property
    def version(self) -> int:
        """Number of events folded (the sequence number of the last one)."""
        return self.kernel.version

    @property
    def seats(self) -> int:
        """Number of seats."""
        return self.game.seat_count(self.state)

    def copy(self) -> Match:
        """An independent copy (game state and kernel state)."""
        kernel = msgspec.msgpack.decode(msgspec.msgpack.encode(self.kernel), type=KernelState)
        return Match(self.game, self.game.copy_state(self.state), kernel)

    # -- folding ------------------------------------------------------------------------
    def apply(
        self, event: Event, *, seq: int, command_id: str, seat: int, state_at: StateAt
    ) -> None:
        """Fold one stored event (``seq`` must be ``version + 1``)."""
        kernel = self.kernel
        history = kernel.history
        if not history or history[-1].command_id != command_id:
            turn = "" if kernel.header is None or seat < 0 else self.game.turn_key(self.state)
            history.append(Batch(command_id, seat, seq, seq, True, turn))
        last = history[-1]
        transparent = last.transparent and isinstance(event, _KERNEL_EVENTS)
        history[-1] = Batch(last.command_id, last.seat, last.start, seq, transparent, last.turn)
        kernel.version = seq

        if isinstance(event, GameCreated):
            kernel.header = event
        elif isinstance(event, UndoRequested):
            kernel.undo_request = UndoRequest(event.by, event.to_version)
        elif isinstance(event, UndoApproved):
            request = kernel.undo_request
            if request is not None:
                kernel.undo_request = UndoRequest(
                    request.by, request.to_version, (*request.approvals, event.by)
                )
        elif isinstance(event, UndoDeclined):
            kernel.undo_request = None
        elif isinstance(event, Undone):
            self.state = state_at(event.to_version)
            kernel.undo_request = None
            undo_batch = history[-1]
            kernel.history = [b for b in history[:-1] if b.end <= event.to_version]
            kernel.history.append(undo_batch)
        elif isinstance(event, SeedRevealed):
            kernel.seed = event.seed
        else:
            self.state = self.game.evolve(self.state, event)

        if seat < 0 or event.REVEALS:
            # Nothing before a system batch or a reveal can ever be undone.
            kernel.floor = seq
            kernel.history = [kernel.history[-1]]

    # -- deciding -----------------------------------------------------------------------
    def decide(self, seat: int, command: Command, seed: bytes) -> list[Event]:
        """The events ``command`` by ``seat`` produces now (raises ``RuleViolation``)."""
        if not 0 <= seat < self.seats:
            raise RuleViolation("NO_SUCH_SEAT", f"There is no seat {seat} in this game.")
        if self.game.is_over(self.state):  # undo commands included: nothing is accepted
            raise RuleViolation("GAME_OVER", "The game is over.")
        if isinstance(command, Undo):
            return [Undone(to_version=self.own_undo_target(seat))]
        if isinstance(command, RequestUndo):
            self._check_request(seat, command.to_version)
            return [UndoRequested(by=seat, to_version=command.to_version)]
        if isinstance(command, RespondUndo):
            return self._respond(seat, command.approve)
        if self.kernel.undo_request is not None:
            raise RuleViolation(
                "UNDO_REQUEST_OPEN", "An undo request is waiting for answers; answer it first."
            )
        return self.game.decide(self.state, seat, command, Chance(seed, self.version))

    def execute(
        self,
        seat: int,
        command: Command,
        command_id: str,
        seed: bytes,
        state_at: StateAt,
        nonce: bytes | None = None,
        observe: Observer | None = None,
    ) -> list[Event]:
        """Decide ``command`` and fold its events into this match; return the events.

        Adds ``SeedRevealed`` (with ``nonce``, the secret of a salted seed commitment, if
        any) when the command ends the game. On ``RuleViolation`` nothing
        changed. After a successful call the match is at ``version + len(events)``.
        ``observe(event, state)``, if given, is called right after each event is folded, with
        the game state as it is then (the state changes in place as the next events fold: an
        observer keeps what it derives, never the state).
        """
        events = self.decide(seat, command, seed)
        seq = self.version
        for event in events:
            seq += 1
            self.apply(event, seq=seq, command_id=command_id, seat=seat, state_at=state_at)
            if observe is not None:
                observe(event, self.state)
        if self.kernel.seed is None and self.game.is_over(self.state):
            reveal = SeedRevealed(seed=seed.hex(), nonce=nonce.hex() if nonce else "")
            self.apply(reveal, seq=seq + 1, command_id=command_id, seat=seat, state_at=state_at)
            events.append(reveal)
            if observe is not None:
                observe(reveal, self.state)
        return events

    # -- undo policy ----------------------------------------------------------------------
    def _last_game_batch(self) -> Batch | None:
        for batch in reversed(self.kernel.history):
            if not batch.transparent:
                return batch
        return None

    def own_undo_target(self, seat: int) -> int:
        """The version ``Undo`` by ``seat`` would go back to (raises ``RuleViolation``)."""
        if self.kernel.undo_request is not None:
            raise RuleViolation("UNDO_REQUEST_OPEN", "An undo request is waiting for answers.")
        batch = self._last_game_batch()
        if batch is None or batch.start - 1 < self.kernel.floor or batch.seat < 0:
            raise RuleViolation(
                "UNDO_PAST_REVEAL",
                "Nothing to undo: the last action revealed information or began the game.",
            )
        if batch.seat != seat:
            raise RuleViolation(
                "UNDO_OTHER_SEAT",
                "The last action was another player's: ask everyone's approval instead.",
            )
        if batch.turn != self.game.turn_key(self.state):
            raise RuleViolation(
                "UNDO_PAST_TURN",
                "Your last action ended your turn: ask everyone's approval to go back further.",
            )
        return batch.start - 1

    def undo_boundaries(self) -> list[int]:
        """Versions an approved undo request may go back to, oldest first."""
        starts = [b.start - 1 for b in self.kernel.history if not b.transparent and b.seat >= 0]
        return [v for v in starts if v >= self.kernel.floor]

    def _check_request(self, seat: int, to_version: int) -> None:
        if self.kernel.undo_request is not None:
            raise RuleViolation("UNDO_REQUEST_OPEN", "An undo request is already open.")
        if to_version < self.kernel.floor:
            raise RuleViolation(
                "UNDO_PAST_REVEAL",
                f"Cannot go back before version {self.kernel.floor}: information was revealed.",
            )
        if to_version not in self.undo_boundaries():
            raise RuleViolation(
                "UNDO_NOT_A_BOUNDARY",
                f"Version {to_version} is not the start of an undoable action.",
            )

    def _respond(self, seat: int, approve: bool) -> list[Event]:
        request = self.kernel.undo_request
        if request is None:
            raise RuleViolation("NO_UNDO_REQUEST", "There is no undo request to answer.")
        if not approve:
            return [UndoDeclined(by=seat)]
        if seat == request.by:
            raise RuleViolation("OWN_UNDO_REQUEST", "You cannot approve your own request.")
        if seat in request.approvals:
            raise RuleViolation("ALREADY_APPROVED", "You already approved this request.")
        events: list[Event] = [UndoApproved(by=seat)]
        others = {s for s in range(self.seats) if s != request.by}
        if others <= {*request.approvals, seat}:
            events.append(Undone(to_version=request.to_version))
        return events


class StoredEvent(msgspec.Struct, frozen=True):
    """An event with the envelope fields the fold needs."""

    seq: int
    command_id: str
    seat: int
    event: Event


def replay_events(game: Game[Any], stored: Sequence[StoredEvent]) -> Match:
    """Fold a whole log from scratch (pure; keeps copies only at undo targets).

    >>> # see tests/core for a complete example with a real game
    """
    targets = {s.event.to_version for s in stored if isinstance(s.event, Undone)}
    header = stored[0].event
    if not isinstance(header, GameCreated):
        raise ValueError("a game log starts with GameCreated")
    options = game.decode_options(header.options)
    match = Match(game, game.initial(options, len(header.seat_names)))
    saved: dict[int, bytes] = {}
    if 0 in targets:
        saved[0] = game.encode_state(match.state)

    def state_at(version: int) -> Any:
        return game.decode_state(saved[version])

    for item in stored:
        match.apply(
            item.event, seq=item.seq, command_id=item.command_id, seat=item.seat, state_at=state_at
        )
        if item.seq in targets:
            saved[item.seq] = game.encode_state(match.state)
    return match
