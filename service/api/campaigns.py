"""``annales.v1.CampaignService`` over :class:`~service.campaigns.service.CampaignService`.

Campaign logs, records and verification are public; the seat token of each campaign game is
returned once by ``StartNextGame``. Errors are typed statuses (errors.proto, "campaigns"):
INVALID_ARGUMENT ``INVALID_FIELD`` (a missing field, or one that cannot be right: an unknown
nation, the C.I.V. given the player's nation, a deck change that does not fit the result),
NOT_FOUND (``CAMPAIGN_NOT_FOUND``), FAILED_PRECONDITION (``GAME_IN_PROGRESS``,
``GAME_NOT_FINISHED``, ``CAMPAIGN_OVER``…), ABORTED (``CAMPAIGN_CONFLICT``).
"""

from __future__ import annotations

import grpc
from annales.v1 import campaign_pb2 as cpb
from annales.v1 import campaign_pb2_grpc as cpb_grpc

from domain.campaign.engine import CampaignState
from service.api.calls import typed_calls
from service.api.inputs import invalid
from service.api.status import ApiError, from_service_error
from service.app.application import GameService
from service.app.errors import ServiceError
from service.campaigns.service import (
    CampaignNotFound,
    CampaignRejected,
    CampaignService,
    verify_record,
)

MODES = {cpb.CAMPAIGN_MODE_STANDARD: "standard", cpb.CAMPAIGN_MODE_SUPREME: "supreme"}
MODE_VALUES = {name: value for value, name in MODES.items()}


#: the campaign rule's codes that name a request field that cannot be right (INVALID_FIELD)
FIELD_OF = {
    "BAD_ID": "campaign_id", "NO_PLAYER": "player", "NATION": "nation", "MODE": "mode",
    "SIDE": "side", "BOX": "box", "CIV_NATION": "civ_nation", "CHANGE": "change",
    "CARD": "card",
}  # fmt: skip


def api_error(error: ServiceError) -> ApiError:
    """The typed status of a campaign error (its reasons are errors.proto's "campaigns")."""
    if isinstance(error, CampaignNotFound) or (
        isinstance(error, CampaignRejected) and error.code == "CAMPAIGN_NOT_FOUND"
    ):
        return ApiError(grpc.StatusCode.NOT_FOUND, "CAMPAIGN_NOT_FOUND", error.message)
    if isinstance(error, CampaignRejected):
        field = FIELD_OF.get(error.code)
        if field is not None:
            return invalid(field, error.message)
        code = grpc.StatusCode.ABORTED if error.code == "CAMPAIGN_CONFLICT" else (
            grpc.StatusCode.FAILED_PRECONDITION)  # fmt: skip
        return ApiError(code, error.code, error.message)
    return from_service_error(error)


rpc = typed_calls("campaign_id", to_api=api_error)


def campaign_message(state: CampaignState) -> cpb.Campaign:
    """The ``Campaign`` message of a folded campaign."""
    info = state.info
    games = []
    for game in state.games:
        result = state.results[game.number - 1] if game.number <= len(state.results) else None
        games.append(cpb.CampaignGame(
            number=game.number, game_id=game.game_id, civ_nation=game.civ_nation,
            level=game.level, recorded=result is not None,
            score=result.score if result else 0, civ_score=result.civ_score if result else 0,
            won=result.won if result else False, date=result.date if result else "",
            change=result.change if result else "", card=result.card if result else "",
        ))  # fmt: skip
    return cpb.Campaign(
        campaign_id=info.campaign_id, player=info.player, nation=info.nation,
        mode=MODE_VALUES.get(info.mode, cpb.CAMPAIGN_MODE_UNSPECIFIED), bonus=info.bonus,
        wins=state.wins, losses=state.losses, deck_added=state.deck_added,
        deck_removed=state.deck_removed, beaten=state.beaten, games=games,
        ended=state.ended is not None, won=bool(state.ended and state.ended.won),
        next_level=state.level(),
    )  # fmt: skip


def _required(value: str, field: str) -> str:
    if not value:
        raise ApiError(grpc.StatusCode.INVALID_ARGUMENT, "INVALID_FIELD",
                       f"{field}: is required", {"field": field})  # fmt: skip
    return _no_nul(value, field)


def _no_nul(value: str, field: str) -> str:
    """``value``, refused (INVALID_FIELD) when it holds a NUL character: campaign ids are
    stored keys, and PostgreSQL text cannot hold NUL, so every store refuses it alike."""
    if "\x00" in value:
        raise invalid(field, "must not contain NUL characters")
    return value


class CampaignServicer(cpb_grpc.CampaignServiceServicer):
    """RPC handlers (see ``proto/annales/v1/campaign.proto``)."""

    def __init__(self, games: GameService) -> None:
        self.campaigns = CampaignService(games)

    @rpc
    def CreateCampaign(self, request: cpb.CreateCampaignRequest, context: grpc.ServicerContext
                       ) -> cpb.CreateCampaignResponse:  # fmt: skip
        """Start a campaign."""
        state = self.campaigns.create(
            _required(request.player, "player"), _required(request.nation, "nation"),
            MODES.get(request.mode, "standard"), request.side or "B", request.box,
            _no_nul(request.after, "after"))  # fmt: skip
        return cpb.CreateCampaignResponse(campaign=campaign_message(state))

    @rpc
    def GetCampaign(self, request: cpb.GetCampaignRequest, context: grpc.ServicerContext
                    ) -> cpb.GetCampaignResponse:  # fmt: skip
        """The campaign's log, with the deck change a won game offers."""
        campaign_id = _required(request.campaign_id, "campaign_id")
        state = self.campaigns.state(campaign_id)
        message = campaign_message(state)
        to_add, to_remove = self.campaigns.deck_change_offer(campaign_id, state)
        message.cards_to_add.extend(to_add)
        message.cards_to_remove.extend(to_remove)
        return cpb.GetCampaignResponse(campaign=message)

    @rpc
    def StartNextGame(self, request: cpb.StartNextGameRequest, context: grpc.ServicerContext
                      ) -> cpb.StartNextGameResponse:  # fmt: skip
        """Create the next game."""
        started = self.campaigns.start_next(_required(request.campaign_id, "campaign_id"),
                                            request.civ_nation)  # fmt: skip
        return cpb.StartNextGameResponse(
            game_id=started.game_id,
            seat_token=started.token,
            level=started.level,
            civ_nation=started.civ_nation,
        )

    @rpc
    def RecordCampaignResult(self, request: cpb.RecordCampaignResultRequest,
                             context: grpc.ServicerContext
                             ) -> cpb.RecordCampaignResultResponse:  # fmt: skip
        """Record the finished game's result."""
        state = self.campaigns.record(_required(request.campaign_id, "campaign_id"),
                                      request.change, request.card)  # fmt: skip
        return cpb.RecordCampaignResultResponse(campaign=campaign_message(state))

    @rpc
    def ExportCampaignRecord(self, request: cpb.ExportCampaignRecordRequest,
                             context: grpc.ServicerContext
                             ) -> cpb.ExportCampaignRecordResponse:  # fmt: skip
        """The campaign record."""
        lines = self.campaigns.export(_required(request.campaign_id, "campaign_id"))
        return cpb.ExportCampaignRecordResponse(record=b"\n".join(lines) + b"\n")

    @rpc
    def VerifyCampaignRecord(self, request: cpb.VerifyCampaignRecordRequest,
                             context: grpc.ServicerContext
                             ) -> cpb.VerifyCampaignRecordResponse:  # fmt: skip
        """Check a campaign record offline."""
        ok, problems, _ = verify_record(request.record.splitlines())
        return cpb.VerifyCampaignRecordResponse(ok=ok, problems=problems)
