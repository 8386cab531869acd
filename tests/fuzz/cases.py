"""Symbolic fuzz cases, drawn by hypothesis and resolved against the live games at run time.

A case names *which* game (a live one by index, an unknown id, an empty or huge id), *which*
credentials (a seat's token, the pending seat's or an idle seat's, another game's, a forged
or malformed one, none), *which* version (current, stale, future, absurd), *which*
idempotency key (none, fresh, reused with the same or a different command, oversized) and
*which* action (a legal one, a legal one with one field mutated, another seat's, a random
structurally valid one, one for another game, none). Resolving at run time keeps the cases
meaningful while the games move on.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from typing import Any

from annales.v1 import annales_pb2 as pb
from annales.v1 import imperium_pb2, riseandfall_pb2, tapestry_pb2
from annales.v1 import readmodels_pb2 as rpb
from google.protobuf.message import Message
from hypothesis import strategies as st

from tests.fuzz.campaign_cases import CAMPAIGN, campaign_requests
from tests.fuzz.values import I64, ints, message_of, texts

#: Every unary RPC of our services, with its request and response types.
UNARY: dict[str, tuple[type[Message], type[Message]]] = {
    "/annales.v1.GameService/CreateGame": (pb.CreateGameRequest, pb.CreateGameResponse),
    "/annales.v1.GameService/GetGame": (pb.GetGameRequest, pb.GetGameResponse),
    "/annales.v1.GameService/GetView": (pb.GetViewRequest, pb.GetViewResponse),
    "/annales.v1.GameService/ListLegalActions": (
        pb.ListLegalActionsRequest,
        pb.ListLegalActionsResponse,
    ),
    "/annales.v1.GameService/SubmitAction": (pb.SubmitActionRequest, pb.SubmitActionResponse),
    "/annales.v1.GameService/Undo": (pb.UndoRequest, pb.UndoResponse),
    "/annales.v1.GameService/RequestUndo": (pb.RequestUndoRequest, pb.RequestUndoResponse),
    "/annales.v1.GameService/RespondUndo": (pb.RespondUndoRequest, pb.RespondUndoResponse),
    "/annales.v1.GameService/GetHistory": (pb.GetHistoryRequest, pb.GetHistoryResponse),
    "/annales.v1.GameService/ExportRecord": (pb.ExportRecordRequest, pb.ExportRecordResponse),
    "/annales.v1.GameService/VerifyRecord": (pb.VerifyRecordRequest, pb.VerifyRecordResponse),
    "/annales.v1.GameService/ListGames": (pb.ListGamesRequest, pb.ListGamesResponse),
    "/annales.v1.DiagnosticsService/Echo": (pb.EchoRequest, pb.EchoResponse),
    "/annales.v1.ReadModelService/GetScoreTimeline": (
        rpb.GetScoreTimelineRequest,
        rpb.GetScoreTimelineResponse,
    ),
    "/annales.v1.ReadModelService/GetLeaderboard": (
        rpb.GetLeaderboardRequest,
        rpb.GetLeaderboardResponse,
    ),
    "/annales.v1.ReadModelService/GetBalanceStats": (
        rpb.GetBalanceStatsRequest,
        rpb.GetBalanceStatsResponse,
    ),
}
#: Every server-streaming RPC of our services.
STREAMING: dict[str, tuple[type[Message], type[Message]]] = {
    "/annales.v1.GameService/WatchGame": (pb.WatchGameRequest, pb.WatchGameResponse),
    "/annales.v1.DiagnosticsService/EchoStream": (pb.EchoStreamRequest, pb.EchoResponse),
}
METHODS = {**UNARY, **STREAMING}
METHODS.update(CAMPAIGN)  # CampaignService: tests/fuzz/campaign_cases.py
MUTATING = {
    "/annales.v1.GameService/SubmitAction",
    "/annales.v1.GameService/Undo",
    "/annales.v1.GameService/RequestUndo",
    "/annales.v1.GameService/RespondUndo",
}


@dataclass(frozen=True)
class Target:
    """Which game: ``known`` (live game ``index`` modulo the pool), ``unknown`` (``text`` as
    the id), ``empty``, or ``none`` (leave the drawn request's id alone)."""

    kind: str
    index: int = 0
    text: str = ""


@dataclass(frozen=True)
class Creds:
    """Which credentials: ``none``, ``seat`` (seat ``index`` of the target game), ``pending``
    / ``idle`` (a seat that may / may not act now), ``other_game`` (a token of another live
    game), ``forged`` (right game and seat, wrong secret), ``renumbered`` (a valid token
    with its seat number changed), ``truncated`` (a valid token cut to ``index``
    characters), ``garbage`` (``text``: random bytes, base64), ``wrong_prefix`` (a valid
    token with a character before it), ``foreign_secret`` (another game's id with this
    game's secret), ``other_judge`` / ``forged_judge`` (another game's judge token / this
    game's judge token with a wrong secret), ``judge`` (this game's judge token: reads
    everything, every command PERMISSION_DENIED), ``raw`` (``text`` as the whole header value),
    ``answerer`` (a seat whose answer to an open undo request is awaited)."""

    kind: str
    index: int = 0
    text: str = ""


@dataclass(frozen=True)
class Version:
    """Which version: ``unset``, ``current``, ``delta`` (current + ``value``),
    ``absolute`` (``value``) or ``undo`` (one the acting seat may ask an undo to, by index)."""

    kind: str
    value: int = 0


@dataclass(frozen=True)
class Key:
    """Which idempotency key: ``none``, ``fresh`` (never used), ``text``, ``reuse`` (key
    ``index`` modulo the keys already acknowledged in the game: same command when the
    action is also ``replay``, else most likely a different one)."""

    kind: str
    index: int = 0
    text: str = ""


@dataclass(frozen=True)
class ActionSpec:
    """Which action: ``legal`` / ``other_seat`` (legal action ``index`` of the acting seat /
    of another seat), ``mutated`` (a legal one with leaf field ``path`` set to an
    adversarial value from ``pick`` / ``text``), ``replay`` (the command of the reused key),
    ``random`` (``message``), ``none``."""

    kind: str
    index: int = 0
    path: int = 0
    pick: int = 0
    text: str = ""
    message: Any = None


def _short(value: Any, limit: int = 300) -> str:
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}…({len(text)} characters)"


@dataclass(frozen=True, repr=False)
class Call:
    """A game-level RPC: ``method`` with a drawn ``request`` whose game id, version fields,
    key and action are then replaced as the parts say (``None``: keep the drawn value)."""

    method: str
    request: Any
    target: Target
    creds: Creds
    version: Version | None = None
    key: Key | None = None
    action: ActionSpec | None = None

    def __repr__(self) -> str:
        parts = [
            self.method,
            str(self.request),
            self.target,
            self.creds,
            self.version,
            self.key,
            self.action,
        ]
        return f"Call({', '.join(_short(p) for p in parts)})"


@dataclass(frozen=True, repr=False)
class Raw:
    """Raw request bytes for ``method``: ``payload`` as is, or (``mutate_from`` set) a real
    request for a live game with ``flips`` applied — ``(position, byte)`` overwrites,
    ``cut`` a truncation, ``extra`` appended bytes."""

    method: str
    payload: bytes
    creds: Creds
    mutate_from: Call | None = None
    flips: tuple[tuple[int, int], ...] = ()
    cut: int | None = None
    extra: bytes = b""

    def __repr__(self) -> str:
        parts = [
            self.method,
            self.payload,
            self.creds,
            self.mutate_from,
            self.flips,
            self.cut,
            self.extra,
        ]
        return f"Raw({', '.join(_short(p) for p in parts)})"


# -- strategies ------------------------------------------------------------------------------
indices = st.integers(0, 1_000)


def targets() -> st.SearchStrategy[Target]:
    """Mostly live games; sometimes unknown, empty or huge ids."""
    known = st.builds(Target, st.just("known"), indices)
    return st.one_of(
        *([known] * 8),
        st.builds(Target, st.just("unknown"), st.just(0), texts().filter(bool)),
        st.just(Target("empty")),
        st.just(Target("none")),
    )


def _b64(data: bytes) -> str:
    """Garbage bytes as header-safe text."""
    return base64.urlsafe_b64encode(data).decode() or "="


def creds() -> st.SearchStrategy[Creds]:
    """Mostly the seat that may act; every kind of bad credentials too."""
    ascii_text = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=40)
    return st.one_of(
        *([st.just(Creds("pending"))] * 6),
        st.just(Creds("idle")),
        st.builds(Creds, st.just("seat"), indices),
        st.just(Creds("none")),
        st.builds(Creds, st.just("other_game"), indices),
        st.just(Creds("forged")),
        st.builds(Creds, st.just("renumbered"), st.integers(0, 12)),
        st.builds(Creds, st.just("truncated"), st.integers(0, 80)),
        st.builds(Creds, st.just("garbage"), st.just(0), st.binary(max_size=48).map(_b64)),
        st.just(Creds("wrong_prefix")),
        st.builds(Creds, st.just("foreign_secret"), indices),
        st.builds(Creds, st.just("other_judge"), indices),
        st.just(Creds("forged_judge")),
        st.just(Creds("judge")),
        st.builds(
            Creds,
            st.just("raw"),
            st.just(0),
            st.one_of(
                ascii_text, st.sampled_from(("Bearer ", "Bearer", "Basic eDp5", "bearer x.0.y"))
            ),
        ),
    )


def versions() -> st.SearchStrategy[Version]:
    """Current, unset, stale, future and absurd versions."""
    return st.one_of(
        st.just(Version("current")),
        st.just(Version("current")),
        st.just(Version("unset")),
        st.builds(Version, st.just("delta"), st.sampled_from((-1, -2, 1, 2, -1000))),
        st.builds(Version, st.just("absolute"), ints(*I64)),
    )


def keys() -> st.SearchStrategy[Key]:
    """No key, fresh keys, reused keys, odd and oversized keys."""
    return st.one_of(
        st.just(Key("fresh")),
        st.just(Key("fresh")),
        st.just(Key("none")),
        st.builds(Key, st.just("reuse"), indices),
        st.builds(Key, st.just("reuse"), indices),
        st.builds(Key, st.just("text"), st.just(0), texts()),
    )


def actions() -> st.SearchStrategy[ActionSpec]:
    """Legal, mutated, other seats', replayed, random and missing actions."""
    return st.one_of(
        st.builds(ActionSpec, st.just("legal"), indices),
        st.builds(ActionSpec, st.just("legal"), indices),
        st.builds(ActionSpec, st.just("other_seat"), indices),
        st.builds(
            ActionSpec,
            st.just("mutated"),
            indices,
            indices,
            ints(-(2**40), 2**40),
            texts(),
        ),
        st.just(ActionSpec("replay")),
        st.builds(ActionSpec, st.just("random"), message=message_of(pb.Action)),
        st.just(ActionSpec("none")),
    )


def _request(method: str) -> st.SearchStrategy[Message]:
    return message_of(METHODS[method][0])


def submit_calls() -> st.SearchStrategy[Call]:
    """SubmitAction with every part adversarial."""
    method = "/annales.v1.GameService/SubmitAction"
    return st.builds(
        Call,
        st.just(method),
        st.just(pb.SubmitActionRequest()),
        targets(),
        creds(),
        versions(),
        keys(),
        actions(),
    )


def undo_calls() -> st.SearchStrategy[Call]:
    """Undo, RequestUndo (``to_version`` as the version part) and RespondUndo."""
    return st.one_of(
        st.builds(
            Call,
            st.just("/annales.v1.GameService/Undo"),
            st.just(pb.UndoRequest()),
            targets(),
            creds(),
            versions(),
            keys(),
        ),
        st.builds(
            Call,
            st.just("/annales.v1.GameService/RequestUndo"),
            st.just(pb.RequestUndoRequest()),
            targets(),
            creds(),
            st.one_of(
                versions(),
                st.builds(Version, st.just("absolute"), st.integers(0, 40)),
                st.builds(Version, st.just("undo"), indices),
                st.builds(Version, st.just("undo"), indices),
            ),
            keys(),
        ),
        st.builds(
            Call,
            st.just("/annales.v1.GameService/RespondUndo"),
            st.builds(pb.RespondUndoRequest, approve=st.booleans()),
            targets(),
            st.one_of(creds(), st.builds(Creds, st.just("answerer"), indices)),
            st.none(),
            keys(),
        ),
    )


READS = (
    "/annales.v1.GameService/GetGame",
    "/annales.v1.GameService/GetView",
    "/annales.v1.GameService/ListLegalActions",
    "/annales.v1.GameService/GetHistory",
    "/annales.v1.GameService/ExportRecord",
    "/annales.v1.GameService/ListGames",
    "/annales.v1.GameService/WatchGame",
    "/annales.v1.ReadModelService/GetScoreTimeline",
    "/annales.v1.ReadModelService/GetLeaderboard",
    "/annales.v1.ReadModelService/GetBalanceStats",
)


def read_calls() -> st.SearchStrategy[Call]:
    """Every reading RPC with a drawn request, the game id and versions often made real."""

    def one(method: str) -> st.SearchStrategy[Call]:
        version = (
            st.one_of(st.none(), versions())
            if method != "/annales.v1.GameService/ListGames"
            else st.none()
        )
        return st.builds(Call, st.just(method), _request(method), targets(), creds(), version)

    return st.one_of(*(one(m) for m in READS))


def other_calls() -> st.SearchStrategy[Call]:
    """CreateGame, VerifyRecord, Echo and EchoStream with drawn requests."""
    create = st.builds(
        Call,
        st.just("/annales.v1.GameService/CreateGame"),
        _request("/annales.v1.GameService/CreateGame"),
        st.just(Target("none")),
        st.just(Creds("none")),
    )
    rest = [
        st.builds(Call, st.just(m), _request(m), st.just(Target("none")), creds())
        for m in (
            "/annales.v1.GameService/VerifyRecord",
            "/annales.v1.DiagnosticsService/Echo",
            "/annales.v1.DiagnosticsService/EchoStream",
        )
    ]
    record = st.builds(
        Call,
        st.just("/annales.v1.GameService/VerifyRecord"),
        st.just(pb.VerifyRecordRequest()),
        st.builds(Target, st.just("known"), indices),
        st.just(Creds("none")),
        action=st.builds(
            ActionSpec, st.just("mutated"), indices, indices, st.integers(0, 255), texts()
        ),
    )
    from tests.fuzz.records import record_calls  # malformed records

    return st.one_of(create, shaped_creates(), shaped_creates(), record, record_calls(), *rest)


def shaped_creates() -> st.SearchStrategy[Call]:
    """CreateGame with the right game type, plausible seats and adversarial options."""
    games = (
        (pb.GAME_TYPE_RISE_AND_FALL, "rise_and_fall", riseandfall_pb2.RiseAndFallOptions),
        (pb.GAME_TYPE_TAPESTRY, "tapestry", tapestry_pb2.TapestryOptions),
        (pb.GAME_TYPE_IMPERIUM, "imperium", imperium_pb2.ImperiumOptions),
    )

    def request(game_type: Any, field: str, options: Any, seats: int) -> Message:
        return pb.CreateGameRequest(
            game_type=game_type,
            options=pb.GameOptions(**{field: options}),
            seat_names=[f"p{i}" for i in range(seats)],
        )

    shaped = st.one_of(
        *(
            st.builds(request, st.just(t), st.just(f), message_of(cls), st.integers(1, 6))
            for t, f, cls in games
        )
    )
    return st.builds(
        Call,
        st.just("/annales.v1.GameService/CreateGame"),
        shaped,
        st.just(Target("none")),
        st.just(Creds("none")),
    )


def raw_cases() -> st.SearchStrategy[Raw]:
    """Random bytes for any method, and real requests with flipped, cut or extra bytes."""
    method = st.sampled_from(sorted(METHODS))
    random_bytes = st.builds(Raw, method, st.binary(max_size=64), creds())
    flips = st.lists(st.tuples(st.integers(0, 4_000), st.integers(0, 255)), max_size=3).map(tuple)
    mutated = st.builds(
        Raw,
        st.just(""),
        st.just(b""),
        creds(),
        st.one_of(submit_calls(), read_calls()),
        flips,
        st.one_of(st.none(), st.integers(0, 200)),
        st.one_of(st.just(b""), st.binary(max_size=8)),
    )
    return st.one_of(random_bytes, mutated, mutated)


def cases() -> st.SearchStrategy[Call | Raw]:
    """One fuzz case of any kind (SubmitAction weighted most)."""
    return st.one_of(
        submit_calls(),
        submit_calls(),
        submit_calls(),
        undo_calls(),
        read_calls(),
        read_calls(),
        other_calls(),
        raw_cases(),
        campaign_requests().map(lambda mr: Call(mr[0], mr[1], Target("none"), Creds("none"))),
    )
