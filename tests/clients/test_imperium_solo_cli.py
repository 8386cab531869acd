"""Imperium solo and campaigns through a real server: ``annales new imperium --players 1``
with the solo options, the C.I.V.'s score in ``GameSummary.parties``, a bad level refused as
INVALID_ARGUMENT naming the field, and the gRPC ``CampaignService`` (create, next game,
record refused while the game is running, export, verify)."""

from __future__ import annotations

import re
from pathlib import Path

import grpc
import pytest
from annales.v1 import campaign_pb2 as cpb
from annales.v1 import campaign_pb2_grpc as cpb_grpc
from annales_cli.main import app
from annales_client import AnnalesClient
from typer.testing import CliRunner

from tests.clients.conftest import ServerProcess

runner = CliRunner()


def test_new_solo_game_and_the_civ_party(annales_server: ServerProcess, tmp_path: Path) -> None:
    """One player against the C.I.V.: one seat, the C.I.V. a party, its board in the view."""
    result = runner.invoke(app, [
        "new", "imperium", "--players", "1", "--nations", "romans", "--civ-nation", "greeks",
        "--difficulty", "warlord", "--server", annales_server.target,
        "--tokens", str(tmp_path / "t.json")], catch_exceptions=False)  # fmt: skip
    assert result.exit_code == 0, result.output
    found = re.search(r"game (\w+) created", result.output)
    assert found, result.output
    with AnnalesClient(annales_server.target) as client:
        game = client.get_game(found.group(1))
    assert len(game.game.seat_names) == 1
    assert [p.name for p in game.game.parties] == ["C.I.V."]
    civ = game.view.imperium.civ
    assert civ.nation == "greeks" and civ.level == "warlord" and list(civ.slots) == [1, 1, 1, 1, 0]


def test_bad_difficulty_is_invalid_argument(annales_server: ServerProcess, tmp_path: Path) -> None:
    """An unknown level is refused, naming the field; nothing is saved."""
    tokens = tmp_path / "t.json"
    result = runner.invoke(app, [
        "new", "imperium", "--players", "1", "--difficulty", "legendary",
        "--server", annales_server.target, "--tokens", str(tokens)])  # fmt: skip
    assert result.exit_code != 0 and "difficulty" in result.output
    assert not tokens.exists()


def test_campaign_service_over_grpc(annales_server: ServerProcess) -> None:
    """CreateCampaign, StartNextGame (Chef de clan, a seat token), RecordCampaignResult
    refused while the game runs, ExportCampaignRecord and VerifyCampaignRecord."""
    with grpc.insecure_channel(annales_server.target) as channel:
        stub = cpb_grpc.CampaignServiceStub(channel)
        created = stub.CreateCampaign(cpb.CreateCampaignRequest(player="Ann", nation="romans"))
        cid = created.campaign.campaign_id
        assert cid.startswith("campaign-") and created.campaign.next_level == "chieftain"
        started = stub.StartNextGame(cpb.StartNextGameRequest(campaign_id=cid,
                                                              civ_nation="celts"))  # fmt: skip
        assert started.level == "chieftain" and started.seat_token
        with pytest.raises(grpc.RpcError) as caught:
            stub.RecordCampaignResult(cpb.RecordCampaignResultRequest(campaign_id=cid))
        assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        with pytest.raises(grpc.RpcError) as missing:
            stub.GetCampaign(cpb.GetCampaignRequest(campaign_id="campaign-none"))
        assert missing.value.code() == grpc.StatusCode.NOT_FOUND
        from tests.api.helpers import failure

        assert failure(missing.value).reason == "CAMPAIGN_NOT_FOUND"
        record = stub.ExportCampaignRecord(cpb.ExportCampaignRecordRequest(campaign_id=cid))
        assert stub.VerifyCampaignRecord(
            cpb.VerifyCampaignRecordRequest(record=record.record)).ok  # fmt: skip
        tampered = record.record.replace(b'"celts"', b'"greeks"')
        answer = stub.VerifyCampaignRecord(cpb.VerifyCampaignRecordRequest(record=tampered))
        assert not answer.ok and answer.problems
