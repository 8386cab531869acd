"""Sealed choices through the API, one leak channel per test (small, deterministic games).

Issue "Public gRPC API, seat security, live streams" — requirement: a sealed choice (Rise &
Fall card choice, decline) is stored at once but redacted from every other seat's view,
stream, history *and export* until all have chosen. These tests pin down, each on its own,
the channels the redaction oracle (``test_redaction.py``) watches:

* views / history / streams of the other seats and of a spectator hide the card;
* an unfinished game's exported record hides the card in the command line too;
* the hash chain sent with the events does not let another seat recompute a sealed card by
  trying the six cards (a hash over a low-entropy secret is a leak).
"""

from __future__ import annotations

import hashlib
import json

import msgspec
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc
from annales.v1 import riseandfall_pb2 as rpb

from domain.registry import get_codec
from domain.riseandfall.commands import ChooseCard
from domain.riseandfall.content import PIECES
from domain.riseandfall.events import CardChosen
from tests.api.helpers import Driver, Game, advance_to, create_game, history, long_seed

SEATS = 3
#: how a card hidden from the caller shows on the wire
HIDDEN = rpb.RISE_AND_FALL_PIECE_UNSPECIFIED


def _name(card: int) -> str:
    """The domain's name of a ``RiseAndFallPiece`` value (``RISE_AND_FALL_PIECE_CITY`` →
    ``"city"``)."""
    return rpb.RiseAndFallPiece.Name(card).removeprefix("RISE_AND_FALL_PIECE_").lower()  # type: ignore[arg-type]


def _choose_first(
    stub: annales_pb2_grpc.GameServiceStub, tag: str, key: str | None
) -> tuple[Game, int, int, pb.SubmitActionResponse]:
    """A game at its first card choice, after one seat chose: (game, seat, card, answer)."""
    game = create_game(stub, SEATS, seed=long_seed(tag))
    driver = Driver(stub, game, f"{tag}-bots".encode())
    legal = advance_to(driver, "choose_card")
    seat = legal.pending.seats[0]
    legal = stub.ListLegalActions(
        pb.ListLegalActionsRequest(game_id=game.game_id), metadata=game.md(seat)
    )
    action = legal.actions[-1]
    request = pb.SubmitActionRequest(
        game_id=game.game_id, action=action, expected_version=legal.version
    )
    if key is not None:
        request.idempotency_key = key
    answer = stub.SubmitAction(request, metadata=game.md(seat))
    chosen = [e for e in answer.events if e.kind == "CardChosen"]
    assert len(chosen) == 1 and chosen[0].rise_and_fall.card_chosen.card
    still_open = stub.GetGame(pb.GetGameRequest(game_id=game.game_id))
    assert still_open.game.pending.decision == "choose_card", "the choice must stay sealed"
    return game, seat, chosen[0].rise_and_fall.card_chosen.card, answer


def _others(seat: int) -> list[int | None]:
    return [s for s in range(SEATS) if s != seat] + [None]


def test_sealed_card_hidden_in_views_history_and_streams(
    stub: annales_pb2_grpc.GameServiceStub,
) -> None:
    """While seat p's card choice is sealed, another seat's or a spectator's view, history
    and stream show only that p has chosen (``card`` empty, ``redacted`` set, ``chosen``
    unset); p itself sees its card."""
    game, seat, card, answer = _choose_first(stub, "sealed-views", "k-views")
    seq = answer.events[0].seq
    for viewer in _others(seat):
        md = None if viewer is None else game.md(viewer)
        event = next(e for e in history(stub, game.game_id, md) if e.seq == seq)
        assert event.redacted and event.rise_and_fall.card_chosen.card == HIDDEN
        stream = stub.WatchGame(
            pb.WatchGameRequest(game_id=game.game_id, after_version=seq - 1), metadata=md
        )
        first = next(iter(stream))
        stream.cancel()
        assert first.events[0].seq == seq
        assert first.events[0].redacted and first.events[0].rise_and_fall.card_chosen.card == HIDDEN
        if viewer is None:
            view = stub.GetGame(pb.GetGameRequest(game_id=game.game_id)).view
        else:
            view = stub.GetView(pb.GetViewRequest(game_id=game.game_id), metadata=md).view
        shown = view.rise_and_fall.seats[seat]
        assert shown.has_chosen and not shown.HasField("chosen")
    mine = stub.GetView(pb.GetViewRequest(game_id=game.game_id), metadata=game.md(seat)).view
    assert mine.rise_and_fall.seats[seat].chosen == card
    own = next(e for e in history(stub, game.game_id, game.md(seat)) if e.seq == seq)
    assert not own.redacted and own.rise_and_fall.card_chosen.card == card


def test_export_of_unfinished_game_hides_the_sealed_command(
    stub: annales_pb2_grpc.GameServiceStub,
) -> None:
    """ExportRecord before the end is redacted for the caller: the line of seat p's sealed
    ChooseCard *command* must not carry the card either (only the event was redacted)."""
    game, seat, _card, answer = _choose_first(stub, "sealed-export", "k-export")
    command_id = answer.events[0].command_id
    for viewer in _others(seat):
        md = None if viewer is None else game.md(viewer)
        export = stub.ExportRecord(pb.ExportRecordRequest(game_id=game.game_id), metadata=md)
        assert not export.complete
        lines = [json.loads(line) for line in export.record.splitlines()]
        event = next(x for x in lines if x.get("type") == "event" and x["seq"] == answer.version)
        assert event["event"]["card"] == "" and event["payload"] is None
        command = next(
            x for x in lines if x.get("type") == "command" and x["command_id"] == command_id
        )
        assert command["command"] is None, (
            f"seat {viewer} reads seat {seat}'s sealed choice in the export: {command}"
        )


def _recompute(game: Game, event: pb.GameEvent, ruleset: str, key: str | None) -> list[str]:
    """The cards whose hash matches a redacted CardChosen event (what an attacker can do)."""
    codec = get_codec("riseandfall")
    chosen = event.rise_and_fall.card_chosen
    found = []
    for card in PIECES:
        kind, schema, payload = codec.encode_event(
            CardChosen(seat=chosen.seat, round=chosen.round, card=card)
        )
        # the documented link: SHA-256(prev_hash || msgpack([game_id, seq, command_id, seat,
        # ruleset, schema, kind, payload, command, idempotency_key])) — see domain.core.envelope
        body = msgspec.msgpack.encode(
            [
                game.game_id,
                event.seq,
                event.command_id,
                event.seat,
                ruleset,
                schema,
                kind,
                payload,
                codec.encode_command(ChooseCard(card=card)),
                key,
            ]
        )
        if hashlib.sha256(event.prev_hash.encode("ascii") + body).hexdigest() == event.hash:
            found.append(card)
    return found


def test_event_hash_does_not_reveal_sealed_card_without_key(
    stub: annales_pb2_grpc.GameServiceStub,
) -> None:
    """A sealed CardChosen sent to another seat keeps ``hash``/``prev_hash``; when the command
    had no idempotency key (the key is optional), every other input of the hash is public, so
    trying the six cards must not find the sealed one."""
    game, seat, card, answer = _choose_first(stub, "sealed-hash", None)
    events = history(stub, game.game_id, game.md((seat + 1) % SEATS))
    ruleset = events[0].kernel.game_created.ruleset
    event = next(e for e in events if e.seq == answer.events[0].seq)
    assert event.redacted and event.rise_and_fall.card_chosen.card == HIDDEN
    found = _recompute(game, event, ruleset, None)
    assert found == [] and _name(card) in PIECES, f"seat {seat}'s sealed card is recomputable"


def test_export_hash_does_not_reveal_sealed_card_with_key(
    stub: annales_pb2_grpc.GameServiceStub,
) -> None:
    """Even with an idempotency key, an unfinished export shows every command's key next to
    the redacted event's hash: trying the six cards must not find the sealed one."""
    game, seat, card, answer = _choose_first(stub, "sealed-hash-key", "a-secret-key-1234")
    viewer = (seat + 1) % SEATS
    export = stub.ExportRecord(
        pb.ExportRecordRequest(game_id=game.game_id), metadata=game.md(viewer)
    )
    lines = [json.loads(line) for line in export.record.splitlines()]
    header = lines[0]
    command = next(
        x
        for x in lines
        if x.get("type") == "command" and x["command_id"] == answer.events[0].command_id
    )
    line = next(x for x in lines if x.get("type") == "event" and x["seq"] == answer.version)
    event = pb.GameEvent(
        seq=line["seq"],
        command_id=command["command_id"],
        seat=command["seat"],
        kind=line["kind"],
        prev_hash=line["prev_hash"],
        hash=line["hash"],
    )
    event.rise_and_fall.card_chosen.seat = seat
    event.rise_and_fall.card_chosen.round = line["event"]["round"]
    found = _recompute(game, event, header["ruleset"], command["idempotency_key"])
    assert found == [] and _name(card) in PIECES, f"seat {seat}'s sealed card is recomputable"
