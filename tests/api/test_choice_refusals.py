"""Tapestry's and Imperium's refusals of a choice, and the options a view offers in setup.

``errors.proto``: ``NOT_YOUR_TURN`` when another seat must decide now, ``NOT_OFFERED`` when the
action answers the decision with a value it does not offer, ``ILLEGAL_CHOICE`` when it does not
answer it at all. ``TapestryView.options``: the actions the viewer may send now. Found by a
client written from the protos alone: a seat done with its setup got ``NOT_OFFERED``, a wrong
die or card during play got ``ILLEGAL_CHOICE``, and the setup view offered nothing.
"""

from __future__ import annotations

from typing import Any, get_args

import msgspec
import pytest
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc

from domain.core.errors import RuleViolation
from service.app.ledger import Ledger
from tests.api.helpers import create_tapestry_game, expect_error

SEED = b"choice-refusals-seed-0123456789"


def _legal(stub: annales_pb2_grpc.GameServiceStub, game: Any, seat: int) -> list[pb.Action]:
    answer = stub.ListLegalActions(
        pb.ListLegalActionsRequest(game_id=game.game_id), metadata=game.md(seat)
    )
    return list(answer.actions)


def test_tapestry_setup_view_offers_the_seats_choices_and_a_finished_seat_waits(
    stub: annales_pb2_grpc.GameServiceStub,
) -> None:
    """Setup (rulebook « Mise en place des joueurs »): each seat's view lists exactly its legal
    actions; a seat that has kept its capital and civilization is refused with NOT_YOUR_TURN
    while the others choose, and its view then offers nothing."""
    game = create_tapestry_game(stub, seats=3)
    for seat in range(3):
        view = stub.GetView(pb.GetViewRequest(game_id=game.game_id), metadata=game.md(seat))
        offered = [pb.Action(tapestry=option) for option in view.view.tapestry.options]
        legal = _legal(stub, game, seat)
        assert legal and offered == legal
    spectator = stub.GetGame(pb.GetGameRequest(game_id=game.game_id))
    assert spectator.view.tapestry.pending and not spectator.view.tapestry.options
    version = game.version
    kept = _legal(stub, game, 2)
    while kept:
        answer = stub.SubmitAction(
            pb.SubmitActionRequest(game_id=game.game_id, action=kept[0], expected_version=version),
            metadata=game.md(2),
        )
        version = answer.version
        kept = _legal(stub, game, 2)
    refused = expect_error(
        stub.SubmitAction,
        pb.SubmitActionRequest(game_id=game.game_id, action=_legal(stub, game, 0)[0]),
        metadata=game.md(2),
    )
    assert refused.reason == "NOT_YOUR_TURN"
    view = stub.GetView(pb.GetViewRequest(game_id=game.game_id), metadata=game.md(2))
    assert view.game.version == version and not view.view.tapestry.options


def _play_to_a_choice_by_value(ledger: Ledger) -> tuple[int, Any]:
    """Play the first legal action until the seat due may answer with a command that has an
    integer field (after setup); that seat and such a command with a value not offered."""
    for _ in range(3000):
        pending = ledger.game.pending(ledger.match.state)
        seat = pending.seats[0]
        legal = ledger.game.legal_actions(ledger.match.state, seat)
        for command in legal if pending.decision != "setup" else ():
            fields = msgspec.structs.asdict(command)
            number = next((k for k, v in fields.items() if type(v) is int), None)
            if number is not None:
                wrong = msgspec.structs.replace(command, **{number: 999})
                if wrong not in legal:
                    return seat, wrong
        ledger.submit(seat, legal[0], f"c{ledger.version}", SEED, lambda version: None)
    raise AssertionError("no decision answered by a value was met")


@pytest.mark.parametrize("game_type", ["tapestry", "imperium"])
def test_a_value_not_offered_is_not_offered_and_another_kind_is_an_illegal_choice(
    game_type: str,
) -> None:
    """During play, an action of a kind the decision accepts but with a value it does not offer
    is NOT_OFFERED; an action of a kind it does not accept is ILLEGAL_CHOICE; neither changes
    the game."""
    options = {"nations": ["romans", "celts"]} if game_type == "imperium" else {}
    ledger, _ = Ledger.create("g", game_type, options, ["a", "b"], SEED, None)
    seat, wrong = _play_to_a_choice_by_value(ledger)
    version = ledger.version
    with pytest.raises(RuleViolation) as refused:
        ledger.submit(seat, wrong, "probe", SEED, lambda version: None)
    assert refused.value.code == "NOT_OFFERED"
    assert type(wrong).__name__ in refused.value.message
    legal_kinds = {type(c) for c in ledger.game.legal_actions(ledger.match.state, seat)}
    kinds = [
        t
        for t in get_args(ledger.codec.command_union)
        if t not in legal_kinds and not t.__module__.startswith("domain.core")  # not Undo
    ]
    other = next(t for t in kinds if not msgspec.structs.fields(t))
    with pytest.raises(RuleViolation) as illegal:
        ledger.submit(seat, other(), "probe", SEED, lambda version: None)
    assert illegal.value.code == "ILLEGAL_CHOICE"
    assert ledger.version == version
