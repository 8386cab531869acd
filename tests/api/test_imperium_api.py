"""End-to-end: a whole 2-player Imperium game played by bots through the public gRPC API.

* every seat chooses uniformly among ListLegalActions and sends the action back unchanged
  (``expected_version`` + idempotency keys) until the game is scored or collapses;
* while the game runs, GetView shows each seat its own hand and history (and the cards it
  looks at), and only the counts of the other seat's; a spectator sees no hand nor history;
  GetHistory gives each seat its own draws with their cards and the other seat's hidden card
  moves redacted (card "", ``redacted`` set), the market piles of the setup empty, and other
  seats' pending decisions without their options;
* at the end GetGame shows FINISHED with winners and the revealed seed, nothing is redacted
  any more, and ExportRecord (complete) passes VerifyRecord by re-execution;
* time travel: GetGame / GetView at a past version equal the views of the state materialised
  at that version from the server's own SQLite file.

The redaction oracle over every message each seat receives is ``test_imperium_redaction.py``
(whose zone rule, :func:`~tests.api.test_imperium_redaction.zone_visible`, judges the moves
here too).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import random

import msgspec
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc

from domain.imperium import content as C
from service.api.convert import fill
from tests.api.conftest import ServerProcess
from tests.api.helpers import (
    Driver,
    create_imperium_game,
    expect_error,
    history,
    long_seed,
    open_store_service,
)
from tests.api.test_imperium_redaction import zone_visible

SEATS = 2
NATIONS = ["romans", "celts"]
#: a visibility check every so many versions while the game runs (and at its start).
CHECK_EVERY = 150
#: versions compared by time travel (plus the first, the setup and the last).
TIME_TRAVEL_SAMPLES = 6


def _expected_view(game: object, state: object, viewer: int | None) -> pb.GameView:
    expected = pb.GameView()
    fill(
        expected.imperium,
        msgspec.to_builtins(game.view(state, viewer)),  # type: ignore[attr-defined]
        "Imperium",
    )
    return expected


class Visibility:
    """Checks what each seat and a spectator see while the game runs."""

    def __init__(self, stub: annales_pb2_grpc.GameServiceStub, driver: Driver) -> None:
        self.stub = stub
        self.driver = driver
        self.last = -CHECK_EVERY
        self.others_hands = 0  # other seats' hands met non-empty (the check is not vacuous)
        self.redacted_moves = 0  # other seats' hidden moves met redacted
        self.own_draws = 0  # own draws met with their cards
        self.hidden_frames = 0  # other seats' decisions met without their options

    def __call__(self, driver: Driver) -> None:
        if driver.version - self.last >= CHECK_EVERY:
            self.last = driver.version
            summary = self.stub.GetGame(pb.GetGameRequest(game_id=driver.game.game_id)).game
            if summary.status == pb.GAME_STATUS_FINISHED:
                return  # nothing is hidden any more (checked at the end)
            self.views()
            self.history()

    def views(self) -> None:
        """Own hand, history and looked cards visible; the other seat's only counted."""
        game = self.driver.game
        sizes: dict[int, tuple[int, int, int]] = {}
        for viewer in range(SEATS):
            answer = self.stub.GetView(
                pb.GetViewRequest(game_id=game.game_id), metadata=game.md(viewer)
            )
            view = answer.view.imperium
            assert view.viewer == viewer and view.phase == "play"
            for seat in view.seats:
                counts = (seat.hand_size, seat.history_size, seat.deck_size)
                assert sizes.setdefault(seat.seat, counts) == counts, "the same counts for all"
                if seat.seat == viewer:
                    assert seat.HasField("hand") and seat.HasField("history")
                    assert len(seat.hand.values) == seat.hand_size
                    assert len(seat.history.values) == seat.history_size
                    assert seat.HasField("looked")
                else:
                    for part in ("hand", "history", "looked"):
                        assert not seat.HasField(part), f"{viewer} sees {seat.seat}'s {part}"
                    self.others_hands += seat.hand_size > 0
            if viewer not in view.pending:
                assert not view.HasField("frame") and not list(view.options)
        spectator = self.stub.GetGame(pb.GetGameRequest(game_id=game.game_id)).view.imperium
        assert not spectator.HasField("viewer")
        assert not spectator.HasField("frame") and not list(spectator.options)
        for seat in spectator.seats:
            for part in ("hand", "history", "looked"):
                assert not seat.HasField(part)
            assert (seat.hand_size, seat.history_size, seat.deck_size) == sizes[seat.seat]

    def history(self) -> None:
        """Own moves with their cards; hidden moves of others redacted; others' frames and
        the memo without cards; the setup's piles empty."""
        game = self.driver.game
        for viewer in (*range(SEATS), None):
            metadata = None if viewer is None else game.md(viewer)
            for event in history(self.stub, game.game_id, metadata):
                if not event.HasField("imperium"):
                    continue
                payload = event.imperium
                kind = payload.WhichOneof("event")
                if kind in ("card_drawn", "card_moved"):
                    move = getattr(payload, kind)
                    if zone_visible(move.src, viewer) or zone_visible(move.dst, viewer):
                        assert move.card, (viewer, event)
                        self.own_draws += kind == "card_drawn" and move.dst == f"{viewer}:hand"
                    else:
                        assert move.card == "" and event.redacted, (viewer, event)
                        self.redacted_moves += move.seat not in (viewer, -1)
                elif kind == "market_prepared":
                    prepared = payload.market_prepared
                    assert all(not p.values for p in prepared.piles.values())
                    assert not prepared.removed and event.redacted
                elif kind == "agenda_set":
                    agenda = payload.agenda_set
                    for frame in agenda.frames:
                        if frame.seat != viewer:
                            assert not frame.options, (viewer, frame)
                            self.hidden_frames += frame.kind == "pick"
                    assert not agenda.memo.just_drawn and not agenda.memo.looked_at


def test_full_imperium_game_through_grpc(
    stub: annales_pb2_grpc.GameServiceStub, server: ServerProcess
) -> None:
    """A 2-seat Imperium game (Romans against Celts) played to the end by uniform random bots
    over gRPC; hands, histories and decks stay hidden while it runs; the record verifies."""
    seed = long_seed("imperium-e2e")
    game = create_imperium_game(stub, SEATS, seed=seed, nations=NATIONS)
    assert game.commitment != hashlib.sha256(seed.encode()).hexdigest()  # salted
    start = stub.GetGame(pb.GetGameRequest(game_id=game.game_id))
    assert start.game.game_type == pb.GAME_TYPE_IMPERIUM
    assert start.game.status == pb.GAME_STATUS_RUNNING
    assert json.loads(start.game.options_json)["nations"] == NATIONS
    assert [s.nation for s in start.view.imperium.seats] == NATIONS
    assert start.game.pending.decision == "order"
    driver = Driver(stub, game, bot_seed=b"imperium-e2e-bots")
    driver.version = game.version
    checks = Visibility(stub, driver)
    checks(driver)
    steps = driver.play(after=checks)
    assert steps > 100
    assert checks.others_hands and checks.redacted_moves and checks.own_draws
    assert checks.hidden_frames

    # -- the end: FINISHED, winners, seed revealed ---------------------------------------
    final = stub.GetGame(pb.GetGameRequest(game_id=game.game_id))
    summary = final.game
    assert summary.status == pb.GAME_STATUS_FINISHED
    assert list(summary.winners) and set(summary.winners) <= set(range(SEATS))
    assert summary.seed == seed.encode().hex()
    assert summary.version == summary.head_version == driver.version
    assert len(summary.scores) == SEATS
    view = final.view.imperium
    assert view.phase == "over"
    assert list(view.winners.values) == list(summary.winners)
    assert list(view.final_scores.values) == list(summary.scores)
    assert all(seat.HasField("hand") and seat.HasField("history") for seat in view.seats)

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
    assert {"SeatPrepared", "MarketPrepared", "CardDrawn", "GameEnded", "SeedRevealed"} <= kinds
    for seat in range(SEATS):  # the same events; each seat sees its own hidden ones
        mine = history(stub, game.game_id, game.md(seat), page_size=333)
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
        pb.ExportRecordRequest(game_id=game.game_id), metadata=game.md(1)
    )
    # a seat's record of the finished game differs only by its own idempotency keys
    assert len(seat_export.record.split(b"\n")) == len(export.record.split(b"\n"))
    assert b'"idempotency_key":"' not in export.record
    assert stub.VerifyRecord(pb.VerifyRecordRequest(record=seat_export.record)).reexecuted

    # -- time travel ------------------------------------------------------------------------
    rng = random.Random(91)
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


def test_imperium_options_reach_the_game(stub: annales_pb2_grpc.GameServiceStub) -> None:
    """Nations and power-card faces per seat come from the options ("Mise en place des
    joueurs", 1-2); a bad nation list or box is refused with INVALID_ARGUMENT."""
    game = create_imperium_game(
        stub, 3, nations=["persians", "greeks", "scythians"], sides=["A", "B", "A"]
    )
    view = stub.GetGame(pb.GetGameRequest(game_id=game.game_id)).view.imperium
    assert [s.nation for s in view.seats] == ["persians", "greeks", "scythians"]
    assert len({s.power for s in view.seats}) == 3
    for seat, face in zip(view.seats, "ABA", strict=True):
        assert seat.power == C.NATIONS[seat.nation].power[0 if face == "A" else 1].id
    for bad in (["romans", "romans"], ["romans"], ["martians", "celts"]):
        error = expect_error(create_imperium_game, stub, 2, nations=bad)
        assert error.code.name == "INVALID_ARGUMENT", (bad, error)
    error = expect_error(create_imperium_game, stub, 2, box="horizons")
    assert error.code.name == "INVALID_ARGUMENT", error
