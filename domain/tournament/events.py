"""Events of a tournament (facts, past tense), encoded as msgpack like game events.

A tournament's stream is: ``TournamentCreated`` (with the SHA-256 commitment of the master
seed), ``EntrantRegistered``…, ``TournamentStarted``, then per round ``RoundPaired`` and one
``GameAssigned`` per table, a ``GameResultRecorded`` per game, ``RoundCompleted`` (with the
standings after the round) and finally ``TournamentEnded``, which reveals the master seed.

>>> kind, payload = encode_event(TournamentStarted(entrants=4, rounds=2))
>>> kind, decode_event(kind, payload)
('TournamentStarted', TournamentStarted(entrants=4, rounds=2))
"""

from __future__ import annotations

from typing import Any

import msgspec

#: the ruleset / schema stamp of tournament envelopes.
TOURNAMENT_RULESET = "annales.tournament/1"
#: schema version of every tournament event (bump with an upcaster on a breaking change).
SCHEMA = 1


class TournamentEvent(msgspec.Struct, tag=True, frozen=True, kw_only=True):
    """Base class of the tournament events."""


class StandingRow(msgspec.Struct, frozen=True, kw_only=True):
    """One line of the standings (see :mod:`domain.tournament.standings` for the order)."""

    rank: int
    entrant: int
    name: str
    points: int
    score: int
    buchholz: int
    wins: int
    games: int
    byes: int
    lot: int


class TournamentCreated(TournamentEvent, frozen=True, kw_only=True, omit_defaults=True):
    """The tournament exists; ``seed_commitment`` is SHA-256 of the secret master seed.

    ``pairing`` names how its Swiss and duplicate rounds pair tables of two
    (:data:`domain.tournament.pairing.PAIRINGS`). The tournaments created before it existed
    used ``"search"``: their events carry no ``pairing`` (a default is left out of the
    encoding), so they decode, re-encode and verify exactly as they were written.
    """

    tournament_id: str
    name: str
    game_type: str
    options: dict[str, Any]
    format: str
    rounds: int
    table_size: int
    seed_commitment: str
    pairing: str = "search"


class EntrantRegistered(TournamentEvent, frozen=True, kw_only=True):
    """An entrant joined: a person (plays through seat tokens) or a named bot kind."""

    entrant: int
    name: str
    kind: str
    bot: str | None = None


class TournamentStarted(TournamentEvent, frozen=True, kw_only=True):
    """Registration closed with ``entrants`` entrants; ``rounds`` is now final."""

    entrants: int
    rounds: int


class RoundPaired(TournamentEvent, frozen=True, kw_only=True):
    """A round's tables (entrant numbers, in pairing order) and byes."""

    round: int
    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...]


class GameAssigned(TournamentEvent, frozen=True, kw_only=True):
    """A table's game: its id, entrants by seat, and the commitment of its derived seed."""

    round: int
    table: int
    game_id: str
    seats: tuple[int, ...]
    seed_commitment: str


class GameResultRecorded(TournamentEvent, frozen=True, kw_only=True):
    """A finished game's result, bound to the game's record by its event count and last hash."""

    round: int
    table: int
    game_id: str
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    points: tuple[int, ...]
    events: int
    last_hash: str


class RoundCompleted(TournamentEvent, frozen=True, kw_only=True):
    """Every game of the round has a result; the standings after it."""

    round: int
    standings: tuple[StandingRow, ...]


class TournamentEnded(TournamentEvent, frozen=True, kw_only=True):
    """The last round is complete: final standings, and the master seed revealed (hex)."""

    master_seed: str
    standings: tuple[StandingRow, ...]


AnyTournamentEvent = (
    TournamentCreated
    | EntrantRegistered
    | TournamentStarted
    | RoundPaired
    | GameAssigned
    | GameResultRecorded
    | RoundCompleted
    | TournamentEnded
)

_ENCODER = msgspec.msgpack.Encoder()
_DECODER = msgspec.msgpack.Decoder(AnyTournamentEvent)


def encode_event(event: TournamentEvent) -> tuple[str, bytes]:
    """``(kind, msgpack payload)`` of an event."""
    return type(event).__name__, _ENCODER.encode(event)


def decode_event(kind: str, payload: bytes) -> AnyTournamentEvent:
    """The event in ``payload``; raises ``ValueError`` if it is not of ``kind``."""
    event: AnyTournamentEvent = _DECODER.decode(payload)
    if type(event).__name__ != kind:
        raise ValueError(f"payload holds {type(event).__name__}, envelope says {kind}")
    return event


def event_to_data(event: TournamentEvent) -> Any:
    """The event as plain data (for the readable form of a record)."""
    return msgspec.to_builtins(event)
