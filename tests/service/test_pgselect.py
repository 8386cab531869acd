"""PostgreSQL reads of a game's events with statements composed once
(``service/store/pgselect.py``): the same rows as the recorder's own ``select_events`` for
every shape of the call."""

from __future__ import annotations

import itertools

import pytest
from eventsourcing.persistence import StoredEvent as RecordedEvent

from service.store.config import StoreConfig
from service.store.eventstore import EventStore
from service.store.pgselect import PreparedSelect
from tests.pg import pg_config

__all__ = ["pg_config"]

pytestmark = pytest.mark.postgres


def test_prepared_select_reads_what_the_recorder_reads(pg_config: StoreConfig) -> None:
    store = EventStore(pg_config)
    try:
        recorder = store.events
        for game, count in (("g1", 7), ("g2", 3)):
            recorder.insert_events(
                [
                    RecordedEvent(game, seq, "annales:Test", bytes([seq]))
                    for seq in range(1, count + 1)
                ]
            )
        select = PreparedSelect(recorder)
        shapes = itertools.product(
            ("g1", "g2", "none"), (None, 0, 2, 7), (None, 1, 5), (False, True), (None, 1, 4)
        )
        for game, gt, lte, desc, limit in shapes:
            expected = recorder.select_events(game, gt=gt, lte=lte, desc=desc, limit=limit)
            for _ in range(2):  # the statement composed on the first call, reused after
                got = select(game, gt=gt, lte=lte, desc=desc, limit=limit)
                assert got == expected, (game, gt, lte, desc, limit)
        assert len(select._statements) == 16  # every shape, composed once
        # the store's own reads go through it
        assert isinstance(store._select, PreparedSelect)
        assert store.last_seq("g1") == 7 and store.last_seq("none") == 0
    finally:
        store.close()
