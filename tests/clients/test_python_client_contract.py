"""The Python client and the API contract: the judge, idempotent creation, the
next actions in SubmitAction answers (fewer calls), and reasons decoded against the enum."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from annales_client import (
    AnnalesClient,
    InvalidArgument,
    PermissionDenied,
    Unauthenticated,
    make_api_bot,
    next_listing,
    play_seats,
)

from tests.clients.conftest import ServerProcess


@pytest.fixture(scope="module")
def client(annales_server: ServerProcess) -> Iterator[AnnalesClient]:
    with AnnalesClient(annales_server.target) as connected:
        yield connected


class CountingClient(AnnalesClient):
    """Counts ListLegalActions calls."""

    listings = 0

    def list_legal_actions(self, seat: Any) -> Any:
        self.listings += 1
        return super().list_legal_actions(seat)


def test_bots_use_the_next_actions_of_submit_answers(annales_server: ServerProcess) -> None:
    """play_seats lists legal actions only when the SubmitAction answer did not give them:
    fewer ListLegalActions calls than actions submitted."""
    with CountingClient(annales_server.target) as client:
        game = client.create_game("tapestry", ["a", "b"], seed="next-actions")
        bots = {seat: make_api_bot("random", f"n{seat.seat}".encode()) for seat in game.seats}
        result = play_seats(client, bots, max_actions=60)
        assert result.submitted == 60
        assert client.listings < result.submitted, (client.listings, result.submitted)


def test_next_listing_matches_the_server(client: AnnalesClient) -> None:
    """next_listing(answer) equals ListLegalActions right after the action."""
    game = client.create_game("riseandfall", ["a", "b"], seed="next-listing")
    compared = 0
    for _ in range(20):
        seat = next(s for s in game.seats if client.list_legal_actions(s).actions)
        listed = client.list_legal_actions(seat)
        answer = client.submit_action(
            seat, listed.actions[0], expected_version=listed.version, include_next_actions=True
        )
        following = next_listing(seat, answer)
        if following is not None:
            server = client.list_legal_actions(seat)
            assert list(following.actions) == list(server.actions)
            assert following.version == server.version
            compared += 1
    assert compared


def test_the_judge_and_idempotent_creation(client: AnnalesClient) -> None:
    """A retried creation with its key returns the same game; the judge reads every seat's
    view and cannot act; errors carry reasons of the enum."""
    key = f"py-{uuid.uuid4()}"
    first = client.create_game("riseandfall", ["a", "b"], seed="judge-py", idempotency_key=key)
    again = client.create_game("riseandfall", ["a", "b"], seed="judge-py", idempotency_key=key)
    assert again == first and first.judge_token
    view = client.get_view(first.judge)
    assert view.judge and len(view.seat_views) == 2
    listed = client.list_legal_actions(first.seats[0])
    mover = first.seats[0] if listed.actions else first.seats[1]
    action = client.list_legal_actions(mover).actions[0]
    with pytest.raises(PermissionDenied) as denied:
        client.submit_action(first.judge, action)
    assert denied.value.reason == "JUDGE_CANNOT_ACT" and denied.value.reason_enum > 0
    with pytest.raises(Unauthenticated) as bad:
        client.get_view(first.judge.__class__(first.game_id, 0, "garbage"))
    assert bad.value.reason == "BAD_TOKEN"
    with pytest.raises(InvalidArgument) as reused:
        client.create_game("riseandfall", ["a", "c"], seed="judge-py", idempotency_key=key)
    assert reused.value.reason == "IDEMPOTENCY_KEY_REUSED" and reused.value.field
    assert reused.value.code == grpc.StatusCode.INVALID_ARGUMENT
    record = client.export_record(first.game_id, first.judge)
    assert record.full and client.verify_record(record.record).reexecuted
