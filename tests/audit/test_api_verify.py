"""VerifyRecord through a real server: every record gets an OK answer
with its typed outcome — never INTERNAL or UNKNOWN — and the location of what is wrong."""

from __future__ import annotations

import msgspec
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc

from service.app.application import GameService
from service.audit.format import canonical
from tests.audit.helpers import export, play


def _verify(stub: annales_pb2_grpc.GameServiceStub, lines: list[bytes]) -> pb.VerifyRecordResponse:
    answer: pb.VerifyRecordResponse = stub.VerifyRecord(
        pb.VerifyRecordRequest(record=b"\n".join(lines) + b"\n")
    )
    return answer


def test_verify_record_outcomes_over_grpc(
    stub: annales_pb2_grpc.GameServiceStub, service: GameService
) -> None:
    """Verified; intact as far as visible (with the redacted count); malformed ("bard", with
    line and field); tampered (field, expected, found); unsupported."""
    finished = export(service, play(service, b"api-verify"), None)
    answer = _verify(stub, finished)
    assert answer.outcome == pb.VERIFICATION_OUTCOME_VERIFIED and answer.ok and answer.reexecuted

    items = [msgspec.json.decode(line) for line in finished if line]
    index = next(i for i, item in enumerate(items) if "card" in (item.get("command") or {}))
    items[index]["command"]["bard"] = items[index]["command"].pop("card")
    answer = _verify(stub, [canonical(item) for item in items])
    assert answer.outcome == pb.VERIFICATION_OUTCOME_MALFORMED and not answer.ok
    assert answer.line == index + 1 and answer.field.startswith("$.command")
    assert "bard" in answer.reason and answer.divergence_seq == items[index + 1]["seq"]

    items = [msgspec.json.decode(line) for line in finished if line]
    index = next(i for i, item in enumerate(items) if item.get("kind") == "SeedRevealed")
    items[index]["event"]["seed"] = "00"
    answer = _verify(stub, [canonical(item) for item in items])
    assert answer.outcome == pb.VERIFICATION_OUTCOME_TAMPERED
    assert (answer.line, answer.field) == (index + 1, "$.event.seed")
    assert (answer.expected, answer.found) == (b"api-verify".hex(), "00")

    items = [msgspec.json.decode(line) for line in finished if line]
    items[0]["ruleset"] = "riseandfall/999"
    answer = _verify(stub, [canonical(item) for item in items])
    assert answer.outcome == pb.VERIFICATION_OUTCOME_UNSUPPORTED and not answer.ok

    answer = _verify(stub, [finished[0], finished[1][:17]])
    assert answer.outcome == pb.VERIFICATION_OUTCOME_MALFORMED and answer.line == 2

    game_id = play(service, b"api-open", commands=0)
    for _ in range(150):
        lines = export(service, game_id, None)
        if b'"redacted":true' in b"".join(lines):
            break
        from domain.bots import make_bot
        from service.app.autoplay import play_with_bots

        bots = {i: make_bot("random", bytes([i])) for i in range(3)}
        play_with_bots(service, game_id, bots, max_commands=1)  # type: ignore[arg-type]
    answer = _verify(stub, lines)
    assert answer.outcome == pb.VERIFICATION_OUTCOME_INTACT_AS_FAR_AS_VISIBLE and answer.ok
    assert answer.redacted_events >= 1 and not answer.reexecuted
