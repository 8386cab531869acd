"""What the fuzzer knows of the server, and the checks made after every call.

The fuzzer is the only client of its server, so it knows every game's exact version and
every event acknowledged to it (sequence → hash), every idempotency key acknowledged and the
command it carried. After each call:

* the status is *typed*: OK, or one of the documented codes with a ``google.rpc.ErrorInfo``
  (domain ``annales.v1``, a non-empty reason) — never UNKNOWN or INTERNAL. Two statuses come
  from gRPC itself and are accepted only where they are the contract: RESOURCE_EXHAUSTED for a
  request over the 64 MiB receive limit, DEADLINE_EXCEEDED for a WatchGame waiting for events
  after the head;
* bytes that do not parse get INVALID_ARGUMENT ``MALFORMED_REQUEST``;
* a command is accepted only if it was legal for an authenticated seat at the current version
  (or replays an acknowledged key with the same command, returning the first result), its
  events continue the log contiguously, and a legal command with a fresh key at the current
  version is never refused;
* reads agree with the known versions and hashes;
* every few cases (:meth:`Known.check_store`) the server is SERVING and each game is at its
  known version — so no refused call changed anything.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import grpc
from annales.v1 import annales_pb2 as pb
from google.protobuf.message import DecodeError, Message

from domain.core.kernel_events import RequestUndo, RespondUndo, Undo
from domain.registry import get_codec
from service.api.convert import read
from service.api.games import BY_NAME, ApiGame
from service.api.server import MAX_RECEIVE
from tests.api.helpers import failure

DOMAIN = "annales.v1"
TYPED = {
    grpc.StatusCode.INVALID_ARGUMENT,
    grpc.StatusCode.FAILED_PRECONDITION,
    grpc.StatusCode.ABORTED,
    grpc.StatusCode.NOT_FOUND,
    grpc.StatusCode.UNAUTHENTICATED,
    grpc.StatusCode.PERMISSION_DENIED,
    grpc.StatusCode.RESOURCE_EXHAUSTED,
    grpc.StatusCode.UNAVAILABLE,  # read models still being built at start (retry)
}
G = "/annales.v1.GameService/"


class FuzzFailure(AssertionError):
    """The server broke a contract on a fuzz case."""


@dataclass
class Ack:
    """An acknowledged command: its canonical bytes, seat, resulting version and hashes."""

    command: bytes
    seat: int
    version: int
    hashes: tuple[str, ...]
    action: pb.Action | None = None


@dataclass
class LiveGame:
    """A game the fuzzer created, and everything acknowledged in it."""

    game_id: str
    api: ApiGame
    tokens: list[str]
    version: int
    acked: dict[int, str] = field(default_factory=dict)
    keys: dict[str, Ack] = field(default_factory=dict)
    undo_by: int | None = None
    finished: bool = False
    judge: str = ""

    @property
    def seats(self) -> int:
        """Number of seats."""
        return len(self.tokens)

    def md(self, seat: int) -> tuple[tuple[str, str], ...]:
        """Metadata acting for ``seat``."""
        return (("authorization", f"Bearer {self.tokens[seat]}"),)


@dataclass
class Outcome:
    """What a call returned: status code, ErrorInfo, and the first response's bytes."""

    code: grpc.StatusCode
    message: str = ""
    reason: str = ""
    domain: str = ""
    metadata: dict[str, str] = field(default_factory=dict)
    response: bytes | None = None


def outcome_of(error: grpc.RpcError) -> Outcome:
    """The :class:`Outcome` of a failed call."""
    info = failure(error)
    return Outcome(info.code, info.message, info.reason, info.domain, info.metadata)


def authentic_seat(metadata: Any, live: LiveGame | None) -> int | None:
    """The seat whose exact token ``metadata`` carries (as the server reads the header)."""
    if live is None:
        return None
    for key, value in metadata or ():
        if key.lower() == "authorization":
            scheme, _, token = str(value).partition(" ")
            if scheme.lower() == "bearer" and token.strip() in live.tokens:
                return live.tokens.index(token.strip())
            return None
    return None


def command_bytes(method: str, request: Any, live: LiveGame) -> bytes | None:
    """The canonical bytes of the command ``request`` carries (``None``: not a command)."""
    codec = get_codec(live.api.name)
    if method == G + "Undo":
        return codec.encode_command(Undo())
    if method == G + "RequestUndo":
        return codec.encode_command(RequestUndo(to_version=request.to_version))
    if method == G + "RespondUndo":
        return codec.encode_command(RespondUndo(approve=request.approve))
    if not request.HasField("action") or request.action.WhichOneof("game") != live.api.field:
        return None
    try:
        data = read(getattr(request.action, live.api.field), live.api.prefix)
        return codec.encode_command(codec.command_from_data(data))
    except Exception:
        return None


def legal_commands(legal: pb.ListLegalActionsResponse, live: LiveGame) -> set[bytes]:
    """Canonical bytes of every action in a ListLegalActions answer."""
    found = set()
    for action in legal.actions:
        request = pb.SubmitActionRequest(action=action)
        encoded = command_bytes(G + "SubmitAction", request, live)
        if encoded is None:
            raise FuzzFailure(f"a listed legal action does not convert: {action}")
        found.add(encoded)
    return found


def parse(method_type: type[Message], payload: bytes) -> Message | None:
    """The request the server will see (``None`` when the bytes do not parse)."""
    try:
        return method_type.FromString(payload)
    except (DecodeError, ValueError, RuntimeError):
        return None


def check_typed(method: str, payload: bytes, outcome: Outcome, waiting: bool) -> None:
    """The status is OK or typed with an ErrorInfo (or one of gRPC's own, where due)."""
    code = outcome.code
    if code == grpc.StatusCode.OK:
        return
    if code == grpc.StatusCode.RESOURCE_EXHAUSTED and len(payload) > MAX_RECEIVE:
        return
    if code == grpc.StatusCode.DEADLINE_EXCEEDED and waiting:
        return
    if code not in TYPED:
        raise FuzzFailure(f"{method}: untyped status {code.name}: {outcome.message!r}")
    if outcome.domain != DOMAIN or not outcome.reason:
        raise FuzzFailure(
            f"{method}: {code.name} without an ErrorInfo of {DOMAIN} "
            f"(reason {outcome.reason!r}, domain {outcome.domain!r}): {outcome.message!r}"
        )


#: GameService methods that resolve the caller's token right after checking the game id
TOKEN_CHECKED = frozenset(
    G + name
    for name in (
        "GetGame", "GetView", "ListLegalActions", "SubmitAction", "Undo", "RequestUndo",
        "RespondUndo", "WatchGame", "GetHistory", "ExportRecord",
    )
)  # fmt: skip


def bearer_token(metadata: Any) -> str | None:
    """The token of a well-formed ``authorization: Bearer <token>`` header, if any."""
    for key, value in metadata or ():
        if key.lower() == "authorization":
            scheme, _, token = str(value).partition(" ")
            if scheme.lower() == "bearer" and token.strip():
                return token.strip()
            return None
    return None


def check_token(
    method: str,
    metadata: Any,
    live: LiveGame | None,
    owners: dict[str, tuple[str, int]],
    outcome: Outcome,
) -> str | None:
    """Token errors: a call on a known game with a token that is not a valid token
    of that game answers UNAUTHENTICATED BAD_TOKEN, or PERMISSION_DENIED WRONG_GAME_TOKEN when
    it is a valid token of another game — nothing else, never OK. Returns the reason checked
    (``None`` when the case carried a valid token of the game, or none)."""
    token = bearer_token(metadata)
    if method not in TOKEN_CHECKED or live is None or token is None:
        return None
    owner = owners.get(token)
    if owner is not None and owner[0] == live.game_id:
        return None
    if outcome.code == grpc.StatusCode.INVALID_ARGUMENT and outcome.reason == "MALFORMED_REQUEST":
        return None
    expected = (
        (grpc.StatusCode.PERMISSION_DENIED, "WRONG_GAME_TOKEN")
        if owner is not None
        else (grpc.StatusCode.UNAUTHENTICATED, "BAD_TOKEN")
    )
    if (outcome.code, outcome.reason) != expected:
        kind = "another game's token" if owner is not None else "a token that is not valid"
        raise FuzzFailure(
            f"{method}: {kind} answered {outcome.code.name} {outcome.reason}, "
            f"expected {expected[0].name} {expected[1]}"
        )
    return expected[1]


def expected_of(method: str, request: Any) -> int | None:
    """The request's ``expected_version`` (``None`` when absent or not applicable)."""
    if method in (G + "SubmitAction", G + "Undo") and request.HasField("expected_version"):
        return int(request.expected_version)
    return None


def well_formed(method: str, request: Any) -> bool:
    """No negative version: such a request is refused as INVALID_ARGUMENT before anything
    else (even a replayed key)."""
    if request.DESCRIPTOR.fields_by_name.get("expected_version") is not None and request.HasField(
        "expected_version"
    ):
        return int(request.expected_version) >= 0
    if method == G + "RequestUndo":
        return int(request.to_version) >= 0
    return True


def allowed(
    method: str,
    request: Any,
    command: bytes,
    legal: pb.ListLegalActionsResponse,
    live: LiveGame,
    seat: int,
) -> bool:
    """Whether the rules allow ``command`` for ``seat`` now (per ListLegalActions)."""
    if method == G + "SubmitAction":
        return command in legal_commands(legal, live)
    if method == G + "Undo":
        return bool(legal.can_undo)
    if method == G + "RequestUndo":
        return request.to_version in legal.undo_versions
    # RespondUndo: an expected answer, or the requester withdrawing (declining).
    withdraw = live.undo_by is not None and live.undo_by == seat and not request.approve
    return bool(legal.undo_answer_expected) or withdraw


def check_command(
    method: str,
    request: Any,
    metadata: Any,
    live: LiveGame | None,
    legal: pb.ListLegalActionsResponse | None,
    outcome: Outcome,
    response_type: type[Message],
) -> None:
    """The checks of a command RPC; updates ``live`` when the command was accepted."""
    ok = outcome.code == grpc.StatusCode.OK
    if live is None:
        if ok:
            raise FuzzFailure(f"{method}: accepted for an unknown game {request.game_id[:40]!r}")
        return
    seat = authentic_seat(metadata, live)
    command = command_bytes(method, request, live) if seat is not None else None
    key = request.idempotency_key
    ack = live.keys.get(key) if key else None
    if outcome.code == grpc.StatusCode.ABORTED and outcome.reason == "VERSION_CONFLICT":
        current = outcome.metadata.get("current_version")
        if current != str(live.version):
            raise FuzzFailure(
                f"{method}: ABORTED with current_version {current}, known {live.version}"
            )
    if not ok:
        if seat is None or command is None or len(key) > 128 or not well_formed(method, request):
            return
        if ack is not None and ack.command == command and ack.seat == seat:
            raise FuzzFailure(
                f"{method}: a replayed key was refused ({outcome.code.name} "
                f"{outcome.reason}): it must return the first result"
            )
        expected = expected_of(method, request)
        fresh = ack is None and expected in (None, live.version)
        if fresh and legal is not None and allowed(method, request, command, legal, live, seat):
            raise FuzzFailure(
                f"{method}: a legal command with a fresh key was refused: "
                f"{outcome.code.name} {outcome.reason} {outcome.message!r}"
            )
        return
    assert outcome.response is not None
    answer: Any = response_type.FromString(outcome.response)
    if seat is None or command is None:
        raise FuzzFailure(f"{method}: accepted without a valid seat token or command")
    hashes = tuple(e.hash for e in answer.events)
    if ack is not None:
        if ack.command != command or ack.seat != seat:
            raise FuzzFailure(
                f"{method}: key {key!r} reused for another command was accepted "
                f"(first by seat {ack.seat}, now seat {seat})"
            )
        if answer.version != ack.version or hashes != ack.hashes:
            raise FuzzFailure(f"{method}: a replayed key returned another result")
        if method == G + "SubmitAction" and not answer.duplicate:
            raise FuzzFailure(f"{method}: a replayed key was not marked duplicate")
        return
    if len(key) > 128:
        raise FuzzFailure(f"{method}: accepted an oversized idempotency key")
    expected = expected_of(method, request)
    if expected is not None and expected != live.version:
        raise FuzzFailure(
            f"{method}: accepted at stale version {expected} (game at {live.version})"
        )
    if legal is None or not allowed(method, request, command, legal, live, seat):
        raise FuzzFailure(f"{method}: accepted a command that is not legal for seat {seat}")
    seqs = [e.seq for e in answer.events]
    if not seqs or seqs != list(range(live.version + 1, answer.version + 1)):
        raise FuzzFailure(f"{method}: events {seqs} do not continue version {live.version}")
    previous = live.acked.get(live.version)
    if previous is not None and answer.events[0].prev_hash != previous:
        raise FuzzFailure(f"{method}: the first event does not chain to the acknowledged head")
    for event in answer.events:
        live.acked[event.seq] = event.hash
    live.version = answer.version
    kinds = {e.kind for e in answer.events}
    if method == G + "RequestUndo":
        live.undo_by = seat
    if kinds & {"Undone", "UndoDeclined"}:
        live.undo_by = None
    if "SeedRevealed" in kinds:
        live.finished = True
    if key:
        action = pb.Action()
        if method == G + "SubmitAction":
            action.CopyFrom(request.action)
        live.keys[key] = Ack(command, seat, answer.version, hashes, action)


def check_read(
    method: str,
    request: Any,
    metadata: Any,
    live: LiveGame | None,
    outcome: Outcome,
    response_type: type[Message],
    known_ids: set[str],
) -> None:
    """The checks of a reading RPC that succeeded (consistency with what is known)."""
    if outcome.code != grpc.StatusCode.OK or outcome.response is None:
        return
    has_game = "game_id" in request.DESCRIPTOR.fields_by_name
    if has_game and live is None and request.game_id not in known_ids:
        raise FuzzFailure(f"{method}: OK for an unknown game {request.game_id[:40]!r}")
    if live is None:
        return
    answer: Any = response_type.FromString(outcome.response)
    seat = authentic_seat(metadata, live)
    judge = bool(live.judge) and bearer_token(metadata) == live.judge
    if method in (G + "GetView", G + "ListLegalActions") and seat is None and not judge:
        raise FuzzFailure(f"{method}: answered without a valid seat token")
    if judge and method == G + "ListLegalActions":
        if answer.seat != -1 or answer.actions or answer.version != live.version:
            raise FuzzFailure(f"{method}: the judge got seat {answer.seat} and actions")
        return
    if method in (G + "GetGame", G + "GetView"):
        if answer.game.head_version != live.version:
            raise FuzzFailure(f"{method}: head {answer.game.head_version}, known {live.version}")
        wanted = request.version if request.HasField("version") else live.version
        if answer.game.version != wanted:
            raise FuzzFailure(f"{method}: version {answer.game.version}, asked {wanted}")
    if method == G + "ListLegalActions" and (answer.version != live.version or answer.seat != seat):
        raise FuzzFailure(f"{method}: version {answer.version} seat {answer.seat}")
    events = list(getattr(answer, "events", ()))
    if events:
        seqs = [e.seq for e in events]
        if (
            seqs != list(range(seqs[0], seqs[0] + len(seqs)))
            or not 1 <= seqs[0] <= seqs[-1] <= live.version
        ):
            raise FuzzFailure(f"{method}: events {seqs[:3]}…{seqs[-1:]} (game at {live.version})")
        if method == G + "WatchGame" and seqs[0] != request.after_version + 1:
            raise FuzzFailure(f"{method}: first event {seqs[0]} after {request.after_version}")
        for event in events:
            known = live.acked.get(event.seq)
            if known is not None and known != event.hash:
                raise FuzzFailure(f"{method}: event {event.seq} changed its hash")


def api_of(game_type: int) -> ApiGame | None:
    """The API game of a ``GameType`` number."""
    for api in BY_NAME.values():
        if api.game_type == game_type:
            return api
    return None
