"""A Connect client for the tests: the ``connectrpc`` runtime's own sync client, with stubs
built from the services' descriptors (no generated code), JSON or binary protobuf."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from connectrpc.client import ConnectClientSync
from connectrpc.compat import google_protobuf_binary_codec, google_protobuf_json_codec
from connectrpc.errors import ConnectError
from connectrpc.method import IdempotencyLevel, MethodInfo, StreamType
from google.protobuf import message_factory
from google.protobuf.descriptor import MethodDescriptor
from google.rpc import error_details_pb2


def method_info(method: MethodDescriptor) -> MethodInfo[Any, Any]:
    """The ``connectrpc`` description of a protobuf method."""
    return MethodInfo(
        name=method.name,
        service_name=method.containing_service.full_name,
        input=message_factory.GetMessageClass(method.input_type),
        output=message_factory.GetMessageClass(method.output_type),
        idempotency_level=IdempotencyLevel.UNKNOWN,
        stream_type=StreamType.SERVER_STREAM if method.server_streaming else StreamType.UNARY,
    )


class Connect:
    """Calls any method of any service on a web port, by descriptor."""

    def __init__(self, base: str, codec: str = "proto", protocol: Any = None) -> None:
        self.base = base
        chosen = (
            google_protobuf_binary_codec() if codec == "proto" else google_protobuf_json_codec()
        )
        kwargs: dict[str, Any] = {"codec": chosen, "send_compression": None}
        if protocol is not None:
            kwargs["protocol"] = protocol
        self.client = ConnectClientSync(base, **kwargs)

    def unary(self, method: MethodDescriptor, request: Any, token: str | None = None) -> Any:
        """One unary call (``token``: sent as ``authorization: Bearer``)."""
        headers = {"authorization": f"Bearer {token}"} if token else {}
        return self.client.execute_unary(
            request=request, method=method_info(method), headers=headers, timeout_ms=30_000
        )

    def stream(
        self, method: MethodDescriptor, request: Any, token: str | None = None
    ) -> Iterator[Any]:
        """A server-streaming call's responses."""
        headers = {"authorization": f"Bearer {token}"} if token else {}
        # a deadline for the whole stream: a game played while it is open may take minutes
        return self.client.execute_server_stream(
            request=request, method=method_info(method), headers=headers, timeout_ms=600_000
        )


def reason(error: ConnectError) -> str:
    """The ``ErrorInfo`` reason a Connect error carries ("" without one)."""
    for detail in error.details:
        if detail.type_name == "google.rpc.ErrorInfo":
            return str(error_details_pb2.ErrorInfo.FromString(detail.message_bytes).reason)
    return ""
