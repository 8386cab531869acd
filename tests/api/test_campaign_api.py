"""A campaign through the CampaignService and the GameService of a real server.

What a client written from the protos needs (found by one that could not get past the first
game): the seat token ``StartNextGame`` returns plays the game through ``GameService``; a
refused ``StartNextGame`` adds nothing to the campaign; every refusal is a reason of
errors.proto (INVALID_FIELD naming the field, or the "campaigns" reasons); after a win,
``GetCampaign`` offers the cards that ``RecordCampaignResult`` accepts.
"""

from __future__ import annotations

import grpc
import pytest
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc
from annales.v1 import campaign_pb2 as cpb
from annales.v1 import campaign_pb2_grpc as cpb_grpc

from tests.api.helpers import auth, expect_error


@pytest.fixture
def campaigns(channel: grpc.Channel) -> cpb_grpc.CampaignServiceStub:
    """The CampaignService of the module's server."""
    return cpb_grpc.CampaignServiceStub(channel)


def _play_to_the_end(stub: annales_pb2_grpc.GameServiceStub, game_id: str, token: str) -> None:
    """Play the seat's first legal action until the game is over (the C.I.V. plays inside)."""
    for _ in range(5000):
        legal = stub.ListLegalActions(
            pb.ListLegalActionsRequest(game_id=game_id), metadata=auth(token)
        )
        if not legal.actions:
            summary = stub.GetGame(pb.GetGameRequest(game_id=game_id)).game
            assert summary.status == pb.GAME_STATUS_FINISHED
            return
        stub.SubmitAction(
            pb.SubmitActionRequest(
                game_id=game_id, action=legal.actions[0], expected_version=legal.version
            ),
            metadata=auth(token),
        )
    raise AssertionError("the game did not end")


def test_a_campaign_game_played_with_its_token_then_recorded(
    stub: annales_pb2_grpc.GameServiceStub, campaigns: cpb_grpc.CampaignServiceStub
) -> None:
    """« MODE CAMPAGNE »: refusals change nothing; the game is played with the token
    StartNextGame returns; its result is recorded with a deck change among those offered."""
    unknown = expect_error(
        campaigns.CreateCampaign, cpb.CreateCampaignRequest(player="Ann", nation="klingons")
    )
    assert (unknown.reason, unknown.metadata["field"]) == ("INVALID_FIELD", "nation")
    box = expect_error(
        campaigns.CreateCampaign,
        cpb.CreateCampaignRequest(player="Ann", nation="romans", box="lunar"),
    )
    assert (box.reason, box.metadata["field"]) == ("INVALID_FIELD", "box")
    cid = campaigns.CreateCampaign(
        cpb.CreateCampaignRequest(player="Ann", nation="romans")
    ).campaign.campaign_id
    for civ in ("klingons", "romans"):  # unknown; the player's own
        refused = expect_error(
            campaigns.StartNextGame, cpb.StartNextGameRequest(campaign_id=cid, civ_nation=civ)
        )
        assert (refused.reason, refused.metadata["field"]) == ("INVALID_FIELD", "civ_nation")
    assert not campaigns.GetCampaign(cpb.GetCampaignRequest(campaign_id=cid)).campaign.games
    started = campaigns.StartNextGame(cpb.StartNextGameRequest(campaign_id=cid, civ_nation="celts"))
    assert started.game_id == f"{cid}-g1"
    view = stub.GetView(
        pb.GetViewRequest(game_id=started.game_id), metadata=auth(started.seat_token)
    )
    assert view.seat == 0 and view.view.WhichOneof("game") == "imperium"
    running = expect_error(
        campaigns.StartNextGame, cpb.StartNextGameRequest(campaign_id=cid, civ_nation="greeks")
    )
    assert running.reason == "GAME_IN_PROGRESS"
    early = expect_error(
        campaigns.RecordCampaignResult, cpb.RecordCampaignResultRequest(campaign_id=cid)
    )
    assert early.reason == "GAME_NOT_FINISHED"
    after = expect_error(
        campaigns.CreateCampaign,
        cpb.CreateCampaignRequest(player="Ann", nation="romans", after=cid),
    )
    assert after.reason == "CAMPAIGN_NOT_OVER"

    _play_to_the_end(stub, started.game_id, started.seat_token)
    summary = stub.GetGame(pb.GetGameRequest(game_id=started.game_id)).game
    won = bool(summary.winners)
    campaign = campaigns.GetCampaign(cpb.GetCampaignRequest(campaign_id=cid)).campaign
    if won:
        assert campaign.cards_to_add or campaign.cards_to_remove
        missing = expect_error(
            campaigns.RecordCampaignResult, cpb.RecordCampaignResultRequest(campaign_id=cid)
        )
        assert (missing.reason, missing.metadata["field"]) == ("INVALID_FIELD", "change")
        change, card = (
            ("add", campaign.cards_to_add[0])
            if campaign.cards_to_add
            else ("remove", campaign.cards_to_remove[0])
        )
    else:
        assert not campaign.cards_to_add and not campaign.cards_to_remove
        wrong = expect_error(
            campaigns.RecordCampaignResult,
            cpb.RecordCampaignResultRequest(campaign_id=cid, change="add", card="1UNC10"),
        )
        assert (wrong.reason, wrong.metadata["field"]) == ("INVALID_FIELD", "change")
        change, card = "", ""
    recorded = campaigns.RecordCampaignResult(
        cpb.RecordCampaignResultRequest(campaign_id=cid, change=change, card=card)
    ).campaign
    game = recorded.games[0]
    assert game.recorded and game.won == won and (game.change, game.card) == (change, card)
    assert list(recorded.deck_added if change == "add" else recorded.deck_removed) == (
        [card] if card else []
    )
    again = expect_error(
        campaigns.RecordCampaignResult, cpb.RecordCampaignResultRequest(campaign_id=cid)
    )
    assert again.reason == "NO_CAMPAIGN_GAME"
    offer = campaigns.GetCampaign(cpb.GetCampaignRequest(campaign_id=cid)).campaign
    assert not offer.cards_to_add and not offer.cards_to_remove
    second = campaigns.StartNextGame(cpb.StartNextGameRequest(campaign_id=cid, civ_nation="greeks"))
    assert second.game_id == f"{cid}-g2" and second.level == ("warlord" if won else "chieftain")
