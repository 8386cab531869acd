"""Typed errors of the Annales API.

Every failed call raises an :class:`AnnalesError` (or one of its subclasses, chosen by the
gRPC status code) carrying the status code, the human message, and the machine-readable
``google.rpc.ErrorInfo`` the server attaches (``reason`` such as ``VERSION_CONFLICT``,
``NOT_YOUR_TURN`` or ``CLIFF``, and ``metadata`` such as ``current_version`` or ``rule``).

>>> error = AnnalesError(grpc.StatusCode.ABORTED, "stale", "VERSION_CONFLICT",
...                      {"current_version": "12"})
>>> isinstance(error, AnnalesError), error.reason, error.metadata["current_version"]
(True, 'VERSION_CONFLICT', '12')
>>> type(AnnalesError.of(grpc.StatusCode.ABORTED, "stale")).__name__
'VersionConflict'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import grpc
from annales.v1 import errors_pb2
from google.rpc import error_details_pb2
from grpc_status import rpc_status


class AnnalesError(Exception):
    """A failed API call: gRPC ``code``, ``message``, ErrorInfo ``reason`` and ``metadata``.

    Attributes:
        code: the gRPC status code.
        message: the server's message (safe to show to a player).
        reason: the ``google.rpc.ErrorInfo`` reason ("" when the server sent none).
        metadata: the ErrorInfo metadata (e.g. ``{"rule": "CLIFF"}``).
        domain: the ErrorInfo domain (``"annales.v1"``).
    """

    CODE: ClassVar[grpc.StatusCode | None] = None

    def __init__(
        self,
        code: grpc.StatusCode,
        message: str,
        reason: str = "",
        metadata: Mapping[str, str] | None = None,
        domain: str = "",
    ) -> None:
        super().__init__(f"{code.name}: {reason + ': ' if reason else ''}{message}")
        self.code = code
        self.message = message
        self.reason = reason
        self.metadata: dict[str, str] = dict(metadata or {})
        self.domain = domain

    @staticmethod
    def of(
        code: grpc.StatusCode,
        message: str,
        reason: str = "",
        metadata: Mapping[str, str] | None = None,
        domain: str = "",
    ) -> AnnalesError:
        """The most specific error class for ``code``."""
        cls = _BY_CODE.get(code, AnnalesError)
        return cls(code, message, reason, metadata, domain)

    @staticmethod
    def from_rpc_error(error: grpc.RpcError) -> AnnalesError:
        """Parse a ``grpc.RpcError`` (its ``grpc-status-details-bin`` trailer when present)."""
        call: Any = error
        code: grpc.StatusCode = call.code() if hasattr(call, "code") else grpc.StatusCode.UNKNOWN
        message: str = (call.details() if hasattr(call, "details") else str(error)) or ""
        reason, metadata, domain = "", {}, ""
        try:
            status = rpc_status.from_call(call)
        except (ValueError, AttributeError, TypeError):
            status = None
        if status is not None:
            message = status.message or message
            for detail in status.details:
                if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                    info = error_details_pb2.ErrorInfo()
                    detail.Unpack(info)
                    reason, metadata, domain = info.reason, dict(info.metadata), info.domain
                    break
        return AnnalesError.of(code, message, reason, metadata, domain)

    @property
    def reason_enum(self) -> int:
        """The ``annales.v1.ErrorReason`` number of :attr:`reason` (every reason and metadata
        key is listed in ``proto/annales/v1/errors.proto``); 0 (``UNSPECIFIED``) for a reason
        this client does not know yet — decide on :attr:`code` then.

        >>> AnnalesError(grpc.StatusCode.UNAUTHENTICATED, "x", "BAD_TOKEN").reason_enum > 0
        True
        >>> AnnalesError(grpc.StatusCode.UNAUTHENTICATED, "x", "NEW_ONE").reason_enum
        0
        """
        try:
            return int(errors_pb2.ErrorReason.Value("ERROR_REASON_" + self.reason))
        except ValueError:
            return 0

    @property
    def field(self) -> str:
        """The request field at fault (``metadata["field"]``), or ``""``."""
        return self.metadata.get("field", "")

    @property
    def retryable(self) -> bool:
        """``True`` for transient failures (server unreachable, version conflict)."""
        return self.code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.ABORTED)


class InvalidArgument(AnnalesError):
    """INVALID_ARGUMENT: a malformed request (``metadata["field"]`` names the field)."""

    CODE = grpc.StatusCode.INVALID_ARGUMENT


class IllegalAction(AnnalesError):
    """FAILED_PRECONDITION: the rules refuse the action (``reason`` / ``metadata["rule"]``)."""

    CODE = grpc.StatusCode.FAILED_PRECONDITION


class VersionConflict(AnnalesError):
    """ABORTED: the game moved on since ``expected_version`` (see ``current_version``)."""

    CODE = grpc.StatusCode.ABORTED

    @property
    def current_version(self) -> int | None:
        """The game's version when the call was refused, when the server said so."""
        value = self.metadata.get("current_version", "")
        return int(value) if value.isdigit() else None


class NotFound(AnnalesError):
    """NOT_FOUND: unknown game."""

    CODE = grpc.StatusCode.NOT_FOUND


class Unauthenticated(AnnalesError):
    """UNAUTHENTICATED: a seat token is needed, or the one sent is invalid."""

    CODE = grpc.StatusCode.UNAUTHENTICATED


class PermissionDenied(AnnalesError):
    """PERMISSION_DENIED: the token belongs to another game."""

    CODE = grpc.StatusCode.PERMISSION_DENIED


class Unavailable(AnnalesError):
    """UNAVAILABLE: the server cannot be reached (retry later)."""

    CODE = grpc.StatusCode.UNAVAILABLE


_BY_CODE: dict[grpc.StatusCode, type[AnnalesError]] = {
    cls.CODE: cls
    for cls in (
        InvalidArgument,
        IllegalAction,
        VersionConflict,
        NotFound,
        Unauthenticated,
        PermissionDenied,
        Unavailable,
    )
    if cls.CODE is not None
}
