"""The game service's shared state and helpers: callers, redacted events, summaries, submits.

:class:`ServicerBase` holds the application service, the redactor, the broadcaster and the
token book; the handler mixins (:mod:`service.api.creating`, :mod:`service.api.reads`,
:mod:`service.api.commands`, :mod:`service.api.undo`, :mod:`service.api.streams`) build on it.
"""

from __future__ import annotations

import json
from typing import Any

import grpc
import msgspec
from annales.v1 import annales_pb2 as pb

from domain.core.errors import RuleViolation
from domain.core.game import Command
from service.api.auth import Caller, TokenBook, bearer, identify
from service.api.convert import fill
from service.api.games import BY_NAME, ApiGame, typed_options
from service.api.inputs import MAX_ID, MAX_KEY, invalid, text
from service.api.judge import full_events
from service.api.redaction import Redactor
from service.api.status import ApiError
from service.api.viewcache import ViewCache, configured_entries
from service.api.watch import Broadcaster
from service.app.application import GameService


class ServicerBase:
    """State and helpers every game RPC handler uses."""

    def __init__(self, service: GameService, broadcaster: Broadcaster) -> None:
        self.service = service
        self.redactor = Redactor(service)
        self.broadcaster = broadcaster
        self.tokens = TokenBook(service.store)
        #: GetView answers by (game, ruleset, version, head version, reader)
        self.views = ViewCache(configured_entries())

    # -- helpers ----------------------------------------------------------------------------
    def _game(self, game_id: str) -> str:
        text(game_id, "game_id", MAX_ID)
        if "\x00" in game_id:  # PostgreSQL text cannot hold NUL: refuse it on every store
            raise invalid("game_id", "must not contain NUL characters")
        self.service.head(game_id)  # NOT_FOUND when unknown
        return game_id

    def _caller(self, game_id: str, context: grpc.ServicerContext) -> Caller:
        return identify(bearer(context.invocation_metadata()), game_id, self.tokens)

    def _reader(self, game_id: str, context: grpc.ServicerContext) -> Caller:
        """A seat or the judge (GetView, ListLegalActions); a spectator is refused."""
        caller = self._caller(game_id, context)
        if caller.seat is None and not caller.judge:
            raise ApiError(
                grpc.StatusCode.UNAUTHENTICATED,
                "TOKEN_REQUIRED",
                "This call reads for a seat: send 'authorization: Bearer <token>'.",
            )
        return caller

    def _seat(self, game_id: str, context: grpc.ServicerContext) -> int:
        caller = self._reader(game_id, context)
        if caller.seat is None:
            raise ApiError(
                grpc.StatusCode.PERMISSION_DENIED,
                "JUDGE_CANNOT_ACT",
                "The judge reads everything but never acts: use a seat token.",
            )
        return caller.seat

    def _events(self, game_id: str, caller: Caller, envelopes: list[Any]) -> list[pb.GameEvent]:
        """Events for ``caller``: redacted, or as recorded for the judge (under the lock)."""
        if caller.judge:
            return full_events(self.service, game_id, envelopes)
        result: list[pb.GameEvent] = self.redactor.outgoing(game_id, caller.viewer, envelopes)
        return result

    def _legal(self, match: Any, api: ApiGame, seat: int) -> tuple[list[pb.Action], bool]:
        """The seat's legal actions as messages (none while an undo request is open) and
        whether Undo would be accepted."""
        commands: list[Command] = []
        if match.kernel.undo_request is None:
            commands = match.game.legal_actions(match.state, seat)
        actions = []
        for command in commands:
            action = pb.Action()
            fill(getattr(action, api.field), msgspec.to_builtins(command), api.prefix)
            actions.append(action)
        try:
            match.own_undo_target(seat)
            can_undo = True
        except RuleViolation:
            can_undo = False
        return actions, can_undo

    @staticmethod
    def _pending(match: Any) -> pb.Pending:
        pending = match.game.pending(match.state)
        return pb.Pending(
            seats=list(pending.seats), decision=pending.decision, prompt=pending.prompt
        )

    def _summary(self, game_id: str, match: Any, head_version: int) -> pb.GameSummary:
        header = match.kernel.header
        game = match.game
        outcome = game.outcome(match.state)
        pending = game.pending(match.state)
        head = self.service.head(game_id)
        seed = head.kernel.seed or ""
        # the nonce is as secret as the seed and revealed with it (SeedRevealed)
        nonce = self.service.store.load_nonce(game_id) if seed else None
        status = (
            pb.GAME_STATUS_FINISHED
            if game.is_over(match.state)
            else (pb.GAME_STATUS_SETUP if game.is_setup(match.state) else pb.GAME_STATUS_RUNNING)
        )
        return pb.GameSummary(
            game_id=game_id,
            game_type=BY_NAME[header.game_type].game_type,
            ruleset=header.ruleset,
            seat_names=list(header.seat_names),
            version=match.version,
            head_version=head_version,
            status=status,
            pending=pb.Pending(
                seats=list(pending.seats), decision=pending.decision, prompt=pending.prompt
            ),
            scores=list(game.scores(match.state)),
            winners=list(outcome.winners) if outcome else [],
            seed_commitment=header.seed_commitment,
            seed=seed,
            nonce=nonce.hex() if nonce is not None else "",
            options_json=json.dumps(header.options, sort_keys=True),
            options=typed_options(header.game_type, header.options),
            parties=[
                pb.PartyScore(name=p.name, score=p.score, winner=p.winner)
                for p in game.parties(match.state)
            ],
            notes=list(game.notes(match.state)),
        )

    def _at(self, game_id: str, request: Any) -> Any:
        head = self.service.head(game_id)
        if request.HasField("version"):
            if not 1 <= request.version <= head.version:
                raise invalid("version", f"must be between 1 and {head.version}")
            return self.service.materialise(game_id, request.version).match
        return head

    @staticmethod
    def _expected(request: Any) -> int | None:
        if not request.HasField("expected_version"):
            return None
        if request.expected_version < 0:
            raise invalid("expected_version", "must not be negative")
        return int(request.expected_version)

    def _submit(
        self, game_id: str, seat: int, command: Any, expected: int | None, key: str
    ) -> tuple[int, list[pb.GameEvent], bool]:
        """Submit ``command`` for ``seat``; the version, the caller's events and duplicate."""
        text(key, "idempotency_key", MAX_KEY, required=False)
        result = self.service.submit(
            game_id, seat, command, expected, key or None, observe=self.redactor.observe
        )
        if result.duplicate and result.envelopes and result.envelopes[0].seat != seat:
            # Keys are per game: another seat's key must not pass for this seat's command
            # (found by the fuzzer: the caller was told its command had been applied).
            raise ApiError(
                grpc.StatusCode.INVALID_ARGUMENT,
                "IDEMPOTENCY_KEY_REUSED",
                "idempotency_key: already used by another seat in this game.",
                {"field": "idempotency_key"},
            )
        with self.service.lock(game_id):
            if result.observed is not None:  # the command's own fold: no second one
                events = self.redactor.submitted(game_id, seat, result.envelopes, result.observed)
            else:
                events = self._events(game_id, Caller(seat=seat), list(result.envelopes))
        return result.version, events, result.duplicate
