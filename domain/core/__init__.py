"""The game-agnostic kernel: the decider contract, randomness, events, envelopes and undo.

Everything a game needs from the kernel is importable from here.
"""

from domain.core.chance import Chance, seed_commitment
from domain.core.codec import Codec, register_upcaster
from domain.core.envelope import GENESIS, SYSTEM_SEAT, Envelope, seal, verify_link
from domain.core.errors import MalformedCommand, RuleViolation
from domain.core.game import Command, Event, Game, Outcome, Pending
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
from domain.core.match import Batch, KernelState, Match, StoredEvent, UndoRequest, replay_events

__all__ = [
    "GENESIS",
    "SYSTEM_SEAT",
    "Batch",
    "Chance",
    "Codec",
    "Command",
    "Envelope",
    "Event",
    "Game",
    "GameCreated",
    "KernelState",
    "MalformedCommand",
    "Match",
    "Outcome",
    "Pending",
    "RequestUndo",
    "RespondUndo",
    "RuleViolation",
    "SeedRevealed",
    "StoredEvent",
    "Undo",
    "UndoApproved",
    "UndoDeclined",
    "UndoRequest",
    "UndoRequested",
    "Undone",
    "register_upcaster",
    "replay_events",
    "seal",
    "seed_commitment",
    "verify_link",
]
