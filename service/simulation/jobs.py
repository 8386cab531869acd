"""What ``annales simulate`` plays: jobs, results, and the seeds and ids derived from a run's seed.

The derivations are documented in :mod:`service.simulation.runner`.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from domain.bots import make_bot
from domain.registry import GAMES
from service.app.errors import InvalidArgument, ServiceError
from service.simulation.names import bot_kind, seat_name

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
