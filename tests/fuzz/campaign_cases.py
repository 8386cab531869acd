"""Fuzz cases for the ``CampaignService``: drawn requests and shaped hostile ones.

Unknown, empty and huge campaign ids; unknown nations, sides, boxes and mode numbers; an
``after`` naming no campaign; unknown deck changes and cards; records of random bytes. The
runner sends them like any other case (registered in :mod:`tests.fuzz.cases`): every answer
must be OK or a typed error (a gRPC status with an ``annales.v1`` ErrorInfo reason), and the
server must stay SERVING with every game of the pool unchanged.
"""

from __future__ import annotations

from typing import Any

from annales.v1 import campaign_pb2 as cpb
from google.protobuf.message import Message
from hypothesis import strategies as st

from domain.imperium.content import ALL_NATIONS
from tests.fuzz.values import blobs, huge_text, message_of, texts

S = "/annales.v1.CampaignService/"
#: Every unary RPC of the CampaignService, with its request and response types.
CAMPAIGN: dict[str, tuple[type[Message], type[Message]]] = {
    S + "CreateCampaign": (cpb.CreateCampaignRequest, cpb.CreateCampaignResponse),
    S + "GetCampaign": (cpb.GetCampaignRequest, cpb.GetCampaignResponse),
    S + "StartNextGame": (cpb.StartNextGameRequest, cpb.StartNextGameResponse),
    S + "RecordCampaignResult": (
        cpb.RecordCampaignResultRequest,
        cpb.RecordCampaignResultResponse,
    ),
    S + "ExportCampaignRecord": (
        cpb.ExportCampaignRecordRequest,
        cpb.ExportCampaignRecordResponse,
    ),
    S + "VerifyCampaignRecord": (
        cpb.VerifyCampaignRecordRequest,
        cpb.VerifyCampaignRecordResponse,
    ),
}


def _words(*good: str) -> st.SearchStrategy[str]:
    """Valid words, the empty string, near misses and adversarial text."""
    return st.one_of(st.sampled_from((*good, "", "?", good[0].upper() if good else "x")), texts())


def _ids() -> st.SearchStrategy[str]:
    return st.one_of(
        st.just(""), texts(), huge_text(), st.sampled_from(("campaign-", "campaign-0", "../"))
    )


def campaign_requests() -> st.SearchStrategy[tuple[str, Any]]:
    """``(method, request)``: a drawn request of any CampaignService RPC, or a shaped one."""
    drawn = [st.tuples(st.just(m), message_of(request)) for m, (request, _) in CAMPAIGN.items()]
    nations = _words(*ALL_NATIONS)
    create = st.builds(
        lambda player, nation, mode, side, box, after: (
            S + "CreateCampaign",
            cpb.CreateCampaignRequest(
                player=player, nation=nation, mode=mode, side=side, box=box, after=after
            ),
        ),
        st.one_of(st.just("fz"), texts()),
        nations,
        st.integers(-3, 9),
        _words("A", "B"),
        _words("classics", "legends"),
        st.one_of(st.just(""), _ids()),
    )
    by_id = [
        st.builds(lambda cid, m=m, cls=cls: (m, cls(campaign_id=cid)), _ids())
        for m, cls in (
            (S + "GetCampaign", cpb.GetCampaignRequest),
            (S + "ExportCampaignRecord", cpb.ExportCampaignRecordRequest),
        )
    ]
    start = st.builds(
        lambda cid, civ: (S + "StartNextGame", cpb.StartNextGameRequest(campaign_id=cid,
                                                                         civ_nation=civ)),
        _ids(),
        nations,
    )  # fmt: skip
    record = st.builds(
        lambda cid, change, card: (
            S + "RecordCampaignResult",
            cpb.RecordCampaignResultRequest(campaign_id=cid, change=change, card=card),
        ),
        _ids(),
        _words("add", "remove", "none"),
        texts(),
    )
    verify = st.builds(
        lambda data: (S + "VerifyCampaignRecord", cpb.VerifyCampaignRecordRequest(record=data)),
        blobs(),
    )
    return st.one_of(*drawn, create, create, *by_id, start, record, verify)
