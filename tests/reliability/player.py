"""Clients for the reliability harnesses: retried calls, games played through the API, and a
journal of everything the server acknowledged.

* :func:`call` sends a request until it gets an answer: a server being killed or restarted
  shows up as UNAVAILABLE (or a deadline), and the *same* request — same idempotency key — is
  sent again, so a command whose acknowledgement was lost is answered by its stored result
  (``duplicate``), never applied twice. Any other error is raised.
* :class:`Table` is one game as a client knows it (tokens, who is pending, an open undo
  request); :func:`advance` plays one write on it: a random legal action (ListLegalActions
  then SubmitAction with ``expected_version`` and a fresh key), sometimes ``Undo``, sometimes
  ``RequestUndo`` answered by the other seats with ``RespondUndo``.
* :class:`Journal` records every acknowledgement — the ``(seq, hash)`` of each event the
  server said it stored — plus errors, counters and per-RPC latencies, from many threads.
"""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import grpc
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc

from tests.api.helpers import failure

#: codes a restarting server produces: the request is sent again unchanged
RETRYABLE = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED})
ATTEMPT_TIMEOUT = 20.0

GAME_TYPES: dict[str, tuple[int, str]] = {
    "riseandfall": (pb.GAME_TYPE_RISE_AND_FALL, "rise_and_fall"),
    "tapestry": (pb.GAME_TYPE_TAPESTRY, "tapestry"),
    "imperium": (pb.GAME_TYPE_IMPERIUM, "imperium"),
}


class Refused(Exception):
    """The server answered a call with an error status (not a restart)."""

    def __init__(self, method: str, error: grpc.RpcError) -> None:
        found = failure(error)
        super().__init__(f"{method}: {found.code.name} {found.reason} {found.message}")
        self.method = method
        self.code = found.code
        self.reason = found.reason


@dataclass(frozen=True)
class Ack:
    """A write the server acknowledged: its events as ``(seq, hash)``."""

    game_id: str
    method: str
    key: str
    events: tuple[tuple[int, str], ...]
    duplicate: bool
    retries: int


@dataclass
class Journal:
    """What clients were told, shared by their threads."""

    acks: list[Ack] = field(default_factory=list)
    created: dict[str, int] = field(default_factory=dict)  # game id -> version at creation
    errors: list[str] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)
    latencies: defaultdict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    lock: threading.Lock = field(default_factory=threading.Lock)

    def ack(self, ack: Ack) -> None:
        """Record an acknowledged write."""
        with self.lock:
            self.acks.append(ack)
            self.counts[ack.method] += 1
            if ack.duplicate:
                self.counts["duplicate answers"] += 1
            if ack.retries:
                self.counts["retried writes"] += 1

    def error(self, message: str) -> None:
        """Record an unexpected error."""
        with self.lock:
            self.errors.append(message)

    def count(self, name: str, by: int = 1) -> None:
        """Add to a counter."""
        with self.lock:
            self.counts[name] += by

    def took(self, method: str, seconds: float) -> None:
        """Record one call's latency."""
        with self.lock:
            self.latencies[method].append(seconds)

    def total_acks(self) -> int:
        """How many writes were acknowledged so far."""
        with self.lock:
            return len(self.acks)


def call(
    journal: Journal,
    method: str,
    function: Callable[..., Any],
    request: Any,
    metadata: Any = None,
    patience: float = 90.0,
) -> tuple[Any, int]:
    """``function(request)``, sent again while the server restarts; ``(answer, retries)``.

    Raises :class:`Refused` for an error status (or when the server stays away for
    ``patience`` seconds).
    """
    deadline = time.monotonic() + patience
    retries = 0
    began = time.perf_counter()
    while True:
        try:
            answer = function(
                request, metadata=metadata, timeout=ATTEMPT_TIMEOUT, wait_for_ready=True
            )
        except grpc.RpcError as error:
            if error.code() in RETRYABLE and time.monotonic() < deadline:
                retries += 1
                time.sleep(0.01)
                continue
            raise Refused(method, error) from error
        journal.took(method, time.perf_counter() - began)
        return answer, retries


@dataclass
class Table:
    """A game as one client knows it."""

    game_id: str
    game_type: str
    tokens: list[str]
    pending: list[int] = field(default_factory=list)
    undo_answers: list[int] = field(default_factory=list)  # seats still to answer a request
    over: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)

    def md(self, seat: int) -> tuple[tuple[str, str], ...]:
        """Call metadata acting for ``seat``."""
        return (("authorization", f"Bearer {self.tokens[seat]}"),)


def create(
    stub: annales_pb2_grpc.GameServiceStub,
    journal: Journal,
    game_type: str,
    seats: int,
    seed: str,
) -> Table:
    """Create a game through the API (a create lost in a crash is simply made again)."""
    value, field_name = GAME_TYPES[game_type]
    options = pb.GameOptions()
    getattr(options, field_name).SetInParent()
    request = pb.CreateGameRequest(
        game_type=value,  # type: ignore[arg-type]
        options=options,
        seat_names=[f"p{seat}" for seat in range(seats)],
        seed=seed,
    )
    answer, _ = call(journal, "CreateGame", stub.CreateGame, request)
    tokens = [t.token for t in sorted(answer.seat_tokens, key=lambda t: t.seat)]
    with journal.lock:
        journal.created[answer.game_id] = int(answer.version)
        journal.counts["CreateGame"] += 1
    return Table(answer.game_id, game_type, tokens)


def _key() -> str:
    return uuid.uuid4().hex


def _acked(
    journal: Journal, table: Table, method: str, key: str, answer: Any, retries: int
) -> None:
    events = tuple((int(e.seq), str(e.hash)) for e in answer.events)
    duplicate = bool(getattr(answer, "duplicate", False))
    seqs = [seq for seq, _ in events]
    if seqs != list(range(seqs[0], seqs[0] + len(seqs))) or seqs[-1] != answer.version:
        journal.error(f"{method} on {table.game_id}: events {seqs} for version {answer.version}")
    journal.ack(Ack(table.game_id, method, key, events, duplicate, retries))


def advance(
    stub: annales_pb2_grpc.GameServiceStub,
    table: Table,
    rng: random.Random,
    journal: Journal,
    undo_rate: float = 0.04,
    request_rate: float = 0.02,
) -> bool:
    """One write on ``table``; ``False`` once the game is over. Raises :class:`Refused`."""
    gid = table.game_id
    if table.undo_answers:  # an undo request is open: the next seat answers it
        seat = table.undo_answers[0]
        approve = rng.random() < 0.7
        key = _key()
        request = pb.RespondUndoRequest(game_id=gid, approve=approve, idempotency_key=key)
        answer, retries = call(journal, "RespondUndo", stub.RespondUndo, request, table.md(seat))
        _acked(journal, table, "RespondUndo", key, answer, retries)
        table.undo_answers = table.undo_answers[1:] if approve else []
        table.pending = []
        return True
    seat = table.pending[0] if table.pending else 0
    listing = pb.ListLegalActionsRequest(game_id=gid)
    legal, _ = call(journal, "ListLegalActions", stub.ListLegalActions, listing, table.md(seat))
    if not legal.pending.seats:
        table.over = True
        return False
    if seat not in legal.pending.seats:
        seat = legal.pending.seats[0]
        legal, _ = call(journal, "ListLegalActions", stub.ListLegalActions, listing, table.md(seat))
    table.pending = list(legal.pending.seats)
    draw = rng.random()
    if draw < undo_rate and legal.can_undo:
        key = _key()
        undo = pb.UndoRequest(game_id=gid, expected_version=legal.version, idempotency_key=key)
        answer, retries = call(journal, "Undo", stub.Undo, undo, table.md(seat))
        _acked(journal, table, "Undo", key, answer, retries)
        table.pending = []
        return True
    if draw < undo_rate + request_rate and legal.undo_versions and len(table.tokens) > 1:
        key = _key()
        to_version = rng.choice(list(legal.undo_versions))
        ask = pb.RequestUndoRequest(game_id=gid, to_version=to_version, idempotency_key=key)
        answer, retries = call(journal, "RequestUndo", stub.RequestUndo, ask, table.md(seat))
        _acked(journal, table, "RequestUndo", key, answer, retries)
        table.undo_answers = [s for s in range(len(table.tokens)) if s != seat]
        return True
    if not legal.actions:
        journal.error(f"{gid}: seat {seat} is pending at {legal.version} without legal actions")
        table.pending = []
        return True
    key = _key()
    action = rng.choice(list(legal.actions))
    submit = pb.SubmitActionRequest(
        game_id=gid, action=action, expected_version=legal.version, idempotency_key=key
    )
    answer, retries = call(journal, "SubmitAction", stub.SubmitAction, submit, table.md(seat))
    if not answer.duplicate and answer.version != legal.version + len(answer.events):
        journal.error(f"{gid}: version {answer.version} after {legal.version}")
    _acked(journal, table, "SubmitAction", key, answer, retries)
    return True
