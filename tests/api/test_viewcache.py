"""GetView's cache of answers (:mod:`service.api.viewcache`): a cached answer is
byte for byte the answer computed without the cache, for every seat and the judge, across
moves, an undo and older versions; a seat never receives another reader's entry; a caller
GetView refuses is refused whatever the cache holds."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc as pb_grpc

from service.api.server import RunningServer, start
from service.api.viewcache import ViewCache
from service.store.config import StoreConfig
from tests.api.helpers import Game, auth, create_game, expect_error

SEATS = 3


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """An in-process server (its cache reachable) on a fresh SQLite file, no projections."""
    directory: Path = tmp_path_factory.mktemp("viewcache")
    config = StoreConfig(kind="sqlite", path=str(directory / "events.db"))
    server = start(config, port=0, projections=False)
    yield server
    server.stop(1.0)


@pytest.fixture(scope="module")
def stub(running: RunningServer) -> Iterator[pb_grpc.GameServiceStub]:
    """A stub on the in-process server."""
    with grpc.insecure_channel(f"127.0.0.1:{running.port}") as channel:
        yield pb_grpc.GameServiceStub(channel)  # type: ignore[no-untyped-call]


def _views(running: RunningServer) -> ViewCache:
    assert running.views is not None
    return running.views


def _raw(stub: pb_grpc.GameServiceStub, game: Game, reader: str, version: int | None) -> bytes:
    request = pb.GetViewRequest(game_id=game.game_id)
    if version is not None:
        request.version = version
    answer: pb.GetViewResponse = stub.GetView(request, metadata=auth(reader))
    return answer.SerializeToString()


def _uncached(
    running: RunningServer, stub: pb_grpc.GameServiceStub, game: Game, reader: str,
    version: int | None,
) -> bytes:  # fmt: skip
    """The answer computed with the cache turned off (nothing read from it, nothing stored)."""
    views = _views(running)
    entries, views.entries = views.entries, 0
    try:
        return _raw(stub, game, reader, version)
    finally:
        views.entries = entries


def _check_all(
    running: RunningServer, stub: pb_grpc.GameServiceStub, game: Game, judge: str,
    version: int | None = None,
) -> dict[str, bytes]:  # fmt: skip
    """Every reader's answer: the first (stored) and the second (a hit) equal the uncached
    one; seats read from their own entries only."""
    views = _views(running)
    readers = {**{f"seat {s}": game.tokens[s] for s in range(SEATS)}, "judge": judge}
    answers = {}
    for name, token in readers.items():
        expected = _uncached(running, stub, game, token, version)
        first = _raw(stub, game, token, version)
        hits = views.hits
        second = _raw(stub, game, token, version)
        assert views.hits == hits + 1, f"{name}: the second read is served from the cache"
        assert first == expected and second == expected, name
        answers[name] = expected
    assert len(set(answers.values())) == len(answers), "every reader has its own answer"
    for seat in range(SEATS):
        decoded = pb.GetViewResponse.FromString(answers[f"seat {seat}"])
        assert decoded.seat == seat and not decoded.judge
    assert pb.GetViewResponse.FromString(answers["judge"]).judge
    return answers


def _play(stub: pb_grpc.GameServiceStub, game: Game) -> int:
    """Submit the pending seat's first legal action; the new version."""
    legal = stub.ListLegalActions(
        pb.ListLegalActionsRequest(game_id=game.game_id), metadata=game.md(0)
    )
    seat = legal.pending.seats[0]
    actions = stub.ListLegalActions(
        pb.ListLegalActionsRequest(game_id=game.game_id), metadata=game.md(seat)
    ).actions
    answer = stub.SubmitAction(
        pb.SubmitActionRequest(game_id=game.game_id, action=actions[0]), metadata=game.md(seat)
    )
    return int(answer.version)


def test_cached_views_equal_uncached_ones_for_every_reader_across_moves_and_an_undo(
    running: RunningServer, stub: pb_grpc.GameServiceStub
) -> None:
    """Byte-for-byte equality at every step, at the head and at older versions."""
    answer = stub.CreateGame(
        pb.CreateGameRequest(
            game_type=pb.GAME_TYPE_RISE_AND_FALL,
            seat_names=[f"p{i}" for i in range(SEATS)],
            seed="view-cache-seed-0123456789",
        )
    )
    game = Game(
        answer.game_id, [t.token for t in answer.seat_tokens], "", answer.version,
        answer.seed_commitment,
    )  # fmt: skip
    judge = answer.judge_token
    before = _check_all(running, stub, game, judge)
    versions = [answer.version]
    undone = False
    for _ in range(12):
        versions.append(_play(stub, game))
        after = _check_all(running, stub, game, judge)
        assert after["seat 0"] != before["seat 0"], "a new head version is a new entry"
        before = after
        for seat in range(SEATS):
            legal = stub.ListLegalActions(
                pb.ListLegalActionsRequest(game_id=game.game_id), metadata=game.md(seat)
            )
            if legal.can_undo and not undone:
                undo = stub.Undo(pb.UndoRequest(game_id=game.game_id), metadata=game.md(seat))
                assert undo.version > versions[-1], "an undo appends: versions only grow"
                versions.append(int(undo.version))
                undone = True
                _check_all(running, stub, game, judge)
    assert undone, "the game reached a point where a seat could undo"
    for version in versions[:: max(1, len(versions) // 4)]:
        _check_all(running, stub, game, judge, version)


def test_a_refused_caller_is_refused_whatever_the_cache_holds(
    running: RunningServer, stub: pb_grpc.GameServiceStub
) -> None:
    """Spectators and other games' tokens never reach a cached entry."""
    game = create_game(stub, seats=SEATS)
    other = create_game(stub, seats=SEATS)
    for seat in range(SEATS):
        stub.GetView(pb.GetViewRequest(game_id=game.game_id), metadata=game.md(seat))
    spectator = expect_error(stub.GetView, pb.GetViewRequest(game_id=game.game_id))
    assert spectator.reason == "TOKEN_REQUIRED"
    foreign = expect_error(
        stub.GetView, pb.GetViewRequest(game_id=game.game_id), metadata=other.md(0)
    )
    assert foreign.reason == "WRONG_GAME_TOKEN"
    running_game = expect_error(stub.GetView, pb.GetViewRequest(game_id=game.game_id, seat=1))
    assert running_game.reason == "GAME_NOT_FINISHED"


def test_the_cache_evicts_the_least_recently_used_entry() -> None:
    """At capacity, storing evicts the entry read least recently; capacity 0 stores nothing."""
    a, b, c = (pb.GetViewResponse(seat=seat) for seat in range(3))
    cache = ViewCache(2)
    cache.put(("g", "r", 1, 1, 0), a)
    cache.put(("g", "r", 1, 1, 1), b)
    assert cache.get(("g", "r", 1, 1, 0)) is a
    cache.put(("g", "r", 1, 1, 2), c)
    assert cache.get(("g", "r", 1, 1, 1)) is None
    assert cache.get(("g", "r", 1, 1, 0)) is a and cache.get(("g", "r", 1, 1, 2)) is c
    assert len(cache) == 2
    off = ViewCache(0)
    off.put(("g", "r", 1, 1, 0), a)
    assert off.get(("g", "r", 1, 1, 0)) is None and len(off) == 0


def test_a_finished_game_read_without_a_token_equals_the_seats_own(
    running: RunningServer, stub: pb_grpc.GameServiceStub
) -> None:
    """Once over, a spectator's ``seat`` read is that seat's answer, cached or not, the seed
    revealed; the entry cached before the end (same version, older head) is not reused."""
    created = stub.CreateGame(
        pb.CreateGameRequest(game_type=pb.GAME_TYPE_TAPESTRY, seat_names=["ann"], seed="vc-solo")
    )
    game_id, token = created.game_id, created.seat_tokens[0].token
    early = _view_bytes(stub, pb.GetViewRequest(game_id=game_id, version=created.version), token)
    for _ in range(2000):  # the first legal action each time, to the end
        listed = stub.ListLegalActions(
            pb.ListLegalActionsRequest(game_id=game_id), metadata=auth(token)
        )
        if not listed.actions:
            break
        stub.SubmitAction(
            pb.SubmitActionRequest(game_id=game_id, action=listed.actions[0]),
            metadata=auth(token),
        )
    views = _views(running)
    for version in (None, created.version):
        request = pb.GetViewRequest(game_id=game_id)
        if version is not None:
            request.version = version
        entries, views.entries = views.entries, 0
        try:
            expected = _view_bytes(stub, request, token)
        finally:
            views.entries = entries
        request.seat = 0
        public = [_view_bytes(stub, request, None) for _ in range(2)]
        request.ClearField("seat")
        mine = _view_bytes(stub, request, token)
        assert public == [expected, expected] and mine == expected
        answer = pb.GetViewResponse.FromString(expected)
        assert answer.seat == 0 and answer.game.seed
        if version is None:  # the summary is the requested version's
            assert answer.game.status == pb.GAME_STATUS_FINISHED
    assert early != expected, "the answer before the end had another head and no seed"


def _view_bytes(
    stub: pb_grpc.GameServiceStub, request: pb.GetViewRequest, token: str | None
) -> bytes:
    """The serialized answer to ``request``, with ``token`` or without one."""
    answer: pb.GetViewResponse = stub.GetView(
        request, metadata=auth(token) if token is not None else None
    )
    return answer.SerializeToString()
