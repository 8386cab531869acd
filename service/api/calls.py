"""One wrapper for every RPC handler: typed statuses and one structured log line per call.

Every servicer (games, read models, tournaments) decorates its handlers with
:func:`typed_calls`: an :class:`~service.api.status.ApiError` is sent as its typed status, an
application-layer :class:`~service.app.errors.ServiceError` is translated first (by the servicer's
own ``to_api``), a prevented secret leak and any unexpected exception become a bare
``INTERNAL`` (logged, never echoed), and one JSON line per call records the method, the id the
request names, the status and the milliseconds — never tokens or seeds.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, TypeVar

import grpc

from service.api.redaction import SecretLeak
from service.api.status import ApiError, abort, from_service_error
from service.app.errors import ServiceError

log = logging.getLogger("annales.api")
R = TypeVar("R")
INTERNAL = ApiError(grpc.StatusCode.INTERNAL, "INTERNAL", "Internal error.")


def typed_calls(
    id_field: str,
    to_api: Callable[[ServiceError], ApiError] = from_service_error,
    scope: Callable[[Any], AbstractContextManager[Any]] | None = None,
) -> Callable[[Callable[..., R]], Callable[..., R]]:
    """A decorator for the handlers of one servicer.

    ``id_field`` names the request field logged as the call's subject (``game_id``,
    ``tournament_id``); ``scope(servicer)``, when given, is entered around the handler (the
    game servicer checks each game's cached head once per call).
    """

    def decorate(method: Callable[..., R]) -> Callable[..., R]:
        @functools.wraps(method)
        def wrapper(self: Any, request: Any, context: grpc.ServicerContext) -> R:
            start = time.perf_counter()
            code = "OK"
            try:
                with scope(self) if scope is not None else contextlib.nullcontext():
                    return method(self, request, context)
            except ApiError as error:
                code = error.code.name
                abort(context, error)
            except ServiceError as error:
                api = to_api(error)
                code = api.code.name
                abort(context, api)
            except SecretLeak:
                code = "INTERNAL"
                log.error("secret leak prevented in %s", method.__name__)
                abort(context, INTERNAL)
            except Exception:
                if context.code() is not None:  # already aborted with a status
                    raise
                code = "INTERNAL"
                log.exception("unexpected error in %s", method.__name__)
                abort(context, INTERNAL)
            finally:
                line = {
                    "rpc": method.__name__,
                    id_field: getattr(request, id_field, ""),
                    "code": code,
                    "ms": round((time.perf_counter() - start) * 1000, 2),
                }
                log.info(json.dumps(line))

        return wrapper

    return decorate
