"""``annales.v1.ReadModelService`` and the read-model side of ``GameService.ListGames``.

Answers come from the read-model file maintained by :mod:`projections` — spectator-visible
data only. Before answering, a call waits (at most ``freshness`` seconds) until the runner has
applied every notification committed before the call, so a client reads its own writes. As a
last line of defence a per-game answer about an unfinished game is scanned for the game's
secret seed, like :meth:`~service.api.redaction.Redactor.outgoing` does.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from typing import Any, TypeVar

import grpc
import sqlite_utils
from annales.v1 import annales_pb2 as pb
from annales.v1 import readmodels_pb2 as rpb
from annales.v1 import readmodels_pb2_grpc as rpb_grpc

from projections import queries
from projections.process import RunnerProcess
from projections.schema import connect
from service import settings
from service.api.calls import typed_calls
from service.api.games import BY_NAME, BY_TYPE, typed_options
from service.api.redaction import SecretLeak
from service.api.status import ApiError
from service.store.eventstore import EventStore

log = logging.getLogger("annales.api")
R = TypeVar("R")

STATUS_NAMES = {
    pb.GAME_STATUS_SETUP: "setup",
    pb.GAME_STATUS_RUNNING: "running",
    pb.GAME_STATUS_FINISHED: "finished",
    pb.GAME_STATUS_ABANDONED: "abandoned",
}
STATUS_VALUES = {name: value for value, name in STATUS_NAMES.items()}


#: seconds a read-model call waits for the events committed before it, by default
DEFAULT_FRESHNESS = 1.0


def configured_freshness() -> float:
    """The wait from ``ANNALES_READ_FRESHNESS`` (seconds, a non-negative number), else the
    default; raises ``SettingError`` for another value."""
    return settings.number("ANNALES_READ_FRESHNESS", DEFAULT_FRESHNESS, 0.0)


def _invalid(field: str, message: str) -> ApiError:
    return ApiError(
        grpc.StatusCode.INVALID_ARGUMENT, "INVALID_FIELD", f"{field}: {message}", {"field": field}
    )


def page(size: int, token: str, default: int, limit: int) -> tuple[int, int]:
    """``(offset, page size)`` from a request's ``page_size`` and ``page_token``."""
    if size < 0:
        raise _invalid("page_size", "must not be negative")
    # ASCII digits only: ``str.isdigit`` also accepts "²", which ``int()`` refuses.
    if token and (not (token.isascii() and token.isdigit()) or len(token) > 12):
        raise _invalid("page_token", "not a token returned by this call")
    return (int(token) if token else 0), min(size or default, limit)


def game_type_name(value: int, required: bool) -> str | None:
    """The registry name of a ``GameType`` (``None`` when unspecified and optional)."""
    if value == pb.GAME_TYPE_UNSPECIFIED and not required:
        return None
    api = BY_TYPE.get(value)
    if api is None:
        raise _invalid("game_type", "unknown or unspecified game type")
    return api.name


class ReadModels:
    """Read access to the read-model file (one connection per thread) and its runner."""

    def __init__(
        self,
        path: str,
        store: EventStore,
        runner: RunnerProcess | None,
        freshness: float | None = None,
        startup: float = 30.0,
    ) -> None:
        self.path = path
        self.store = store
        self.runner = runner
        #: seconds a call waits for the events committed before it (``ANNALES_READ_FRESHNESS``)
        self.freshness = configured_freshness() if freshness is None else freshness
        self._local = threading.local()
        self._ready = False  # the runner has created the tables
        #: seconds a first call waits for a just-started runner to create its tables
        self.startup = startup

    def db(self) -> sqlite_utils.Database:
        """This thread's connection, after waiting for the events committed so far."""
        db: sqlite_utils.Database | None = getattr(self._local, "db", None)
        if db is None:
            db = self._local.db = connect(self.path)
        if not self._ready and self.runner is not None:
            # a server that has just started: its runner child is still importing or
            # creating the tables; wait for it (once) rather than answer from no tables
            deadline = time.monotonic() + self.startup
            while "games" not in db.table_names() and time.monotonic() < deadline:
                time.sleep(0.01)
        self._local.behind = self.runner is not None and not self.runner.wait_for(
            self.store.feed_head(), self.freshness
        )
        if not self._ready:
            # The runner creates every table at once when it first opens the file; a call
            # before that (server just started) must not answer INTERNAL (found by the fuzzer).
            if "games" not in db.table_names():
                raise ApiError(
                    grpc.StatusCode.UNAVAILABLE,
                    "READ_MODELS_NOT_READY",
                    "The read models are being built; retry shortly.",
                )
            self._ready = True
        return db

    def behind(self) -> bool:
        """Whether this thread's last :meth:`db` found the read models still behind the events
        committed before it once its wait ran out (the answer's ``behind``)."""
        return bool(getattr(self._local, "behind", False))

    def guard(self, game_id: str, finished: bool, message: Any) -> None:
        """Refuse to send ``message`` if it contains the seed of an unfinished game, or the
        nonce of its commitment."""
        if finished:
            return
        blob = message.SerializeToString()
        for what, secret in (
            ("seed", self.store.load_seed(game_id)),
            ("nonce", self.store.load_nonce(game_id)),
        ):
            if secret and len(secret) >= 8 and (secret in blob or secret.hex().encode() in blob):
                raise SecretLeak(f"a read-model answer about game {game_id} contained its {what}")

    # -- ListGames ----------------------------------------------------------------------------
    def list_games(self, request: pb.ListGamesRequest) -> pb.ListGamesResponse:
        """``GameService.ListGames`` from the games read model (newest first, paged)."""
        offset, size = page(request.page_size, request.page_token, 50, 500)
        game_type = game_type_name(request.game_type, required=False)
        status = None
        if request.status != pb.GAME_STATUS_UNSPECIFIED:
            status = STATUS_NAMES.get(request.status)
            if status is None:
                raise _invalid("status", "unknown status")
        if len(request.player) > 64:
            raise ApiError(
                grpc.StatusCode.RESOURCE_EXHAUSTED, "TOO_LARGE", "player: longer than 64.",
                {"field": "player", "limit": "64"},
            )  # fmt: skip
        rows, more = queries.list_games(
            self.db(),
            game_type=game_type,
            status=status,
            player=request.player or None,
            offset=offset,
            limit=size,
        )
        games = [summary(row) for row in rows]
        return pb.ListGamesResponse(
            games=games, next_page_token=str(offset + size) if more else "", behind=self.behind()
        )


def summary(row: queries.GameRow) -> pb.GameSummary:
    """A ``GameSummary`` from a games read-model row."""
    return pb.GameSummary(
        game_id=row.game_id,
        game_type=BY_NAME[row.game_type].game_type
        if row.game_type in BY_NAME
        else pb.GAME_TYPE_UNSPECIFIED,
        ruleset=row.ruleset,
        seat_names=list(row.seat_names),
        version=row.version,
        head_version=row.version,
        status=STATUS_VALUES[row.status],
        pending=pb.Pending(seats=list(row.pending_seats), decision=row.decision, prompt=row.prompt),
        scores=list(row.scores),
        winners=list(row.winners),
        seed_commitment=row.seed_commitment,
        seed=row.seed if row.status == "finished" else "",
        nonce=row.nonce if row.status == "finished" else "",
        options_json=row.options_json,
        options=typed_options(row.game_type, json.loads(row.options_json or "{}")),
        parties=[pb.PartyScore(name=n, score=v, winner=w) for n, v, w in row.parties],
    )


#: typed statuses and one log line per call (as the game servicer's)
_rpc = typed_calls("game_id")


class ReadModelServicer(rpb_grpc.ReadModelServiceServicer):
    """RPC handlers (see ``proto/annales/v1/readmodels.proto``)."""

    def __init__(self, readmodels: ReadModels) -> None:
        self.readmodels = readmodels

    @_rpc
    def GetScoreTimeline(
        self, request: rpb.GetScoreTimelineRequest, context: grpc.ServicerContext
    ) -> rpb.GetScoreTimelineResponse:
        """Each seat's score after every turn of a game, from the read model."""
        if not request.game_id or len(request.game_id) > 128:
            raise _invalid("game_id", "is required (at most 128 characters)")
        offset, size = page(request.page_size, request.page_token, 1000, 10_000)
        db = self.readmodels.db()
        row = queries.get_game(db, request.game_id)
        if row is None:
            raise ApiError(
                grpc.StatusCode.NOT_FOUND, "GAME_NOT_FOUND", f"No game with id {request.game_id!r}."
            )
        points, more = queries.score_timeline(db, request.game_id, offset, size)
        response = rpb.GetScoreTimelineResponse(
            game_id=row.game_id,
            seat_names=list(row.seat_names),
            points=[
                rpb.ScorePoint(point=p.point, version=p.version, scores=list(p.scores))
                for p in points
            ],
            next_page_token=str(offset + size) if more else "",
            behind=self.readmodels.behind(),
        )
        self.readmodels.guard(row.game_id, row.status == "finished", response)
        return response

    @_rpc
    def GetLeaderboard(
        self, request: rpb.GetLeaderboardRequest, context: grpc.ServicerContext
    ) -> rpb.GetLeaderboardResponse:
        """Players ranked by wins in the finished games of one type, from the read model."""
        game_type = game_type_name(request.game_type, required=True)
        assert game_type is not None
        offset, size = page(request.page_size, request.page_token, 50, 500)
        entries, more = queries.leaderboard(self.readmodels.db(), game_type, offset, size)
        return rpb.GetLeaderboardResponse(
            entries=[
                rpb.LeaderboardEntry(
                    player=e.player,
                    games=e.games,
                    wins=e.wins,
                    win_rate=e.win_rate,
                    average_score=e.average_score,
                    best_score=e.best_score,
                )
                for e in entries
            ],
            next_page_token=str(offset + size) if more else "",
            behind=self.readmodels.behind(),
        )

    @_rpc
    def GetBalanceStats(
        self, request: rpb.GetBalanceStatsRequest, context: grpc.ServicerContext
    ) -> rpb.GetBalanceStatsResponse:
        """Win rate, average score and average rank per balance key in the finished games of one
        type, from the read model."""
        game_type = game_type_name(request.game_type, required=True)
        assert game_type is not None
        if request.player_count < 0:
            raise _invalid("player_count", "must not be negative")
        offset, size = page(request.page_size, request.page_token, 100, 1000)
        rows = queries.balance_stats(self.readmodels.db(), game_type, request.player_count)
        chosen = rows[offset : offset + size]
        return rpb.GetBalanceStatsResponse(
            stats=[
                rpb.BalanceStat(
                    balance_key=r.balance_key,
                    player_count=r.players,
                    games=r.games,
                    wins=r.wins,
                    win_rate=r.win_rate,
                    win_rate_low=r.interval[0],
                    win_rate_high=r.interval[1],
                    average_score=r.average_score,
                    average_rank=r.average_rank,
                )
                for r in chosen
            ],
            next_page_token=str(offset + size) if offset + size < len(rows) else "",
            behind=self.readmodels.behind(),
        )
