"""Seed derivation: everything random in a tournament comes from its master seed.

The master seed is secret until the tournament ends; ``TournamentCreated`` publishes
``SHA-256(master seed)`` and ``TournamentEnded`` reveals the seed. Every derived value is an
HMAC-SHA-256 keyed by the master seed over an ASCII label, so anyone holding the revealed seed
re-derives all of them:

* game seed: ``HMAC(master, "annales/tournament/v1/game/{tid}/{round}/{table}")``; in the
  **duplicate** format every table of a round shares
  ``HMAC(master, "annales/tournament/v1/game/{tid}/{round}/duplicate")``;
* seat order of a game: a permutation drawn with :class:`~domain.core.chance.Chance` from
  ``HMAC(game seed, "annales/tournament/v1/seats")``; in the duplicate format the table's
  pairing order is rotated by ``(round + table) mod table size`` instead, so the same seat
  (and the same dice and cards) falls to a different entrant at each table;
* Swiss pairing ties: ``HMAC(master, ".../pairing/{tid}/{round}/{entrant}")``;
* standings lot (last tiebreak): ``HMAC(master, ".../lot/{tid}/{entrant}")``;
* round-robin schedule order: ``HMAC(master, ".../schedule/{tid}")``;
* bot seeds: ``HMAC(game seed, ".../bot/{seat}")``.

Duplicate luck. The kernel's :class:`~domain.core.chance.Chance` keys every draw by the game
seed, the game's version (events so far) and the draw index — never by seat names or seat
identity. So tables sharing a seed get identical setup draws (world, decks, shuffles, first
player), and later draws are identical whenever the tables reach a decision at the same
version. Rise & Fall draws only at setup, so its duplicate tables share every random event
(tested); Tapestry and Imperium also draw during play, shared while the tables' event counts
agree.

>>> len(game_seed(b"m", "t", 1, 0)), game_seed(b"m", "t", 1, 0) == game_seed(b"m", "t", 1, 1)
(32, False)
>>> duplicate_seed(b"m", "t", 1) == duplicate_seed(b"m", "t", 1)
True
"""

from __future__ import annotations

import hashlib
import hmac

from domain.core.chance import Chance

PREFIX = "annales/tournament/v1/"


def derive(key: bytes, label: str) -> bytes:
    """``HMAC-SHA-256(key, PREFIX + label)`` (32 bytes)."""
    return hmac.new(key, (PREFIX + label).encode("utf-8"), hashlib.sha256).digest()


def commitment(seed: bytes) -> str:
    """The public commitment of a seed: lowercase hex SHA-256."""
    return hashlib.sha256(seed).hexdigest()


def game_seed(master: bytes, tournament_id: str, round_number: int, table: int) -> bytes:
    """The seed of the game at ``table`` (0-based) of ``round_number`` (1-based)."""
    return derive(master, f"game/{tournament_id}/{round_number}/{table}")


def duplicate_seed(master: bytes, tournament_id: str, round_number: int) -> bytes:
    """The seed every table of a duplicate round plays."""
    return derive(master, f"game/{tournament_id}/{round_number}/duplicate")


def seat_permutation(seed: bytes, size: int) -> list[int]:
    """A permutation of ``range(size)`` drawn from a game seed (seat order of the table)."""
    return Chance(derive(seed, "seats"), 0).permutation(size)


def bot_seed(seed: bytes, seat: int) -> bytes:
    """The private seed of the bot playing ``seat`` of the game with ``seed``."""
    return derive(seed, f"bot/{seat}")


def _number(digest: bytes) -> int:
    return int.from_bytes(digest[:8], "big")


def pairing_key(master: bytes, tournament_id: str, round_number: int, entrant: int) -> int:
    """A 64-bit number breaking Swiss pairing ties for ``entrant`` in a round."""
    return _number(derive(master, f"pairing/{tournament_id}/{round_number}/{entrant}"))


def lot(master: bytes, tournament_id: str, entrant: int) -> int:
    """The entrant's lot: the last tiebreak of the standings (lower ranks first)."""
    return _number(derive(master, f"lot/{tournament_id}/{entrant}"))


def schedule_order(master: bytes, tournament_id: str, entrants: int) -> list[int]:
    """The order in which entrants enter the round-robin circle."""
    return Chance(derive(master, f"schedule/{tournament_id}"), 0).permutation(entrants)
