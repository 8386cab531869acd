"""``proto/annales/v1/campaign.proto``: every element commented, AIP / buf names, generated
stubs current (``make proto``)."""

from __future__ import annotations

import pytest
from annales.v1 import campaign_pb2 as cpb
from google.protobuf import descriptor_pb2

from tests.api.protocheck import aip_problems, compile_proto, missing_comments, stale_stubs


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> descriptor_pb2.FileDescriptorProto:
    """campaign.proto compiled now, with its comments."""
    return compile_proto(tmp_path_factory.mktemp("proto"), "annales/v1/campaign.proto")


def test_campaign_proto_lint(compiled: descriptor_pb2.FileDescriptorProto) -> None:
    """Every element commented, AIP / buf names, generated stubs current."""
    assert missing_comments(compiled) == []
    assert aip_problems(compiled, "") == []
    assert not stale_stubs(compiled, cpb.DESCRIPTOR.serialized_pb)
