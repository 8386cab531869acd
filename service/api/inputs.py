"""Input limits and checks shared by the game service's handlers, and their ``rpc`` wrapper.

Every check raises a typed :class:`~service.api.status.ApiError`: INVALID_ARGUMENT naming the
field (``INVALID_FIELD``) or RESOURCE_EXHAUSTED for an oversized one (``TOO_LARGE``).
"""

from __future__ import annotations

import grpc

from service.api.calls import typed_calls
from service.api.status import ApiError

MAX_ID = 128
MAX_NAME = 64
MAX_SEED = 256
MAX_KEY = 128
MAX_RECORD = 32 * 1024 * 1024
DEFAULT_PAGE = 100
MAX_PAGE = 1000


def invalid(field: str, message: str) -> ApiError:
    """INVALID_ARGUMENT for ``field``: ``INVALID_FIELD``, the message after the field name."""
    return ApiError(
        grpc.StatusCode.INVALID_ARGUMENT, "INVALID_FIELD", f"{field}: {message}", {"field": field}
    )


def too_large(field: str, limit: int) -> ApiError:
    """RESOURCE_EXHAUSTED for ``field`` longer than ``limit``: ``TOO_LARGE``."""
    return ApiError(
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        "TOO_LARGE",
        f"{field}: longer than {limit}.",
        {"field": field, "limit": str(limit)},
    )


def text(value: str, field: str, limit: int, required: bool = True) -> str:
    """``value`` when at most ``limit`` long and, if ``required``, not empty."""
    if len(value) > limit:
        raise too_large(field, limit)
    if required and not value:
        raise invalid(field, "is required")
    return value


def is_number(value: str) -> bool:
    """ASCII digits only (``str.isdigit`` also accepts ``"²"``, which ``int()`` refuses)."""
    return value.isascii() and value.isdigit()


#: typed statuses and one log line per call; a game's cached head is checked once per call
rpc = typed_calls("game_id", scope=lambda servicer: servicer.service.request_scope())
