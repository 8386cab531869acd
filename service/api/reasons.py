"""The error vocabulary of the API, read from ``proto/annales/v1/errors.proto``.

The proto enums are the one source of truth: :data:`REASONS` holds every ``ErrorInfo.reason``
the server may send (``ErrorReason`` value names without their prefix) and
:data:`METADATA_KEYS` every ``ErrorInfo.metadata`` key (``ErrorMetadataKey`` names without
their prefix, lower-cased). :func:`service.api.status.abort` logs any reason or key outside
them, and ``tests/api/test_errors_contract.py`` checks the server's source against them.
"""

from __future__ import annotations

from annales.v1 import errors_pb2

_REASON_PREFIX = "ERROR_REASON_"
_KEY_PREFIX = "ERROR_METADATA_KEY_"


def _names(enum: object, prefix: str) -> frozenset[str]:
    names = getattr(enum, "keys")()  # noqa: B009 - protobuf enum wrappers expose keys()
    return frozenset(str(n)[len(prefix) :] for n in names if not str(n).endswith("UNSPECIFIED"))


#: every reason the server may send, e.g. ``"BAD_TOKEN"``
REASONS: frozenset[str] = _names(errors_pb2.ErrorReason, _REASON_PREFIX)
#: every metadata key the server may send, e.g. ``"current_version"``
METADATA_KEYS: frozenset[str] = frozenset(
    k.lower() for k in _names(errors_pb2.ErrorMetadataKey, _KEY_PREFIX)
)


def reason_number(reason: str) -> int:
    """The ``ErrorReason`` number of a reason string (0 when it is not in the enum).

    >>> reason_number("BAD_TOKEN") > 0, reason_number("NO_SUCH_REASON")
    (True, 0)
    """
    try:
        return int(errors_pb2.ErrorReason.Value(_REASON_PREFIX + reason))
    except ValueError:
        return 0
