"""The real gRPC server fixtures of ``tests/api`` for the audit tests that go through the API."""

from tests.api.conftest import channel, server, stub  # noqa: F401
