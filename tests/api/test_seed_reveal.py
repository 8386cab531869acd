"""The seed and the nonce of its commitment in ``GameSummary``, through a real gRPC server.

A game commits to ``SHA-256(nonce || seed)`` at creation. ``GameSummary`` (GetGame, GetView,
ListGames) reveals ``seed`` and ``nonce`` together once the game has ended, and neither
before, so a client checks the commitment from GetGame alone.
"""

from __future__ import annotations

import hashlib
import time
import uuid

from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc

from tests.api.helpers import auth

#: seconds the read models may take to show a version (ListGames waits at most 1 s for them
#: itself, then answers with what they hold: on a loaded machine they can be further behind)
READ_MODEL_DELAY = 30.0


def _listed(stub: annales_pb2_grpc.GameServiceStub, player: str, version: int) -> pb.GameSummary:
    """The one game ``player`` sits at, as ListGames (the read models) shows it once they
    have reached ``version``."""
    deadline = time.monotonic() + READ_MODEL_DELAY
    while True:
        games = stub.ListGames(pb.ListGamesRequest(player=player)).games
        assert len(games) <= 1, games
        if games and games[0].version >= version:
            return games[0]
        assert time.monotonic() < deadline, f"the read models never reached version {version}"
        time.sleep(0.05)


def _finish(stub: annales_pb2_grpc.GameServiceStub, game_id: str, token: str, pick: int) -> None:
    """Play a solo game to its end, the legal action at index ``pick`` each time."""
    for _ in range(3000):
        listed = stub.ListLegalActions(
            pb.ListLegalActionsRequest(game_id=game_id), metadata=auth(token)
        )
        if not listed.actions:
            return
        stub.SubmitAction(
            pb.SubmitActionRequest(
                game_id=game_id, action=listed.actions[pick], expected_version=listed.version
            ),
            metadata=auth(token),
        )
    raise AssertionError(f"game {game_id} did not end in 3000 actions")


def test_seed_and_nonce_revealed_together_at_the_end(
    stub: annales_pb2_grpc.GameServiceStub,
) -> None:
    """Unfinished: seed and nonce empty in GetGame, GetView and ListGames. Finished: both
    set, the nonce 32 bytes, and SHA-256(nonce || seed) is the commitment CreateGame gave,
    from GetGame's summary alone (at the head and at an earlier version alike)."""
    player = f"nonce-{uuid.uuid4().hex[:12]}"
    created = stub.CreateGame(
        pb.CreateGameRequest(game_type=pb.GAME_TYPE_TAPESTRY, seat_names=[player], seed="4821")
    )
    token = created.seat_tokens[0].token
    game_id = created.game_id
    running = [
        stub.GetGame(pb.GetGameRequest(game_id=game_id)).game,
        stub.GetView(pb.GetViewRequest(game_id=game_id), metadata=auth(token)).game,
        _listed(stub, player, created.version),
    ]
    for summary in running:
        assert summary.status != pb.GAME_STATUS_FINISHED
        assert summary.seed == "" and summary.nonce == ""
        assert summary.seed_commitment == created.seed_commitment
    assert created.seed_commitment != hashlib.sha256(b"4821").hexdigest()
    _finish(stub, game_id, token, 0)
    head = stub.GetGame(pb.GetGameRequest(game_id=game_id)).game
    assert head.status == pb.GAME_STATUS_FINISHED
    earlier = stub.GetGame(pb.GetGameRequest(game_id=game_id, version=2)).game
    finished = [
        head,
        earlier,
        stub.GetView(pb.GetViewRequest(game_id=game_id), metadata=auth(token)).game,
        _listed(stub, player, head.version),
    ]
    for summary in finished:
        nonce, seed = bytes.fromhex(summary.nonce), bytes.fromhex(summary.seed)
        assert seed == b"4821" and len(nonce) == 32
        assert hashlib.sha256(nonce + seed).hexdigest() == summary.seed_commitment
        assert summary.seed_commitment == created.seed_commitment
    assert len({s.nonce for s in finished}) == 1


def test_two_finished_games_reveal_their_own_nonces(
    stub: annales_pb2_grpc.GameServiceStub,
) -> None:
    """Two games from one seed reveal different nonces, each matching its own commitment."""
    revealed = []
    for _ in range(2):
        created = stub.CreateGame(
            pb.CreateGameRequest(
                game_type=pb.GAME_TYPE_TAPESTRY, seat_names=["ann"], seed="same-seed"
            )
        )
        _finish(stub, created.game_id, created.seat_tokens[0].token, -1)
        summary = stub.GetGame(pb.GetGameRequest(game_id=created.game_id)).game
        digest = hashlib.sha256(bytes.fromhex(summary.nonce + summary.seed)).hexdigest()
        assert digest == created.seed_commitment
        revealed.append(summary)
    assert revealed[0].nonce != revealed[1].nonce
    assert revealed[0].seed_commitment != revealed[1].seed_commitment
