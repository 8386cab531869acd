"""End-to-end: a whole Rise & Fall game played by bots through the public gRPC API.

Issue "Public gRPC API, seat security, live streams" — requirements covered here:

* the client lists legal actions and sends one back unchanged (typed per-game messages), with
  ``expected_version`` and idempotency keys, until the game ends;
* GetGame then shows FINISHED, the winners and the revealed seed (matching its commitment);
* ExportRecord of the finished game is complete and VerifyRecord re-executes it;
* time travel: GetGame / GetView at ``version=N`` equal the view of the state at ``N``
  (materialised independently from the server's own SQLite file).
"""

from __future__ import annotations

import hashlib
import itertools
import random

import msgspec
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc

from service.api.convert import fill
from tests.api.conftest import ServerProcess
from tests.api.helpers import Driver, create_game, history, long_seed, open_store_service

SEATS = 3
#: versions compared by time travel (plus the first, the last and sealed-choice versions).
TIME_TRAVEL_SAMPLES = 12


def _expected_view(game: object, state: object, viewer: int | None) -> pb.GameView:
    expected = pb.GameView()
    fill(
        expected.rise_and_fall,
        msgspec.to_builtins(game.view(state, viewer)),  # type: ignore[attr-defined]
        "RiseAndFall",
    )
    return expected


def test_full_game_through_grpc(
    stub: annales_pb2_grpc.GameServiceStub, server: ServerProcess
) -> None:
    """A 3-seat game played to the end by uniform random bots over gRPC (ListLegalActions →
    SubmitAction unchanged, expected_version + idempotency keys); GetGame shows FINISHED with
    winners and the seed; ExportRecord(complete) verifies by re-execution; GetGame/GetView at a
    past version equal the view of the state materialised at that version."""
    seed = long_seed("e2e")
    game = create_game(stub, SEATS, seed=seed)
    assert game.commitment != hashlib.sha256(seed.encode()).hexdigest()  # salted
    driver = Driver(stub, game, bot_seed=b"e2e-bots")
    steps = driver.play()
    assert steps > 50

    # -- the end: FINISHED, winners, seed revealed ---------------------------------------
    final = stub.GetGame(pb.GetGameRequest(game_id=game.game_id))
    summary = final.game
    assert summary.status == pb.GAME_STATUS_FINISHED
    assert list(summary.winners), "a finished game has winners"
    assert set(summary.winners) <= set(range(SEATS))
    assert summary.seed == seed.encode().hex()
    assert summary.seed_commitment == game.commitment
    assert summary.version == summary.head_version == driver.version
    assert len(summary.scores) == SEATS
    assert max(summary.scores) == summary.scores[summary.winners[0]]
    view = final.view.rise_and_fall
    assert view.phase == "over"
    assert list(view.winners.values) == list(summary.winners)
    assert list(summary.pending.seats) == []

    # -- the log: contiguous, chained, equal to what the actors received -------------------
    events = history(stub, game.game_id)
    assert [e.seq for e in events] == list(range(1, summary.head_version + 1))
    for before, after in itertools.pairwise(events):
        assert after.prev_hash == before.hash
    assert events[0].kernel.HasField("game_created")
    assert events[-1].kernel.seed_revealed.seed == seed.encode().hex()
    nonce = bytes.fromhex(events[-1].kernel.seed_revealed.nonce)
    assert len(nonce) == 32
    assert hashlib.sha256(nonce + seed.encode()).hexdigest() == game.commitment
    # events stay redacted as of their own version: the reveals show the choices
    assert any(e.redacted for e in events) and not events[-1].redacted
    by_seq = {e.seq: e for e in events}
    for seat, _action, answer in driver.submitted:
        for event in answer.events:
            shown = by_seq[event.seq]
            assert (event.hash, event.kind, event.command_id) == (
                shown.hash,
                shown.kind,
                shown.command_id,
            )
            assert event.seat in (seat, -1)
    commands = {e.command_id for e in events}
    assert len(commands) == len(driver.submitted) + 1, "the setup, then one batch per command"
    # each seat sees its own sealed choices where the spectator does not, and the same
    # events otherwise (redaction as of each event's own version)
    for seat in range(SEATS):
        mine = history(stub, game.game_id, game.md(seat), page_size=137)
        assert [(e.seq, e.hash) for e in mine] == [(e.seq, e.hash) for e in events]
        assert sum(e.redacted for e in mine) < sum(e.redacted for e in events)

    # -- the record: complete and verified by re-execution -----------------------------------
    export = stub.ExportRecord(pb.ExportRecordRequest(game_id=game.game_id))
    assert export.complete
    verdict = stub.VerifyRecord(pb.VerifyRecordRequest(record=export.record))
    assert verdict.ok, verdict.message
    assert verdict.reexecuted, verdict.message
    assert verdict.divergence_seq == 0
    # a seat's record of the finished game differs only by its own idempotency keys
    # (a spectator's hides every key)
    seat_export = stub.ExportRecord(
        pb.ExportRecordRequest(game_id=game.game_id), metadata=game.md(1)
    )
    assert len(seat_export.record.split(b"\n")) == len(export.record.split(b"\n"))
    assert b'"idempotency_key":"' in seat_export.record
    assert b'"idempotency_key":"' not in export.record
    assert stub.VerifyRecord(pb.VerifyRecordRequest(record=seat_export.record)).reexecuted

    # -- time travel ------------------------------------------------------------------------
    rng = random.Random(1234)
    head = summary.head_version
    sealed = [e.seq for e in events if e.kind in ("CardChosen", "DeclineChosen")]
    versions = sorted(
        {
            1,
            game.version,
            head,
            *rng.sample(range(1, head + 1), TIME_TRAVEL_SAMPLES),
            *rng.sample(sealed, min(4, len(sealed))),
        }
    )
    service, store = open_store_service(server.db)
    try:
        for version in versions:
            match = service.materialise(game.game_id, version).match
            past = stub.GetGame(pb.GetGameRequest(game_id=game.game_id, version=version))
            assert past.game.version == version
            assert past.game.head_version == head
            assert past.view == _expected_view(match.game, match.state, None), version
            expected_status = (
                pb.GAME_STATUS_FINISHED
                if match.game.is_over(match.state)
                else pb.GAME_STATUS_SETUP
                if match.game.is_setup(match.state)
                else pb.GAME_STATUS_RUNNING
            )
            assert past.game.status == expected_status
            assert list(past.game.pending.seats) == list(match.game.pending(match.state).seats)
            for seat in range(SEATS):
                mine = stub.GetView(
                    pb.GetViewRequest(game_id=game.game_id, version=version), metadata=game.md(seat)
                )
                assert mine.seat == seat
                assert mine.game.version == version
                assert mine.view == _expected_view(match.game, match.state, seat), (version, seat)
    finally:
        store.close()
