"""The fuzzer: resolves symbolic cases against live games, sends them as bytes, checks.

Every call — structured or raw — goes through one generic channel call with no serializer
(``channel.unary_unary(method, request_serializer=None, response_deserializer=None)``), so
the server always receives bytes and the fuzzer parses them itself exactly as the server
will, to know what to expect.
"""

from __future__ import annotations

import contextlib
import itertools
from collections import Counter
from typing import Any

import grpc
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tests.fuzz.cases import METHODS, MUTATING, STREAMING, Call, Creds, Raw
from tests.fuzz.oracle import (
    MAX_RECEIVE,
    FuzzFailure,
    G,
    LiveGame,
    Outcome,
    api_of,
    authentic_seat,
    check_command,
    check_read,
    check_token,
    check_typed,
    outcome_of,
    parse,
)
from tests.fuzz.values import I64, replacement

WATCH_WAIT = 0.2  # seconds a WatchGame case waits for its first message
CALL_TIMEOUT = 60.0
POOL = 8  # live games the cases pick from


class Fuzzer:
    """Runs fuzz cases on one channel; ``stats`` counts (method, status) pairs."""

    def __init__(self, channel: grpc.Channel) -> None:
        self.channel = channel
        self.stub = annales_pb2_grpc.GameServiceStub(channel)  # type: ignore[no-untyped-call]
        self.health = health_pb2_grpc.HealthStub(channel)
        self.games: list[LiveGame] = []
        self.by_id: dict[str, LiveGame] = {}
        #: every token the server issued to the fuzzer: token -> (game id, seat; -1: judge)
        self.token_owner: dict[str, tuple[str, int]] = {}
        #: malformed-token cases checked, by the reason expected
        self.token_cases: Counter[str] = Counter()
        self.legal_cache: dict[tuple[str, int, int], pb.ListLegalActionsResponse] = {}
        self.records: dict[str, tuple[int, bytes]] = {}  # game id -> (version, record)
        self.stats: Counter[tuple[str, str]] = Counter()
        self.cases = 0
        self._keys = itertools.count()
        self._calls: dict[str, Any] = {}

    # -- games ------------------------------------------------------------------------------
    def create(self, game_type: Any, seats: int, seed: str) -> LiveGame:
        """Create a game through the API and follow it."""
        answer = self.stub.CreateGame(
            pb.CreateGameRequest(
                game_type=game_type, seat_names=[f"fz{i}" for i in range(seats)], seed=seed
            ),
            timeout=CALL_TIMEOUT,
        )
        return self._register(answer, game_type)

    def _register(self, answer: pb.CreateGameResponse, game_type: int) -> LiveGame:
        api = api_of(game_type)
        assert api is not None
        known = self.by_id.get(answer.game_id)
        if known is not None:  # a creation retried with its idempotency key: the same game
            return known
        tokens = [t.token for t in sorted(answer.seat_tokens, key=lambda t: t.seat)]
        live = LiveGame(answer.game_id, api, tokens, answer.version, judge=answer.judge_token)
        self.by_id[live.game_id] = live
        for seat, token in enumerate(tokens):
            self.token_owner[token] = (live.game_id, seat)
        self.token_owner[answer.judge_token] = (live.game_id, -1)
        if len(self.games) < POOL:
            self.games.append(live)
        return live

    def legal(self, live: LiveGame, seat: int) -> pb.ListLegalActionsResponse:
        """``seat``'s legal actions at the known version (cached per version)."""
        key = (live.game_id, live.version, seat)
        cached = self.legal_cache.get(key)
        if cached is None:
            cached = self.stub.ListLegalActions(
                pb.ListLegalActionsRequest(game_id=live.game_id),
                metadata=live.md(seat),
                timeout=CALL_TIMEOUT,
            )
            if cached.version != live.version:
                raise FuzzFailure(f"game moved: at {cached.version}, known {live.version}")
            if len(self.legal_cache) > 256:  # old versions are never asked again
                self.legal_cache.clear()
            self.legal_cache[key] = cached
        return cached

    def pending(self, live: LiveGame) -> int:
        """A seat that may act now (seat 0 when nobody may)."""
        seats = list(self.legal(live, 0).pending.seats)
        return seats[0] if seats else 0

    # -- resolution -------------------------------------------------------------------------
    def _creds(self, creds: Creds, live: LiveGame | None) -> tuple[tuple[str, str], ...]:
        game = live or self.games[0]
        kind = creds.kind
        if kind == "none":
            return ()
        if kind == "raw":
            return (("authorization", creds.text.strip() or "x"),)
        if kind == "other_game":
            others = [g for g in self.games if g is not game] or [game]
            other = others[creds.index % len(others)]
            return other.md(creds.index % other.seats)
        if kind == "pending":
            return game.md(self.pending(game))
        if kind == "answerer":  # a seat whose answer to an open undo request is awaited
            waiting = [s for s in range(game.seats) if self.legal(game, s).undo_answer_expected]
            return game.md(waiting[creds.index % len(waiting)] if waiting else self.pending(game))
        if kind == "judge":
            return (("authorization", f"Bearer {game.judge}"),)
        if kind == "idle":
            return game.md((self.pending(game) + 1) % game.seats)
        if kind == "seat":
            return game.md(creds.index % game.seats)
        others = [g for g in self.games if g is not game] or [game]
        other = others[creds.index % len(others)]
        token = game.tokens[0]
        if kind == "forged":
            token = token[:-4] + ("AAAA" if not token.endswith("AAAA") else "BBBB")
        elif kind == "truncated":
            token = token[: min(creds.index, len(token) - 1)] or "t"
        elif kind == "garbage":
            token = creds.text
        elif kind == "wrong_prefix":
            token = "x" + token
        elif kind == "foreign_secret":
            token = other.game_id + token[len(game.game_id) :]
        elif kind == "other_judge":
            token = other.judge or token
        elif kind == "forged_judge":
            token = f"{game.game_id}.judge.{token.rsplit('.', 1)[1]}"
        else:  # renumbered
            token = token.replace(".0.", f".{creds.index}.", 1)
        return (("authorization", f"Bearer {token}"),)

    def _version(self, call: Call, request: Any, live: LiveGame | None, metadata: Any) -> None:
        names = {
            G + "SubmitAction": "expected_version",
            G + "Undo": "expected_version",
            G + "RequestUndo": "to_version",
            G + "GetGame": "version",
            G + "GetView": "version",
            G + "WatchGame": "after_version",
        }
        name = names.get(call.method)
        if call.version is None or name is None:
            return
        current = live.version if live is not None else 0
        kind, value = call.version.kind, call.version.value
        if kind == "unset":
            request.ClearField(name)
            return
        number = current if kind == "current" else current + value if kind == "delta" else value
        if kind == "undo" and live is not None:  # a version the seat may ask to go back to
            seat = authentic_seat(metadata, live)
            seat = self.pending(live) if seat is None else seat
            options = list(self.legal(live, seat).undo_versions)
            number = options[value % len(options)] if options else max(current - 1, 0)
        setattr(request, name, max(I64[0], min(I64[1], number)))

    def _action(
        self, call: Call, request: Any, live: LiveGame | None, seat: int | None, key: str
    ) -> None:
        spec = call.action
        if spec is None or call.method != G + "SubmitAction":
            return
        if spec.kind == "none":
            request.ClearField("action")
            return
        if spec.kind == "random" or live is None:
            if spec.message is not None:
                request.action.CopyFrom(spec.message)
            return
        acting = seat if seat is not None else self.pending(live)
        if spec.kind == "replay" and key in live.keys:
            replayed = live.keys[key].action
            if replayed is not None and replayed.WhichOneof("game"):
                request.action.CopyFrom(replayed)
                return
        if spec.kind == "other_seat":
            acting = (acting + 1 + spec.index) % live.seats
        actions = self.legal(live, acting).actions or self.legal(live, self.pending(live)).actions
        if not actions:
            return
        request.action.CopyFrom(actions[spec.index % len(actions)])
        if spec.kind == "mutated":
            leaves = list(_leaves(request.action))
            if leaves:
                message, field = leaves[spec.path % len(leaves)]
                _assign(message, field, replacement(field, spec.pick, spec.text))

    def resolve(self, call: Call) -> tuple[bytes, tuple[tuple[str, str], ...]]:
        """The request bytes and metadata of a structured case."""
        request = type(call.request)()
        request.CopyFrom(call.request)
        live: LiveGame | None = None
        has_id = "game_id" in request.DESCRIPTOR.fields_by_name
        target = call.target
        if target.kind == "known" and self.games:
            live = self.games[target.index % len(self.games)]
        if has_id:
            if live is not None:
                request.game_id = live.game_id
            elif target.kind in ("unknown", "empty"):
                request.game_id = target.text
            live = self.by_id.get(request.game_id)
        metadata = self._creds(call.creds, live)
        self._version(call, request, live, metadata)
        key = ""
        if call.key is not None:
            kind = call.key.kind
            if kind == "fresh":
                key = f"fz-{next(self._keys)}"
            elif kind == "text":
                key = call.key.text
            elif kind == "reuse":
                known = sorted(live.keys) if live is not None else []
                key = known[call.key.index % len(known)] if known else f"fz-{next(self._keys)}"
            request.idempotency_key = key
        self._action(call, request, live, authentic_seat(metadata, live), key)
        if call.method == G + "VerifyRecord" and call.action is not None and self.games:
            request.record = self._mutated_record(call)
        return request.SerializeToString(), metadata

    def _mutated_record(self, call: Call) -> bytes:
        assert call.action is not None
        live = self.games[call.target.index % len(self.games)]
        version, record = self.records.get(live.game_id, (-1, b""))
        if version != live.version:
            record = self.stub.ExportRecord(
                pb.ExportRecordRequest(game_id=live.game_id), timeout=CALL_TIMEOUT
            ).record
            self.records[live.game_id] = (live.version, record)
        data = bytearray(record)
        if data:
            data[call.action.path % len(data)] = call.action.pick % 256
        return bytes(data)

    # -- calls ------------------------------------------------------------------------------
    def invoke(self, method: str, payload: bytes, metadata: Any, waiting: bool = False) -> Outcome:
        """Send ``payload`` to ``method``; the status and the first response's bytes
        (``waiting``: a stream expected to wait for events, given :data:`WATCH_WAIT`)."""
        streaming = method in STREAMING
        call = self._calls.get(method)
        if call is None:
            factory = self.channel.unary_stream if streaming else self.channel.unary_unary
            call = self._calls[method] = factory(method)
        if not streaming:
            try:
                return Outcome(
                    grpc.StatusCode.OK,
                    response=call(payload, metadata=metadata, timeout=CALL_TIMEOUT),
                )
            except grpc.RpcError as error:
                return outcome_of(error)
        stream = call(payload, metadata=metadata, timeout=WATCH_WAIT if waiting else CALL_TIMEOUT)
        try:
            first = next(stream, None)
            return Outcome(grpc.StatusCode.OK, response=first)
        except grpc.RpcError as error:
            return outcome_of(error)
        finally:
            stream.cancel()

    def run(self, case: Call | Raw) -> None:
        """Run one case and check everything the oracle knows (raises FuzzFailure)."""
        if isinstance(case, Raw):
            if case.mutate_from is not None:
                method = case.mutate_from.method
                payload, metadata = self.resolve(case.mutate_from)
                data = bytearray(payload)
                for position, byte in case.flips:
                    if data:
                        data[position % len(data)] = byte
                if case.cut is not None:
                    data = data[: case.cut]
                payload = bytes(data) + case.extra
            else:
                method, payload = case.method, case.payload
                metadata = self._creds(case.creds, None)
        else:
            method = case.method
            payload, metadata = self.resolve(case)
        self.send(method, payload, metadata)

    def send(self, method: str, payload: bytes, metadata: Any) -> Outcome:
        """Send one request (bytes) and check the answer."""
        request_type, response_type = METHODS[method]
        self.cases += 1
        request: Any = parse(request_type, payload) if len(payload) <= MAX_RECEIVE else None
        live = None
        if request is not None and "game_id" in request.DESCRIPTOR.fields_by_name:
            live = self.by_id.get(request.game_id)
        seat = authentic_seat(metadata, live)
        legal = self.legal(live, seat) if method in MUTATING and live and seat is not None else None
        waiting = (
            method == G + "WatchGame"
            and request is not None
            and live is not None
            and request.after_version >= live.version
        )
        outcome = self.invoke(method, payload, metadata, waiting)
        self.stats[(method.rsplit("/", 1)[1], outcome.code.name)] += 1
        where = f"{method} ({len(payload)} bytes"
        if live is not None:
            where += f", {live.api.name} game at version {live.version}"
        where += "): "
        try:
            check_typed(method, payload, outcome, waiting)
            checked = check_token(method, metadata, live, self.token_owner, outcome)
            if checked is not None:
                self.token_cases[checked] += 1
            if request is None:
                if len(payload) <= MAX_RECEIVE and (
                    outcome.code != grpc.StatusCode.INVALID_ARGUMENT
                    or outcome.reason != "MALFORMED_REQUEST"
                ):
                    raise FuzzFailure(f"unparsable bytes answered {outcome.code.name}")
                return outcome
            if method in MUTATING:
                check_command(method, request, metadata, live, legal, outcome, response_type)
            else:
                check_read(method, request, metadata, live, outcome, response_type, set(self.by_id))
            if method == G + "CreateGame" and outcome.code == grpc.StatusCode.OK:
                assert outcome.response is not None
                self._register(
                    pb.CreateGameResponse.FromString(outcome.response), request.game_type
                )
        except FuzzFailure as error:
            raise FuzzFailure(where + str(error) + f"\nrequest: {str(request)[:600]}") from None
        return outcome

    # -- whole-server checks ----------------------------------------------------------------
    def check_store(self, everything: bool = False) -> None:
        """The server is SERVING and every game of the pool (``everything``: every game
        created) is at its known version."""
        answer = self.health.Check(health_pb2.HealthCheckRequest(service=""), timeout=10)
        if answer.status != health_pb2.HealthCheckResponse.SERVING:
            raise FuzzFailure(f"health: {answer.status}")
        for live in self.by_id.values() if everything else self.games:
            head = self.stub.GetGame(pb.GetGameRequest(game_id=live.game_id), timeout=CALL_TIMEOUT)
            if head.game.head_version != live.version:
                raise FuzzFailure(
                    f"game {live.game_id} at {head.game.head_version}, known {live.version}"
                )

    def check_logs(self) -> None:
        """Every game's log is contiguous, chained, and holds every acknowledged event."""
        for live in self.by_id.values():
            events: list[pb.GameEvent] = []
            token = ""
            while True:
                page = self.stub.GetHistory(
                    pb.GetHistoryRequest(game_id=live.game_id, page_size=1000, page_token=token),
                    timeout=CALL_TIMEOUT,
                )
                events.extend(page.events)
                token = page.next_page_token
                if not token:
                    break
            if [e.seq for e in events] != list(range(1, live.version + 1)):
                raise FuzzFailure(f"game {live.game_id}: log is not 1..{live.version}")
            for before, after in itertools.pairwise(events):
                if after.prev_hash != before.hash:
                    raise FuzzFailure(f"game {live.game_id}: chain broken at {after.seq}")
            for event in events:
                if live.acked.get(event.seq, event.hash) != event.hash:
                    raise FuzzFailure(f"game {live.game_id}: acknowledged event {event.seq} lost")


def _leaves(message: Message) -> Any:
    """``(message, field)`` for every scalar field set in ``message``, recursively."""
    for field, value in message.ListFields():
        if field.type == FieldDescriptor.TYPE_MESSAGE:
            if field.is_repeated:
                entry: Any = field.message_type
                if entry.GetOptions().map_entry:
                    continue
                for item in value:
                    yield from _leaves(item)
            else:
                yield from _leaves(value)
        elif not field.is_repeated:
            yield message, field


def _assign(message: Message, field: FieldDescriptor, value: Any) -> None:
    with contextlib.suppress(TypeError, ValueError):  # e.g. a float out of an int's range
        setattr(message, field.name, value)
