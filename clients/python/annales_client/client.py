"""``AnnalesClient``: a typed, synchronous client of the ``annales.v1.GameService`` API.

>>> client = AnnalesClient("127.0.0.1:50051")          # doctest: +SKIP
>>> game = client.create_game("riseandfall", ["ann", "bob"], seed="s1")  # doctest: +SKIP
>>> seat = game.seats[0]                                 # doctest: +SKIP
>>> listed = client.list_legal_actions(seat)             # doctest: +SKIP
>>> client.submit_action(seat, listed.actions[0], expected_version=listed.version)  # doctest: +SKIP

Acting calls take a :class:`Seat`, which sends ``authorization: Bearer <token>``; reading
calls take an optional seat (without one the caller is a spectator). Every failure raises an
:class:`~annales_client.errors.AnnalesError`.

:meth:`AnnalesClient.watch` is resumable: it reconnects when the server is unreachable or the
stream ends early and resumes after the last event it yielded, so the caller sees each event
exactly once, in order.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import grpc
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc as pb_grpc

from annales_client.errors import AnnalesError
from annales_client.games import api_game, options_message

T = TypeVar("T")
DEFAULT_TIMEOUT = 30.0


@dataclass(frozen=True)
class Seat:
    """One seat of one game and the secret token that acts for it.

    >>> Seat("g1", 0, "g1.0.secret").metadata
    (('authorization', 'Bearer g1.0.secret'),)
    """

    game_id: str
    seat: int
    token: str
    name: str = ""

    @property
    def metadata(self) -> tuple[tuple[str, str], ...]:
        """The call metadata authenticating as this seat."""
        return (("authorization", f"Bearer {self.token}"),)


@dataclass(frozen=True)
class CreatedGame:
    """The answer of :meth:`AnnalesClient.create_game`.

    ``judge_token`` reads everything (unredacted, any version) and never acts; use
    :attr:`judge` as the ``seat`` of reading calls (``get_view``, ``history``,
    ``export_record``).
    """

    game_id: str
    seats: list[Seat]
    seed_commitment: str
    version: int
    judge_token: str = ""

    @property
    def judge(self) -> Seat:
        """The judge's credentials (seat number -1)."""
        return Seat(self.game_id, -1, self.judge_token, "judge")


@dataclass
class WatchStats:
    """Counters of a :meth:`AnnalesClient.watch` generator (reconnections, last seq)."""

    reconnects: int = 0
    last_seq: int = 0
    history: list[str] = field(default_factory=list)


_TRANSIENT = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED)
"""Failures of a server that is down or shutting down: safe calls retry them."""


def _metadata(seat: Seat | None) -> tuple[tuple[str, str], ...] | None:
    return seat.metadata if seat is not None else None


def next_listing(
    seat: Seat, response: pb.SubmitActionResponse
) -> pb.ListLegalActionsResponse | None:
    """What :meth:`AnnalesClient.list_legal_actions` would answer right after ``response``
    (a SubmitAction made with ``include_next_actions``), or ``None`` when the seat is not
    to decide again (then ask the server when its turn comes).

    >>> answer = pb.SubmitActionResponse(version=7, pending=pb.Pending(seats=[0]))
    >>> answer.next_actions.add().rise_and_fall.end_actions.SetInParent()
    >>> next_listing(Seat("g", 0, "t"), answer).version
    7
    >>> next_listing(Seat("g", 1, "t"), answer) is None
    True
    """
    if seat.seat not in response.pending.seats or not response.next_actions:
        return None
    return pb.ListLegalActionsResponse(
        seat=seat.seat,
        version=response.version,
        pending=response.pending,
        actions=list(response.next_actions),
    )


def new_key(prefix: str = "cli") -> str:
    """A fresh idempotency key."""
    return f"{prefix}-{uuid.uuid4().hex}"


class AnnalesClient:
    """A connection to an Annales server (``host:port``), usable as a context manager.

    Args:
        target: ``host:port`` of the server.
        timeout: deadline in seconds of each unary call.
        channel: an existing channel to use instead of opening one.
        reconnect_for: how long safe calls (reads, keyed writes) retry an unreachable server.
    """

    def __init__(
        self,
        target: str,
        timeout: float = DEFAULT_TIMEOUT,
        channel: grpc.Channel | None = None,
        reconnect_for: float = 10.0,
    ) -> None:
        self.target = target
        self.timeout = timeout
        self.reconnect_for = reconnect_for
        self.channel = channel or grpc.insecure_channel(
            target,
            options=[
                ("grpc.max_receive_message_length", 64 * 1024 * 1024),
                # reconnect quickly after a server restart (gRPC's default backoff reaches 120 s)
                ("grpc.initial_reconnect_backoff_ms", 100),
                ("grpc.min_reconnect_backoff_ms", 100),
                ("grpc.max_reconnect_backoff_ms", 1000),
            ],
        )
        self.stub = pb_grpc.GameServiceStub(self.channel)  # type: ignore[no-untyped-call]

    # -- plumbing ---------------------------------------------------------------------------
    def close(self) -> None:
        """Close the channel."""
        self.channel.close()

    def __enter__(self) -> AnnalesClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _call(
        self,
        method: Callable[..., T],
        request: Any,
        seat: Seat | None = None,
        retry: bool = False,
    ) -> T:
        """Call a unary RPC, turning failures into :class:`AnnalesError`.

        With ``retry`` (reads, and writes carrying an idempotency key) an UNAVAILABLE server, or
        a call CANCELLED by a server shutting down, is retried with backoff for up to
        ``reconnect_for`` seconds.
        """
        deadline = time.monotonic() + self.reconnect_for
        delay = 0.05
        while True:
            try:
                return method(request, metadata=_metadata(seat), timeout=self.timeout)
            except grpc.RpcError as error:
                failure = AnnalesError.from_rpc_error(error)
                if retry and failure.code in _TRANSIENT and time.monotonic() + delay < deadline:
                    time.sleep(delay)
                    delay = min(delay * 2, 1.0)
                    continue
                raise failure from None

    def wait_ready(self, timeout: float = 10.0) -> None:
        """Block until the channel is connected (raises ``Unavailable`` after ``timeout``)."""
        try:
            grpc.channel_ready_future(self.channel).result(timeout=timeout)
        except grpc.FutureTimeoutError:
            raise AnnalesError.of(
                grpc.StatusCode.UNAVAILABLE, f"no server at {self.target}"
            ) from None

    # -- games ------------------------------------------------------------------------------
    def create_game(
        self,
        game: str,
        seat_names: Sequence[str],
        seed: str = "",
        options: dict[str, Any] | None = None,
        ruleset: str = "",
        idempotency_key: str | None = None,
    ) -> CreatedGame:
        """Create a game; returns its id, one :class:`Seat` (with its token) per seat and the
        judge's token.

        ``options`` are the game's domain options, e.g. ``{"trophies": 5}``; ``ruleset`` one
        of the game's rulesets (``"tapestry/1"``; empty: the newest). With an
        ``idempotency_key`` (16 to 128 characters, secret: it gives the tokens back) the call
        is retried safely while the server is unreachable: a retry returns the same game.
        """
        api = api_game(game)
        request = pb.CreateGameRequest(
            game_type=api.game_type,
            seat_names=list(seat_names),
            seed=seed,
            options=options_message(game, options),
            ruleset=ruleset,
            idempotency_key=idempotency_key or "",
        )
        response = self._call(self.stub.CreateGame, request, retry=bool(idempotency_key))
        seats = [Seat(response.game_id, t.seat, t.token, t.name) for t in response.seat_tokens]
        return CreatedGame(
            response.game_id,
            seats,
            response.seed_commitment,
            response.version,
            response.judge_token,
        )

    def get_game(self, game_id: str, version: int | None = None) -> pb.GetGameResponse:
        """A game's public summary and spectator view, at ``version`` or at the head."""
        request = pb.GetGameRequest(game_id=game_id)
        if version is not None:
            request.version = version
        response: pb.GetGameResponse = self._call(self.stub.GetGame, request, retry=True)
        return response

    def get_view(self, seat: Seat, version: int | None = None) -> pb.GetViewResponse:
        """The seat's own view, at ``version`` or at the head."""
        request = pb.GetViewRequest(game_id=seat.game_id)
        if version is not None:
            request.version = version
        response: pb.GetViewResponse = self._call(self.stub.GetView, request, seat, retry=True)
        return response

    def list_legal_actions(self, seat: Seat) -> pb.ListLegalActionsResponse:
        """Every legal action of the seat now, and the version they are legal at."""
        request = pb.ListLegalActionsRequest(game_id=seat.game_id)
        response: pb.ListLegalActionsResponse = self._call(
            self.stub.ListLegalActions, request, seat, retry=True
        )
        return response

    def submit_action(
        self,
        seat: Seat,
        action: pb.Action,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        include_next_actions: bool = False,
    ) -> pb.SubmitActionResponse:
        """Submit an action (typically one listed by :meth:`list_legal_actions`, unchanged).

        A key is generated when none is given, so the call is retried safely when the server
        is briefly unreachable. A stale ``expected_version`` raises ``VersionConflict``. The
        response's ``pending`` says who decides next; with ``include_next_actions`` its
        ``next_actions`` are the seat's legal actions when it decides again (no
        :meth:`list_legal_actions` call needed: see :func:`next_listing`).
        """
        request = pb.SubmitActionRequest(
            game_id=seat.game_id,
            action=action,
            idempotency_key=idempotency_key or new_key(),
            include_next_actions=include_next_actions,
        )
        if expected_version is not None:
            request.expected_version = expected_version
        response: pb.SubmitActionResponse = self._call(
            self.stub.SubmitAction, request, seat, retry=True
        )
        return response

    def undo(
        self, seat: Seat, expected_version: int | None = None, idempotency_key: str | None = None
    ) -> pb.UndoResponse:
        """Undo the seat's own last action of the current turn."""
        request = pb.UndoRequest(game_id=seat.game_id, idempotency_key=idempotency_key or new_key())
        if expected_version is not None:
            request.expected_version = expected_version
        response: pb.UndoResponse = self._call(self.stub.Undo, request, seat, retry=True)
        return response

    def request_undo(
        self, seat: Seat, to_version: int, idempotency_key: str | None = None
    ) -> pb.RequestUndoResponse:
        """Ask every other seat to approve going back to ``to_version``."""
        request = pb.RequestUndoRequest(
            game_id=seat.game_id,
            to_version=to_version,
            idempotency_key=idempotency_key or new_key(),
        )
        response: pb.RequestUndoResponse = self._call(
            self.stub.RequestUndo, request, seat, retry=True
        )
        return response

    def respond_undo(
        self, seat: Seat, approve: bool, idempotency_key: str | None = None
    ) -> pb.RespondUndoResponse:
        """Approve or decline the open undo request (its requester declining withdraws it)."""
        request = pb.RespondUndoRequest(
            game_id=seat.game_id, approve=approve, idempotency_key=idempotency_key or new_key()
        )
        response: pb.RespondUndoResponse = self._call(
            self.stub.RespondUndo, request, seat, retry=True
        )
        return response

    # -- streams and pages ------------------------------------------------------------------
    def watch(
        self,
        game_id: str,
        after_version: int = 0,
        seat: Seat | None = None,
        *,
        reconnect_for: float = 30.0,
        stats: WatchStats | None = None,
        stream_timeout: float | None = None,
    ) -> Iterator[pb.GameEvent]:
        """Yield the game's events with ``seq > after_version``, live, until the game ends.

        Resumable: when the server is unreachable (UNAVAILABLE), cancels the stream (CANCELLED,
        a server stopping) or the stream ends before the game's last event (a server restart),
        it reconnects with backoff and asks for the events after the last seq it yielded — no
        gap, no duplicate. It gives up (raising
        ``Unavailable``) after ``reconnect_for`` seconds without success. ``stream_timeout``
        bounds one stream's lifetime (the stream is then reopened, again without gap).
        """
        stats = stats if stats is not None else WatchStats()
        last = after_version
        failing_since: float | None = None
        delay = 0.05
        while True:
            call = self.stub.WatchGame(
                pb.WatchGameRequest(game_id=game_id, after_version=last),
                metadata=_metadata(seat),
                timeout=stream_timeout,
            )
            try:
                for response in call:
                    for event in response.events:
                        if event.seq <= last:
                            continue  # already yielded before a reconnection
                        if event.seq != last + 1:
                            raise AnnalesError.of(
                                grpc.StatusCode.DATA_LOSS, f"gap in stream: {last} then {event.seq}"
                            )
                        last = stats.last_seq = event.seq
                        failing_since, delay = None, 0.05
                        yield event
                        if (
                            event.WhichOneof("payload") == "kernel"
                            and event.kernel.WhichOneof("event") == "seed_revealed"
                        ):
                            return
                ended: str = "ended"
            except grpc.RpcError as error:
                failure = AnnalesError.from_rpc_error(error)
                if failure.code not in (
                    grpc.StatusCode.UNAVAILABLE,
                    grpc.StatusCode.DEADLINE_EXCEEDED,
                    grpc.StatusCode.CANCELLED,  # a server shutting down cancels its streams
                ):
                    raise failure from None
                ended = failure.code.name
            finally:
                call.cancel()
            if ended == "ended":
                try:  # a clean end: the game is over, or the server is shutting down
                    summary = self.get_game(game_id).game
                    if summary.status == pb.GAME_STATUS_FINISHED and summary.head_version <= last:
                        return
                except AnnalesError as error:
                    if error.code not in _TRANSIENT:
                        raise
            if ended == "DEADLINE_EXCEEDED":
                continue
            now = time.monotonic()
            failing_since = failing_since if failing_since is not None else now
            if now - failing_since > reconnect_for:
                raise AnnalesError.of(
                    grpc.StatusCode.UNAVAILABLE,
                    f"watch of {game_id}: no server for {reconnect_for:.0f}s",
                )
            stats.reconnects += 1
            stats.history.append(f"{ended} after seq {last}")
            time.sleep(delay)
            delay = min(delay * 2, 1.0)

    def next_events(
        self, game_id: str, after_version: int, seat: Seat | None = None, timeout: float = 5.0
    ) -> list[pb.GameEvent]:
        """The next batch of events after ``after_version`` (waits up to ``timeout`` seconds).

        Returns ``[]`` when nothing happened in time, when the server is briefly unreachable,
        or when the game is over and nothing follows ``after_version``.
        """
        request = pb.WatchGameRequest(game_id=game_id, after_version=after_version)
        call = self.stub.WatchGame(request, metadata=_metadata(seat), timeout=timeout)
        try:
            for response in call:
                return list(response.events)
        except grpc.RpcError as error:
            failure = AnnalesError.from_rpc_error(error)
            if failure.code == grpc.StatusCode.UNAVAILABLE:
                time.sleep(0.2)
                return []
            if failure.code != grpc.StatusCode.DEADLINE_EXCEEDED:
                raise failure from None
        finally:
            call.cancel()
        return []

    def wait_for_change(
        self, game_id: str, after_version: int, seat: Seat | None = None, timeout: float = 5.0
    ) -> int | None:
        """Block until the game's version exceeds ``after_version``; the new version or None."""
        events = self.next_events(game_id, after_version, seat, timeout)
        return int(events[-1].seq) if events else None

    def history_pages(
        self, game_id: str, seat: Seat | None = None, page_size: int = 500
    ) -> Iterator[pb.GetHistoryResponse]:
        """Every page of the game's history, in order."""
        token = ""
        while True:
            request = pb.GetHistoryRequest(game_id=game_id, page_size=page_size, page_token=token)
            page = self._call(self.stub.GetHistory, request, seat, retry=True)
            yield page
            token = page.next_page_token
            if not token:
                return

    def history(
        self, game_id: str, seat: Seat | None = None, page_size: int = 500
    ) -> Iterator[pb.GameEvent]:
        """Every event of the game (redacted for ``seat``), fetching page after page."""
        for page in self.history_pages(game_id, seat, page_size):
            yield from page.events

    def export_record(self, game_id: str, seat: Seat | None = None) -> pb.ExportRecordResponse:
        """The game's record (JSON lines); ``complete`` once the game has ended."""
        request = pb.ExportRecordRequest(game_id=game_id)
        response: pb.ExportRecordResponse = self._call(
            self.stub.ExportRecord, request, seat, retry=True
        )
        return response

    def verify_record(self, record: bytes) -> pb.VerifyRecordResponse:
        """Ask the server to verify a record (offline: ``service.audit.records``)."""
        response: pb.VerifyRecordResponse = self._call(
            self.stub.VerifyRecord, pb.VerifyRecordRequest(record=record)
        )
        return response

    def list_games(self, game: str | None = None, page_size: int = 50) -> Iterator[pb.GameSummary]:
        """Every game (newest first), fetching page after page; only ``game`` when given."""
        game_type = api_game(game).game_type if game else pb.GAME_TYPE_UNSPECIFIED
        token = ""
        while True:
            request = pb.ListGamesRequest(
                page_size=page_size, page_token=token, game_type=game_type
            )
            page = self._call(self.stub.ListGames, request, retry=True)
            yield from page.games
            token = page.next_page_token
            if not token:
                return
