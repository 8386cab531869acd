"""The application's values: what it answers (a created game, a submitted command) and the
snapshot it stores."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec

from domain.core.envelope import Envelope
from domain.core.match import KernelState


class Snapshot(msgspec.Struct, array_like=True):
    """A cached materialisation: kernel state, game state bytes and the chain's last hash."""

    kernel: KernelState
    state: bytes
    last_hash: str


@dataclass(frozen=True)
class CreatedGame:
    """Answer to :meth:`~service.app.application.GameService.create_game`."""

    game_id: str
    version: int
    seed_commitment: str


@dataclass(frozen=True)
class Submitted:
    """Answer to :meth:`~service.app.application.GameService.submit`: the new version and
    the command's envelopes."""

    version: int
    envelopes: tuple[Envelope, ...]
    duplicate: bool = False
    #: what ``submit``'s ``observe`` returned for each envelope's event, as it was folded
    #: (``None``: no observer, or a duplicate read back from the store)
    observed: tuple[Any, ...] | None = None
