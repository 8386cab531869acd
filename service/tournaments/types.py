"""The answers and typed errors of :mod:`service.tournaments.service` (re-exported there)."""

from __future__ import annotations

from dataclasses import dataclass

from domain.tournament.errors import TournamentError
from domain.tournament.events import StandingRow
from service.app.errors import GameNotFound, ServiceError


class TournamentNotFound(GameNotFound):
    """No tournament has this id."""

    reason = "TOURNAMENT_NOT_FOUND"


class TournamentRejected(ServiceError):
    """The tournament rules refuse the operation; ``reason`` is the rule's code."""

    reason = "TOURNAMENT_RULE"

    def __init__(self, error: TournamentError) -> None:
        super().__init__(error.message, error.code)
        self.code = error.code


class GameNotFinished(ServiceError):
    """A result was reported for a game that is still being played."""

    reason = "GAME_NOT_FINISHED"


# -- answers ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class CreatedTournament:
    """Answer to :meth:`TournamentService.create`."""

    tournament_id: str
    seed_commitment: str
    version: int


@dataclass(frozen=True)
class Entrant:
    """A registered entrant."""

    entrant: int
    name: str
    kind: str
    bot: str | None


@dataclass(frozen=True)
class SeatAssignment:
    """One seat of a tournament game; ``token`` is set for a person's seat (shown once)."""

    seat: int
    entrant: int
    name: str
    kind: str
    token: str | None


@dataclass(frozen=True)
class AssignedGame:
    """A table of a round: its game and seats."""

    round: int
    table: int
    game_id: str
    seed_commitment: str
    seats: tuple[SeatAssignment, ...]


@dataclass(frozen=True)
class RoundStart:
    """A freshly paired round: its games (with the people's seat tokens) and byes."""

    round: int
    games: tuple[AssignedGame, ...]
    byes: tuple[int, ...]


@dataclass(frozen=True)
class Reported:
    """Answer to :meth:`TournamentService.report`."""

    game_id: str
    round_completed: int | None
    next_round: RoundStart | None
    ended: bool


@dataclass(frozen=True)
class Standings:
    """Answer to :meth:`TournamentService.standings`."""

    tournament_id: str
    name: str
    game_type: str
    format: str
    round: int
    rounds: int
    rounds_completed: int
    ended: bool
    rows: tuple[StandingRow, ...]
    master_seed: str | None
