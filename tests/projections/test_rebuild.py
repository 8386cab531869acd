"""Rebuild equals incremental; replaying processed notifications changes nothing."""

from __future__ import annotations

import shutil

import pytest
from eventsourcing.persistence import IntegrityError, Tracking

from domain.registry import GAMES
from projections.projector import Projector
from projections.runner import rebuild
from projections.schema import APPLICATION_NAME, ReadModelTracking, connect, table_rows
from service.store.feed import START
from tests.projections.conftest import Played, play_session


def _rebuilt(played: Played, name: str) -> dict[str, list[tuple[object, ...]]]:
    path = played.directory / name
    applied = rebuild(played.store, str(path))
    assert applied == played.store.max_notification_id()
    return table_rows(connect(str(path)))


def test_rebuild_equals_incremental(played: Played) -> None:
    """Requirement 2: `projections rebuild` drops the tables of an existing (here: damaged)
    read-model file and gives tables identical to the incremental ones (incremental: tiny
    batches splitting commands, an LRU of two games, undos)."""
    incremental = table_rows(connect(str(played.readmodels)))
    assert len(incremental["games"]) == len(played.game_ids)
    finished = [r for r in incremental["games"] if r[6] == "finished"]
    assert len(finished) >= 8
    assert incremental["balance_stats"] and incremental["player_stats"]
    path = played.directory / "damaged.db"
    source = connect(str(played.readmodels))
    target = connect(str(path))
    source.conn.backup(target.conn)
    target.execute("UPDATE games SET status = 'garbage'")
    target.execute("DELETE FROM score_points WHERE point % 2 = 0")
    target.conn.commit()
    assert table_rows(target) != incremental
    assert rebuild(played.store, str(path)) == played.store.max_notification_id()
    assert table_rows(connect(str(path))) == incremental


def test_replaying_processed_notifications_changes_nothing(played: Played) -> None:
    """Requirement 1 (exactly once): processing notifications again applies nothing, and the
    tracking recorder refuses a position that was already recorded."""
    db = connect(str(played.readmodels))
    before = table_rows(db)
    projector = Projector(ReadModelTracking(db), played.store, cache_size=4)
    notes = played.store.feed_after(START, 500)
    assert projector.process(notes) == 0
    head = played.store.feed_head()
    last = played.store.feed_after((head[0], head[1] - 1), 1)
    assert [note.position for note in last] == [head]
    assert projector.process(last) == 0
    assert table_rows(db) == before
    db.execute("BEGIN IMMEDIATE")
    with pytest.raises(IntegrityError):
        projector.view.insert_tracking(Tracking(APPLICATION_NAME, 1))
    db.rollback()
    assert table_rows(db) == before


def test_counts_match_the_log(played: Played) -> None:
    """Requirement 3: one public event per stored event; finished games counted once."""
    db = connect(str(played.readmodels))
    events = db.execute("SELECT COUNT(*) FROM public_events").fetchone()[0]
    assert events == played.store.max_notification_id()
    finished = db.execute("SELECT COUNT(*) FROM games WHERE status = 'finished'").fetchone()[0]
    seats = db.execute("SELECT SUM(players) FROM games WHERE status = 'finished'").fetchone()[0]
    assert db.execute("SELECT SUM(games) FROM balance_stats").fetchone()[0] == seats
    assert db.execute("SELECT SUM(games) FROM player_stats").fetchone()[0] == seats
    wins = db.execute("SELECT SUM(json_array_length(winners)) FROM games").fetchone()[0]
    assert db.execute("SELECT SUM(wins) FROM balance_stats").fetchone()[0] == wins
    assert finished >= 8


@pytest.mark.long
def test_rebuild_equals_incremental_300_games_of_every_game() -> None:
    """Requirement 2 (long, "after a few hundred bot games of every implemented game"):
    rebuild equals incremental after 300 bot games of each registered game, interleaved."""
    session = play_session(300 * len(GAMES), game_types=tuple(sorted(GAMES)))
    try:
        incremental = table_rows(connect(str(session.readmodels)))
        assert _rebuilt(session, "rebuilt.db") == incremental
    finally:
        session.store.close()
        shutil.rmtree(session.directory, ignore_errors=True)
