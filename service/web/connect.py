"""The same servicer objects as the gRPC port, served over the Connect protocol.

The protocol (Connect unary and streaming, JSON and binary, gRPC-Web; framing, compression,
error encoding) comes from the ``connectrpc`` runtime's ASGI application. This module only
builds its endpoint table from the services' protobuf descriptors — one endpoint per method of
every service, so a method added to a proto is served here without code — and calls the
servicers' *unchanged* synchronous methods with a :class:`WebContext`, the subset of
``grpc.ServicerContext`` they use:

* ``invocation_metadata()``: the HTTP request headers, lower-cased (``authorization: Bearer``);
* ``abort_with_status(status)``: raises a ``ConnectError`` with the same code, message and
  ``google.rpc.ErrorInfo`` detail the gRPC port sends in ``grpc-status-details-bin``;
* ``code()`` / ``is_active()``: the status once aborted; ``False`` once the client went away
  (a ``WatchGame`` stream then ends within the broadcaster's poll interval).

Handlers run in a thread pool (like the gRPC server's), never on the event loop.
"""

from __future__ import annotations

import asyncio
import functools
import json
import re
import threading
from collections.abc import AsyncIterator, Callable, Generator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, NoReturn

import grpc
from connectrpc.code import Code
from connectrpc.compat import google_protobuf_binary_codec
from connectrpc.errors import ConnectError, ErrorDetail
from connectrpc.method import IdempotencyLevel, MethodInfo, StreamType
from connectrpc.request import RequestContext
from connectrpc.server import ConnectASGIApplication, Endpoint
from google.protobuf import any_pb2, json_format
from google.protobuf.descriptor import ServiceDescriptor
from google.protobuf.message import Message
from google.rpc import error_details_pb2, status_pb2
from protobuf.wkt import Any as WireAny

from service.api.status import DOMAIN

_END = object()


class WebContext:
    """The part of ``grpc.ServicerContext`` the servicers use, over one HTTP request."""

    def __init__(self, headers: Sequence[tuple[str, str]]) -> None:
        self._metadata = tuple((key.lower(), value) for key, value in headers)
        self._code: grpc.StatusCode | None = None
        self._active = True

    def invocation_metadata(self) -> tuple[tuple[str, str], ...]:
        """The request headers as gRPC metadata (names lower-cased)."""
        return self._metadata

    def abort_with_status(self, status: Any) -> NoReturn:
        """End the call with a ``grpc_status.rpc_status.to_status`` status: its code, message
        and rich details travel as a Connect error."""
        self._code = status.code
        details: list[ErrorDetail] = []
        for key, value in status.trailing_metadata or ():
            if key == "grpc-status-details-bin":
                rich = status_pb2.Status.FromString(value)
                details = [
                    ErrorDetail(WireAny(type_url=d.type_url, value=d.value)) for d in rich.details
                ]
        raise ConnectError(Code[status.code.name], status.details or "", details)

    def abort(self, code: grpc.StatusCode, details: str) -> NoReturn:
        """End the call with a bare status."""
        self._code = code
        raise ConnectError(Code[code.name], details)

    def code(self) -> grpc.StatusCode | None:
        """The status the call was aborted with, if any."""
        return self._code

    def is_active(self) -> bool:
        """``False`` once the client has gone away."""
        return self._active

    def cancel(self) -> None:
        """Mark the call finished (the client disconnected or the stream ended)."""
        self._active = False


def typed_error(code: Code, reason: str, message: str) -> ConnectError:
    """A Connect error carrying an ``ErrorInfo`` with ``reason`` (as the gRPC port sends)."""
    info = any_pb2.Any()
    info.Pack(error_details_pb2.ErrorInfo(reason=reason, domain=DOMAIN))
    return ConnectError(
        code, message, [ErrorDetail(WireAny(type_url=info.type_url, value=info.value))]
    )


class _BinaryCodec:
    """Protobuf binary (``application/proto``), malformed bytes answered like the gRPC port:
    INVALID_ARGUMENT with reason ``MALFORMED_REQUEST``."""

    _inner = google_protobuf_binary_codec()

    def name(self) -> str:
        """The codec's content-type suffix."""
        return "proto"

    def encode(self, message: Message) -> bytes:
        """Serialise ``message``."""
        return bytes(self._inner.encode(message))

    def decode(self, data: bytes | bytearray, message_class: type[Message]) -> Message:
        """Parse ``data`` or raise the typed error."""
        try:
            return message_class.FromString(bytes(data))
        except Exception as error:
            raise typed_error(
                Code.INVALID_ARGUMENT,
                "MALFORMED_REQUEST",
                "The request bytes are not a valid message.",
            ) from error


class _JsonCodec:
    """Protobuf JSON (``application/json``). Unknown fields are refused (a misspelt field, or a
    token put in the body, is an error rather than silently ignored)."""

    def name(self) -> str:
        """The codec's content-type suffix."""
        return "json"

    def encode(self, message: Message) -> bytes:
        """Serialise ``message`` as canonical protobuf JSON (camelCase names)."""
        return json_format.MessageToJson(message, indent=None).encode()

    def decode(self, data: bytes | bytearray, message_class: type[Message]) -> Message:
        """Parse ``data`` (a JSON object) or raise the typed error, in our own words."""
        name = message_class.DESCRIPTOR.full_name
        try:
            document = json.loads(bytes(data))
        except ValueError as error:  # JSONDecodeError, or bytes that are not UTF-8
            where = (
                f" (line {error.lineno}, column {error.colno})"
                if isinstance(error, json.JSONDecodeError)
                else ""
            )
            raise _malformed(f"The request body is not valid JSON{where}.") from error
        if not isinstance(document, dict):
            kind = _JSON_KINDS.get(type(document), "another value")
            raise _malformed(f"The request body must be a JSON object ({name}), not {kind}.")
        message = message_class()
        try:
            json_format.ParseDict(document, message, ignore_unknown_fields=False)
        except (json_format.ParseError, ValueError, TypeError) as error:
            raise _malformed(_json_problem(name, str(error))) from error
        return message


#: the parts of protobuf's JSON parse errors that name what is wrong
_UNKNOWN_FIELD = re.compile(r'has no field named "([^"]+)"')
_BAD_FIELD = re.compile(r"Failed to parse (\w+) field")
_BAD_ENUM = re.compile(r"Invalid enum value (\S+) for enum type (\S+)")
#: how a JSON value that is not an object is named in an error
_JSON_KINDS = {list: "an array", str: "a string", int: "a number", float: "a number",
               bool: "true or false", type(None): "null"}  # fmt: skip


def _json_problem(message_name: str, text: str) -> str:
    """One sentence of ours for a protobuf JSON parse error (never the library's text)."""
    if match := _UNKNOWN_FIELD.search(text):
        return f"{message_name} has no field {match.group(1)!r} (see the protos)."
    if match := _BAD_ENUM.search(text):
        return f"{match.group(1)} is not a value of {match.group(2).rstrip('.')}."
    if match := _BAD_FIELD.search(text):
        return f"The field {match.group(1)!r} has a value of the wrong type."
    return f"The request does not match {message_name}."


def _malformed(message: str) -> ConnectError:
    """INVALID_ARGUMENT, reason ``MALFORMED_REQUEST``, with ``message``."""
    return typed_error(Code.INVALID_ARGUMENT, "MALFORMED_REQUEST", message)


def _message_class(descriptor: Any) -> type[Message]:
    from google.protobuf import message_factory

    return message_factory.GetMessageClass(descriptor)


def _headers(ctx: RequestContext[Any, Any]) -> list[tuple[str, str]]:
    return [(key, value) for key, value in ctx.request_headers.allitems()]


def endpoints(
    services: Mapping[ServiceDescriptor, object], pool: ThreadPoolExecutor
) -> dict[str, Any]:
    """The Connect endpoint of every method of every service: ``/package.Service/Method`` →
    an async endpoint that calls ``getattr(servicer, Method)`` in ``pool``."""
    table: dict[str, Any] = {}
    for descriptor, servicer in services.items():
        for method in descriptor.methods:
            if method.client_streaming:
                continue  # none of our services has one
            info: MethodInfo[Any, Any] = MethodInfo(
                name=method.name,
                service_name=descriptor.full_name,
                input=_message_class(method.input_type),
                output=_message_class(method.output_type),
                idempotency_level=IdempotencyLevel.UNKNOWN,
                stream_type=StreamType.SERVER_STREAM
                if method.server_streaming
                else StreamType.UNARY,
            )
            handler = getattr(servicer, method.name)
            path = f"/{descriptor.full_name}/{method.name}"
            if method.server_streaming:
                table[path] = Endpoint.server_stream(info, _streaming(handler, pool))
            else:
                table[path] = Endpoint.unary(info, _unary(handler, pool))
    return table


def _unary(handler: Callable[[Any, Any], Any], pool: ThreadPoolExecutor) -> Callable[..., Any]:
    async def call(request: Any, ctx: RequestContext[Any, Any]) -> Any:
        context = WebContext(_headers(ctx))
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(pool, functools.partial(handler, request, context))
        finally:
            context.cancel()

    return call


def _streaming(
    handler: Callable[[Any, Any], Generator[Any, None, None]], pool: ThreadPoolExecutor
) -> Callable[..., AsyncIterator[Any]]:
    async def call(request: Any, ctx: RequestContext[Any, Any]) -> AsyncIterator[Any]:
        context = WebContext(_headers(ctx))
        loop = asyncio.get_running_loop()
        responses = handler(request, context)
        turn = threading.Lock()  # one thread at a time runs the servicer's generator

        def step() -> Any:
            with turn:
                return next(responses, _END)

        def finish() -> None:
            with turn:  # after a step still running in a worker has returned
                responses.close()

        try:
            while True:
                item = await loop.run_in_executor(pool, step)
                if item is _END:
                    return
                yield item
        finally:
            # A disconnect cancels this coroutine wherever it waits. The servicer's generator
            # is then either running in a worker (it sees is_active() False at its next poll
            # and returns) or suspended at a yield (closed here, so its cleanup and its log
            # line run now rather than whenever the garbage collector finds it).
            context.cancel()
            pool.submit(finish)

    return call


class ConnectApp(ConnectASGIApplication[None]):
    """The Connect ASGI application for all services (mounted at the server's root)."""

    @property
    def path(self) -> str:
        """Mounted at the root: every service's own path is the endpoint path."""
        return ""

    def __init__(self, table: Mapping[str, Any], read_max_bytes: int) -> None:
        super().__init__(
            service=None,
            endpoints=lambda _: table,
            read_max_bytes=read_max_bytes,
            codecs=[_BinaryCodec(), _JsonCodec()],
        )
