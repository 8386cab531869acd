"""The read RPCs: games, views, legal actions, history, records, verification, listing."""

from __future__ import annotations

from typing import Any

import grpc
from annales.v1 import annales_pb2 as pb

from service.api.auth import Caller
from service.api.base import ServicerBase
from service.api.games import BY_NAME, BY_TYPE
from service.api.inputs import (
    DEFAULT_PAGE,
    MAX_PAGE,
    MAX_RECORD,
    invalid,
    is_number,
    rpc,
    text,
    too_large,
)
from service.api.judge import seat_views
from service.api.redaction import JudgeRecordRequest, RecordRequest, StateRequest
from service.api.status import ApiError
from service.api.verification import verify_response
from service.audit.records import verify_record


class ReadRpcs(ServicerBase):
    """GetGame, GetView, ListLegalActions, GetHistory, ExportRecord, VerifyRecord, ListGames."""

    @rpc
    def GetGame(
        self, request: pb.GetGameRequest, context: grpc.ServicerContext
    ) -> pb.GetGameResponse:
        """A game's summary and its public (spectator) view, at the head or ``version``."""
        game_id = self._game(request.game_id)
        self._caller(game_id, context)  # a token, when sent, must be valid
        with self.service.lock(game_id):
            match = self._at(game_id, request)
            head_version = self.service.head(game_id).version
            view = self.redactor.outgoing(game_id, None, StateRequest(match.state))
            return pb.GetGameResponse(game=self._summary(game_id, match, head_version), view=view)

    @rpc
    def GetView(
        self, request: pb.GetViewRequest, context: grpc.ServicerContext
    ) -> pb.GetViewResponse:
        """The caller's view (a seat's, or the judge's with every seat's), at the head or
        ``version``; a finished game's ``seat`` without a token."""
        game_id = self._game(request.game_id)
        caller = self._finished_seat(game_id, request, context)
        with self.service.lock(game_id):
            head = self.service.head(game_id)
            version = head.version
            if request.HasField("version"):
                if not 1 <= request.version <= head.version:
                    raise invalid("version", f"must be between 1 and {head.version}")
                version = request.version
            reader = -1 if caller.judge else caller.seat
            assert reader is not None  # _finished_seat: a seat or the judge
            ruleset = self.service.header(game_id).ruleset
            key = (game_id, ruleset, version, head.version, reader)
            cached = self.views.get(key)
            if cached is not None:
                return cached
            response = self._view(game_id, caller, version, head)
            self.views.put(key, response)
            return response

    def _view(self, game_id: str, caller: Caller, version: int, head: Any) -> pb.GetViewResponse:
        """GetView's answer for ``caller`` at ``version`` (under the game's lock)."""
        match = head
        if version != head.version:
            match = self.service.materialise(game_id, version).match
        view = self.redactor.outgoing(game_id, caller.viewer, StateRequest(match.state))
        summary = self._summary(game_id, match, head.version)
        if caller.judge:
            seats = len(summary.seat_names)
            return pb.GetViewResponse(
                game=summary, seat=-1, view=view, judge=True,
                seat_views=seat_views(self.redactor, game_id, match.state, seats),
            )  # fmt: skip
        return pb.GetViewResponse(game=summary, seat=caller.seat, view=view)

    def _finished_seat(
        self, game_id: str, request: pb.GetViewRequest, context: grpc.ServicerContext
    ) -> Caller:
        """GetView's caller: a token's seat or the judge; without a token, the requested
        ``seat`` of a finished game (its record and seed are public by then)."""
        if not request.HasField("seat"):
            return self._reader(game_id, context)
        caller = self._caller(game_id, context)
        if caller.seat is not None or caller.judge:
            if caller.seat != request.seat:
                raise invalid("seat", "a token reads its own seat: leave `seat` unset")
            return caller
        head = self.service.head(game_id)
        if not 0 <= request.seat < len(self.service.header(game_id).seat_names):
            raise invalid("seat", f"no seat {request.seat} in this game")
        if not head.game.is_over(head.state):
            raise ApiError(
                grpc.StatusCode.FAILED_PRECONDITION,
                "GAME_NOT_FINISHED",
                "A seat's view without its token is readable only once the game is over.",
            )
        return Caller(seat=request.seat)

    @rpc
    def ListLegalActions(
        self, request: pb.ListLegalActionsRequest, context: grpc.ServicerContext
    ) -> pb.ListLegalActionsResponse:
        """The caller's legal actions, the pending seats and the undo state."""
        game_id = self._game(request.game_id)
        caller = self._reader(game_id, context)
        with self.service.lock(game_id):
            match = self.service.head(game_id)
            api = BY_NAME[self.service.header(game_id).game_type]
            request_open = match.kernel.undo_request
            response = pb.ListLegalActionsResponse(
                seat=-1 if caller.seat is None else caller.seat,
                version=match.version,
                pending=self._pending(match),
            )
            if caller.seat is None:  # the judge: never acts
                return response
            seat = caller.seat
            actions, can_undo = self._legal(match, api, seat)
            response.actions.extend(actions)
            response.can_undo = can_undo
            response.undo_versions.extend(_requestable(match) if request_open is None else [])
            response.undo_answer_expected = (
                request_open is not None
                and seat != request_open.by
                and seat not in request_open.approvals
            )
            return response

    @rpc
    def GetHistory(
        self, request: pb.GetHistoryRequest, context: grpc.ServicerContext
    ) -> pb.GetHistoryResponse:
        """A page of the game's events, redacted for the caller."""
        game_id = self._game(request.game_id)
        caller = self._caller(game_id, context)
        if request.page_size < 0:
            raise invalid("page_size", "must not be negative")
        size = min(request.page_size or DEFAULT_PAGE, MAX_PAGE)
        after = 0
        if request.page_token:
            text(request.page_token, "page_token", 32)
            # at most 18 digits: a larger offset overflows the stores' 64-bit integers
            if not is_number(request.page_token) or len(request.page_token) > 18:
                raise invalid("page_token", "not a token returned by GetHistory")
            after = int(request.page_token)
        envelopes = self.service.events(game_id, after=after, limit=size)
        with self.service.lock(game_id):
            events = self._events(game_id, caller, envelopes)
            head = self.service.head(game_id).version
        last = envelopes[-1].seq if envelopes else after
        return pb.GetHistoryResponse(
            events=events, next_page_token=str(last) if last < head else ""
        )

    @rpc
    def ExportRecord(
        self, request: pb.ExportRecordRequest, context: grpc.ServicerContext
    ) -> pb.ExportRecordResponse:
        """The game's record: redacted for the caller, complete for the judge."""
        game_id = self._game(request.game_id)
        caller = self._caller(game_id, context)
        with self.service.lock(game_id):
            if caller.judge:
                record = self.redactor.outgoing(game_id, None, JudgeRecordRequest())
                return pb.ExportRecordResponse(record=record, complete=True, full=True)
            record, complete = self.redactor.outgoing(game_id, caller.viewer, RecordRequest())
        return pb.ExportRecordResponse(record=record, complete=complete)

    @rpc
    def VerifyRecord(
        self, request: pb.VerifyRecordRequest, context: grpc.ServicerContext
    ) -> pb.VerifyRecordResponse:
        """Verify an exported record (:func:`service.audit.records.verify_record`)."""
        if len(request.record) > MAX_RECORD:
            raise too_large("record", MAX_RECORD)
        if not request.record:
            raise invalid("record", "is required")
        return verify_response(verify_record(request.record.split(b"\n")))

    @rpc
    def ListGames(
        self, request: pb.ListGamesRequest, context: grpc.ServicerContext
    ) -> pb.ListGamesResponse:
        """A page of games, filtered by type, player and status."""
        readmodels = getattr(self, "readmodels", None)  # set by server.start with projections
        if readmodels is not None:
            return readmodels.list_games(request)  # type: ignore[no-any-return]
        if request.page_size < 0:
            raise invalid("page_size", "must not be negative")
        size = min(request.page_size or 50, 500)
        offset = 0
        if request.page_token:
            if not is_number(request.page_token) or len(request.page_token) > 12:
                raise invalid("page_token", "not a token returned by ListGames")
            offset = int(request.page_token)
        wanted = BY_TYPE.get(request.game_type) if request.game_type else None
        if request.game_type and wanted is None:
            raise invalid("game_type", "unknown game type")
        ids = list(reversed(self.service.store.game_ids()))
        if wanted is not None:
            ids = [g for g in ids if self.service.header(g).game_type == wanted.name]
        if request.player:
            ids = [g for g in ids if request.player in self.service.header(g).seat_names]
        if request.status:
            ids = [
                g for g in ids if self._summary(g, self.service.head(g), 0).status == request.status
            ]
        page = ids[offset : offset + size]
        games = []
        for game_id in page:
            with self.service.lock(game_id):
                head = self.service.head(game_id)
                games.append(self._summary(game_id, head, head.version))
        more = offset + size < len(ids)
        return pb.ListGamesResponse(games=games, next_page_token=str(offset + size) if more else "")


def _requestable(match: Any) -> list[int]:
    """The versions a RequestUndo may go back to now: none once the game is over, and none in
    a game of one seat (no other seat could approve: Undo is the solo player's undo)."""
    if match.seats < 2 or match.game.is_over(match.state):
        return []
    return list(match.undo_boundaries())
