"""Game-agnostic events and commands handled by the kernel for every game.

``GameCreated`` opens every game's log. Undo, undo requests and the seed reveal are the same
for every game, so they live here rather than in each game's union.
"""

from __future__ import annotations

from typing import Any

from domain.core.chance import LEGACY_COMMITMENT
from domain.core.game import Command, Event


class GameCreated(Event, frozen=True, kw_only=True, omit_defaults=True):
    """The game exists: its type, rules version, options, seats and seed commitment.

    ``seed_commitment_scheme`` names how ``seed_commitment`` is computed (see
    :func:`domain.core.chance.seed_commitment`); ``key_digests``: the hash chain covers a
    digest of each idempotency key rather than the key (see
    :func:`domain.core.envelope.key_digest`). Both are omitted from the payload at their
    defaults (games created before they existed), so old payloads keep their bytes.
    """

    game_type: str
    ruleset: str
    options: dict[str, Any]
    seat_names: tuple[str, ...]
    seed_commitment: str
    seed_commitment_scheme: str = LEGACY_COMMITMENT
    key_digests: bool = False


class UndoRequested(Event, frozen=True, kw_only=True):
    """A seat asks the others to go back to ``to_version`` (needs every other seat's approval)."""

    by: int
    to_version: int


class UndoApproved(Event, frozen=True, kw_only=True):
    """One seat approved the open undo request."""

    by: int


class UndoDeclined(Event, frozen=True, kw_only=True):
    """One seat declined (or the requester withdrew) the open undo request; it is closed."""

    by: int


class Undone(Event, frozen=True, kw_only=True):
    """The game went back to the state it had at ``to_version``; later events stay in the log."""

    to_version: int


class SeedRevealed(Event, frozen=True, kw_only=True, omit_defaults=True):
    """The game ended: its secret seed (hex) is public, so anyone can re-run the game.

    ``nonce`` (hex) is the secret nonce of a salted commitment, revealed with the seed (empty,
    and omitted from the payload, for games with the legacy unsalted commitment).
    """

    REVEALS = True
    seed: str
    nonce: str = ""


KernelEvent = GameCreated | UndoRequested | UndoApproved | UndoDeclined | Undone | SeedRevealed
KERNEL_EVENT_TYPES: tuple[type[Event], ...] = (
    GameCreated,
    UndoRequested,
    UndoApproved,
    UndoDeclined,
    Undone,
    SeedRevealed,
)


class Undo(Command, frozen=True, kw_only=True):
    """Undo the seat's own last command of this turn (no approval needed)."""


class RequestUndo(Command, frozen=True, kw_only=True):
    """Ask every other seat to approve going back to ``to_version``."""

    to_version: int


class RespondUndo(Command, frozen=True, kw_only=True):
    """Approve or decline the open undo request (the requester declining withdraws it)."""

    approve: bool


KernelCommand = Undo | RequestUndo | RespondUndo
KERNEL_COMMAND_TYPES: tuple[type[Command], ...] = (Undo, RequestUndo, RespondUndo)
