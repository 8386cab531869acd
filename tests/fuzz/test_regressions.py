"""Regression tests of the server bugs the fuzzer found (one test each, same real server).

Issue "Scale-out on PostgreSQL and a reliability suite", item 4: "every call gets a typed
status, state is unchanged unless the action was legal". Each test names the input that
used to break that promise and checks the typed status now returned and that nothing changed.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc, readmodels_pb2_grpc
from annales.v1 import readmodels_pb2 as rpb

from service.api.server import start
from service.store.config import StoreConfig
from tests.api.conftest import ServerProcess, start_server, stop_server
from tests.api.helpers import Driver, Game, auth, create_game, expect_error, history

INVALID = grpc.StatusCode.INVALID_ARGUMENT
RF = pb.GAME_TYPE_RISE_AND_FALL


@pytest.fixture(scope="module")
def channel(fuzz_server: ServerProcess) -> Iterator[grpc.Channel]:
    """A channel to the module's server."""
    with fuzz_server.channel() as chan:
        yield chan


@pytest.fixture(scope="module")
def stub(channel: grpc.Channel) -> annales_pb2_grpc.GameServiceStub:
    """A GameService stub."""
    return annales_pb2_grpc.GameServiceStub(channel)  # type: ignore[no-untyped-call]


@pytest.fixture(scope="module")
def game(stub: annales_pb2_grpc.GameServiceStub) -> Game:
    """A 3-seat Rise & Fall game."""
    return create_game(stub, 3)


def _version(stub: annales_pb2_grpc.GameServiceStub, game: Game) -> int:
    return int(stub.GetGame(pb.GetGameRequest(game_id=game.game_id)).game.head_version)


@pytest.mark.parametrize("token", ["²", "٣" * 20, "0²"])
def test_page_tokens_of_other_scripts_digits_are_invalid(
    stub: annales_pb2_grpc.GameServiceStub, channel: grpc.Channel, game: Game, token: str
) -> None:
    """``"²".isdigit()`` is true but ``int("²")`` fails: page tokens used to answer INTERNAL
    (ListGames, GetHistory and the read-model calls)."""
    readmodels = readmodels_pb2_grpc.ReadModelServiceStub(channel)  # type: ignore[no-untyped-call]
    calls = [
        lambda: stub.ListGames(pb.ListGamesRequest(page_token=token)),
        lambda: stub.GetHistory(pb.GetHistoryRequest(game_id=game.game_id, page_token=token)),
        lambda: readmodels.GetLeaderboard(
            rpb.GetLeaderboardRequest(game_type=pb.GAME_TYPE_RISE_AND_FALL, page_token=token)
        ),
        lambda: readmodels.GetScoreTimeline(
            rpb.GetScoreTimelineRequest(game_id=game.game_id, page_token=token)
        ),
        lambda: readmodels.GetBalanceStats(
            rpb.GetBalanceStatsRequest(game_type=pb.GAME_TYPE_RISE_AND_FALL, page_token=token)
        ),
    ]
    for call in calls:
        error = expect_error(call)
        assert (error.code, error.reason) == (INVALID, "INVALID_FIELD"), error
        assert error.metadata.get("field") == "page_token", error


def test_history_page_token_beyond_64_bits_is_invalid(
    stub: annales_pb2_grpc.GameServiceStub, game: Game
) -> None:
    """A 30-digit page token overflowed the store's 64-bit integers (INTERNAL)."""
    error = expect_error(
        stub.GetHistory, pb.GetHistoryRequest(game_id=game.game_id, page_token="9" * 30)
    )
    assert (error.code, error.reason) == (INVALID, "INVALID_FIELD"), error
    largest = stub.GetHistory(pb.GetHistoryRequest(game_id=game.game_id, page_token="9" * 18))
    assert not largest.events and not largest.next_page_token


@pytest.mark.parametrize("seat", ["9" * 5000, "1" * 4301])
def test_token_seat_numbers_that_int_refuses_are_unauthenticated(
    stub: annales_pb2_grpc.GameServiceStub, game: Game, seat: str
) -> None:
    """A token ``<game>.<seat>.<secret>`` whose seat has over 4300 digits (which ``int()``
    refuses) answered INTERNAL. (Other scripts' digits cannot reach the server: gRPC
    metadata values are ASCII.)"""
    error = expect_error(
        stub.GetView,
        pb.GetViewRequest(game_id=game.game_id),
        metadata=auth(f"{game.game_id}.{seat}.secret"),
    )
    assert (error.code, error.reason) == (grpc.StatusCode.UNAUTHENTICATED, "BAD_TOKEN"), error


def test_idempotency_key_of_another_seat_is_refused(stub: annales_pb2_grpc.GameServiceStub) -> None:
    """Two seats sending the same command with the same key: the second seat used to get the
    first seat's result back as its own (``duplicate``) — its command silently dropped."""
    game = create_game(stub, 3)
    driver = Driver(stub, game, b"regression")
    target: tuple[int, int] | None = None
    while target is None:
        assert driver.play_one(), "the game ended before an undo request was possible"
        for seat in range(3):
            legal = stub.ListLegalActions(
                pb.ListLegalActionsRequest(game_id=game.game_id), metadata=game.md(seat)
            )
            if legal.undo_versions:
                target = (seat, legal.undo_versions[0])
                break
    seat, to_version = target
    asked = stub.RequestUndo(
        pb.RequestUndoRequest(game_id=game.game_id, to_version=to_version, idempotency_key="k1"),
        metadata=game.md(seat),
    )
    answerer, last = (seat + 1) % 3, (seat + 2) % 3
    declined = stub.RespondUndo(
        pb.RespondUndoRequest(game_id=game.game_id, approve=False, idempotency_key="k2"),
        metadata=game.md(answerer),
    )
    assert declined.version == asked.version + len(declined.events)
    before = history(stub, game.game_id)
    # The same command (decline) by another seat with the same key.
    error = expect_error(
        stub.RespondUndo,
        pb.RespondUndoRequest(game_id=game.game_id, approve=False, idempotency_key="k2"),
        metadata=game.md(last),
    )
    assert (error.code, error.reason) == (INVALID, "IDEMPOTENCY_KEY_REUSED"), error
    assert history(stub, game.game_id) == before
    # The first seat's retry still returns the first result.
    again = stub.RespondUndo(
        pb.RespondUndoRequest(game_id=game.game_id, approve=False, idempotency_key="k2"),
        metadata=game.md(answerer),
    )
    assert again.version == declined.version
    assert [e.hash for e in again.events] == [e.hash for e in declined.events]
    assert _version(stub, game) == declined.version


NUL_CALLS = (
    lambda stub: stub.GetGame(pb.GetGameRequest(game_id="\x00")),
    lambda stub: stub.GetHistory(pb.GetHistoryRequest(game_id="a\x00b")),
    lambda stub: stub.ListLegalActions(pb.ListLegalActionsRequest(game_id="\x00")),
)


def _nul_ids_are_invalid(stub: annales_pb2_grpc.GameServiceStub) -> None:
    for call in NUL_CALLS:
        error = expect_error(call, stub)
        assert (error.code, error.reason) == (INVALID, "INVALID_FIELD"), error
        assert error.metadata.get("field") == "game_id", error


def test_game_id_with_nul_is_invalid(stub: annales_pb2_grpc.GameServiceStub) -> None:
    """A game id holding a NUL character: PostgreSQL text cannot hold one, so the PostgreSQL
    store answered INTERNAL; both stores now refuse it as an invalid field."""
    _nul_ids_are_invalid(stub)


@pytest.mark.postgres
def test_game_id_with_nul_is_invalid_on_postgres(pg_config: StoreConfig, tmp_path: Path) -> None:
    """The same on a server using PostgreSQL (where the bug was: ``DataError`` → INTERNAL)."""
    running = start_server(
        tmp_path,
        (
            "--store", "postgres", "--pg-dbname", pg_config.pg_dbname,
            "--pg-host", pg_config.pg_host, "--pg-port", str(pg_config.pg_port),
            "--pg-user", pg_config.pg_user, "--readmodels", str(tmp_path / "readmodels.db"),
        ),
    )  # fmt: skip
    try:
        with running.channel() as chan:
            _nul_ids_are_invalid(annales_pb2_grpc.GameServiceStub(chan))  # type: ignore[no-untyped-call]
    finally:
        assert stop_server(running) == 0, running.output()[-4000:]
    assert "Traceback" not in running.output(), running.output()[-4000:]


def test_read_models_not_built_yet_are_unavailable(tmp_path: Path) -> None:
    """A read-model call before the projection runner has created its tables (a server just
    started, the runner slow to open its file) answered INTERNAL ("no such table"); it is
    now UNAVAILABLE ``READ_MODELS_NOT_READY`` (retry). Here the runner never runs."""
    running = start(
        StoreConfig(kind="sqlite", path=str(tmp_path / "events.db")),
        port=0,
        projections=False,
        readmodels=str(tmp_path / "never-built.db"),
    )
    try:
        with grpc.insecure_channel(f"127.0.0.1:{running.port}") as chan:
            readmodels = readmodels_pb2_grpc.ReadModelServiceStub(chan)  # type: ignore[no-untyped-call]
            for call, request in (
                (readmodels.GetLeaderboard, rpb.GetLeaderboardRequest(game_type=RF)),
                (readmodels.GetScoreTimeline, rpb.GetScoreTimelineRequest(game_id="g")),
                (readmodels.GetBalanceStats, rpb.GetBalanceStatsRequest(game_type=RF)),
            ):
                error = expect_error(call, request)
                assert (error.code, error.reason) == (
                    grpc.StatusCode.UNAVAILABLE,
                    "READ_MODELS_NOT_READY",
                ), error
    finally:
        running.stop(grace=1.0)


@pytest.mark.parametrize("text", ["x" * 1_000_000, "é" * 100_000])
def test_errors_quoting_huge_input_stay_typed(
    stub: annales_pb2_grpc.GameServiceStub, text: str
) -> None:
    """An unknown Imperium nation of 1 MB: the error message quoted it whole, the status
    overflowed the client's 16 KiB trailer limit and arrived as a bare RESOURCE_EXHAUSTED
    ("received metadata size exceeds hard limit") instead of the typed error."""
    request = pb.CreateGameRequest(
        game_type=pb.GAME_TYPE_IMPERIUM,
        seat_names=["a", "b"],
        options=pb.GameOptions(imperium={"nations": ["romans", text]}),
    )
    error = expect_error(stub.CreateGame, request)
    assert error.code == INVALID and error.reason, error
    assert len(error.message) < 1_000, len(error.message)
