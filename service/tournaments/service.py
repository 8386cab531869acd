"""Tournaments on the event store: create, register, start, report, standings, export, verify.

:class:`TournamentService` is the application layer of seeded tournaments (the CLI and the
gRPC ``TournamentService`` call it). The rules — pairing, standings, seed derivation — are in
:mod:`domain.tournament`; this module stores the tournament's events and creates its games
through :class:`~service.app.application.GameService`, so every tournament game is a normal stored
game (played through the game RPCs, exported and verified like any other).

Storage. A tournament's events live in the same database as the games, in their own
recorder (``purpose="tournaments"``, stream id ``tournament-…``), each in an
:class:`~domain.core.envelope.Envelope` of the same SHA-256 hash chain as game events
(ruleset ``annales.tournament/1``, seat ``-1``). They are *not* in the games' notification
log, so the game read models never see them. The master seed is kept with the game seeds
(``stored_secrets``) until ``TournamentEnded`` reveals it.

Games. Each table's game has the id ``{tournament id}-r{round}-t{table}``, the seed derived
from the master seed (:mod:`domain.tournament.seeds`) and the entrants' names as seat names,
in the derived seat order. A table with a person is created when its round is paired, with
a seat token for every seat (only their SHA-256 is stored with the game; the people's tokens
are in the :class:`RoundStart` returned by :meth:`TournamentService.start`,
:meth:`TournamentService.report` and, at any time, :meth:`TournamentService.round` — they are
re-derived from a secret token key, see :func:`~service.tournaments.tokens.seat_token`). A
table of bots only is created by whoever plays it (a
:class:`~service.tournaments.bots.BotGameJob` carries everything needed), so parallel workers
can create and play it.

Results are never typed in: :meth:`TournamentService.report` reads the finished game's
outcome from the store (the game must be over), binding the result to the game's last hash.

Bots (:mod:`service.tournaments.bots`). A bot seat's every decision is made by
``make_bot(kind, seed)`` with the seed ``HMAC(game seed, "bot/{seat}")`` + the game version,
and stored with the command id ``bot-{seat}-{version}``: the same master seed gives
byte-identical games and exports, whichever process plays them.

>>> import tempfile, os
>>> from service.store.config import StoreConfig
>>> from service.store.eventstore import EventStore
>>> store = EventStore(StoreConfig(path=os.path.join(tempfile.mkdtemp(), "t.db")))
>>> service = TournamentService(GameService(store))
>>> created = service.create("imperium", master_seed=b"m", tournament_id="tournament-doc")
>>> for name in ("Ann", "Bob"):
...     _ = service.register(created.tournament_id, name, kind="bot", bot="random")
>>> service.run(created.tournament_id)[0].rank
1
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import threading
import uuid
from collections.abc import Callable
from typing import Any

import msgspec
from eventsourcing.persistence import IntegrityError
from eventsourcing.persistence import StoredEvent as RecordedEvent

from domain.bots import BOTS, GAME_BOTS
from domain.core.chance import derived_nonce
from domain.core.envelope import (
    GENESIS,
    SYSTEM_SEAT,
    Envelope,
    decode_envelope,
    encode_envelope,
    seal,
)
from domain.core.errors import MalformedCommand
from domain.registry import GAMES
from domain.tournament import engine, seeds
from domain.tournament.engine import TournamentState
from domain.tournament.errors import TournamentError
from domain.tournament.events import (
    SCHEMA,
    TOURNAMENT_RULESET,
    GameAssigned,
    RoundCompleted,
    StandingRow,
    TournamentEvent,
    decode_event,
    encode_event,
)
from service.app.application import GameService
from service.app.errors import InvalidArgument, VersionConflict
from service.app.ledger import Ledger
from service.store.eventstore import EventStore
from service.tournaments.bots import (
    BotGameJob,
    JobRunner,
    bot_seats,
    inline_runner,
    play_bot_seats,
)
from service.tournaments.record import export_tournament
from service.tournaments.tokens import seat_token, token_key_id
from service.tournaments.types import (
    AssignedGame,
    CreatedTournament,
    Entrant,
    GameNotFinished,
    Reported,
    RoundStart,
    SeatAssignment,
    Standings,
    TournamentNotFound,
    TournamentRejected,
)

_log = logging.getLogger(__name__)

__all__ = [
    "AssignedGame",
    "BotGameJob",
    "CreatedTournament",
    "Entrant",
    "GameNotFinished",
    "JobRunner",
    "Reported",
    "RoundStart",
    "SeatAssignment",
    "Standings",
    "TournamentNotFound",
    "TournamentRejected",
    "TournamentService",
    "inline_runner",
    "play_bot_seats",
]


# -- the service ------------------------------------------------------------------------------
class TournamentService:
    """Seeded tournaments on the store of a :class:`GameService`."""

    def __init__(self, games: GameService) -> None:
        self.games = games
        self.store: EventStore = games.store
        self.log: Any = self.store.factory.aggregate_recorder(purpose="tournaments")
        self._locks: dict[str, threading.RLock] = {}
        self._guard = threading.Lock()
        self._following = threading.local()
        self._autoplay = False

    def _lock(self, tournament_id: str) -> threading.RLock:
        with self._guard:
            lock = self._locks.get(tournament_id)
            if lock is None:
                lock = self._locks[tournament_id] = threading.RLock()
            return lock

    # -- the log ----------------------------------------------------------------------------
    def envelopes(self, tournament_id: str) -> list[Envelope]:
        """The tournament's stored envelopes, in order (raises ``TournamentNotFound``)."""
        records = self.log.select_events(tournament_id)
        if not records:
            raise TournamentNotFound(f"No tournament with id {tournament_id!r}.")
        return [decode_envelope(bytes(r.state)) for r in records]

    def state(self, tournament_id: str) -> TournamentState:
        """The tournament folded from its stored events."""
        state = TournamentState()
        for envelope in self.envelopes(tournament_id):
            engine.evolve(state, decode_event(envelope.kind, envelope.payload))
        return state

    def _append(
        self, tournament_id: str, state_version: int, command_id: str, events: list[Any]
    ) -> None:
        last = self.log.select_events(tournament_id, desc=True, limit=1)
        prev = decode_envelope(bytes(last[0].state)).hash if last else GENESIS
        records = []
        seq = state_version - len(events)
        for event in events:
            seq += 1
            kind, payload = encode_event(event)
            envelope = seal(
                game_id=tournament_id,
                seq=seq,
                command_id=command_id,
                seat=SYSTEM_SEAT,
                ruleset=TOURNAMENT_RULESET,
                schema=SCHEMA,
                kind=kind,
                payload=payload,
                prev_hash=prev,
            )
            prev = envelope.hash
            records.append(RecordedEvent(tournament_id, seq, kind, encode_envelope(envelope)))
        try:
            self.log.insert_events(records)
        except IntegrityError as error:
            raise VersionConflict(
                f"Tournament {tournament_id} moved on; retry.", state_version - len(events)
            ) from error

    def _token_key(self, tournament_id: str) -> bytes:
        key = self.store.load_seed(token_key_id(tournament_id))
        if key is None:
            raise TournamentNotFound(f"No token key stored for {tournament_id!r}.")
        return key

    def _master(self, tournament_id: str) -> bytes:
        seed = self.store.load_seed(tournament_id)
        if seed is None:
            raise TournamentNotFound(f"No master seed stored for {tournament_id!r}.")
        return seed

    def _decide(
        self,
        tournament_id: str,
        command_id: str,
        decide: Callable[[TournamentState], list[TournamentEvent]],
    ) -> tuple[TournamentState, list[TournamentEvent]]:
        with self._lock(tournament_id):
            state = self.state(tournament_id)
            try:
                events = decide(state)
            except TournamentError as error:
                raise TournamentRejected(error) from error
            self._append(tournament_id, state.version, command_id, list(events))
            return state, events

    # -- organiser operations ---------------------------------------------------------------
    def create(
        self,
        game_type: str,
        *,
        options: dict[str, Any] | None = None,
        format: str = "swiss",
        rounds: int = 0,
        table_size: int = 2,
        name: str = "",
        master_seed: bytes | None = None,
        tournament_id: str | None = None,
        pairing_method: str = engine.PAIRING,
    ) -> CreatedTournament:
        """Create a tournament; publishes SHA-256 of the (secret) master seed.

        ``rounds=0`` decides at start (full round robin, or ⌈log2 entrants⌉ Swiss rounds).
        The master seed is random unless given; the id is ``tournament-<uuid>`` unless given.
        ``pairing_method``: how Swiss rounds pair tables of two (the API always uses the default).
        """
        if game_type not in GAMES:
            raise InvalidArgument(f"Unknown game type {game_type!r}; known: {sorted(GAMES)}.")
        game = GAMES[game_type]
        if not game.min_seats <= table_size <= game.max_seats:
            raise InvalidArgument(
                f"{game_type} seats {game.min_seats} to {game.max_seats}, not {table_size}.",
                "BAD_TABLE_SIZE",
            )
        try:  # a dry setup of one table: options the games would refuse fail here, not later
            names = [f"seat {i}" for i in range(table_size)]
            Ledger.create("dry-run", game_type, dict(options or {}), names, b"dry-run")
        except (msgspec.ValidationError, ValueError, MalformedCommand) as error:
            raise InvalidArgument(f"Invalid game options: {error}", "BAD_OPTIONS") from error
        tournament_id = tournament_id or engine.ID_PREFIX + uuid.uuid4().hex
        master = master_seed if master_seed is not None else secrets.token_bytes(32)
        state = TournamentState()
        try:
            events = engine.create(
                state,
                tournament_id=tournament_id,
                name=name or tournament_id,
                game_type=game_type,
                options=dict(options or {}),
                format=format,
                rounds=rounds,
                table_size=table_size,
                master_seed=master,
                pairing_method=pairing_method,
            )
        except TournamentError as error:
            raise TournamentRejected(error) from error
        with self._lock(tournament_id):
            if self.log.select_events(tournament_id, limit=1):
                raise TournamentRejected(
                    TournamentError("TOURNAMENT_EXISTS", f"{tournament_id} already exists")
                )
            try:
                self.store.save_seed(tournament_id, master)
                self.store.save_seed(token_key_id(tournament_id), secrets.token_bytes(32))
            except IntegrityError as error:  # another process created it meanwhile
                raise TournamentRejected(
                    TournamentError("TOURNAMENT_EXISTS", f"{tournament_id} already exists")
                ) from error
            self._append(tournament_id, state.version, "create", list(events))
        return CreatedTournament(tournament_id, state.info.seed_commitment, state.version)

    def register(
        self, tournament_id: str, name: str, kind: str = "person", bot: str | None = None
    ) -> Entrant:
        """Register a person (plays with seat tokens) or a bot (``kind="bot"``, ``bot`` kind)."""
        if kind == "bot" and bot not in BOTS and bot not in GAME_BOTS:
            raise InvalidArgument(
                f"Unknown bot {bot!r}; known: {sorted([*BOTS, *GAME_BOTS])}.", "UNKNOWN_BOT"
            )
        state, _ = self._decide(
            tournament_id,
            f"register-{name}",
            lambda s: engine.register(s, name, kind, bot),
        )
        event = state.entrants[-1]
        return Entrant(event.entrant, event.name, event.kind, event.bot)

    def start(self, tournament_id: str) -> RoundStart:
        """Close registration, pair round 1 and create its games (tokens for the people)."""
        master = self._master(tournament_id)
        state, _ = self._decide(tournament_id, "start", lambda s: engine.start(s, master))
        opened = self._open_round(state, master, 1)
        if self._autoplay:
            self.play_bots(tournament_id)
        return opened

    def report(self, tournament_id: str, game_id: str) -> Reported:
        """Record a finished game's result (read from the game itself).

        Completes the round when it was its last game, then pairs the next round (its
        games and tokens are in ``next_round``) or ends the tournament.
        """
        master = self._master(tournament_id)
        state = self.state(tournament_id)
        if game_id not in state.games:
            raise TournamentRejected(
                TournamentError(
                    "NOT_A_TOURNAMENT_GAME", f"{game_id} is not a game of {tournament_id}"
                )
            )
        if self.games.store.last_seq(game_id) == 0:
            raise GameNotFinished(f"Game {game_id} has not been played yet.")
        match = self.games.head(game_id)
        outcome = match.game.outcome(match.state)
        if outcome is None:
            raise GameNotFinished(f"Game {game_id} is not over yet.")
        last_hash = self.games.store.read(game_id, after=match.version - 1)[-1].hash
        state, events = self._decide(
            tournament_id,
            f"report-{game_id}",
            lambda s: engine.record_result(
                s,
                master,
                game_id,
                tuple(outcome.scores),
                tuple(outcome.winners),
                match.version,
                last_hash,
            ),
        )
        completed = next((e.round for e in events if isinstance(e, RoundCompleted)), None)
        next_round = None
        if any(type(e).__name__ == "RoundPaired" for e in events):
            next_round = self._open_round(state, master, state.current_round)
            if self._autoplay:
                self.play_bots(tournament_id)
        return Reported(game_id, completed, next_round, state.ended is not None)

    def report_finished(self, tournament_id: str) -> list[Reported]:
        """Report every finished game of the current round not yet recorded."""
        reports: list[Reported] = []
        while True:
            state = self.state(tournament_id)
            if state.ended is not None or not state.started:
                return reports
            due = [
                g.game_id
                for g in state.round_games(state.current_round)
                if g.game_id not in state.results and self._is_over(g.game_id)
            ]
            if not due:
                return reports
            for game_id in due:
                reports.append(self.report(tournament_id, game_id))

    def follow(self) -> None:
        """Follow the games: after each commit to a tournament game, let its bot seats answer
        and, when the game has just ended, record its result (pairing the next round when
        due) — people's tournaments then advance without the organiser's ``report``.

        Runs in the committing thread, after the commit; a failure here is logged and never
        reaches the command that triggered it (``report`` remains available to retry). From
        then on, ``start`` and every newly paired round also play their all-bot games here.
        """
        self._autoplay = True
        self.games.on_commit(self._on_commit)

    def _on_commit(self, game_id: str, envelopes: tuple[Envelope, ...]) -> None:
        if not game_id.startswith(engine.ID_PREFIX) or "-r" not in game_id:
            return
        if getattr(self._following, "active", False):
            return  # a nested commit of our own bot play: the outer call carries on
        tournament_id = game_id.rsplit("-r", 1)[0]
        self._following.active = True
        try:
            if not any(e.kind == "SeedRevealed" for e in envelopes):
                self._answer_bots(tournament_id, game_id)
            if self._is_over(game_id):
                state = self.state(tournament_id)
                if game_id in state.games and game_id not in state.results:
                    self.report(tournament_id, game_id)
        except Exception:
            _log.exception("tournament %s: following game %s failed", tournament_id, game_id)
        finally:
            self._following.active = False

    def _answer_bots(self, tournament_id: str, game_id: str) -> None:
        state = self.state(tournament_id)
        assigned = state.games.get(game_id)
        if assigned is None:
            return
        entrants = [state.entrants[e] for e in assigned.seats]
        seed = engine.game_seed_of(state, self._master(tournament_id), assigned)
        bots = bot_seats(entrants, seed)
        if bots:
            play_bot_seats(self.games, game_id, bots)

    def _is_over(self, game_id: str) -> bool:
        if self.games.store.last_seq(game_id) == 0:
            return False
        match = self.games.head(game_id)
        return match.game.is_over(match.state)

    def play_bots(self, tournament_id: str, runner: JobRunner | None = None) -> list[Reported]:
        """Play the bots of the current round (whole all-bot games via ``runner``; bot seats
        of tables with people until a person is due), then report finished games."""
        state = self.state(tournament_id)
        if not state.started or state.ended is not None:
            return []
        master = self._master(tournament_id)
        jobs = self.bot_jobs(tournament_id)
        (runner or inline_runner(self.games))(jobs)
        for assigned in state.round_games(state.current_round):
            kinds = [state.entrants[e] for e in assigned.seats]
            if all(k.kind == "bot" for k in kinds) or assigned.game_id in state.results:
                continue
            seed = engine.game_seed_of(state, master, assigned)
            bots = bot_seats(kinds, seed)
            if bots and self.games.store.last_seq(assigned.game_id):
                play_bot_seats(self.games, assigned.game_id, bots)
        return self.report_finished(tournament_id)

    def bot_jobs(self, tournament_id: str) -> list[BotGameJob]:
        """The all-bot games of the current round that have no result yet."""
        state = self.state(tournament_id)
        if not state.started or state.ended is not None:
            return []
        master = self._master(tournament_id)
        info = state.info
        jobs = []
        for assigned in state.round_games(state.current_round):
            entrants = [state.entrants[e] for e in assigned.seats]
            if assigned.game_id in state.results or any(e.kind != "bot" for e in entrants):
                continue
            seed = engine.game_seed_of(state, master, assigned)
            jobs.append(
                BotGameJob(
                    game_id=assigned.game_id,
                    game_type=info.game_type,
                    options=dict(info.options),
                    seat_names=tuple(e.name for e in entrants),
                    seed=seed,
                    bots=tuple(str(e.bot) for e in entrants),
                    bot_seeds=tuple(seeds.bot_seed(seed, s) for s in range(len(entrants))),
                )
            )
        return jobs

    def run(
        self,
        tournament_id: str,
        runner: JobRunner | None = None,
        on_round: Callable[[int, Standings], None] | None = None,
    ) -> tuple[StandingRow, ...]:
        """Play a bot tournament to the end (starting it if needed); the final standings.

        Raises :class:`TournamentRejected` (``PEOPLE_MUST_PLAY``) if a round waits on people.
        """
        state = self.state(tournament_id)
        if not state.started:
            self.start(tournament_id)
        while True:
            state = self.state(tournament_id)
            if state.ended is not None:
                return state.ended.standings
            current = state.current_round
            self.play_bots(tournament_id, runner)
            after = self.state(tournament_id)
            if after.current_round == current and after.ended is None:
                raise TournamentRejected(
                    TournamentError(
                        "PEOPLE_MUST_PLAY",
                        f"round {current} waits on games with people; they play through the "
                        "game API and the organiser reports them",
                    )
                )
            if on_round is not None:
                on_round(current, self.standings(tournament_id))

    # -- reading ----------------------------------------------------------------------------
    def standings(self, tournament_id: str) -> Standings:
        """The current standings (final and with the master seed once ended)."""
        state = self.state(tournament_id)
        info = state.info
        if state.ended is not None:
            rows = state.ended.standings
        else:
            rows = engine.current_standings(state, self._master(tournament_id))
        return Standings(
            tournament_id=tournament_id,
            name=info.name,
            game_type=info.game_type,
            format=info.format,
            round=state.current_round,
            rounds=state.rounds or info.rounds,
            rounds_completed=len(state.completed),
            ended=state.ended is not None,
            rows=rows,
            master_seed=state.ended.master_seed if state.ended is not None else None,
        )

    def round(self, tournament_id: str, round_number: int | None = None) -> RoundStart:
        """A round's games with every person's seat tokens (default: the current round).

        The organiser may call it any time to hand the tokens out again.
        """
        state = self.state(tournament_id)
        number = state.current_round if round_number is None else round_number
        if number not in state.pairings:
            raise TournamentRejected(
                TournamentError("NO_SUCH_ROUND", f"round {number} has not been paired")
            )
        return self._open_round(state, self._master(tournament_id), number)

    def export(self, tournament_id: str) -> list[bytes]:
        """The tournament record (canonical JSON lines): see :mod:`service.tournaments.record`."""
        return export_tournament(self, tournament_id)

    # -- internals --------------------------------------------------------------------------
    def _open_round(self, state: TournamentState, master: bytes, round_number: int) -> RoundStart:
        """Create the round's games that have a person (with tokens); describe the round."""
        games: list[AssignedGame] = []
        for assigned in state.round_games(round_number):
            games.append(self._open_game(state, master, assigned))
        return RoundStart(round_number, tuple(games), state.pairings[round_number].byes)

    def _open_game(
        self, state: TournamentState, master: bytes, assigned: GameAssigned
    ) -> AssignedGame:
        entrants = [state.entrants[e] for e in assigned.seats]
        tokens: list[str | None] = [None] * len(entrants)
        people = any(e.kind == "person" for e in entrants)
        if people:
            key = self._token_key(state.info.tournament_id)
            every = [seat_token(key, assigned.game_id, seat) for seat in range(len(entrants))]
            tokens = [
                t if e.kind == "person" else None for t, e in zip(every, entrants, strict=True)
            ]
        if people and not self.store.last_seq(assigned.game_id):
            seed = engine.game_seed_of(state, master, assigned)
            info = state.info
            self.games.create_game(
                info.game_type,
                dict(info.options),
                [e.name for e in entrants],
                seed=seed,
                game_id=assigned.game_id,
                nonce=derived_nonce(seed, assigned.game_id),
            )
            self.store.save_token_hashes(
                assigned.game_id, [hashlib.sha256(t.encode()).hexdigest() for t in every]
            )
            bots = bot_seats(entrants, seed)
            if bots:
                play_bot_seats(self.games, assigned.game_id, bots)
        seats = tuple(
            SeatAssignment(seat, e.entrant, e.name, e.kind, tokens[seat])
            for seat, e in enumerate(entrants)
        )
        return AssignedGame(
            assigned.round, assigned.table, assigned.game_id, assigned.seed_commitment, seats
        )
