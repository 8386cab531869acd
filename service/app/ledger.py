"""A game's match together with its hash chain: turns decisions into sealed envelopes.

Both the application (live play) and the auditor (re-execution of a record in a fresh process)
use :class:`Ledger`, so the bytes a verifier recomputes are produced by the very same code.
No I/O here: callers store the envelopes.

**Seed commitments.** A game created with a ``nonce`` (every game the service creates: a fresh
32-byte secret, or for deterministic drivers :func:`~domain.core.chance.derived_nonce`)
commits to ``SHA-256(nonce || seed)`` and hashes digests of its idempotency keys
(``GameCreated.seed_commitment_scheme`` / ``key_digests``); the nonce is stored with the seed,
as secret, and revealed with it in ``SeedRevealed``. ``nonce=None`` re-creates a game of the
legacy kind (``SHA-256(seed)``, keys hashed as they are) — what re-executing an old record
needs. The nonce never reaches :class:`~domain.core.chance.Chance`: the same seed gives the
same game whatever the nonce.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from typing import Any

from domain.core.chance import LEGACY_COMMITMENT, SALTED_COMMITMENT, Chance, seed_commitment
from domain.core.codec import Codec
from domain.core.envelope import GENESIS, SYSTEM_SEAT, Envelope, key_digest, seal
from domain.core.game import Command, Event, Game
from domain.core.kernel_events import GameCreated
from domain.core.match import Match, Observer, StateAt
from domain.registry import codec_for, get_ruleset, resolve_ruleset

SETUP_COMMAND_ID = "setup"


class Ledger:
    """A :class:`~domain.core.match.Match` plus the last hash of its chain."""

    __slots__ = ("codec", "game", "game_id", "last_hash", "match")

    def __init__(
        self, game_id: str, game: Game[Any], codec: Codec, match: Match, last_hash: str
    ) -> None:
        self.game_id = game_id
        self.game = game
        self.codec = codec
        self.match = match
        self.last_hash = last_hash

    @property
    def version(self) -> int:
        """The version of the match (last sequence number)."""
        return self.match.version

    @property
    def salted(self) -> bool:
        """``True`` when the game commits to ``SHA-256(nonce || seed)`` (needs its nonce)."""
        header = self.match.kernel.header
        return header is not None and header.seed_commitment_scheme != LEGACY_COMMITMENT

    @property
    def key_digests(self) -> bool:
        """``True`` when the hash chain covers digests of idempotency keys."""
        header = self.match.kernel.header
        return header is not None and header.key_digests

    # -- creation -------------------------------------------------------------------------
    @classmethod
    def create(
        cls,
        game_id: str,
        game_type: str,
        options: dict[str, Any],
        seat_names: Sequence[str],
        seed: bytes,
        ruleset: str | None = None,
        nonce: bytes | None = None,
    ) -> tuple[Ledger, list[Envelope]]:
        """A new game: ``GameCreated`` then the game's setup events, all sealed.

        ``ruleset`` chooses one of the game's rulesets (default: its newest); ``nonce`` salts
        the seed commitment (``None``: the legacy unsalted kind, see the module). Raises
        ``msgspec.ValidationError`` for bad options, ``ValueError`` for a bad seat count and
        ``MalformedCommand`` for an unknown ruleset.
        """
        game = resolve_ruleset(game_type, ruleset)
        codec = codec_for(game)
        if not game.min_seats <= len(seat_names) <= game.max_seats:
            raise ValueError(
                f"{game_type} is played by {game.min_seats} to {game.max_seats} seats, "
                f"not {len(seat_names)}."
            )
        parsed = game.decode_options(options)
        normalised = game.recorded_options(parsed)
        header = GameCreated(
            game_type=game_type,
            ruleset=game.ruleset_version,
            options=normalised,
            seat_names=tuple(seat_names),
            seed_commitment=seed_commitment(seed, nonce),
            seed_commitment_scheme=LEGACY_COMMITMENT if nonce is None else SALTED_COMMITMENT,
            key_digests=nonce is not None,
        )
        match = Match(game, game.initial(parsed, len(seat_names)))
        ledger = cls(game_id, game, codec, match, GENESIS)
        envelopes = ledger.record([header], SETUP_COMMAND_ID, SYSTEM_SEAT, None, None, _no_undo)
        setup_events = game.setup(match.state, Chance(seed, match.version))
        envelopes += ledger.record(
            setup_events, SETUP_COMMAND_ID, SYSTEM_SEAT, None, None, _no_undo
        )
        return ledger, envelopes

    # -- play -----------------------------------------------------------------------------
    def submit(
        self,
        seat: int,
        command: Command,
        command_id: str,
        seed: bytes,
        state_at: StateAt,
        idempotency_key: str | None = None,
        nonce: bytes | None = None,
        observe: Observer | None = None,
    ) -> tuple[list[Event], list[Envelope]]:
        """Decide and fold ``command``; return its events and their sealed envelopes.

        ``nonce``: the game's secret nonce (required by a salted game: revealed with the seed
        when the command ends the game). ``observe``: called with each event and the state
        right after it (:meth:`~domain.core.match.Match.execute`). Raises ``RuleViolation``
        (nothing changed). On
        success the match has moved on; if the caller then fails to store the envelopes it
        must discard this ledger.
        """
        if self.salted and nonce is None:
            raise ValueError(f"game {self.game_id} has a salted commitment: its nonce is needed")
        start_version = self.match.version
        start_hash = self.last_hash
        events = self.match.execute(seat, command, command_id, seed, state_at, nonce, observe)
        envelopes = self._seal_all(
            events,
            start_version,
            start_hash,
            command_id,
            seat,
            self.codec.encode_command(command),
            idempotency_key,
        )
        return events, envelopes

    def record(
        self,
        events: Sequence[Event],
        command_id: str,
        seat: int,
        command: bytes | None,
        idempotency_key: str | None,
        state_at: StateAt,
    ) -> list[Envelope]:
        """Fold already-decided events (setup) and seal them."""
        start_version = self.match.version
        start_hash = self.last_hash
        seq = start_version
        for event in events:
            seq += 1
            self.match.apply(event, seq=seq, command_id=command_id, seat=seat, state_at=state_at)
        return self._seal_all(
            events, start_version, start_hash, command_id, seat, command, idempotency_key
        )

    def apply_envelope(self, envelope: Envelope, state_at: StateAt) -> Event:
        """Fold one stored envelope (replay; never needs the seed)."""
        event = self.codec.decode_event(envelope.kind, envelope.schema, envelope.payload)
        self.match.apply(
            event,
            seq=envelope.seq,
            command_id=envelope.command_id,
            seat=envelope.seat,
            state_at=state_at,
        )
        self.last_hash = envelope.hash
        return event

    def _seal_all(
        self,
        events: Sequence[Event],
        start_version: int,
        prev_hash: str,
        command_id: str,
        seat: int,
        command: bytes | None,
        idempotency_key: str | None,
    ) -> list[Envelope]:
        envelopes: list[Envelope] = []
        ruleset = self.game.ruleset_version
        for offset, event in enumerate(events):
            kind, schema, payload = self.codec.encode_event(event)
            first = offset == 0
            envelope = seal(
                game_id=self.game_id,
                seq=start_version + offset + 1,
                command_id=command_id,
                seat=seat,
                ruleset=ruleset,
                schema=schema,
                kind=kind,
                payload=payload,
                prev_hash=prev_hash,
                command=command if first else None,
                idempotency_key=idempotency_key if first else None,
                key_digest=(
                    key_digest(self.game_id, idempotency_key)
                    if first and idempotency_key is not None and self.key_digests
                    else None
                ),
            )
            envelopes.append(envelope)
            prev_hash = envelope.hash
        self.last_hash = prev_hash
        return envelopes

    # -- replay -----------------------------------------------------------------------------
    @classmethod
    def from_header(cls, game_id: str, header: GameCreated) -> Ledger:
        """An empty ledger for a game whose first event is ``header`` (not yet applied), under
        the ruleset the header names."""
        game = get_ruleset(header.ruleset)
        codec = codec_for(game)
        options = game.decode_options(header.options)
        match = Match(game, game.initial(options, len(header.seat_names)))
        return cls(game_id, game, codec, match, GENESIS)


def fresh_nonce() -> bytes:
    """A new random nonce for a game's seed commitment (32 bytes from the OS)."""
    return secrets.token_bytes(32)


def _no_undo(version: int) -> Any:
    raise RuntimeError("setup events never undo")


StateAtFactory = Callable[[int], Any]
