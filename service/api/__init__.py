"""The gRPC API (``annales.v1``): generated stubs, msgspec ↔ protobuf conversion, the server."""
