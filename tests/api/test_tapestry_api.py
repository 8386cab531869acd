"""End-to-end: a whole 3-player Tapestry game played by bots through the public gRPC API.

* every seat chooses uniformly among ListLegalActions and sends the action back unchanged
  (``expected_version`` + idempotency keys) until the game ends — the setup's capital and
  civilization choices included;
* while the game runs, GetView shows each seat its own tapestry hand and the civilizations
  dealt to it, and only the hand size of the others (a spectator sees no hand at all);
  GetHistory gives each seat its own draws with their cards and everybody else's
  ``TapestryDrawn`` / ``CivilizationsDealt`` redacted (no card ids, ``redacted`` set);
* at the end GetGame shows FINISHED with winners and the revealed seed, nothing is redacted
  any more, and ExportRecord (complete) passes VerifyRecord by re-execution;
* time travel: GetGame / GetView at a past version equal the views of the state materialised
  at that version from the server's own SQLite file.

The redaction oracle over every message each seat receives is ``test_tapestry_redaction.py``.
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
from tests.api.helpers import Driver, create_tapestry_game, history, long_seed, open_store_service

SEATS = 3
#: a visibility check every so many versions while the game runs (and at its start).
CHECK_EVERY = 60
#: versions compared by time travel (plus the first, the setup and the last).
TIME_TRAVEL_SAMPLES = 8


def _expected_view(game: object, state: object, viewer: int | None) -> pb.GameView:
    expected = pb.GameView()
    fill(
        expected.tapestry,
        msgspec.to_builtins(game.view(state, viewer)),  # type: ignore[attr-defined]
        "Tapestry",
    )
    return expected


class Visibility:
    """Checks what each seat and a spectator see while the game runs."""

    def __init__(self, stub: annales_pb2_grpc.GameServiceStub, driver: Driver) -> None:
        self.stub = stub
        self.driver = driver
        self.last = -CHECK_EVERY
        self.others_hands = 0  # other seats' hands met non-empty (the check is not vacuous)
        self.redacted_draws = 0  # other seats' draws met redacted
        self.own_draws = 0  # own draws met with their cards
        self.redacted_deals = 0  # other seats' civilization deals met redacted

    def __call__(self, driver: Driver) -> None:
        if driver.version - self.last >= CHECK_EVERY:
            self.last = driver.version
            summary = self.stub.GetGame(pb.GetGameRequest(game_id=driver.game.game_id)).game
            if summary.status == pb.GAME_STATUS_FINISHED:
                return  # nothing is hidden any more (checked at the end)
            self.views()
            self.history()

    def views(self) -> None:
        """Own hand and civilization offer visible; others' only counted."""
        game = self.driver.game
        sizes: dict[int, int] = {}
        for viewer in range(SEATS):
            answer = self.stub.GetView(
                pb.GetViewRequest(game_id=game.game_id), metadata=game.md(viewer)
            )
            view = answer.view.tapestry
            assert view.viewer == viewer and view.phase in ("setup", "play")
            for seat in view.seats:
                sizes.setdefault(seat.seat, seat.hand_size)
                assert sizes[seat.seat] == seat.hand_size, "every viewer sees the same count"
                if seat.seat == viewer:
                    assert seat.HasField("hand")
                    assert len(seat.hand.values) == seat.hand_size
                    assert seat.HasField("civ_offer")
                else:
                    assert not seat.HasField("hand"), f"{viewer} sees the hand of {seat.seat}"
                    assert not seat.HasField("civ_offer"), f"{viewer} sees {seat.seat}'s offer"
                    self.others_hands += seat.hand_size > 0
                assert all(p.card == 0 for p in seat.mat if not p.face_up)
        spectator = self.stub.GetGame(pb.GetGameRequest(game_id=game.game_id)).view.tapestry
        assert not spectator.HasField("viewer")
        for seat in spectator.seats:
            assert not seat.HasField("hand") and not seat.HasField("civ_offer")
            assert seat.hand_size == sizes[seat.seat]

    def history(self) -> None:
        """Own draws and deals with their cards; others' redacted."""
        game = self.driver.game
        for viewer in (*range(SEATS), None):
            metadata = None if viewer is None else game.md(viewer)
            for event in history(self.stub, game.game_id, metadata):
                payload = event.tapestry
                kind = payload.WhichOneof("event") if event.HasField("tapestry") else None
                if kind == "tapestry_drawn":
                    drawn = payload.tapestry_drawn
                    assert drawn.count > 0
                    if drawn.seat == viewer:
                        assert len(drawn.cards) == drawn.count and not event.redacted
                        self.own_draws += 1
                    else:
                        assert list(drawn.cards) == [] and event.redacted, (viewer, event)
                        self.redacted_draws += 1
                elif kind == "civilizations_dealt":
                    dealt = payload.civilizations_dealt
                    if dealt.seat == viewer:
                        assert list(dealt.civilizations) and not event.redacted
                    else:
                        assert list(dealt.civilizations) == [] and event.redacted
                        self.redacted_deals += 1
                elif kind == "tapestry_played" and not payload.tapestry_played.face_up:
                    assert payload.tapestry_played.card == 0 and event.redacted


def test_full_tapestry_game_through_grpc(
    stub: annales_pb2_grpc.GameServiceStub, server: ServerProcess
) -> None:
    """A 3-seat Tapestry game played to the end by uniform random bots over gRPC; hands and
    dealt civilizations stay private while it runs; the finished record verifies."""
    seed = long_seed("tapestry-e2e")
    game = create_tapestry_game(stub, SEATS, seed=seed)
    assert game.commitment != hashlib.sha256(seed.encode()).hexdigest()  # salted
    setup = stub.GetGame(pb.GetGameRequest(game_id=game.game_id)).game
    assert setup.game_type == pb.GAME_TYPE_TAPESTRY
    assert setup.status == pb.GAME_STATUS_SETUP
    assert list(setup.pending.seats) == list(range(SEATS))
    driver = Driver(stub, game, bot_seed=b"tapestry-e2e-bots")
    driver.version = game.version
    checks = Visibility(stub, driver)
    checks(driver)
    steps = driver.play(after=checks)
    assert steps > 50
    assert checks.others_hands and checks.redacted_draws and checks.own_draws
    assert checks.redacted_deals >= SEATS * (SEATS - 1)

    # -- the end: FINISHED, winners, seed revealed ---------------------------------------
    final = stub.GetGame(pb.GetGameRequest(game_id=game.game_id))
    summary = final.game
    assert summary.status == pb.GAME_STATUS_FINISHED
    assert list(summary.winners) and set(summary.winners) <= set(range(SEATS))
    assert summary.seed == seed.encode().hex()
    assert summary.version == summary.head_version == driver.version
    assert len(summary.scores) == SEATS
    assert max(summary.scores) == summary.scores[summary.winners[0]]
    view = final.view.tapestry
    assert view.phase == "over"
    assert list(view.winners.values) == list(summary.winners)
    assert list(view.final_scores.values) == list(summary.scores)
    assert all(seat.HasField("hand") for seat in view.seats), "hands are public at the end"

    # -- the log: chained, redacted as of each event's version --------------------------
    events = history(stub, game.game_id)
    assert [e.seq for e in events] == list(range(1, summary.head_version + 1))
    for before, after in itertools.pairwise(events):
        assert after.prev_hash == before.hash
    assert events[-1].kernel.seed_revealed.seed == seed.encode().hex()
    # events stay redacted as of their own version, even once the game is over (the same
    # request gives the same bytes); the final record and the revealed seed hold the truth
    assert not events[-1].redacted
    kinds = {e.kind for e in events}
    assert {"CivilizationsDealt", "TapestryDrawn", "GameEnded", "SeedRevealed"} <= kinds
    for seat in range(SEATS):  # the same events; each seat sees its own hidden ones
        mine = history(stub, game.game_id, game.md(seat), page_size=211)
        assert [(e.seq, e.hash) for e in mine] == [(e.seq, e.hash) for e in events]
        assert sum(e.redacted for e in mine) <= sum(e.redacted for e in events)

    # -- the record: complete and verified by re-execution -----------------------------------
    export = stub.ExportRecord(pb.ExportRecordRequest(game_id=game.game_id))
    assert export.complete
    verdict = stub.VerifyRecord(pb.VerifyRecordRequest(record=export.record))
    assert verdict.ok, verdict.message
    assert verdict.reexecuted, verdict.message
    assert verdict.divergence_seq == 0
    seat_export = stub.ExportRecord(
        pb.ExportRecordRequest(game_id=game.game_id), metadata=game.md(2)
    )
    # a seat's record of the finished game differs only by its own idempotency keys
    assert len(seat_export.record.split(b"\n")) == len(export.record.split(b"\n"))
    assert b'"idempotency_key":"' not in export.record
    assert stub.VerifyRecord(pb.VerifyRecordRequest(record=seat_export.record)).reexecuted

    # -- time travel ------------------------------------------------------------------------
    rng = random.Random(77)
    head = summary.head_version
    versions = sorted({1, game.version, head, *rng.sample(range(1, head + 1), TIME_TRAVEL_SAMPLES)})
    service, store = open_store_service(server.db)
    try:
        for version in versions:
            match = service.materialise(game.game_id, version).match
            past = stub.GetGame(pb.GetGameRequest(game_id=game.game_id, version=version))
            assert past.view == _expected_view(match.game, match.state, None), version
            for seat in range(SEATS):
                mine = stub.GetView(
                    pb.GetViewRequest(game_id=game.game_id, version=version), metadata=game.md(seat)
                )
                assert mine.view == _expected_view(match.game, match.state, seat), (version, seat)
    finally:
        store.close()


def test_tapestry_options_reach_the_game(stub: annales_pb2_grpc.GameServiceStub) -> None:
    """``civilizations_dealt = 1`` deals one civilization per seat, kept at once."""
    game = create_tapestry_game(stub, 2, civilizations_dealt=1)
    summary = stub.GetGame(pb.GetGameRequest(game_id=game.game_id)).game
    assert '"civilizations_dealt": 1' in summary.options_json
    for seat in range(2):
        view = stub.GetView(
            pb.GetViewRequest(game_id=game.game_id), metadata=game.md(seat)
        ).view.tapestry
        assert len(view.seats[seat].civilizations) == 1
        assert view.seats[seat].HasField("civ_offer") and not view.seats[seat].civ_offer.values
