"""Undo, RequestUndo and RespondUndo: the kernel's undo commands submitted for a seat."""

from __future__ import annotations

import grpc
from annales.v1 import annales_pb2 as pb

from domain.core.kernel_events import RequestUndo, RespondUndo, Undo
from service.api.base import ServicerBase
from service.api.inputs import invalid, rpc
from service.api.status import ApiError


class UndoRpcs(ServicerBase):
    """Undo, RequestUndo, RespondUndo."""

    @rpc
    def Undo(self, request: pb.UndoRequest, context: grpc.ServicerContext) -> pb.UndoResponse:
        """Undo the seat's own last command of this turn."""
        game_id = self._game(request.game_id)
        seat = self._seat(game_id, context)
        expected = self._expected(request)
        version, events, _ = self._submit(game_id, seat, Undo(), expected, request.idempotency_key)
        return pb.UndoResponse(version=version, events=events)

    @rpc
    def RequestUndo(
        self, request: pb.RequestUndoRequest, context: grpc.ServicerContext
    ) -> pb.RequestUndoResponse:
        """Ask every other seat to approve going back to ``to_version``."""
        game_id = self._game(request.game_id)
        seat = self._seat(game_id, context)
        if request.to_version < 0:
            raise invalid("to_version", "must not be negative")
        match = self.service.head(game_id)
        if match.seats < 2 and not match.game.is_over(match.state):  # no undo_versions offered
            raise ApiError(
                grpc.StatusCode.FAILED_PRECONDITION,
                "UNDO_NOT_A_BOUNDARY",
                "A game of one seat has nobody to approve an undo request: use Undo.",
            )
        version, events, _ = self._submit(
            game_id, seat, RequestUndo(to_version=request.to_version), None, request.idempotency_key
        )
        return pb.RequestUndoResponse(version=version, events=events)

    @rpc
    def RespondUndo(
        self, request: pb.RespondUndoRequest, context: grpc.ServicerContext
    ) -> pb.RespondUndoResponse:
        """Approve or decline the open undo request."""
        game_id = self._game(request.game_id)
        seat = self._seat(game_id, context)
        version, events, _ = self._submit(
            game_id, seat, RespondUndo(approve=request.approve), None, request.idempotency_key
        )
        return pb.RespondUndoResponse(version=version, events=events)
