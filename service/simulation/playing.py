"""Playing bot games inside a worker and committing them in batches (see
:mod:`service.simulation.runner` for what lands in the store)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import msgspec
from eventsourcing.persistence import StoredEvent as RecordedEvent

from domain.bots import Bot, make_bot
from domain.core.chance import derived_nonce
from domain.core.envelope import Envelope
from domain.core.errors import RuleViolation
from service.app.application import GameService
from service.app.errors import InvalidArgument, VersionConflict
from service.app.ledger import Ledger
from service.app.values import Snapshot
from service.simulation.jobs import MAX_COMMANDS, GameResult, SimJob, SimulationError
from service.store.eventstore import EventStore, secret_records

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
