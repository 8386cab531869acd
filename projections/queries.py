"""Read the read models: games, score timelines, leaderboards and balance statistics.

Every function takes a sqlite-utils database opened on the read-model file (readers never
write). ``abandoned`` is not stored: an unfinished game whose last activity is more than
``abandoned_after`` notifications behind the newest one is reported as abandoned. The rule
uses the log's order rather than a clock (the domain has no clock, and a rebuild must give
the same answer); tune it with ``ANNALES_ABANDONED_AFTER`` (default 100 000 notifications).

>>> round(wilson(7, 10)[0], 3), round(wilson(7, 10)[1], 3)
(0.397, 0.892)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import msgspec
import sqlite_utils

from service import settings

STATUSES = ("setup", "running", "finished", "abandoned")


def abandoned_after() -> int:
    """Notifications of inactivity after which an unfinished game counts as abandoned."""
    return settings.integer("ANNALES_ABANDONED_AFTER", 100_000, 1)


def wilson(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) of a proportion; ``(0, 1)`` for no trials."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class GameRow:
    """One game of the ``games`` read model."""

    game_id: str
    game_type: str
    ruleset: str
    seat_names: tuple[str, ...]
    seed_commitment: str
    status: str
    pending_seats: tuple[int, ...]
    decision: str
    prompt: str
    options_json: str
    round: int
    version: int
    created: int
    last_activity: int
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    final_scores: tuple[int, ...]
    #: automated opponents (no seat): (name, score, winner) each
    parties: tuple[tuple[str, int, bool], ...]
    balance_keys: tuple[str, ...]
    seed: str
    #: the nonce of the seed commitment (hex), revealed with the seed ("" before, or unsalted)
    nonce: str


def _tuple(text: str | None) -> tuple[Any, ...]:
    return tuple(msgspec.json.decode(text or "[]"))


def _game(row: dict[str, Any], head: int, after: int) -> GameRow:
    status = str(row["status"])
    if status != "finished" and head - int(row["last_activity"]) > after:
        status = "abandoned"
    return GameRow(
        game_id=row["game_id"],
        game_type=row["game_type"],
        ruleset=row["ruleset"],
        seat_names=_tuple(row["seat_names"]),
        seed_commitment=row["seed_commitment"],
        status=status,
        pending_seats=_tuple(row["pending_seats"]),
        decision=row["decision"] or "",
        prompt=row["prompt"] or "",
        options_json=row["options_json"] or "{}",
        round=int(row["round"] or 0),
        version=int(row["version"] or 0),
        created=int(row["created"]),
        last_activity=int(row["last_activity"]),
        scores=_tuple(row["scores"]),
        winners=_tuple(row["winners"]),
        final_scores=_tuple(row["final_scores"]),
        parties=tuple((str(n), int(v), bool(w)) for n, v, w in _tuple(row.get("parties"))),
        balance_keys=_tuple(row["balance_keys"]),
        seed=row["seed"] or "",
        nonce=row.get("nonce") or "",
    )


def _head(db: sqlite_utils.Database) -> int:
    row = db.execute("SELECT MAX(last_activity) FROM games").fetchone()
    return int(row[0] or 0)


def _rows(db: sqlite_utils.Database, sql: str, params: list[object]) -> list[dict[str, Any]]:
    cursor = db.execute(sql, params)
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, r, strict=True)) for r in cursor.fetchall()]


def list_games(
    db: sqlite_utils.Database,
    *,
    game_type: str | None = None,
    status: str | None = None,
    player: str | None = None,
    offset: int = 0,
    limit: int = 50,
) -> tuple[list[GameRow], bool]:
    """Games, newest first, filtered; returns ``(page, more pages follow)``."""
    head, after = _head(db), abandoned_after()
    where: list[str] = ["1 = 1"]
    params: list[object] = []
    if game_type:
        where.append("game_type = ?")
        params.append(game_type)
    if status == "abandoned":
        where.append("status != 'finished' AND last_activity < ?")
        params.append(head - after)
    elif status in ("setup", "running"):
        where.append("status = ? AND last_activity >= ?")
        params += [status, head - after]
    elif status:
        where.append("status = ?")
        params.append(status)
    if player:
        where.append("EXISTS (SELECT 1 FROM json_each(games.seat_names) WHERE value = ?)")
        params.append(player)
    sql = f"SELECT * FROM games WHERE {' AND '.join(where)} ORDER BY created DESC LIMIT ? OFFSET ?"
    rows = _rows(db, sql, [*params, limit + 1, offset])
    return [_game(r, head, after) for r in rows[:limit]], len(rows) > limit


def get_game(db: sqlite_utils.Database, game_id: str) -> GameRow | None:
    """One game, or ``None`` when the read model does not know it (yet)."""
    rows = _rows(db, "SELECT * FROM games WHERE game_id = ?", [game_id])
    return _game(rows[0], _head(db), abandoned_after()) if rows else None


@dataclass(frozen=True)
class ScorePoint:
    """Each seat's score after one turn."""

    point: int
    version: int
    scores: tuple[int, ...]


def score_timeline(
    db: sqlite_utils.Database, game_id: str, offset: int = 0, limit: int = 10_000
) -> tuple[list[ScorePoint], bool]:
    """The game's score after every turn, oldest first; ``(page, more pages follow)``."""
    rows = db.execute(
        "SELECT point, version, group_concat(score) FROM (SELECT * FROM score_points"
        " WHERE game_id = ? ORDER BY point, seat) GROUP BY point ORDER BY point"
        " LIMIT ? OFFSET ?",
        [game_id, limit + 1, offset],
    ).fetchall()
    points = [
        ScorePoint(int(p), int(v), tuple(int(s) for s in str(scores).split(",")))
        for p, v, scores in rows[:limit]
    ]
    return points, len(rows) > limit


@dataclass(frozen=True)
class LeaderboardEntry:
    """A player's finished games of one type."""

    player: str
    game_type: str
    games: int
    wins: int
    average_score: float
    best_score: int

    @property
    def win_rate(self) -> float:
        """Wins per finished game."""
        return self.wins / self.games if self.games else 0.0


def leaderboard(
    db: sqlite_utils.Database, game_type: str, offset: int = 0, limit: int = 50
) -> tuple[list[LeaderboardEntry], bool]:
    """Players by wins, then win rate, then average score; ``(page, more pages follow)``."""
    rows = db.execute(
        "SELECT player, game_type, games, wins, total_score, best_score FROM player_stats"
        " WHERE game_type = ? ORDER BY wins DESC, CAST(wins AS REAL) / games DESC,"
        " CAST(total_score AS REAL) / games DESC, player LIMIT ? OFFSET ?",
        [game_type, limit + 1, offset],
    ).fetchall()
    entries = [
        LeaderboardEntry(str(p), str(t), int(g), int(w), s / g if g else 0.0, int(b))
        for p, t, g, w, s, b in rows[:limit]
    ]
    return entries, len(rows) > limit


@dataclass(frozen=True)
class BalanceRow:
    """Finished games of one balance key at one player count (0: every count)."""

    balance_key: str
    players: int
    games: int
    wins: int
    average_score: float
    average_rank: float

    @property
    def win_rate(self) -> float:
        """Wins per finished game."""
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """95 % Wilson interval of the win rate."""
        return wilson(self.wins, self.games)


def balance_stats(db: sqlite_utils.Database, game_type: str, players: int = 0) -> list[BalanceRow]:
    """Balance statistics by key; ``players=0`` sums every player count (then ``players``
    of each row is 0). Ordered by key, then player count."""
    if players:
        sql = (
            "SELECT balance_key, players, games, wins, total_score, total_rank FROM"
            " balance_stats WHERE game_type = ? AND players = ? ORDER BY balance_key"
        )
        params: list[object] = [game_type, players]
    else:
        sql = (
            "SELECT balance_key, 0, SUM(games), SUM(wins), SUM(total_score), SUM(total_rank)"
            " FROM balance_stats WHERE game_type = ? GROUP BY balance_key ORDER BY balance_key"
        )
        params = [game_type]
    return [
        BalanceRow(str(k), int(n), int(g), int(w), s / g if g else 0.0, r / g if g else 0.0)
        for k, n, g, w, s, r in db.execute(sql, params).fetchall()
    ]


def public_events(db: sqlite_utils.Database, game_id: str) -> list[dict[str, Any]]:
    """The game's public log (as a spectator sees it), oldest first."""
    return _rows(
        db,
        "SELECT seq, kind, seat, command_id, redacted, event FROM public_events"
        " WHERE game_id = ? ORDER BY seq",
        [game_id],
    )
