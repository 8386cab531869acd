"""``annales.v1.GameService`` on top of :class:`~service.app.application.GameService`.

Every RPC validates its input (INVALID_ARGUMENT naming the field, RESOURCE_EXHAUSTED for
oversized fields), resolves the caller (a seat, the judge or a spectator:
:func:`service.api.auth.identify`) from the bearer token, reads under the game's lock, and
builds every outgoing payload through :meth:`Redactor.outgoing` — except the judge's
unredacted events and record (:mod:`service.api.judge`).
"""

from __future__ import annotations

import contextlib
import json
import logging
import time
import uuid
from collections.abc import Iterator
from typing import Any, TypeVar

import grpc
import msgspec
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc as pb_grpc
from eventsourcing.persistence import IntegrityError

from domain.core.errors import MalformedCommand, RuleViolation
from domain.core.game import Command
from domain.core.kernel_events import RequestUndo, RespondUndo, Undo
from domain.registry import GAMES, resolve_ruleset, rulesets_of
from service.api import creation
from service.api.auth import (
    Caller,
    TokenBook,
    bearer,
    identify,
    new_judge_token,
    new_tokens,
    token_hash,
)
from service.api.calls import typed_calls
from service.api.convert import fill, read
from service.api.games import BY_NAME, BY_TYPE, ApiGame, typed_options
from service.api.judge import full_events, seat_views
from service.api.messages import field_path, sentence
from service.api.redaction import JudgeRecordRequest, RecordRequest, Redactor, StateRequest
from service.api.status import ApiError, abort, from_service_error
from service.api.verification import verify_response
from service.api.watch import Broadcaster
from service.app.application import CreatedGame, GameService
from service.app.errors import InvalidArgument, ServiceError
from service.app.ledger import SETUP_COMMAND_ID
from service.audit.records import verify_record

log = logging.getLogger("annales.api")

MAX_ID = 128
MAX_NAME = 64
MAX_SEED = 256
MAX_KEY = 128
MAX_RECORD = 32 * 1024 * 1024
DEFAULT_PAGE = 100
MAX_PAGE = 1000

R = TypeVar("R")


def _invalid(field: str, message: str) -> ApiError:
    return ApiError(
        grpc.StatusCode.INVALID_ARGUMENT, "INVALID_FIELD", f"{field}: {message}", {"field": field}
    )


def _too_large(field: str, limit: int) -> ApiError:
    return ApiError(
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        "TOO_LARGE",
        f"{field}: longer than {limit}.",
        {"field": field, "limit": str(limit)},
    )


def _text(value: str, field: str, limit: int, required: bool = True) -> str:
    if len(value) > limit:
        raise _too_large(field, limit)
    if required and not value:
        raise _invalid(field, "is required")
    return value


def _is_number(text: str) -> bool:
    """ASCII digits only (``str.isdigit`` also accepts ``"²"``, which ``int()`` refuses)."""
    return text.isascii() and text.isdigit()


#: typed statuses and one log line per call; a game's cached head is checked once per call
rpc = typed_calls("game_id", scope=lambda servicer: servicer.service.request_scope())


class Servicer(pb_grpc.GameServiceServicer):
    """RPC handlers (see ``proto/annales/v1/annales.proto``)."""

    def __init__(self, service: GameService, broadcaster: Broadcaster) -> None:
        self.service = service
        self.redactor = Redactor(service)
        self.broadcaster = broadcaster
        self.tokens = TokenBook(service.store)

    # -- helpers ----------------------------------------------------------------------------
    def _game(self, game_id: str) -> str:
        _text(game_id, "game_id", MAX_ID)
        if "\x00" in game_id:  # PostgreSQL text cannot hold NUL: refuse it on every store
            raise _invalid("game_id", "must not contain NUL characters")
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
                raise _invalid("version", f"must be between 1 and {head.version}")
            return self.service.materialise(game_id, request.version).match
        return head

    @staticmethod
    def _expected(request: Any) -> int | None:
        if not request.HasField("expected_version"):
            return None
        if request.expected_version < 0:
            raise _invalid("expected_version", "must not be negative")
        return int(request.expected_version)

    def _submit(
        self, game_id: str, seat: int, command: Any, expected: int | None, key: str
    ) -> tuple[int, list[pb.GameEvent], bool]:
        """Submit ``command`` for ``seat``; the version, the caller's events and duplicate."""
        _text(key, "idempotency_key", MAX_KEY, required=False)
        result = self.service.submit(game_id, seat, command, expected, key or None)
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
            events = self._events(game_id, Caller(seat=seat), list(result.envelopes))
        return result.version, events, result.duplicate

    # -- RPCs -------------------------------------------------------------------------------
    @rpc
    def CreateGame(
        self, request: pb.CreateGameRequest, context: grpc.ServicerContext
    ) -> pb.CreateGameResponse:
        api = BY_TYPE.get(request.game_type)
        if api is None:
            raise _invalid("game_type", "unknown or unspecified game type")
        names = [_text(name, "seat_names", MAX_NAME) for name in request.seat_names]
        game = GAMES[api.name]
        if not game.min_seats <= len(names) <= game.max_seats:
            raise _invalid(
                "seat_names",
                f"a {api.name} game is played by {game.min_seats} to {game.max_seats} seats "
                f"(one name each), not {len(names)}",
            )
        seed = _text(request.seed, "seed", MAX_SEED, required=False)
        ruleset = _text(request.ruleset, "ruleset", MAX_NAME, required=False)
        if ruleset and ruleset not in rulesets_of(api.name):
            known = ", ".join(rulesets_of(api.name))
            raise _invalid("ruleset", f"unknown ruleset {ruleset!r} of {api.name}; known: {known}")
        options = self._options(request, api, ruleset)
        key = _text(request.idempotency_key, "idempotency_key", creation.MAX_KEY, required=False)
        if not key:
            created = self._create(api, options, names, seed, None, ruleset)
            game_id = created.game_id
            tokens = new_tokens(game_id, len(names))
            return self._created(game_id, tokens, new_judge_token(game_id), created.version)
        if len(key) < creation.MIN_KEY:
            raise _invalid(
                "idempotency_key", f"use at least {creation.MIN_KEY} characters (a random UUID)"
            )
        fingerprint = creation.fingerprint(api.name, options, names, seed, ruleset)
        held = creation.load_claim(self.service.store, key)
        if held is None:
            game_id = uuid.uuid4().hex
            wanted = creation.Claim(
                fingerprint, game_id, tuple(new_tokens(game_id, len(names))),
                new_judge_token(game_id),
            )  # fmt: skip
            held, _ = creation.claim(self.service.store, key, wanted)
        creation.check_same(held, fingerprint)
        if not self.service.store.last_seq(held.game_id):
            try:  # first attempt, or one that died between claim and creation
                self._create(api, options, names, seed, held.game_id, ruleset)
            except ApiError:
                raise
            except Exception:  # a concurrent identical request created it first
                if not creation.wait_for_game(self.service.store, held.game_id):
                    raise
        return self._created(held.game_id, list(held.seat_tokens), held.judge_token)

    def _create(
        self, api: ApiGame, options: dict[str, Any], names: list[str], seed: str,
        game_id: str | None, ruleset: str,
    ) -> CreatedGame:  # fmt: skip
        """Create the game; a setup the game refuses (e.g. Imperium nations) is INVALID_FIELD
        naming the game's options."""
        try:
            return self.service.create_game(
                api.name, options, names, seed.encode() if seed else None, game_id,
                ruleset=ruleset or None,
            )  # fmt: skip
        except InvalidArgument as error:
            raise ApiError(
                grpc.StatusCode.INVALID_ARGUMENT,
                "INVALID_FIELD",
                sentence(error.message),
                {"field": f"options.{api.field}"},
            ) from error

    def _options(self, request: pb.CreateGameRequest, api: ApiGame, ruleset: str) -> dict[str, Any]:
        """The request's options as plain data, checked by the chosen ruleset (INVALID_FIELD
        with the field path, e.g. ``options.rise_and_fall.trophies``, and a sentence)."""
        if not request.HasField("options"):
            return {}
        which = request.options.WhichOneof("game")
        if which not in (None, api.field):
            raise _invalid("options", f"options of {which} for a {api.name} game")
        if which is None:
            return {}
        options: dict[str, Any] = read(getattr(request.options, which), api.prefix)
        # an empty repeated field is unset in proto3: the ruleset's default, and no key (an
        # option the chosen ruleset lacks is refused only when given)
        options = {key: value for key, value in options.items() if value != []}
        try:
            resolve_ruleset(api.name, ruleset or None).decode_options(options)
        except MalformedCommand as error:  # an option key the ruleset does not know
            raise ApiError(
                grpc.StatusCode.INVALID_ARGUMENT,
                "INVALID_FIELD",
                sentence(error.message),
                {"field": f"options.{api.field}"},
            ) from error
        except (msgspec.ValidationError, ValueError) as error:
            path = field_path(str(error))
            field = f"options.{api.field}" + (f".{path}" if path else "")
            raise ApiError(
                grpc.StatusCode.INVALID_ARGUMENT,
                "INVALID_FIELD",
                f"options.{api.field}.{sentence(str(error))}" if path else sentence(str(error)),
                {"field": field},
            ) from error
        return options

    def _created(
        self, game_id: str, tokens: list[str], judge: str, version: int | None = None
    ) -> pb.CreateGameResponse:
        """Store the token hashes (once: a retry finds them) and answer CreateGame with the
        version after setup (``version``, or read from the log for a retried creation)."""
        if not self.service.store.load_token_hashes(game_id):
            with contextlib.suppress(IntegrityError):  # a concurrent retry stored them
                self.service.store.save_token_hashes(game_id, [token_hash(t) for t in tokens])
        self.tokens.save_judge_hash(game_id, token_hash(judge))
        header = self.service.header(game_id)
        names = list(header.seat_names)
        if version is None:
            version = 0
            for envelope in self.service.events(game_id, limit=10_000):
                if envelope.command_id != SETUP_COMMAND_ID:
                    break
                version = envelope.seq
        return pb.CreateGameResponse(
            game_id=game_id,
            seed_commitment=header.seed_commitment,
            version=version,
            judge_token=judge,
            seat_tokens=[
                pb.SeatToken(seat=i, name=n, token=t)
                for i, (n, t) in enumerate(zip(names, tokens, strict=True))
            ],
        )

    @rpc
    def GetGame(
        self, request: pb.GetGameRequest, context: grpc.ServicerContext
    ) -> pb.GetGameResponse:
        game_id = self._game(request.game_id)
        self._caller(game_id, context)  # a token, when sent, must be valid
        with self.service.lock(game_id):
            match = self._at(game_id, request)
            head_version = self.service.head(game_id).version
            view = self.redactor.outgoing(game_id, None, StateRequest(match.state))
            return pb.GetGameResponse(game=self._summary(game_id, match, head_version), view=view)

    @rpc
    def GetView(
        self, request: pb.GetViewRequest, context: grpc.ServicerContext
    ) -> pb.GetViewResponse:
        game_id = self._game(request.game_id)
        caller = self._finished_seat(game_id, request, context)
        with self.service.lock(game_id):
            match = self._at(game_id, request)
            head_version = self.service.head(game_id).version
            view = self.redactor.outgoing(game_id, caller.viewer, StateRequest(match.state))
            summary = self._summary(game_id, match, head_version)
            if caller.judge:
                seats = len(summary.seat_names)
                return pb.GetViewResponse(
                    game=summary, seat=-1, view=view, judge=True,
                    seat_views=seat_views(self.redactor, game_id, match.state, seats),
                )  # fmt: skip
            return pb.GetViewResponse(game=summary, seat=caller.seat, view=view)

    def _finished_seat(
        self, game_id: str, request: pb.GetViewRequest, context: grpc.ServicerContext
    ) -> Caller:
        """GetView's caller: a token's seat or the judge; without a token, the requested
        ``seat`` of a finished game (its record and seed are public by then)."""
        if not request.HasField("seat"):
            return self._reader(game_id, context)
        caller = self._caller(game_id, context)
        if caller.seat is not None or caller.judge:
            if caller.seat != request.seat:
                raise _invalid("seat", "a token reads its own seat: leave `seat` unset")
            return caller
        head = self.service.head(game_id)
        if not 0 <= request.seat < len(self.service.header(game_id).seat_names):
            raise _invalid("seat", f"no seat {request.seat} in this game")
        if not head.game.is_over(head.state):
            raise ApiError(
                grpc.StatusCode.FAILED_PRECONDITION,
                "GAME_NOT_FINISHED",
                "A seat's view without its token is readable only once the game is over.",
            )
        return Caller(seat=request.seat)

    @rpc
    def ListLegalActions(
        self, request: pb.ListLegalActionsRequest, context: grpc.ServicerContext
    ) -> pb.ListLegalActionsResponse:
        game_id = self._game(request.game_id)
        caller = self._reader(game_id, context)
        with self.service.lock(game_id):
            match = self.service.head(game_id)
            api = BY_NAME[self.service.header(game_id).game_type]
            request_open = match.kernel.undo_request
            response = pb.ListLegalActionsResponse(
                seat=-1 if caller.seat is None else caller.seat,
                version=match.version,
                pending=self._pending(match),
            )
            if caller.seat is None:  # the judge: never acts
                return response
            seat = caller.seat
            actions, can_undo = self._legal(match, api, seat)
            response.actions.extend(actions)
            response.can_undo = can_undo
            response.undo_versions.extend(match.undo_boundaries() if request_open is None else [])
            response.undo_answer_expected = (
                request_open is not None
                and seat != request_open.by
                and seat not in request_open.approvals
            )
            return response

    @rpc
    def SubmitAction(
        self, request: pb.SubmitActionRequest, context: grpc.ServicerContext
    ) -> pb.SubmitActionResponse:
        game_id = self._game(request.game_id)
        seat = self._seat(game_id, context)
        header = self.service.header(game_id)
        api = BY_NAME[header.game_type]
        which = request.action.WhichOneof("game") if request.HasField("action") else None
        if which is None:
            raise _invalid("action", "is required")
        if which != api.field:
            raise _invalid("action", f"a {which} action for a {api.name} game")
        try:
            data = read(getattr(request.action, which), api.prefix)
            command = self.service.codec(game_id).command_from_data(data)
        except (MalformedCommand, ValueError) as error:
            raise ApiError(
                grpc.StatusCode.INVALID_ARGUMENT,
                "MALFORMED_ACTION",
                f"action: {error}",
                {"field": "action"},
            ) from error
        expected = self._expected(request)
        version, events, duplicate = self._submit(
            game_id, seat, command, expected, request.idempotency_key
        )
        response = pb.SubmitActionResponse(version=version, events=events, duplicate=duplicate)
        with self.service.lock(game_id):
            head = self.service.head(game_id)
            match = head if head.version == version else self.service.materialise(
                game_id, version
            ).match  # fmt: skip
            response.pending.CopyFrom(self._pending(match))
            if request.include_next_actions and match is head and seat in response.pending.seats:
                response.next_actions.extend(self._legal(match, api, seat)[0])
        return response

    @rpc
    def Undo(self, request: pb.UndoRequest, context: grpc.ServicerContext) -> pb.UndoResponse:
        game_id = self._game(request.game_id)
        seat = self._seat(game_id, context)
        expected = self._expected(request)
        version, events, _ = self._submit(game_id, seat, Undo(), expected, request.idempotency_key)
        return pb.UndoResponse(version=version, events=events)

    @rpc
    def RequestUndo(
        self, request: pb.RequestUndoRequest, context: grpc.ServicerContext
    ) -> pb.RequestUndoResponse:
        game_id = self._game(request.game_id)
        seat = self._seat(game_id, context)
        if request.to_version < 0:
            raise _invalid("to_version", "must not be negative")
        version, events, _ = self._submit(
            game_id, seat, RequestUndo(to_version=request.to_version), None, request.idempotency_key
        )
        return pb.RequestUndoResponse(version=version, events=events)

    @rpc
    def RespondUndo(
        self, request: pb.RespondUndoRequest, context: grpc.ServicerContext
    ) -> pb.RespondUndoResponse:
        game_id = self._game(request.game_id)
        seat = self._seat(game_id, context)
        version, events, _ = self._submit(
            game_id, seat, RespondUndo(approve=request.approve), None, request.idempotency_key
        )
        return pb.RespondUndoResponse(version=version, events=events)

    def WatchGame(
        self, request: pb.WatchGameRequest, context: grpc.ServicerContext
    ) -> Iterator[pb.WatchGameResponse]:
        """Stream events after ``after_version``; ends after the game's final event."""
        start = time.perf_counter()
        sent = 0
        try:
            for response in self._watch(request, context):
                sent += len(response.events)
                yield response
        finally:
            log.info(json.dumps({
                "rpc": "WatchGame", "game_id": request.game_id[:MAX_ID], "events": sent,
                "code": "OK" if context.code() is None else str(context.code()),
                "ms": round((time.perf_counter() - start) * 1000, 2),
            }))  # fmt: skip

    def _watch(self, request: pb.WatchGameRequest,
               context: grpc.ServicerContext) -> Iterator[pb.WatchGameResponse]:  # fmt: skip
        try:
            game_id = self._game(request.game_id)
            caller = self._caller(game_id, context)
            if request.after_version < 0:
                raise _invalid("after_version", "must not be negative")
        except ApiError as error:
            abort(context, error)
        except ServiceError as error:
            abort(context, from_service_error(error))
        last = request.after_version
        while context.is_active() and not self.broadcaster.closed:
            envelopes = self.service.store.read(game_id, after=last, limit=500)
            if envelopes:
                with self.service.lock(game_id):
                    events = self._events(game_id, caller, envelopes)
                last = envelopes[-1].seq
                yield pb.WatchGameResponse(events=events, version=last)
                if envelopes[-1].kind == "SeedRevealed":
                    return
                continue
            with self.service.lock(game_id):
                # unchecked: a stale head never has a seed the store lacks (no extra query)
                head = self.service.head(game_id, check=False)
                if head.kernel.seed is not None and head.version <= last:
                    return
            self.broadcaster.wait(game_id, last)

    @rpc
    def GetHistory(
        self, request: pb.GetHistoryRequest, context: grpc.ServicerContext
    ) -> pb.GetHistoryResponse:
        game_id = self._game(request.game_id)
        caller = self._caller(game_id, context)
        if request.page_size < 0:
            raise _invalid("page_size", "must not be negative")
        size = min(request.page_size or DEFAULT_PAGE, MAX_PAGE)
        after = 0
        if request.page_token:
            _text(request.page_token, "page_token", 32)
            # at most 18 digits: a larger offset overflows the stores' 64-bit integers
            if not _is_number(request.page_token) or len(request.page_token) > 18:
                raise _invalid("page_token", "not a token returned by GetHistory")
            after = int(request.page_token)
        envelopes = self.service.events(game_id, after=after, limit=size)
        with self.service.lock(game_id):
            events = self._events(game_id, caller, envelopes)
            head = self.service.head(game_id).version
        last = envelopes[-1].seq if envelopes else after
        return pb.GetHistoryResponse(
            events=events, next_page_token=str(last) if last < head else ""
        )

    @rpc
    def ExportRecord(
        self, request: pb.ExportRecordRequest, context: grpc.ServicerContext
    ) -> pb.ExportRecordResponse:
        game_id = self._game(request.game_id)
        caller = self._caller(game_id, context)
        with self.service.lock(game_id):
            if caller.judge:
                record = self.redactor.outgoing(game_id, None, JudgeRecordRequest())
                return pb.ExportRecordResponse(record=record, complete=True, full=True)
            record, complete = self.redactor.outgoing(game_id, caller.viewer, RecordRequest())
        return pb.ExportRecordResponse(record=record, complete=complete)

    @rpc
    def VerifyRecord(
        self, request: pb.VerifyRecordRequest, context: grpc.ServicerContext
    ) -> pb.VerifyRecordResponse:
        if len(request.record) > MAX_RECORD:
            raise _too_large("record", MAX_RECORD)
        if not request.record:
            raise _invalid("record", "is required")
        return verify_response(verify_record(request.record.split(b"\n")))

    @rpc
    def ListGames(
        self, request: pb.ListGamesRequest, context: grpc.ServicerContext
    ) -> pb.ListGamesResponse:
        readmodels = getattr(self, "readmodels", None)  # set by server.start with projections
        if readmodels is not None:
            return readmodels.list_games(request)  # type: ignore[no-any-return]
        if request.page_size < 0:
            raise _invalid("page_size", "must not be negative")
        size = min(request.page_size or 50, 500)
        offset = 0
        if request.page_token:
            if not _is_number(request.page_token) or len(request.page_token) > 12:
                raise _invalid("page_token", "not a token returned by ListGames")
            offset = int(request.page_token)
        wanted = BY_TYPE.get(request.game_type) if request.game_type else None
        if request.game_type and wanted is None:
            raise _invalid("game_type", "unknown game type")
        ids = list(reversed(self.service.store.game_ids()))
        if wanted is not None:
            ids = [g for g in ids if self.service.header(g).game_type == wanted.name]
        if request.player:
            ids = [g for g in ids if request.player in self.service.header(g).seat_names]
        if request.status:
            ids = [
                g for g in ids if self._summary(g, self.service.head(g), 0).status == request.status
            ]
        page = ids[offset : offset + size]
        games = []
        for game_id in page:
            with self.service.lock(game_id):
                head = self.service.head(game_id)
                games.append(self._summary(game_id, head, head.version))
        more = offset + size < len(ids)
        return pb.ListGamesResponse(games=games, next_page_token=str(offset + size) if more else "")


class Diagnostics(pb_grpc.DiagnosticsServiceServicer):
    """Echo RPCs: the baselines of the benchmarks."""

    def Echo(self, request: pb.EchoRequest, context: grpc.ServicerContext) -> pb.EchoResponse:
        """Return the payload."""
        return pb.EchoResponse(payload=request.payload)

    def EchoStream(
        self, request: pb.EchoStreamRequest, context: grpc.ServicerContext
    ) -> Iterator[pb.EchoResponse]:
        """Stream ``count`` copies of the payload."""
        for _ in range(min(max(request.count, 0), 1_000_000)):
            yield pb.EchoResponse(payload=request.payload)
