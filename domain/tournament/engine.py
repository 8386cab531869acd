"""The tournament's state fold and decisions (pure; the service stores what they return).

Each decision validates first (raising :class:`~domain.tournament.errors.TournamentError`
and changing nothing), then returns its events **already folded** into the state passed in:

* :func:`create` → ``TournamentCreated``;
* :func:`register` → ``EntrantRegistered``;
* :func:`start` → ``TournamentStarted`` + the first round (``RoundPaired``, ``GameAssigned``…);
* :func:`record_result` → ``GameResultRecorded`` and, when it completes the round,
  ``RoundCompleted`` then either the next round or ``TournamentEnded`` (master seed revealed).

Game ids are ``{tournament id}-r{round}-t{table}``; the offline verifier re-runs these
functions on a record's inputs and compares every event byte for byte.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from domain.tournament import pairing, seeds
from domain.tournament.errors import TournamentError
from domain.tournament.events import (
    EntrantRegistered,
    GameAssigned,
    GameResultRecorded,
    RoundCompleted,
    RoundPaired,
    StandingRow,
    TournamentCreated,
    TournamentEnded,
    TournamentEvent,
    TournamentStarted,
)
from domain.tournament.standings import Played, game_points, standings

#: pairing formats.
FORMATS = ("round_robin", "swiss", "duplicate")
#: how new tournaments pair tables of two (``TournamentCreated.pairing``).
PAIRING = "matching"
#: entrant kinds.
KINDS = ("person", "bot")
#: prefix of every tournament id (the stream ids of the tournament log).
ID_PREFIX = "tournament-"


@dataclass
class TournamentState:
    """A tournament folded from its events."""

    created: TournamentCreated | None = None
    entrants: list[EntrantRegistered] = field(default_factory=list)
    rounds: int = 0
    started: bool = False
    current_round: int = 0
    pairings: dict[int, RoundPaired] = field(default_factory=dict)
    games: dict[str, GameAssigned] = field(default_factory=dict)
    results: dict[str, GameResultRecorded] = field(default_factory=dict)
    completed: dict[int, RoundCompleted] = field(default_factory=dict)
    ended: TournamentEnded | None = None
    version: int = 0

    @property
    def info(self) -> TournamentCreated:
        """The ``TournamentCreated`` event (raises if the tournament does not exist)."""
        if self.created is None:
            raise TournamentError("NO_TOURNAMENT", "the tournament has not been created")
        return self.created

    def round_games(self, round_number: int) -> list[GameAssigned]:
        """The games of a round, by table."""
        return sorted(
            (g for g in self.games.values() if g.round == round_number), key=lambda g: g.table
        )

    def names(self) -> list[str]:
        """Entrant names by entrant number."""
        return [e.name for e in self.entrants]


def evolve(state: TournamentState, event: TournamentEvent) -> None:
    """Fold one event into ``state`` (in place; total: never consults seeds or clocks)."""
    state.version += 1
    if isinstance(event, TournamentCreated):
        state.created = event
    elif isinstance(event, EntrantRegistered):
        state.entrants.append(event)
    elif isinstance(event, TournamentStarted):
        state.started = True
        state.rounds = event.rounds
    elif isinstance(event, RoundPaired):
        state.pairings[event.round] = event
        state.current_round = event.round
    elif isinstance(event, GameAssigned):
        state.games[event.game_id] = event
    elif isinstance(event, GameResultRecorded):
        state.results[event.game_id] = event
    elif isinstance(event, RoundCompleted):
        state.completed[event.round] = event
    elif isinstance(event, TournamentEnded):
        state.ended = event


def _emit(state: TournamentState, events: list[TournamentEvent]) -> list[TournamentEvent]:
    for event in events:
        evolve(state, event)
    return events


def game_id(tournament_id: str, round_number: int, table: int) -> str:
    """The id of the game at ``table`` of ``round_number``."""
    return f"{tournament_id}-r{round_number}-t{table}"


# -- decisions ------------------------------------------------------------------------------
def create(
    state: TournamentState,
    *,
    tournament_id: str,
    name: str,
    game_type: str,
    options: dict[str, Any],
    format: str,
    rounds: int,
    table_size: int,
    master_seed: bytes,
    pairing_method: str = PAIRING,
) -> list[TournamentEvent]:
    """Create the tournament (``rounds=0``: decided at start from the number of entrants;
    ``pairing_method``: how Swiss and duplicate rounds pair tables of two, see
    :data:`domain.tournament.pairing.PAIRINGS`)."""
    if state.created is not None:
        raise TournamentError("TOURNAMENT_EXISTS", f"{tournament_id} already exists")
    if not tournament_id.startswith(ID_PREFIX) or len(tournament_id) > 80:
        raise TournamentError(
            "BAD_TOURNAMENT_ID", f"a tournament id starts with {ID_PREFIX!r} (≤ 80 characters)"
        )
    if format not in FORMATS:
        raise TournamentError("UNKNOWN_FORMAT", f"format {format!r} is not one of {FORMATS}")
    if format == "round_robin" and table_size != 2:
        raise TournamentError(
            "ROUND_ROBIN_TABLE_SIZE", "the round robin is implemented for tables of two only"
        )
    if table_size < 2 or rounds < 0:
        raise TournamentError("BAD_SIZE", "tables seat at least 2; rounds is 0 (auto) or more")
    if not master_seed:
        raise TournamentError("EMPTY_SEED", "the master seed must not be empty")
    if pairing_method not in pairing.PAIRINGS:
        raise TournamentError(
            "UNKNOWN_FORMAT", f"pairing {pairing_method!r} is not one of {pairing.PAIRINGS}"
        )
    event = TournamentCreated(
        tournament_id=tournament_id,
        name=name,
        game_type=game_type,
        options=dict(sorted(options.items())),
        format=format,
        rounds=rounds,
        table_size=table_size,
        seed_commitment=seeds.commitment(master_seed),
        pairing=pairing_method,
    )
    return _emit(state, [event])


def register(
    state: TournamentState, name: str, kind: str, bot: str | None
) -> list[TournamentEvent]:
    """Register an entrant: a ``person`` or a ``bot`` of kind ``bot``."""
    state.info  # noqa: B018 - raises if missing
    if state.started:
        raise TournamentError("ALREADY_STARTED", "registration is closed: the tournament started")
    if kind not in KINDS:
        raise TournamentError("UNKNOWN_ENTRANT_KIND", f"kind {kind!r} is not one of {KINDS}")
    if (kind == "bot") != (bot is not None and bot != ""):
        raise TournamentError("BOT_KIND", "a bot entrant names its bot kind; a person does not")
    if not name.strip() or len(name) > 64:
        raise TournamentError("BAD_NAME", "an entrant name has 1 to 64 characters")
    if any(e.name == name for e in state.entrants):
        raise TournamentError("DUPLICATE_NAME", f"an entrant is already called {name!r}")
    event = EntrantRegistered(
        entrant=len(state.entrants), name=name, kind=kind, bot=bot if kind == "bot" else None
    )
    return _emit(state, [event])


def planned_rounds(state: TournamentState) -> int:
    """The number of rounds once started (auto: full round robin, or ⌈log2 n⌉ for Swiss)."""
    info = state.info
    count = len(state.entrants)
    if info.format == "round_robin":
        full = pairing.round_robin_rounds(count)
        if info.rounds > full:
            raise TournamentError(
                "ROUND_ROBIN_TOO_MANY_ROUNDS", f"{count} entrants allow {full} rounds at most"
            )
        return info.rounds or full
    return info.rounds or max(1, math.ceil(math.log2(max(count, 2))))


def start(state: TournamentState, master_seed: bytes) -> list[TournamentEvent]:
    """Close registration and pair the first round."""
    info = state.info
    _check_seed(state, master_seed)
    if state.started:
        raise TournamentError("ALREADY_STARTED", "the tournament already started")
    if len(state.entrants) < info.table_size:
        raise TournamentError(
            "TOO_FEW_ENTRANTS",
            f"{len(state.entrants)} entrants cannot fill a table of {info.table_size}",
        )
    rounds = planned_rounds(state)
    events = _emit(state, [TournamentStarted(entrants=len(state.entrants), rounds=rounds)])
    return events + _pair(state, master_seed, 1)


def record_result(
    state: TournamentState,
    master_seed: bytes,
    game_id: str,
    scores: tuple[int, ...],
    winners: tuple[int, ...],
    events: int,
    last_hash: str,
) -> list[TournamentEvent]:
    """Record a finished game's outcome; complete the round / the tournament when due."""
    _check_seed(state, master_seed)
    assigned = state.games.get(game_id)
    if assigned is None:
        raise TournamentError(
            "NOT_A_TOURNAMENT_GAME", f"{game_id} is not a game of this tournament"
        )
    if game_id in state.results:
        raise TournamentError("RESULT_RECORDED", f"the result of {game_id} is already recorded")
    if len(scores) != len(assigned.seats) or any(not 0 <= w < len(scores) for w in winners):
        raise TournamentError("BAD_RESULT", "scores and winners do not fit the table")
    result = GameResultRecorded(
        round=assigned.round,
        table=assigned.table,
        game_id=game_id,
        scores=tuple(scores),
        winners=tuple(sorted(winners)),
        points=game_points(scores, winners),
        events=events,
        last_hash=last_hash,
    )
    out = _emit(state, [result])
    round_number = assigned.round
    if any(g.game_id not in state.results for g in state.round_games(round_number)):
        return out
    table = current_standings(state, master_seed)
    out += _emit(state, [RoundCompleted(round=round_number, standings=table)])
    if round_number >= state.rounds:
        out += _emit(state, [TournamentEnded(master_seed=master_seed.hex(), standings=table)])
        return out
    return out + _pair(state, master_seed, round_number + 1)


# -- derived facts ----------------------------------------------------------------------------
def current_standings(state: TournamentState, master_seed: bytes) -> tuple[StandingRow, ...]:
    """Standings after every recorded result and every bye of paired rounds so far."""
    info = state.info
    played = []
    for result in state.results.values():
        assigned = state.games[result.game_id]
        played.append(Played(assigned.seats, result.points, result.scores))
    byes = [e for r in sorted(state.pairings) for e in state.pairings[r].byes]
    return standings(
        state.names(),
        sorted(played, key=lambda p: p.entrants),
        byes,
        info.table_size,
        lambda e: seeds.lot(master_seed, info.tournament_id, e),
    )


def met(state: TournamentState) -> dict[int, frozenset[int]]:
    """Opponents each entrant met in the rounds paired so far."""
    seen: dict[int, list[int]] = {e.entrant: [] for e in state.entrants}
    for paired in state.pairings.values():
        for table in paired.tables:
            for entrant in table:
                seen[entrant].extend(o for o in table if o != entrant)
    return {e: frozenset(others) for e, others in seen.items()}


def bye_counts(state: TournamentState) -> dict[int, int]:
    """How many byes each entrant had so far."""
    counts = {e.entrant: 0 for e in state.entrants}
    for paired in state.pairings.values():
        for entrant in paired.byes:
            counts[entrant] += 1
    return counts


def _check_seed(state: TournamentState, master_seed: bytes) -> None:
    if seeds.commitment(master_seed) != state.info.seed_commitment:
        raise TournamentError("WRONG_MASTER_SEED", "the master seed does not match its commitment")


def _pair(state: TournamentState, master_seed: bytes, round_number: int) -> list[TournamentEvent]:
    info = state.info
    tid = info.tournament_id
    count = len(state.entrants)
    if info.format == "round_robin":
        order = seeds.schedule_order(master_seed, tid, count)
        tables, byes = pairing.round_robin_round(order, round_number)
    else:
        table = current_standings(state, master_seed)
        position = {row.entrant: row.rank for row in table}
        points = {row.entrant: row.points for row in table}
        ranked = sorted(
            range(count),
            key=lambda e: (
                -points[e],
                seeds.pairing_key(master_seed, tid, round_number, e),
                position[e],
            ),
        )
        tables, byes = pairing.swiss_round(
            ranked, met(state), bye_counts(state), info.table_size, info.pairing
        )
    events: list[TournamentEvent] = [RoundPaired(round=round_number, tables=tables, byes=byes)]
    for index, entrants in enumerate(tables):
        if info.format == "duplicate":
            seed = seeds.duplicate_seed(master_seed, tid, round_number)
            shift = (round_number + index) % len(entrants)
            seats = tuple(entrants[shift:] + entrants[:shift])
        else:
            seed = seeds.game_seed(master_seed, tid, round_number, index)
            permutation = seeds.seat_permutation(seed, len(entrants))
            seats = tuple(entrants[i] for i in permutation)
        events.append(
            GameAssigned(
                round=round_number,
                table=index,
                game_id=game_id(tid, round_number, index),
                seats=seats,
                seed_commitment=seeds.commitment(seed),
            )
        )
    return _emit(state, events)


def game_seed_of(state: TournamentState, master_seed: bytes, assigned: GameAssigned) -> bytes:
    """The derived seed of an assigned game (checked against its commitment)."""
    info = state.info
    if info.format == "duplicate":
        seed = seeds.duplicate_seed(master_seed, info.tournament_id, assigned.round)
    else:
        seed = seeds.game_seed(master_seed, info.tournament_id, assigned.round, assigned.table)
    if seeds.commitment(seed) != assigned.seed_commitment:
        raise TournamentError("WRONG_GAME_SEED", f"{assigned.game_id}: seed commitment differs")
    return seed
