"""Server reflection, ``grpc.reflection.v1`` as well as ``grpc.reflection.v1alpha``.

grpcio-reflection (1.x) implements only ``v1alpha``. The ``v1`` service is the same protocol:
its messages are field for field those of ``v1alpha`` under another package name, so their
bytes are identical. This module registers the ``v1`` file descriptor (``v1alpha``'s with the
package renamed) in the default descriptor pool, so that reflection lists and describes it, and
serves ``/grpc.reflection.v1.ServerReflection/ServerReflectionInfo`` with the ``v1alpha``
implementation, reading and writing the ``v1alpha`` message classes.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool
from grpc_reflection.v1alpha import reflection
from grpc_reflection.v1alpha import reflection_pb2 as alpha

V1_PACKAGE = "grpc.reflection.v1"
V1_FILE = "grpc/reflection/v1/reflection.proto"
V1_SERVICE_NAME = f"{V1_PACKAGE}.ServerReflection"
V1ALPHA_SERVICE_NAME: str = reflection.SERVICE_NAME


def _register_v1_descriptor() -> None:
    """Add ``grpc/reflection/v1/reflection.proto`` to the default pool (once)."""
    pool = descriptor_pool.Default()
    try:
        pool.FindFileByName(V1_FILE)
        return
    except KeyError:
        pass
    proto = descriptor_pb2.FileDescriptorProto()
    alpha.DESCRIPTOR.CopyToProto(proto)
    old = f".{alpha.DESCRIPTOR.package}."
    proto.name = V1_FILE
    proto.package = V1_PACKAGE
    proto.ClearField("options")
    for message in proto.message_type:
        for field in message.field:
            if field.type_name.startswith(old):
                field.type_name = f".{V1_PACKAGE}." + field.type_name[len(old) :]
    for service in proto.service:
        for method in service.method:
            method.input_type = f".{V1_PACKAGE}." + method.input_type[len(old) :]
            method.output_type = f".{V1_PACKAGE}." + method.output_type[len(old) :]
    pool.Add(proto)


def enable(service_names: Iterable[str], server: grpc.Server) -> tuple[str, ...]:
    """Serve reflection v1 and v1alpha for ``service_names`` (plus both reflection services);
    returns every name listed."""
    _register_v1_descriptor()
    names = (*service_names, V1_SERVICE_NAME, V1ALPHA_SERVICE_NAME)
    servicer: Any = reflection.ReflectionServicer(names)
    handler = grpc.stream_stream_rpc_method_handler(
        servicer.ServerReflectionInfo,
        request_deserializer=alpha.ServerReflectionRequest.FromString,
        response_serializer=alpha.ServerReflectionResponse.SerializeToString,
    )
    for service in (V1_SERVICE_NAME, V1ALPHA_SERVICE_NAME):
        server.add_generic_rpc_handlers(
            (grpc.method_handlers_generic_handler(service, {"ServerReflectionInfo": handler}),)
        )
    return names
