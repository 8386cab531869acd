"""``annales.v1.GameService`` on top of :class:`~service.app.application.GameService`.

Every RPC validates its input (INVALID_ARGUMENT naming the field, RESOURCE_EXHAUSTED for
oversized fields), resolves the caller (a seat, the judge or a spectator:
:func:`service.api.auth.identify`) from the bearer token, reads under the game's lock, and
builds every outgoing payload through :meth:`Redactor.outgoing` — except the judge's
unredacted events and record (:mod:`service.api.judge`).
"""

from __future__ import annotations

from collections.abc import Iterator

import grpc
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc as pb_grpc

from service.api.commands import CommandRpcs
from service.api.creating import CreateRpcs
from service.api.reads import ReadRpcs
from service.api.streams import StreamRpcs
from service.api.undo import UndoRpcs


class Servicer(
    CreateRpcs, ReadRpcs, CommandRpcs, UndoRpcs, StreamRpcs, pb_grpc.GameServiceServicer
):
    """RPC handlers (see ``proto/annales/v1/annales.proto``), one mixin per concern."""


class Diagnostics(pb_grpc.DiagnosticsServiceServicer):
    """Echo RPCs: the baselines of the benchmarks."""

    def Echo(self, request: pb.EchoRequest, context: grpc.ServicerContext) -> pb.EchoResponse:
        """Return the payload."""
        return pb.EchoResponse(payload=request.payload)

    def EchoStream(
        self, request: pb.EchoStreamRequest, context: grpc.ServicerContext
    ) -> Iterator[pb.EchoResponse]:
        """Stream ``count`` copies of the payload."""
        for _ in range(min(max(request.count, 0), 1_000_000)):
            yield pb.EchoResponse(payload=request.payload)
