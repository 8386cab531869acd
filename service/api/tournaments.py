"""``annales.v1.TournamentService`` over
:class:`~service.tournaments.service.TournamentService`.

* **Organiser token.** ``CreateTournament`` returns a bearer token for the organiser (stored
  only as its SHA-256, in the same recorder as seat tokens, under the tournament id);
  ``RegisterEntrant``, ``StartTournament`` and ``ReportResult`` need it. Standings, records and
  verification are public (a record exists only once the tournament has ended).
* **Seat tokens.** A person's seat token for each game is returned once, in the
  ``TournamentRound`` that opened the game (``StartTournament`` / ``ReportResult``); the
  organiser hands them out. Rounds are only ever opened by these two calls, so no token is lost.
* **Bots play by themselves.** When a round opens (in ``StartTournament`` / ``ReportResult``) its
  all-bot games are played to the end in the call and their results recorded; if that completes
  the round the next one opens at once, and so on. A bot seat in a game with people answers as
  soon as it is due: the servicer listens to every commit of the game service and, for a
  tournament game, lets its bot seats play (:func:`service.tournaments.service.play_bot_seats`, the
  same deterministic bots as everywhere) — so when a person's ``SubmitAction`` returns, the bots
  after them have moved. Results of games with people are recorded by ``ReportResult`` (read
  from the finished game itself: nothing is typed in); reporting a game already recorded is
  not an error (``already_recorded``).
* Errors are typed statuses like the game servicer's: INVALID_ARGUMENT (field),
  UNAUTHENTICATED / PERMISSION_DENIED (organiser token), NOT_FOUND (``TOURNAMENT_NOT_FOUND``),
  FAILED_PRECONDITION (the tournament rule's code, e.g. ``ALREADY_STARTED``,
  ``GAME_NOT_FINISHED``), ABORTED (a concurrent change).
"""

from __future__ import annotations

import logging
import re
import threading
from typing import Any, TypeVar

import grpc
from annales.v1 import annales_pb2 as pb
from annales.v1 import tournament_pb2 as tpb
from annales.v1 import tournament_pb2_grpc as tpb_grpc

from domain.core.envelope import Envelope
from domain.tournament import engine, seeds
from service.api.auth import TokenBook, bearer, identify
from service.api.calls import typed_calls
from service.api.convert import read
from service.api.games import BY_NAME, BY_TYPE
from service.api.status import ApiError, from_service_error
from service.app.application import GameService
from service.app.errors import ServiceError
from service.app.tokens import new_tokens, token_hash
from service.tournaments.bots import inline_runner, play_bot_seats
from service.tournaments.record import verify_tournament
from service.tournaments.service import (
    GameNotFinished,
    RoundStart,
    TournamentNotFound,
    TournamentRejected,
    TournamentService,
)

log = logging.getLogger("annales.api")
R = TypeVar("R")

MAX_ID = 128
MAX_NAME = 64
MAX_SEED = 256
MAX_RECORD = 64 * 1024 * 1024

FORMATS = {
    tpb.TOURNAMENT_FORMAT_ROUND_ROBIN: "round_robin",
    tpb.TOURNAMENT_FORMAT_SWISS: "swiss",
    tpb.TOURNAMENT_FORMAT_DUPLICATE: "duplicate",
}
FORMAT_VALUES = {name: value for value, name in FORMATS.items()}
KINDS = {tpb.TOURNAMENT_ENTRANT_KIND_PERSON: "person", tpb.TOURNAMENT_ENTRANT_KIND_BOT: "bot"}
KIND_VALUES = {name: value for value, name in KINDS.items()}
#: ``{tournament id}-r{round}-t{table}`` (see :mod:`domain.tournament.engine`).
GAME_ID = re.compile(r"^(?P<tid>" + re.escape(engine.ID_PREFIX) + r".+)-r\d+-t\d+$")

BotSeats = dict[int, tuple[str, bytes]]


def _invalid(field: str, message: str) -> ApiError:
    return ApiError(
        grpc.StatusCode.INVALID_ARGUMENT, "INVALID_FIELD", f"{field}: {message}", {"field": field}
    )


def _text(value: str, field: str, limit: int, required: bool = True) -> str:
    if len(value) > limit:
        raise ApiError(
            grpc.StatusCode.RESOURCE_EXHAUSTED, "TOO_LARGE", f"{field}: longer than {limit}.",
            {"field": field, "limit": str(limit)},
        )  # fmt: skip
    if required and not value:
        raise _invalid(field, "is required")
    return value


def api_error(error: ServiceError) -> ApiError:
    """The typed status of an application-layer error of the tournament service."""
    if isinstance(error, TournamentNotFound):
        return ApiError(grpc.StatusCode.NOT_FOUND, "TOURNAMENT_NOT_FOUND", error.message)
    if isinstance(error, TournamentRejected | GameNotFinished):
        return ApiError(grpc.StatusCode.FAILED_PRECONDITION, error.reason, error.message)
    return from_service_error(error)


#: typed statuses (tournament errors first) and one log line per call
rpc = typed_calls("tournament_id", to_api=api_error)


def round_message(opened: RoundStart) -> tpb.TournamentRound:
    """A ``TournamentRound`` (with the people's seat tokens) from the service's answer."""
    return tpb.TournamentRound(
        round=opened.round,
        byes=list(opened.byes),
        games=[
            tpb.TournamentGame(
                round=game.round,
                table=game.table,
                game_id=game.game_id,
                seed_commitment=game.seed_commitment,
                seats=[
                    tpb.TournamentSeat(
                        seat=seat.seat,
                        entrant=seat.entrant,
                        name=seat.name,
                        kind=KIND_VALUES.get(seat.kind, tpb.TOURNAMENT_ENTRANT_KIND_UNSPECIFIED),
                        token=seat.token or "",
                    )
                    for seat in game.seats
                ],
            )
            for game in opened.games
        ],
    )


class TournamentServicer(tpb_grpc.TournamentServiceServicer):
    """RPC handlers (see ``proto/annales/v1/tournament.proto``); listens to game commits."""

    def __init__(self, games: GameService, tournaments: TournamentService | None = None) -> None:
        self.games = games
        self.tournaments = tournaments or TournamentService(games)
        self.tokens = TokenBook(games.store)
        self._bot_seats: dict[str, BotSeats] = {}
        self._local = threading.local()
        self._guard = threading.Lock()
        self._locks: dict[str, threading.RLock] = {}
        games.on_commit(self.committed)

    # -- helpers ------------------------------------------------------------------------------
    def _lock(self, tournament_id: str) -> threading.RLock:
        with self._guard:
            lock = self._locks.get(tournament_id)
            if lock is None:
                lock = self._locks[tournament_id] = threading.RLock()
            return lock

    def _organiser(self, tournament_id: str, context: grpc.ServicerContext) -> str:
        """Check the organiser token of ``tournament_id`` (which must exist)."""
        _text(tournament_id, "tournament_id", MAX_ID)
        self.tournaments.envelopes(tournament_id)  # NOT_FOUND when unknown
        hashes = self.games.store.load_token_hashes(tournament_id)
        token = bearer(context.invocation_metadata())
        if token is None:
            raise ApiError(
                grpc.StatusCode.UNAUTHENTICATED,
                "TOKEN_REQUIRED",
                "This call is the organiser's: send 'authorization: Bearer <organiser token>'.",
            )
        # the organiser's token is the tournament's seat 0; another tournament's or game's valid
        # token is WRONG_GAME_TOKEN, anything else BAD_TOKEN (as for games)
        if not hashes or identify(token, tournament_id, self.tokens).seat != 0:
            raise ApiError(grpc.StatusCode.UNAUTHENTICATED, "BAD_TOKEN", "Invalid token.")
        return tournament_id

    def _advance(self, tournament_id: str) -> tuple[list[RoundStart], list[int], bool]:
        """Play the current round's all-bot games, record every finished game of it, and go
        on while rounds complete; the rounds opened, the rounds completed, and ``ended``."""
        service = self.tournaments
        opened: list[RoundStart] = []
        completed: list[int] = []
        with self._lock(tournament_id):
            while True:
                state = service.state(tournament_id)
                if state.ended is not None or not state.started:
                    return opened, completed, state.ended is not None
                inline_runner(self.games)(service.bot_jobs(tournament_id))
                progressed = False
                for assigned in state.round_games(state.current_round):
                    if assigned.game_id in state.results or not self._over(assigned.game_id):
                        continue
                    try:
                        reported = service.report(tournament_id, assigned.game_id)
                    except TournamentRejected as error:
                        if error.code == "RESULT_RECORDED":
                            continue
                        raise
                    progressed = True
                    if reported.round_completed is not None:
                        completed.append(reported.round_completed)
                    if reported.next_round is not None:
                        opened.append(reported.next_round)
                if not progressed:
                    return opened, completed, False

    def _over(self, game_id: str) -> bool:
        if self.games.store.last_seq(game_id) == 0:
            return False
        match = self.games.head(game_id)
        return bool(match.game.is_over(match.state))

    # -- bots answering in games with people --------------------------------------------------
    def committed(self, game_id: str, envelopes: tuple[Envelope, ...]) -> None:
        """A commit listener: let a tournament game's bot seats play if one is due.

        Runs after the commit (never undoes or delays what was acknowledged); errors are
        logged, never raised into the committing call. Re-entrant commits (the bots' own) are
        ignored: the outer call plays until no bot is due.
        """
        if getattr(self._local, "busy", False) or not GAME_ID.match(game_id):
            return
        self._local.busy = True
        try:
            bots = self._bots_of(game_id)
            if bots:
                play_bot_seats(self.games, game_id, bots)
        except Exception:
            log.exception("tournament bots of %s could not play", game_id)
        finally:
            self._local.busy = False

    def _bots_of(self, game_id: str) -> BotSeats:
        """Seat → (bot kind, bot seed) of a tournament game (empty when it has no bot)."""
        known = self._bot_seats.get(game_id)
        if known is not None:
            return known
        matched = GAME_ID.match(game_id)
        if matched is None:
            return {}
        tournament_id = matched.group("tid")
        try:
            state = self.tournaments.state(tournament_id)
        except TournamentNotFound:
            return {}
        assigned = state.games.get(game_id)
        master = self.games.store.load_seed(tournament_id)
        if assigned is None or master is None:
            return {}
        seed = engine.game_seed_of(state, master, assigned)
        bots: BotSeats = {}
        for seat, number in enumerate(assigned.seats):
            entrant = state.entrants[number]
            if entrant.kind == "bot":
                bots[seat] = (str(entrant.bot), seeds.bot_seed(seed, seat))
        self._bot_seats[game_id] = bots
        return bots

    # -- RPCs ---------------------------------------------------------------------------------
    @rpc
    def CreateTournament(
        self, request: tpb.CreateTournamentRequest, context: grpc.ServicerContext
    ) -> tpb.CreateTournamentResponse:
        """Create a tournament: its id, the master seed's commitment and the organiser token."""
        api = BY_TYPE.get(request.game_type)
        if api is None:
            raise _invalid("game_type", "unknown or unspecified game type")
        format_name = FORMATS.get(request.format)
        if format_name is None:
            raise _invalid("format", "unknown or unspecified format")
        if request.rounds < 0 or request.table_size < 0:
            raise _invalid("rounds" if request.rounds < 0 else "table_size", "must be >= 0")
        name = _text(request.name, "name", MAX_NAME, required=False)
        master = _text(request.master_seed, "master_seed", MAX_SEED, required=False)
        options: dict[str, Any] = {}
        if request.HasField("options"):
            which = request.options.WhichOneof("game")
            if which not in (None, api.field):
                raise _invalid(
                    "options",
                    f"sets {which}, but the tournament is {api.name}: use options.{api.field}.",
                )
            if which is not None:
                options = read(getattr(request.options, which), api.prefix)
        created = self.tournaments.create(
            api.name,
            options=options,
            format=format_name,
            rounds=request.rounds,
            table_size=request.table_size or 2,
            name=name,
            master_seed=master.encode() if master else None,
        )
        (token,) = new_tokens(created.tournament_id, 1)
        self.games.store.save_token_hashes(created.tournament_id, [token_hash(token)])
        return tpb.CreateTournamentResponse(
            tournament_id=created.tournament_id,
            seed_commitment=created.seed_commitment,
            version=created.version,
            organiser_token=token,
        )

    @rpc
    def RegisterEntrant(
        self, request: tpb.RegisterEntrantRequest, context: grpc.ServicerContext
    ) -> tpb.RegisterEntrantResponse:
        """Register a person or a bot (the organiser, before the start)."""
        tournament_id = self._organiser(request.tournament_id, context)
        name = _text(request.name, "name", MAX_NAME)
        kind = KINDS.get(request.kind)
        if kind is None:
            raise _invalid("kind", "unknown or unspecified entrant kind")
        bot = _text(request.bot, "bot", MAX_NAME, required=kind == "bot")
        if kind == "person" and bot:
            raise _invalid("bot", "a person has no bot kind")
        entrant = self.tournaments.register(tournament_id, name, kind, bot or None)
        return tpb.RegisterEntrantResponse(
            entrant=tpb.TournamentEntrant(
                entrant=entrant.entrant,
                name=entrant.name,
                kind=KIND_VALUES.get(entrant.kind, tpb.TOURNAMENT_ENTRANT_KIND_UNSPECIFIED),
                bot=entrant.bot or "",
            )
        )

    @rpc
    def StartTournament(
        self, request: tpb.StartTournamentRequest, context: grpc.ServicerContext
    ) -> tpb.StartTournamentResponse:
        """Close registration, pair the first round and create its games; the people's seat
        tokens (the organiser)."""
        tournament_id = self._organiser(request.tournament_id, context)
        with self._lock(tournament_id):
            first = self.tournaments.start(tournament_id)
            opened, _, ended = self._advance(tournament_id)
        return tpb.StartTournamentResponse(
            rounds=[round_message(r) for r in (first, *opened)], ended=ended
        )

    @rpc
    def ReportResult(
        self, request: tpb.ReportResultRequest, context: grpc.ServicerContext
    ) -> tpb.ReportResultResponse:
        """Record a finished game's result (read from the game), complete rounds and open the next
        (the organiser)."""
        tournament_id = self._organiser(request.tournament_id, context)
        game_id = _text(request.game_id, "game_id", MAX_ID)
        opened: list[RoundStart] = []
        completed: list[int] = []
        already = False
        with self._lock(tournament_id):
            try:
                reported = self.tournaments.report(tournament_id, game_id)
            except TournamentRejected as error:
                if error.code != "RESULT_RECORDED":
                    raise
                already = True
            else:
                if reported.round_completed is not None:
                    completed.append(reported.round_completed)
                if reported.next_round is not None:
                    opened.append(reported.next_round)
            more, done, ended = self._advance(tournament_id)
        return tpb.ReportResultResponse(
            game_id=game_id,
            already_recorded=already,
            rounds_completed=[*completed, *done],
            rounds=[round_message(r) for r in (*opened, *more)],
            ended=ended,
        )

    @rpc
    def GetStandings(
        self, request: tpb.GetStandingsRequest, context: grpc.ServicerContext
    ) -> tpb.GetStandingsResponse:
        """The current (or final) standings."""
        tournament_id = _text(request.tournament_id, "tournament_id", MAX_ID)
        standings = self.tournaments.standings(tournament_id)
        api = BY_NAME.get(standings.game_type)
        return tpb.GetStandingsResponse(
            tournament_id=standings.tournament_id,
            name=standings.name,
            game_type=api.game_type if api is not None else pb.GAME_TYPE_UNSPECIFIED,
            format=FORMAT_VALUES.get(standings.format, tpb.TOURNAMENT_FORMAT_UNSPECIFIED),
            round=standings.round,
            rounds=standings.rounds,
            rounds_completed=standings.rounds_completed,
            ended=standings.ended,
            master_seed=standings.master_seed or "",
            rows=[
                tpb.TournamentStandingRow(
                    rank=r.rank,
                    entrant=r.entrant,
                    name=r.name,
                    points=r.points,
                    score=r.score,
                    buchholz=r.buchholz,
                    wins=r.wins,
                    games=r.games,
                    byes=r.byes,
                    lot=r.lot,
                )
                for r in standings.rows
            ],
        )

    @rpc
    def ExportTournamentRecord(
        self, request: tpb.ExportTournamentRecordRequest, context: grpc.ServicerContext
    ) -> tpb.ExportTournamentRecordResponse:
        """The record of an ended tournament (JSON lines)."""
        tournament_id = _text(request.tournament_id, "tournament_id", MAX_ID)
        lines = self.tournaments.export(tournament_id)
        return tpb.ExportTournamentRecordResponse(record=b"".join(line + b"\n" for line in lines))

    @rpc
    def VerifyTournamentRecord(
        self, request: tpb.VerifyTournamentRecordRequest, context: grpc.ServicerContext
    ) -> tpb.VerifyTournamentRecordResponse:
        """Verify a tournament record by re-running every game and the standings."""
        if not request.record:
            raise _invalid("record", "is required")
        if len(request.record) > MAX_RECORD:
            raise ApiError(
                grpc.StatusCode.RESOURCE_EXHAUSTED, "TOO_LARGE",
                f"record: larger than {MAX_RECORD} bytes.",
                {"field": "record", "limit": str(MAX_RECORD)},
            )  # fmt: skip
        report = verify_tournament(request.record.splitlines())
        return tpb.VerifyTournamentRecordResponse(
            ok=report.ok,
            message=report.message,
            tournament_id=report.tournament_id,
            games=report.games,
            events=report.events,
            problems=[
                tpb.TournamentProblem(
                    reason=p.reason,
                    round=p.round,
                    table=p.table,
                    game_id=p.game_id or "",
                    seq=p.seq,
                )
                for p in report.problems
            ],
        )
