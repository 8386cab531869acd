"""VerifyRecord's answer: a :class:`~service.audit.verdicts.VerifyReport` as a
``VerifyRecordResponse`` (every outcome is an OK answer; see the proto)."""

from __future__ import annotations

from annales.v1 import annales_pb2 as pb

from service.audit.verdicts import Outcome, VerifyReport

_OUTCOMES = {
    Outcome.VERIFIED: pb.VERIFICATION_OUTCOME_VERIFIED,
    Outcome.INTACT_AS_FAR_AS_VISIBLE: pb.VERIFICATION_OUTCOME_INTACT_AS_FAR_AS_VISIBLE,
    Outcome.TAMPERED: pb.VERIFICATION_OUTCOME_TAMPERED,
    Outcome.MALFORMED: pb.VERIFICATION_OUTCOME_MALFORMED,
    Outcome.UNSUPPORTED: pb.VERIFICATION_OUTCOME_UNSUPPORTED,
}


def verify_response(report: VerifyReport) -> pb.VerifyRecordResponse:
    """The response describing ``report``."""
    divergence = report.divergence
    return pb.VerifyRecordResponse(
        ok=report.ok,
        message=report.message,
        reexecuted=report.reexecuted,
        divergence_seq=divergence.seq if divergence else 0,
        expected=divergence.expected if divergence else "",
        found=divergence.found if divergence else "",
        outcome=_OUTCOMES[report.outcome],
        line=divergence.line if divergence else 0,
        field=divergence.field if divergence else "",
        redacted_events=report.redacted,
        unchecked_links=report.unchecked_links,
        reason=divergence.reason if divergence else "",
    )
