"""Typed gRPC errors: a status code plus a ``google.rpc.ErrorInfo`` with a machine reason.

Every reason and metadata key is an ``ErrorReason`` / ``ErrorMetadataKey`` value of
``proto/annales/v1/errors.proto`` (read by :mod:`service.api.reasons`); the main ones:

=================================  =====================  ==============================
service error                      gRPC status            reason
=================================  =====================  ==============================
malformed input                    INVALID_ARGUMENT       ``INVALID_FIELD`` (``field``),
                                                          ``MALFORMED_ACTION``, …
illegal action                     FAILED_PRECONDITION    the rule's code, e.g. ``CLIFF``
stale expected version             ABORTED                ``VERSION_CONFLICT``
unknown game                       NOT_FOUND              ``GAME_NOT_FOUND``
missing token                      UNAUTHENTICATED        ``TOKEN_REQUIRED``
not a valid token of this game     UNAUTHENTICATED        ``BAD_TOKEN``
valid token of another game        PERMISSION_DENIED      ``WRONG_GAME_TOKEN``
the judge sends a command          PERMISSION_DENIED      ``JUDGE_CANNOT_ACT``
oversized input                    RESOURCE_EXHAUSTED     ``TOO_LARGE`` (``field``, ``limit``)
read models not built yet          UNAVAILABLE            ``READ_MODELS_NOT_READY``
=================================  =====================  ==============================

Messages are sentences: validation texts of msgspec are translated by
:func:`service.api.messages.sentence`.
"""

from __future__ import annotations

import logging
from typing import NoReturn

import grpc
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from service.api.messages import sentence
from service.api.reasons import METADATA_KEYS, REASONS
from service.app.errors import (
    GameNotFound,
    IdempotencyKeyReused,
    InvalidArgument,
    RuleRejected,
    ServiceError,
    VersionConflict,
)

DOMAIN = "annales.v1"
log = logging.getLogger("annales.api")


class ApiError(Exception):
    """An error to send to the client as a typed status."""

    def __init__(
        self,
        code: grpc.StatusCode,
        reason: str,
        message: str,
        metadata: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.reason = reason
        self.message = message
        self.metadata = metadata or {}


def from_service_error(error: ServiceError) -> ApiError:
    """The API error for an application-layer error."""
    if isinstance(error, VersionConflict):
        return ApiError(
            grpc.StatusCode.ABORTED,
            "VERSION_CONFLICT",
            error.message,
            {"current_version": str(error.current_version)},
        )
    if isinstance(error, GameNotFound):
        return ApiError(grpc.StatusCode.NOT_FOUND, "GAME_NOT_FOUND", error.message)
    if isinstance(error, RuleRejected):
        rule = error.violation.rule
        return ApiError(
            grpc.StatusCode.FAILED_PRECONDITION,
            error.reason,
            error.message,
            {"rule": rule} if rule else {},
        )
    if isinstance(error, IdempotencyKeyReused):
        return ApiError(
            grpc.StatusCode.INVALID_ARGUMENT,
            error.reason,
            error.message,
            {"field": "idempotency_key"},
        )
    if isinstance(error, InvalidArgument):
        message = sentence(error.message)
        if error.reason == InvalidArgument.reason:  # no specific reason: name the field
            field = getattr(error, "field", "") or "request"
            return ApiError(grpc.StatusCode.INVALID_ARGUMENT, "INVALID_FIELD", message,
                            {"field": field})  # fmt: skip
        return ApiError(grpc.StatusCode.INVALID_ARGUMENT, error.reason, message)
    return ApiError(grpc.StatusCode.INTERNAL, "INTERNAL", "Internal error.")


_CODES = {
    grpc.StatusCode.INVALID_ARGUMENT: code_pb2.INVALID_ARGUMENT,
    grpc.StatusCode.FAILED_PRECONDITION: code_pb2.FAILED_PRECONDITION,
    grpc.StatusCode.ABORTED: code_pb2.ABORTED,
    grpc.StatusCode.NOT_FOUND: code_pb2.NOT_FOUND,
    grpc.StatusCode.UNAUTHENTICATED: code_pb2.UNAUTHENTICATED,
    grpc.StatusCode.PERMISSION_DENIED: code_pb2.PERMISSION_DENIED,
    grpc.StatusCode.RESOURCE_EXHAUSTED: code_pb2.RESOURCE_EXHAUSTED,
    grpc.StatusCode.UNAVAILABLE: code_pb2.UNAVAILABLE,
    grpc.StatusCode.INTERNAL: code_pb2.INTERNAL,
}


#: Longest message / metadata value sent: statuses travel in trailers, which clients cap
#: (16 KiB by default) — a message quoting a 1 MB input made the client see a bare
#: RESOURCE_EXHAUSTED instead of the typed error (found by the fuzzer).
MAX_MESSAGE = 500
MAX_METADATA = 200


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters (marked with an ellipsis and the full length).

    >>> clip("abc", 5), clip("abcdef", 3)
    ('abc', 'abc…(6 characters)')
    """
    return text if len(text) <= limit else f"{text[:limit]}…({len(text)} characters)"


def abort(context: grpc.ServicerContext, error: ApiError) -> NoReturn:
    """End the RPC with ``error`` as a rich status (code, message, ErrorInfo); the message
    and metadata values are clipped so the status always fits in the trailers."""
    if error.reason not in REASONS or not METADATA_KEYS.issuperset(error.metadata):
        # every reason and key is in errors.proto; tests check the source, this logs the rest
        log.warning("error reason %s / metadata %s not in errors.proto", error.reason,
                    sorted(error.metadata))  # fmt: skip
    metadata = {k: clip(v, MAX_METADATA) for k, v in error.metadata.items()}
    info = error_details_pb2.ErrorInfo(reason=error.reason, domain=DOMAIN, metadata=metadata)
    detail = any_pb2.Any()
    detail.Pack(info)
    message = clip(error.message, MAX_MESSAGE)
    status = status_pb2.Status(code=_CODES[error.code], message=message, details=[detail])
    context.abort_with_status(rpc_status.to_status(status))
    raise AssertionError("unreachable")  # abort_with_status raises
