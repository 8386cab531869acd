"""WatchGame: a server stream of a game's events, redacted for its caller."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator

import grpc
from annales.v1 import annales_pb2 as pb

from service.api.base import ServicerBase
from service.api.inputs import MAX_ID, invalid
from service.api.status import ApiError, abort, from_service_error
from service.app.errors import ServiceError

log = logging.getLogger("annales.api")


class StreamRpcs(ServicerBase):
    """WatchGame."""

    def WatchGame(
        self, request: pb.WatchGameRequest, context: grpc.ServicerContext
    ) -> Iterator[pb.WatchGameResponse]:
        """Stream events after ``after_version``; ends after the game's final event."""
        start = time.perf_counter()
        sent = 0
        try:
            for response in self._watch(request, context):
                sent += len(response.events)
                yield response
        finally:
            log.info(json.dumps({
                "rpc": "WatchGame", "game_id": request.game_id[:MAX_ID], "events": sent,
                "code": "OK" if context.code() is None else str(context.code()),
                "ms": round((time.perf_counter() - start) * 1000, 2),
            }))  # fmt: skip

    def _watch(self, request: pb.WatchGameRequest,
               context: grpc.ServicerContext) -> Iterator[pb.WatchGameResponse]:  # fmt: skip
        try:
            game_id = self._game(request.game_id)
            caller = self._caller(game_id, context)
            if request.after_version < 0:
                raise invalid("after_version", "must not be negative")
        except ApiError as error:
            abort(context, error)
        except ServiceError as error:
            abort(context, from_service_error(error))
        last = request.after_version
        while context.is_active() and not self.broadcaster.closed:
            envelopes = self.service.store.read(game_id, after=last, limit=500)
            if envelopes:
                with self.service.lock(game_id):
                    events = self._events(game_id, caller, envelopes)
                last = envelopes[-1].seq
                yield pb.WatchGameResponse(events=events, version=last)
                if envelopes[-1].kind == "SeedRevealed":
                    return
                continue
            with self.service.lock(game_id):
                # unchecked: a stale head never has a seed the store lacks (no extra query)
                head = self.service.head(game_id, check=False)
                if head.kernel.seed is not None and head.version <= last:
                    return
            self.broadcaster.wait(game_id, last)
