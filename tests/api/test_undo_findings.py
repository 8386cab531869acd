"""What a stranger's check of undo, idempotency and streams found (2026-12-07), through a real
gRPC server:

* after the end, Undo, RequestUndo and RespondUndo were refused as ``UNDO_PAST_REVEAL`` or
  ``NO_UNDO_REQUEST``; errors.proto says a finished game accepts no command: ``GAME_OVER``;
* a game of one seat offered ``undo_versions`` and accepted RequestUndo, which nobody could
  ever approve: the game then waited for the player to withdraw it;
* the judge's ``GameCreated`` (GetHistory, WatchGame) lacked ``seed_commitment_scheme`` and
  ``key_digests``, which every other viewer received;
* repeated seat names were ``INVALID_FIELD`` naming the game's options, not ``seat_names``.
"""

from __future__ import annotations

import grpc
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc

from tests.api.helpers import auth, expect_error


def _solo(stub: annales_pb2_grpc.GameServiceStub, seed: str) -> tuple[str, str]:
    created = stub.CreateGame(
        pb.CreateGameRequest(game_type=pb.GAME_TYPE_TAPESTRY, seat_names=["solo"], seed=seed)
    )
    return created.game_id, created.seat_tokens[0].token


def _play(stub: annales_pb2_grpc.GameServiceStub, game_id: str, token: str, steps: int) -> int:
    """Play the first legal action ``steps`` times (or to the end); the version reached."""
    version = 0
    for _ in range(steps):
        legal = stub.ListLegalActions(pb.ListLegalActionsRequest(game_id=game_id),
                                      metadata=auth(token))  # fmt: skip
        version = legal.version
        if not legal.actions:
            break
        version = stub.SubmitAction(
            pb.SubmitActionRequest(game_id=game_id, action=legal.actions[0],
                                   expected_version=legal.version),
            metadata=auth(token),
        ).version  # fmt: skip
    return version


def test_undo_commands_after_the_end_are_game_over(
    stub: annales_pb2_grpc.GameServiceStub,
) -> None:
    """A finished game answers GAME_OVER to Undo, RequestUndo and RespondUndo alike, offers
    no undo, and its version does not move."""
    game_id, token = _solo(stub, "4821")
    version = _play(stub, game_id, token, 3000)
    game = stub.GetGame(pb.GetGameRequest(game_id=game_id)).game
    assert game.status == pb.GAME_STATUS_FINISHED and game.version == version
    md = auth(token)
    for call, request in (
        (stub.Undo, pb.UndoRequest(game_id=game_id)),
        (stub.RequestUndo, pb.RequestUndoRequest(game_id=game_id, to_version=version - 1)),
        (stub.RespondUndo, pb.RespondUndoRequest(game_id=game_id, approve=True)),
        (stub.RespondUndo, pb.RespondUndoRequest(game_id=game_id, approve=False)),
    ):
        failure = expect_error(call, request, metadata=md)
        assert (failure.code, failure.reason) == (
            grpc.StatusCode.FAILED_PRECONDITION, "GAME_OVER"
        ), failure  # fmt: skip
    legal = stub.ListLegalActions(pb.ListLegalActionsRequest(game_id=game_id), metadata=md)
    assert not legal.can_undo and not legal.undo_versions and not legal.actions
    assert stub.GetGame(pb.GetGameRequest(game_id=game_id)).game.version == version


def test_a_game_of_one_seat_offers_no_undo_request(
    stub: annales_pb2_grpc.GameServiceStub,
) -> None:
    """Solo: ListLegalActions never offers undo_versions, and RequestUndo is refused
    (UNDO_NOT_A_BOUNDARY: not one of the versions offered) without changing the game."""
    game_id, token = _solo(stub, "solo-undo-request-seed-0123")
    md = auth(token)
    for _ in range(12):
        version = _play(stub, game_id, token, 1)
        legal = stub.ListLegalActions(pb.ListLegalActionsRequest(game_id=game_id), metadata=md)
        assert not legal.undo_versions
        failure = expect_error(stub.RequestUndo,
                               pb.RequestUndoRequest(game_id=game_id, to_version=version - 1),
                               metadata=md)  # fmt: skip
        assert (failure.code, failure.reason) == (
            grpc.StatusCode.FAILED_PRECONDITION, "UNDO_NOT_A_BOUNDARY"
        ), failure  # fmt: skip
        assert stub.GetGame(pb.GetGameRequest(game_id=game_id)).game.version == version


def test_the_judge_reads_game_created_in_full(stub: annales_pb2_grpc.GameServiceStub) -> None:
    """The judge's GameCreated carries the commitment scheme and key_digests, as every
    seat's and the spectator's does."""
    created = stub.CreateGame(
        pb.CreateGameRequest(game_type=pb.GAME_TYPE_RISE_AND_FALL, seat_names=["a", "b"])
    )
    judge = auth(created.judge_token)
    for metadata in (judge, auth(created.seat_tokens[0].token), ()):
        first = stub.GetHistory(pb.GetHistoryRequest(game_id=created.game_id, page_size=1),
                                metadata=metadata).events[0]  # fmt: skip
        header = first.kernel.game_created
        assert header.seed_commitment_scheme == "sha256-nonce-seed", metadata
        assert header.key_digests and header.seed_commitment == created.seed_commitment
    watched = next(iter(stub.WatchGame(pb.WatchGameRequest(game_id=created.game_id),
                                       metadata=judge)))  # fmt: skip
    header = watched.events[0].kernel.game_created
    assert header.seed_commitment_scheme == "sha256-nonce-seed" and header.key_digests


def test_repeated_seat_names_name_the_field(stub: annales_pb2_grpc.GameServiceStub) -> None:
    """Two seats of one name: INVALID_FIELD with field ``seat_names`` (not the options)."""
    for game_type in (pb.GAME_TYPE_RISE_AND_FALL, pb.GAME_TYPE_TAPESTRY, pb.GAME_TYPE_IMPERIUM):
        failure = expect_error(
            stub.CreateGame, pb.CreateGameRequest(game_type=game_type, seat_names=["a", "a"])
        )
        assert failure.reason == "INVALID_FIELD" and failure.metadata == {"field": "seat_names"}
        assert "repeated: ['a']" in failure.message
