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

import multiprocessing
import os
import queue
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict
from typing import Any

from service.app.errors import InvalidArgument
from service.simulation.jobs import (
    DEFAULT_BATCH,
    GameResult,
    SimJob,
    SimulationError,
    SimulationReport,
)
from service.simulation.playing import BatchDone, play_batch
from service.store.config import StoreConfig
from service.store.eventstore import EventStore
from service.tournaments.bots import BotGameJob

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
