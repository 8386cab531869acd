"""Bot games at scale: parallel worker processes writing finished games straight into the store.

``annales simulate`` (and the bot-tournament runner) describe games as :class:`SimJob`\\ s and
hand them to :func:`run_jobs`, which plays them in ``workers`` processes (``multiprocessing``,
*spawn*: each worker imports the rules afresh and opens its own connection to the store).

What lands in the store is exactly what :class:`~service.app.application.GameService` would have
stored for the same game: the envelopes come from the same :class:`~service.app.ledger.Ledger`
(same ``GameCreated`` header, setup, hash chain and ``SeedRevealed``), the seed goes to
``stored_secrets`` before any event of its game, and snapshots are taken at the same
boundaries (every ``snapshot_every`` events). So a simulated game is a normal stored game:
``annales export`` / ``annales verify`` pass on it, the read models (lists, leaderboards,
balance statistics) follow it, the gRPC API serves it.

**Batched commits.** A worker plays ``batch`` games in memory, then stores them in two
transactions: the seeds of the batch (one insert), then every envelope of the batch (one
:meth:`~service.store.eventstore.EventStore.append`:
one transaction across several games, each game's
envelopes contiguous in the notification log). A crash loses at most the batch being played,
never a committed game, and a committed game is always complete (all its events, seed
revealed). Re-running the same simulation skips the games already stored (same derived ids):
an interrupted run is resumed by running it again.

**Derivations** (documented, so a run is reproducible from its seed ``S``):

* game seed of game ``i`` = ``HMAC-SHA256(key=S, "annales/simulate/v1/seed/{game}/{players}/{i}")``;
* game id = ``"sim-" + HMAC-SHA256(key=S, "annales/simulate/v1/id/{game}/{players}/{i}")[:32 hex]``
  (public, and independent of the secret game seed);
* nonce of the game's seed commitment: :func:`~domain.core.chance.derived_nonce` of the game
  seed and id (stored and revealed with the seed, like the service's random nonces);
* bot of seat ``s`` in game ``i``: kind ``kinds[(i + s) % len(kinds)]`` (every kind sits in
  every seat as the games go by), named ``"{kind}#{s}"`` (:func:`seat_name`: unique in the
  game, the kind read back by :func:`bot_kind`), with seat seed
  ``HMAC-SHA256(key=game seed, "annales/simulate/v1/bot/{s}")``.

**Bot decisions** follow the convention of the tournament bot runner
(:func:`service.tournaments.service.play_bot_seats`),
so a bot game stores the same bytes whichever of
the two plays it: the decision of seat ``s`` at game version ``v`` is made by
``make_bot(kind, seat seed + v as 8 big-endian bytes)``, and submitted with command id and
idempotency key ``"bot-{s}-{v}"``. Two runs with the same ``S`` therefore store
byte-identical envelopes (same hashes), whatever the number of workers or the batch size.

The order in which games are committed (their notification ids) depends on the workers'
timing; the games themselves do not.

**Progress.** Each worker reports every game it finishes (before its batch is committed) to
the parent through a ``multiprocessing`` queue given to the worker at start; ``run_jobs``
hands these reports to its ``game_progress`` callback (``(worker, games it finished)``), so
progress shows from the first finished game, whatever the batch size.
"""

from __future__ import annotations

import hashlib
import hmac
import multiprocessing
import os
import queue
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import msgspec
from eventsourcing.persistence import StoredEvent as RecordedEvent

from domain.bots import Bot, make_bot
from domain.core.chance import derived_nonce
from domain.core.envelope import Envelope
from domain.core.errors import RuleViolation
from domain.registry import GAMES
from service.app.application import GameService, Snapshot
from service.app.errors import InvalidArgument, ServiceError, VersionConflict
from service.app.ledger import Ledger
from service.simulation.names import bot_kind, seat_name
from service.store.config import StoreConfig
from service.store.eventstore import EventStore, secret_records
from service.tournaments.bots import BotGameJob

DERIVATION = "annales/simulate/v1"
#: games played and committed together by a worker (one transaction of envelopes).
DEFAULT_BATCH = 10
#: a bot game longer than this is a bug (a rule that never ends): the run stops, typed error.
MAX_COMMANDS = 200_000


class SimulationError(ServiceError):
    """A simulation that cannot go on (bad job, a bot game that broke a rule or never ends,
    a game changed by another writer)."""

    reason = "SIMULATION_FAILED"


# -- jobs and results ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SimJob:
    """One bot game to play to its end.

    ``seed`` given: the game is created (unless a game with ``game_id`` is already stored —
    then it is continued, or skipped when over). ``seed=None``: the game must already exist
    (e.g. created by a tournament with seat tokens); its stored seed is used. ``bots`` names a
    bot kind per seat (see :func:`domain.bots.make_bot`), ``bot_seeds`` their seeds.
    """

    game_id: str
    game_type: str
    options: dict[str, Any]
    seat_names: tuple[str, ...]
    seed: bytes | None
    bots: tuple[str, ...]
    bot_seeds: tuple[bytes, ...]


@dataclass(frozen=True)
class GameResult:
    """What became of one job.

    ``status``: ``"played"`` (played to the end and committed now), ``"skipped"`` (already
    finished in the store: nothing written) or ``"conflict"`` (another writer changed the game
    meanwhile: nothing of this game written by us).
    """

    game_id: str
    game_type: str
    status: str
    version: int
    commands: int
    events: int
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    seat_names: tuple[str, ...]


@dataclass
class SimulationReport:
    """The results of :func:`run_jobs`, in job order, with totals."""

    results: list[GameResult]
    seconds: float
    workers: int
    batch: int
    commit_seconds: float = 0.0

    @property
    def played(self) -> int:
        """Games played and committed by this run."""
        return sum(1 for r in self.results if r.status == "played")

    @property
    def events(self) -> int:
        """Events committed by this run."""
        return sum(r.events for r in self.results)

    @property
    def games_per_second(self) -> float:
        """Played games per wall-clock second."""
        return self.played / self.seconds if self.seconds > 0 else 0.0


@dataclass
class KindStats:
    """Wins and scores of one bot kind over a simulation (ties count as wins for each)."""

    kind: str
    seats: int = 0
    wins: int = 0
    total_score: int = 0

    @property
    def win_rate(self) -> float:
        """Wins per seat played."""
        return self.wins / self.seats if self.seats else 0.0

    @property
    def average_score(self) -> float:
        """Average final score."""
        return self.total_score / self.seats if self.seats else 0.0


# -- derivations ----------------------------------------------------------------------------------


def _hmac(key: bytes, message: str) -> bytes:
    return hmac.new(key, message.encode("utf-8"), hashlib.sha256).digest()


def game_seed(master: bytes, game_type: str, players: int, index: int) -> bytes:
    """The secret seed of game ``index`` of a simulation with seed ``master``.

    >>> game_seed(b"S", "riseandfall", 3, 0).hex()[:16]
    'ff1a9056396be242'
    """
    return _hmac(master, f"{DERIVATION}/seed/{game_type}/{players}/{index}")


def game_id(master: bytes, game_type: str, players: int, index: int) -> str:
    """The (public) id of game ``index`` of a simulation with seed ``master``."""
    return "sim-" + _hmac(master, f"{DERIVATION}/id/{game_type}/{players}/{index}").hex()[:32]


def bot_seed(seed: bytes, seat: int) -> bytes:
    """The seed of the bot of ``seat`` in the game of seed ``seed`` (never the game's seed)."""
    return _hmac(seed, f"{DERIVATION}/bot/{seat}")


def simulation_jobs(
    game_type: str,
    players: int,
    games: int,
    kinds: Sequence[str],
    master: bytes,
    options: dict[str, Any] | None = None,
) -> list[SimJob]:
    """The jobs of ``annales simulate`` (see the module docstring for every derivation).

    Raises :class:`~service.app.errors.InvalidArgument` for an unknown game or bot, a player count
    the game does not allow, or a negative number of games.
    """
    if game_type not in GAMES:
        raise InvalidArgument(f"Unknown game {game_type!r}; known: {sorted(GAMES)}.")
    rules = GAMES[game_type]
    if not rules.min_seats <= players <= rules.max_seats:
        raise InvalidArgument(
            f"{game_type} is played by {rules.min_seats} to {rules.max_seats} players, "
            f"not {players}."
        )
    if games < 0:
        raise InvalidArgument(f"The number of games must not be negative ({games}).")
    if not kinds:
        raise InvalidArgument("Name at least one bot kind.")
    for kind in kinds:
        try:
            make_bot(kind, b"check")
        except ValueError as error:
            raise InvalidArgument(str(error), "UNKNOWN_BOT") from error
    jobs: list[SimJob] = []
    for index in range(games):
        seed = game_seed(master, game_type, players, index)
        seat_kinds = tuple(kinds[(index + seat) % len(kinds)] for seat in range(players))
        jobs.append(
            SimJob(
                game_id=game_id(master, game_type, players, index),
                game_type=game_type,
                options=dict(options or {}),
                seat_names=tuple(seat_name(k, seat) for seat, k in enumerate(seat_kinds)),
                seed=seed,
                bots=seat_kinds,
                bot_seeds=tuple(bot_seed(seed, seat) for seat in range(players)),
            )
        )
    return jobs


def kind_stats(results: Sequence[GameResult]) -> list[KindStats]:
    """Per bot kind (read from the seat names by :func:`bot_kind`): seats, wins, scores;
    by win rate."""
    stats: dict[str, KindStats] = {}
    for result in results:
        for seat, name in enumerate(result.seat_names):
            kind = bot_kind(name)
            entry = stats.setdefault(kind, KindStats(kind))
            entry.seats += 1
            entry.wins += int(seat in result.winners)
            entry.total_score += result.scores[seat] if seat < len(result.scores) else 0
    return sorted(stats.values(), key=lambda s: (-s.win_rate, s.kind))


# -- playing (inside a worker) ----------------------------------------------------------------


def _no_undo(version: int) -> Any:
    raise SimulationError("bots never undo: no earlier state is needed")


@dataclass
class _Played:
    result: GameResult
    seed: bytes | None  # to store (a new game)
    envelopes: list[Envelope] = field(default_factory=list)
    snapshots: list[RecordedEvent] = field(default_factory=list)
    nonce: bytes | None = None  # stored with the seed (a new game)


def _check_bots(job: SimJob) -> None:
    if len(job.bots) != len(job.seat_names) or len(job.bot_seeds) != len(job.bots):
        raise SimulationError(f"Job {job.game_id}: one bot and one bot seed per seat expected.")
    for kind in job.bots:
        try:
            make_bot(kind, b"check")
        except ValueError as error:
            raise InvalidArgument(f"Job {job.game_id}: {error}", "UNKNOWN_BOT") from error


def bot_for(kind: str, seat_seed: bytes, version: int) -> Bot:
    """The bot deciding for a seat at game ``version`` (a fresh bot per decision)."""
    return make_bot(kind, seat_seed + version.to_bytes(8, "big"))


def bot_command_id(seat: int, version: int) -> str:
    """Command id and idempotency key of a bot decision of ``seat`` at ``version``."""
    return f"bot-{seat}-{version}"


def play_job(store: EventStore, job: SimJob) -> _Played:
    """Play one job to its end in memory (nothing stored yet)."""
    _check_bots(job)
    every = store.config.snapshot_every
    seed = job.seed
    new_seed: bytes | None = None
    nonce: bytes | None = None
    envelopes: list[Envelope] = []
    if store.last_seq(job.game_id) > 0:
        ledger = GameService(store).materialise(job.game_id)
        stored = store.load_seed(job.game_id)
        if stored is None:
            raise SimulationError(f"Game {job.game_id} has no stored seed.")
        if seed is not None and stored != seed:
            raise SimulationError(f"Game {job.game_id} is stored with another seed than the job's.")
        seed = stored
        nonce = store.load_nonce(job.game_id)
    elif seed is None:
        raise SimulationError(f"Game {job.game_id} is not stored and the job has no seed.")
    else:
        nonce = derived_nonce(seed, job.game_id)
        try:
            ledger, envelopes = Ledger.create(
                job.game_id, job.game_type, job.options, job.seat_names, seed, None, nonce
            )
        except (msgspec.ValidationError, ValueError) as error:
            raise InvalidArgument(f"Invalid game setup for {job.game_id}: {error}") from error
        new_seed = seed
    start = ledger.version - len(envelopes)
    match, game = ledger.match, ledger.game
    snapshots: list[RecordedEvent] = []
    commands = 0

    def snapshot_if_due(before: int) -> None:
        if every > 0 and ledger.version // every > before // every:
            data = Snapshot(match.kernel, game.encode_state(match.state), ledger.last_hash)
            snapshots.append(
                RecordedEvent(job.game_id, ledger.version, "snapshot", msgspec.msgpack.encode(data))
            )

    snapshot_if_due(start)
    while not game.is_over(match.state):
        if commands >= MAX_COMMANDS:
            raise SimulationError(f"Game {job.game_id} did not end after {MAX_COMMANDS} commands.")
        seats = game.pending(match.state).seats
        if not seats:
            raise SimulationError(f"Game {job.game_id}: nobody is pending in a running game.")
        seat = seats[0]
        before = ledger.version
        bot = bot_for(job.bots[seat], job.bot_seeds[seat], before)
        command = bot.choose(game, match.state, seat)
        key = bot_command_id(seat, before)
        try:
            _, sealed = ledger.submit(seat, command, key, seed, _no_undo, key, nonce)
        except RuleViolation as error:
            raise SimulationError(
                f"Game {job.game_id}: bot {job.bots[seat]} of seat {seat} chose an illegal "
                f"action at version {before} ({error.code}: {error.message})."
            ) from error
        envelopes.extend(sealed)
        commands += 1
        snapshot_if_due(before)
    outcome = game.outcome(match.state)
    scores = outcome.scores if outcome is not None else game.scores(match.state)
    winners = outcome.winners if outcome is not None else ()
    status = "played" if envelopes else "skipped"
    result = GameResult(
        job.game_id, job.game_type, status, ledger.version, commands, len(envelopes),
        tuple(scores), tuple(winners), tuple(job.seat_names),
    )  # fmt: skip
    return _Played(result, new_seed, envelopes, snapshots, nonce if new_seed else None)


def commit(store: EventStore, played: Sequence[_Played]) -> list[GameResult]:
    """Store a batch of played games: seeds (one insert), envelopes (one transaction),
    snapshots. If another writer changed one of the games, each game is stored on its own
    and the changed ones are reported as ``"conflict"``."""
    seeds = [r for p in played if p.seed for r in secret_records(p.result.game_id, p.seed, p.nonce)]
    fresh = [p for p in played if p.envelopes]
    if seeds:
        _insert_seeds(store, seeds)
    results = [p.result for p in played]
    if not fresh:
        return results
    try:
        store.append([e for p in fresh for e in p.envelopes])
    except VersionConflict:
        results, stored = [], []
        for p in played:
            if not p.envelopes:
                results.append(p.result)
                continue
            try:
                store.append(p.envelopes)
            except VersionConflict:
                r = p.result
                now = store.last_seq(r.game_id)
                results.append(replace(r, status="conflict", version=now, commands=0, events=0))
                continue
            results.append(p.result)
            stored.append(p)
        fresh = stored
    snapshots = [s for p in fresh for s in p.snapshots]
    if snapshots:
        try:
            store.snapshots.insert_events(snapshots)
        except Exception:  # a cache: one by one, keeping those not yet there
            for snapshot in snapshots:
                store.save_snapshot(
                    str(snapshot.originator_id), snapshot.originator_version, snapshot.state
                )
    return results


def _insert_seeds(store: EventStore, seeds: list[RecordedEvent]) -> None:
    from eventsourcing.persistence import IntegrityError

    try:
        store.secrets.insert_events(seeds)
    except IntegrityError:  # some already stored (a resumed run): insert the missing ones
        for record in seeds:
            if record.originator_version != 1:  # a nonce: stored with its seed just below
                continue
            game_id = str(record.originator_id)
            known = store.load_seed(game_id)
            if known is None:
                store.secrets.insert_events([r for r in seeds if r.originator_id == game_id])
            elif known != record.state:
                raise SimulationError(
                    f"Game {record.originator_id} is stored with another seed."
                ) from None


@dataclass
class BatchDone:
    """A committed batch: its results and the seconds its commit took (lock waits included)."""

    results: list[GameResult]
    commit_seconds: float


def play_batch(
    store: EventStore, jobs: Sequence[SimJob], on_game: Callable[[], None] | None = None
) -> BatchDone:
    """Play ``jobs`` and commit them together (what a worker does with one batch);
    ``on_game()`` after each game played (before the commit)."""
    played: list[_Played] = []
    for job in jobs:
        played.append(play_job(store, job))
        if on_game is not None:
            on_game()
    start = time.perf_counter()
    results = commit(store, played)
    return BatchDone(results, time.perf_counter() - start)


# -- workers ----------------------------------------------------------------------------------

_WORKER_STORE: EventStore | None = None
_WORKER_QUEUE: Any = None  # a multiprocessing queue of worker pids, one per finished game


class WorkerConfig(StoreConfig):
    """The store of a worker: the parent created the tables, so workers never run DDL (on
    PostgreSQL, concurrent ``CREATE OR REPLACE FUNCTION`` fails: "tuple concurrently
    updated")."""

    def eventsourcing_env(self) -> dict[str, str]:
        """The parent's environment without table creation."""
        return {**super().eventsourcing_env(), "CREATE_TABLE": "n"}


def _init_worker(config: StoreConfig, games: Any = None) -> None:
    global _WORKER_STORE, _WORKER_QUEUE
    _WORKER_STORE = EventStore(WorkerConfig(**asdict(config)))
    _WORKER_QUEUE = games


def _report_game() -> None:
    if _WORKER_QUEUE is not None:
        _WORKER_QUEUE.put(os.getpid())


def _worker_batch(jobs: list[SimJob]) -> BatchDone:
    if _WORKER_STORE is None:
        raise SimulationError("worker store not opened")
    return play_batch(_WORKER_STORE, jobs, _report_game)


Progress = Callable[[int, int, int], None]
"""``progress(games done, games in all, events committed)`` after each batch."""

GameProgress = Callable[[int, int], None]
"""``game_progress(worker, games it finished)`` after each game a worker finishes (workers
numbered from 0 in the order they report first; played, not yet committed)."""


class _Workers:
    """Turns the worker pids read from the progress queue into ``game_progress`` calls."""

    def __init__(self, games: Any, callback: GameProgress) -> None:
        self.games = games
        self.callback = callback
        self.index: dict[int, int] = {}
        self.counts: list[int] = []

    def drain(self) -> None:
        """Report every game waiting in the queue."""
        while True:
            try:
                pid = self.games.get_nowait()
            except queue.Empty:
                return
            worker = self.index.setdefault(int(pid), len(self.index))
            if worker == len(self.counts):
                self.counts.append(0)
            self.counts[worker] += 1
            self.callback(worker, self.counts[worker])


def _chunks(jobs: Sequence[SimJob], size: int) -> Iterator[list[SimJob]]:
    for start in range(0, len(jobs), size):
        yield list(jobs[start : start + size])


def run_jobs(
    config: StoreConfig,
    jobs: Sequence[SimJob],
    workers: int = 2,
    batch: int = DEFAULT_BATCH,
    progress: Progress | None = None,
    pool: ProcessPoolExecutor | None = None,
    game_progress: GameProgress | None = None,
) -> SimulationReport:
    """Play ``jobs`` in ``workers`` spawned processes (``0``: in this process), at most
    ``batch`` games per commit; return their results in job order.

    ``progress`` is called after each committed batch, ``game_progress`` after each game a
    worker finishes (see :data:`GameProgress`; not with a ``pool`` given).

    Batches are made smaller when there are few jobs, so that every worker gets some. The
    store's tables are created here before any worker starts. A job that fails stops the run
    with :class:`SimulationError` (batches already committed stay committed: run again to
    resume). Jobs must have distinct game ids. ``pool``: an executor made by :func:`new_pool`
    for the same store, reused across calls (see :class:`ParallelRunner`).
    """
    if workers < 0 or batch < 1:
        raise InvalidArgument(f"workers must be >= 0 and batch >= 1 (got {workers}, {batch}).")
    ids = [job.game_id for job in jobs]
    if len(set(ids)) != len(ids):
        raise InvalidArgument("Two jobs have the same game id.")
    if pool is None:
        EventStore(config).close()  # create the tables once, before the workers race to
    started = time.perf_counter()
    results: dict[str, GameResult] = {}
    done = events = 0
    size = max(1, min(batch, -(-len(jobs) // (2 * max(workers, 1)))))
    chunks = list(_chunks(jobs, size))

    committing = 0.0

    def finished(committed: BatchDone) -> None:
        nonlocal done, events, committing
        for result in committed.results:
            results[result.game_id] = result
        done += len(committed.results)
        events += sum(r.events for r in committed.results)
        committing += committed.commit_seconds
        if progress is not None:
            progress(done, len(jobs), events)

    if workers == 0:
        store = EventStore(config)
        count = 0

        def one_game() -> None:
            nonlocal count
            count += 1
            if game_progress is not None:
                game_progress(0, count)

        try:
            for chunk in chunks:
                finished(play_batch(store, chunk, one_game))
        finally:
            store.close()
    elif pool is not None:
        _drive(pool, chunks, 2 * workers, finished)
    elif game_progress is None:
        with new_pool(config, workers) as own:
            _drive(own, chunks, 2 * workers, finished)
    else:
        context = multiprocessing.get_context("spawn")
        games = context.Queue()
        reporter = _Workers(games, game_progress)
        try:
            with new_pool(config, workers, games) as own:
                _drive(own, chunks, 2 * workers, finished, reporter.drain)
            reporter.drain()
        finally:
            games.close()
            games.join_thread()
    seconds = time.perf_counter() - started
    ordered = [results[job.game_id] for job in jobs]
    conflicts = [r.game_id for r in ordered if r.status == "conflict"]
    if conflicts:
        raise SimulationError(
            f"{len(conflicts)} game(s) were changed by another writer during the run: "
            f"{', '.join(conflicts[:5])}"
        )
    return SimulationReport(ordered, seconds, workers, size, committing)


def new_pool(config: StoreConfig, workers: int, games: Any = None) -> ProcessPoolExecutor:
    """``workers`` spawned processes, each with its own connection to the store of ``config``
    (its tables are created first); ``games``: a spawn-context queue that receives each
    worker's pid after every game it finishes."""
    EventStore(config).close()
    context = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(workers, context, _init_worker, (config, games))


def _drive(
    pool: ProcessPoolExecutor,
    chunks: list[list[SimJob]],
    in_flight: int,
    finished: Callable[[BatchDone], None],
    tick: Callable[[], None] | None = None,
) -> None:
    """Submit ``chunks`` to ``pool``, ``in_flight`` at a time; ``finished`` gets each result;
    ``tick()`` at least every 0.1 s while waiting (to read the workers' game reports)."""
    waiting: set[Future[BatchDone]] = set()
    pending = iter(chunks[in_flight:])
    try:
        for first in chunks[:in_flight]:
            waiting.add(pool.submit(_worker_batch, first))
        while waiting:
            timeout = None if tick is None else 0.1
            ready, waiting = wait(waiting, timeout, return_when=FIRST_COMPLETED)
            if tick is not None:
                tick()
            for future in ready:
                finished(future.result())
                chunk = next(pending, None)
                if chunk is not None:
                    waiting.add(pool.submit(_worker_batch, chunk))
    except BrokenProcessPool as error:
        raise SimulationError(f"A worker process died: {error}") from error
    except BaseException:
        for future in waiting:
            future.cancel()
        raise


# -- bot tournaments ----------------------------------------------------------------------------


def as_sim_job(job: BotGameJob) -> SimJob:
    """The :class:`SimJob` of a tournament bot game."""
    return SimJob(job.game_id, job.game_type, dict(job.options), tuple(job.seat_names),
                  job.seed, tuple(job.bots), tuple(job.bot_seeds))  # fmt: skip


class ParallelRunner:
    """A tournament ``JobRunner`` (:data:`service.tournaments.bots.JobRunner`, see
    :meth:`service.tournaments.service.TournamentService.run`) that plays each round's all-bot games
    in ``workers`` processes, kept for every round. Same bot decisions as the in-process
    runner (:func:`service.tournaments.bots.play_bot_seats`), so the same bytes are stored.

    >>> # with ParallelRunner(config, workers=2) as runner: service.run(tid, runner)
    """

    def __init__(
        self,
        config: StoreConfig,
        workers: int = 2,
        batch: int = DEFAULT_BATCH,
        progress: Progress | None = None,
    ) -> None:
        self.config = config
        self.workers = workers
        self.batch = batch
        self.progress = progress
        self.reports: list[SimulationReport] = []
        self._pool: ProcessPoolExecutor | None = None

    def __call__(self, jobs: Sequence[BotGameJob]) -> None:
        """Play ``jobs`` to their ends (stored when this returns)."""
        if not jobs:
            return
        if self._pool is None and self.workers > 0:
            self._pool = new_pool(self.config, self.workers)
        sim = [as_sim_job(job) for job in jobs]
        self.reports.append(
            run_jobs(self.config, sim, self.workers, self.batch, self.progress, self._pool)
        )

    def close(self) -> None:
        """Stop the worker processes."""
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    def __enter__(self) -> ParallelRunner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
