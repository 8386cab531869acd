"""Typed errors of the application layer, each with a machine-readable ``reason``.

Every ``reason`` sent to clients is an ``ErrorReason`` of ``proto/annales/v1/errors.proto``.
The gRPC layer maps them to statuses: :class:`InvalidArgument` → INVALID_ARGUMENT,
:class:`RuleRejected` → FAILED_PRECONDITION, :class:`VersionConflict` → ABORTED,
:class:`GameNotFound` → NOT_FOUND.
"""

from __future__ import annotations

from domain.core.errors import RuleViolation


class ServiceError(Exception):
    """Base class: ``reason`` (UPPER_SNAKE_CASE) and a human message."""

    reason = "SERVICE_ERROR"

    def __init__(self, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if reason is not None:
            self.reason = reason


class InvalidArgument(ServiceError):
    """Malformed input (unknown game type, bad options, undecodable command, bad seat).

    ``field`` names the request field at fault when the error has no specific ``reason``
    (the API then answers ``INVALID_FIELD`` with that field).
    """

    reason = "INVALID_ARGUMENT"

    def __init__(self, message: str, reason: str | None = None, field: str = "") -> None:
        super().__init__(message, reason)
        self.field = field


class GameNotFound(ServiceError):
    """No game has this id."""

    reason = "GAME_NOT_FOUND"


class VersionConflict(ServiceError):
    """The expected version is not the game's current version; nothing was applied."""

    reason = "VERSION_CONFLICT"

    def __init__(self, message: str, current_version: int) -> None:
        super().__init__(message)
        self.current_version = current_version


class IdempotencyKeyReused(ServiceError):
    """An idempotency key already used for a different command of this game."""

    reason = "IDEMPOTENCY_KEY_REUSED"


class RuleRejected(ServiceError):
    """The rules refuse the command (wraps the domain's ``RuleViolation``)."""

    reason = "RULE_VIOLATION"

    def __init__(self, violation: RuleViolation) -> None:
        super().__init__(violation.message, violation.code)
        self.violation = violation
