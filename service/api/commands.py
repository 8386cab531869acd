"""SubmitAction: a seat's command, applied and answered with its redacted events."""

from __future__ import annotations

import grpc
from annales.v1 import annales_pb2 as pb

from domain.core.errors import MalformedCommand
from service.api.base import ServicerBase
from service.api.convert import read
from service.api.games import BY_NAME
from service.api.inputs import invalid, rpc
from service.api.status import ApiError


class CommandRpcs(ServicerBase):
    """SubmitAction."""

    @rpc
    def SubmitAction(
        self, request: pb.SubmitActionRequest, context: grpc.ServicerContext
    ) -> pb.SubmitActionResponse:
        """Apply a seat's action; its version, redacted events and pending seats.

        With several servers on one store the cached head is not read back first unless a
        newer commit was heard of: the append is the check
        (:meth:`~service.app.application.GameService.trust_cached_head`).
        """
        known = self.broadcaster.known_version(request.game_id)
        self.service.trust_cached_head(request.game_id, known)
        game_id = self._game(request.game_id)
        seat = self._seat(game_id, context)
        header = self.service.header(game_id)
        api = BY_NAME[header.game_type]
        which = request.action.WhichOneof("game") if request.HasField("action") else None
        if which is None:
            raise invalid("action", "is required")
        if which != api.field:
            raise invalid(
                "action", f"sets {which}, but this game is {api.name}: use action.{api.field}."
            )
        try:
            data = read(getattr(request.action, which), api.prefix)
            command = self.service.codec(game_id).command_from_data(data)
        except (MalformedCommand, ValueError) as error:
            raise ApiError(
                grpc.StatusCode.INVALID_ARGUMENT,
                "MALFORMED_ACTION",
                f"action: {error}",
                {"field": "action"},
            ) from error
        expected = self._expected(request)
        version, events, duplicate = self._submit(
            game_id, seat, command, expected, request.idempotency_key
        )
        response = pb.SubmitActionResponse(version=version, events=events, duplicate=duplicate)
        with self.service.lock(game_id):
            head = self.service.head(game_id)
            match = head if head.version == version else self.service.materialise(
                game_id, version
            ).match  # fmt: skip
            response.pending.CopyFrom(self._pending(match))
            if request.include_next_actions and match is head and seat in response.pending.seats:
                response.next_actions.extend(self._legal(match, api, seat)[0])
        return response
