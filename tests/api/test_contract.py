"""The API contract through a real server: tokens, the judge, idempotent creation,
fewer round trips, typed options, validation sentences and reflection v1/v1alpha."""

from __future__ import annotations

import base64
import json
import threading
import time
import uuid
from pathlib import Path

import grpc
import pytest
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc
from annales.v1 import riseandfall_pb2 as rpb
from annales.v1 import tournament_pb2 as tpb
from annales.v1 import tournament_pb2_grpc as tpb_grpc
from grpc_reflection.v1alpha import reflection_pb2 as refl

from service.store.config import StoreConfig
from tests.api.conftest import ServerProcess, start_server, stop_server
from tests.api.helpers import (
    Game,
    auth,
    create_game,
    create_imperium_game,
    create_tapestry_game,
    expect_error,
    long_seed,
)

UNAUTH = grpc.StatusCode.UNAUTHENTICATED
DENIED = grpc.StatusCode.PERMISSION_DENIED


def _create(stub: annales_pb2_grpc.GameServiceStub, **fields: object) -> pb.CreateGameResponse:
    request = pb.CreateGameRequest(
        game_type=pb.GAME_TYPE_RISE_AND_FALL, seat_names=["a", "b", "c"], **fields
    )
    return stub.CreateGame(request)  # type: ignore[no-any-return]


def _game(answer: pb.CreateGameResponse, seed: str = "") -> Game:
    tokens = [t.token for t in sorted(answer.seat_tokens, key=lambda t: t.seat)]
    return Game(answer.game_id, tokens, seed, answer.version, answer.seed_commitment)


# -- 2. token errors -------------------------------------------------------------------------
def _bad_tokens(game: Game, other: Game) -> dict[str, str]:
    token = game.tokens[0]
    game_id, seat, secret = token.rsplit(".", 2)
    flipped = secret[:-1] + ("A" if secret[-1] != "A" else "B")
    return {
        "garbage": "garbage",
        "garbage bytes": base64.b64encode(b"\x00\xff\x10 junk").decode(),
        "truncated": token[: len(token) // 2],
        "forged secret": f"{game_id}.{seat}.{flipped}",
        "renumbered seat": f"{game_id}.7.{secret}",
        "wrong prefix": f"x{token}",
        "other game id with this secret": f"{other.game_id}.{seat}.{secret}",
        "forged judge": f"{game_id}.judge.{secret}",
        "unknown game": f"{uuid.uuid4().hex}.0.{secret}",
        "dots only": "..",
        "very long": "a" * 300,
    }


@pytest.mark.parametrize("method", ["GetView", "GetGame", "SubmitAction", "GetHistory"])
def test_anything_but_a_valid_token_of_this_game_is_bad_token(
    stub: annales_pb2_grpc.GameServiceStub, method: str
) -> None:
    """Garbage, truncated, forged, renumbered, wrong-prefix tokens and a token naming this
    game with another game's secret: UNAUTHENTICATED BAD_TOKEN, never WRONG_GAME_TOKEN."""
    game, other = create_game(stub, seats=2), create_game(stub, seats=2)
    request = {
        "GetView": pb.GetViewRequest(game_id=game.game_id),
        "GetGame": pb.GetGameRequest(game_id=game.game_id),
        "SubmitAction": pb.SubmitActionRequest(game_id=game.game_id, action=pb.Action()),
        "GetHistory": pb.GetHistoryRequest(game_id=game.game_id),
    }[method]
    for case, token in _bad_tokens(game, other).items():
        got = expect_error(getattr(stub, method), request, metadata=auth(token))
        assert (got.code, got.reason) == (UNAUTH, "BAD_TOKEN"), (case, got)
        assert "another game" not in got.message, case


def test_a_valid_token_of_another_game_is_wrong_game_token(
    stub: annales_pb2_grpc.GameServiceStub,
) -> None:
    """A genuine seat or judge token of another game: PERMISSION_DENIED WRONG_GAME_TOKEN."""
    game = create_game(stub, seats=2)
    other = _create(stub, seed=long_seed("other"))
    for token in [other.seat_tokens[1].token, other.judge_token]:
        got = expect_error(
            stub.GetView, pb.GetViewRequest(game_id=game.game_id), metadata=auth(token)
        )
        assert (got.code, got.reason) == (DENIED, "WRONG_GAME_TOKEN"), got


# -- 8. the judge ----------------------------------------------------------------------------
def _play(
    stub: annales_pb2_grpc.GameServiceStub, game: Game, steps: int, until_hidden: bool = False
) -> int:
    """Play the first legal action ``steps`` times (Rise & Fall; with ``until_hidden``, stop
    once a spectator's history has a redacted event); the version reached."""
    version = game.version
    for _ in range(steps):
        if until_hidden:
            events = stub.GetHistory(pb.GetHistoryRequest(game_id=game.game_id)).events
            if any(e.redacted for e in events):
                break
        state = stub.GetGame(pb.GetGameRequest(game_id=game.game_id)).game
        if not state.pending.seats:
            break
        seat = state.pending.seats[0]
        legal = stub.ListLegalActions(
            pb.ListLegalActionsRequest(game_id=game.game_id), metadata=game.md(seat)
        )
        answer = stub.SubmitAction(
            pb.SubmitActionRequest(
                game_id=game.game_id, action=legal.actions[0], expected_version=legal.version
            ),
            metadata=game.md(seat),
        )
        version = answer.version
    return version


def test_the_judge_reads_everything_and_never_acts(
    stub: annales_pb2_grpc.GameServiceStub,
) -> None:
    """The judge's GetView holds every seat's own view; its history shows the sealed cards
    that spectators see blank; every command is PERMISSION_DENIED JUDGE_CANNOT_ACT."""
    answer = _create(stub, seed=long_seed("judge"))
    game, judge = _game(answer), auth(answer.judge_token)
    assert answer.judge_token and answer.judge_token not in [t.token for t in answer.seat_tokens]
    version = _play(stub, game, 80, until_hidden=True)
    view = stub.GetView(pb.GetViewRequest(game_id=game.game_id), metadata=judge)
    assert view.judge and view.seat == -1 and len(view.seat_views) == 3
    for seat in range(3):
        own = stub.GetView(pb.GetViewRequest(game_id=game.game_id), metadata=game.md(seat))
        assert view.seat_views[seat] == own.view
    past = stub.GetView(pb.GetViewRequest(game_id=game.game_id, version=2), metadata=judge)
    assert past.game.version == 2 and len(past.seat_views) == 3
    full = stub.GetHistory(pb.GetHistoryRequest(game_id=game.game_id), metadata=judge).events
    public = stub.GetHistory(pb.GetHistoryRequest(game_id=game.game_id)).events
    assert [e.hash for e in full] == [e.hash for e in public] and len(full) == version
    assert not any(e.redacted for e in full)
    hidden = [e.seq for e in public if e.redacted]
    assert hidden, "a Rise & Fall game soon has a sealed card choice"
    for seq in hidden:
        assert full[seq - 1] != public[seq - 1]
    watched = next(iter(stub.WatchGame(pb.WatchGameRequest(game_id=game.game_id), metadata=judge)))
    assert not any(e.redacted for e in watched.events)
    legal = stub.ListLegalActions(pb.ListLegalActionsRequest(game_id=game.game_id), metadata=judge)
    assert legal.seat == -1 and not legal.actions and legal.version == version
    refusals = [
        expect_error(stub.SubmitAction, pb.SubmitActionRequest(game_id=game.game_id,
                     action=pb.Action(rise_and_fall={})), metadata=judge),
        expect_error(stub.Undo, pb.UndoRequest(game_id=game.game_id), metadata=judge),
        expect_error(stub.RequestUndo, pb.RequestUndoRequest(game_id=game.game_id,
                     to_version=2), metadata=judge),
        expect_error(stub.RespondUndo, pb.RespondUndoRequest(game_id=game.game_id,
                     approve=True), metadata=judge),
    ]  # fmt: skip
    for got in refusals:
        assert (got.code, got.reason) == (DENIED, "JUDGE_CANNOT_ACT"), got
    assert stub.GetGame(pb.GetGameRequest(game_id=game.game_id)).game.head_version == version


def test_the_judge_exports_and_verifies_an_unfinished_game_in_full(
    stub: annales_pb2_grpc.GameServiceStub,
) -> None:
    """The judge's record of a running game carries the seed and re-executes; a spectator's
    does not carry it; a changed byte in the judge's record fails."""
    seed = long_seed("judge-record")
    answer = _create(stub, seed=seed)
    game = _game(answer, seed)
    _play(stub, game, 10)
    full = stub.ExportRecord(
        pb.ExportRecordRequest(game_id=game.game_id), metadata=auth(answer.judge_token)
    )
    assert full.full and full.complete
    header = json.loads(full.record.split(b"\n", 1)[0])
    assert header["seed"] == seed.encode().hex()
    report = stub.VerifyRecord(pb.VerifyRecordRequest(record=full.record))
    assert report.ok and report.reexecuted, report.message
    spectator = stub.ExportRecord(pb.ExportRecordRequest(game_id=game.game_id))
    assert not spectator.full and b'"seed":' not in spectator.record.split(b"\n", 1)[0]
    assert seed.encode().hex().encode() not in spectator.record
    tampered = full.record.replace(b'"seat":1', b'"seat":2', 1)
    assert tampered != full.record
    assert not stub.VerifyRecord(pb.VerifyRecordRequest(record=tampered)).ok
    wrong_seed = full.record.replace(seed.encode().hex().encode(), b"00" * 8, 1)
    bad = stub.VerifyRecord(pb.VerifyRecordRequest(record=wrong_seed))
    assert not bad.ok and "commitment" in bad.message


# -- 12. fewer round trips -----------------------------------------------------------------
def test_submit_action_returns_the_pending_decision_and_next_actions(
    stub: annales_pb2_grpc.GameServiceStub,
) -> None:
    """SubmitActionResponse.pending equals GetGame's at the new version; next_actions equal
    ListLegalActions when the caller must decide again, and are empty otherwise."""
    game = create_game(stub, seats=2)
    checked_next = 0
    for _ in range(30):
        state = stub.GetGame(pb.GetGameRequest(game_id=game.game_id)).game
        if not state.pending.seats:
            break
        seat = state.pending.seats[0]
        legal = stub.ListLegalActions(
            pb.ListLegalActionsRequest(game_id=game.game_id), metadata=game.md(seat)
        )
        answer = stub.SubmitAction(
            pb.SubmitActionRequest(
                game_id=game.game_id,
                action=legal.actions[-1],
                expected_version=legal.version,
                include_next_actions=True,
            ),
            metadata=game.md(seat),
        )
        after = stub.GetGame(pb.GetGameRequest(game_id=game.game_id)).game
        assert answer.pending == after.pending and after.version == answer.version
        listed = stub.ListLegalActions(
            pb.ListLegalActionsRequest(game_id=game.game_id), metadata=game.md(seat)
        )
        if seat in answer.pending.seats:
            assert list(answer.next_actions) == list(listed.actions)
            checked_next += bool(listed.actions)
        else:
            assert not answer.next_actions
    assert checked_next, "some seat acted twice in a row"
    plain = pb.SubmitActionRequest(game_id=game.game_id)
    assert not plain.include_next_actions  # off by default: no cost for clients not asking


# -- 12. idempotent creation -----------------------------------------------------------------
def test_create_game_with_a_key_is_idempotent(stub: annales_pb2_grpc.GameServiceStub) -> None:
    """A retried creation returns the same game and tokens; the same key with other
    parameters is IDEMPOTENCY_KEY_REUSED; a short key is INVALID_FIELD."""
    key = f"create-{uuid.uuid4()}"
    seed = long_seed("create")
    first = _create(stub, seed=seed, idempotency_key=key)
    again = _create(stub, seed=seed, idempotency_key=key)
    assert again == first
    assert stub.GetGame(pb.GetGameRequest(game_id=first.game_id)).game.head_version == (
        first.version
    )
    other = expect_error(_create, stub, seed=seed + "x", idempotency_key=key)
    assert (other.code, other.reason, other.metadata) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "IDEMPOTENCY_KEY_REUSED",
        {"field": "idempotency_key"},
    )
    short = expect_error(_create, stub, idempotency_key="k1")
    assert (short.reason, short.metadata["field"]) == ("INVALID_FIELD", "idempotency_key")
    fresh = _create(stub, seed=seed, idempotency_key=f"create-{uuid.uuid4()}")
    assert fresh.game_id != first.game_id


def test_concurrent_identical_creations_create_one_game(
    stub: annales_pb2_grpc.GameServiceStub,
) -> None:
    """Eight identical CreateGame requests at once: one game, eight identical answers."""
    key = f"race-{uuid.uuid4()}"
    answers: list[pb.CreateGameResponse] = []
    errors: list[Exception] = []

    def create() -> None:
        try:
            answers.append(_create(stub, seed="race", idempotency_key=key))
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=create) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors and len(answers) == 8
    assert all(answer == answers[0] for answer in answers)


def _pg_args(config: StoreConfig) -> tuple[str, ...]:
    return (
        "--no-projections", "--store", "postgres", "--pg-dbname", config.pg_dbname,
        "--pg-host", config.pg_host, "--pg-port", str(config.pg_port),
        "--pg-user", config.pg_user,
    )  # fmt: skip


@pytest.mark.parametrize("store", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_the_creation_key_survives_a_restart(
    tmp_path: Path, store: str, request: pytest.FixtureRequest
) -> None:
    """The key is kept in the store (SQLite and PostgreSQL): after a restart the retry gets
    the same game, and the judge token still works."""
    key = f"restart-{uuid.uuid4()}"
    args: tuple[str, ...] = ("--no-projections",)
    if store == "postgres":
        args = _pg_args(request.getfixturevalue("pg_config"))
    running: ServerProcess = start_server(tmp_path, args)
    try:
        with running.channel() as channel:
            first = _create(annales_pb2_grpc.GameServiceStub(channel), idempotency_key=key)
    finally:
        assert stop_server(running) == 0
    running = start_server(tmp_path, args)
    try:
        with running.channel() as channel:
            stub = annales_pb2_grpc.GameServiceStub(channel)
            assert _create(stub, idempotency_key=key) == first
            judge = auth(first.judge_token)
            view = stub.GetView(pb.GetViewRequest(game_id=first.game_id), metadata=judge)
            assert view.judge
    finally:
        assert stop_server(running) == 0


# -- 7 and 9. typed options, INVALID_FIELD sentences -----------------------------------------
def test_summaries_carry_the_typed_options(stub: annales_pb2_grpc.GameServiceStub) -> None:
    """GetGame's summary has the typed options (defaults filled) next to the deprecated
    JSON, for every game type."""
    rise = create_game(stub, seats=2, trophies=5)
    summary = stub.GetGame(pb.GetGameRequest(game_id=rise.game_id)).game
    assert summary.options.rise_and_fall.trophies == 5
    assert summary.options.rise_and_fall.world == rpb.RISE_AND_FALL_WORLD_MODE_RANDOM
    assert json.loads(summary.options_json)["trophies"] == 5
    deadline = time.monotonic() + 30  # the read models, on a loaded machine further behind
    while True:
        answer = stub.ListGames(pb.ListGamesRequest(page_size=500))
        listed = [g for g in answer.games if g.game_id == rise.game_id]
        if listed or not answer.behind:
            break
        assert time.monotonic() < deadline, "the read models never caught up"
        time.sleep(0.05)
    assert listed and listed[0].options == summary.options
    tapestry = create_tapestry_game(stub, seats=2)
    options = stub.GetGame(pb.GetGameRequest(game_id=tapestry.game_id)).game.options
    assert options.WhichOneof("game") == "tapestry"
    imperium = create_imperium_game(stub, seats=2, nations=["romans", "celts"])
    options = stub.GetGame(pb.GetGameRequest(game_id=imperium.game_id)).game.options
    assert list(options.imperium.nations) == ["romans", "celts"]


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        ({"seat_names": ["solo"]}, "seat_names", "2 to 4 seats"),
        ({"seat_names": list("abcde")}, "seat_names", "not 5"),
        ({"options": pb.GameOptions(rise_and_fall={"trophies": 99})},
         "options.rise_and_fall.trophies", "at most 6"),
        ({"options": pb.GameOptions(tapestry={})}, "options", "tapestry"),
    ],
)  # fmt: skip
def test_seat_count_and_options_errors_are_invalid_field_sentences(
    stub: annales_pb2_grpc.GameServiceStub, fields: dict[str, object], field: str, words: str
) -> None:
    """Seat-count and options errors: INVALID_FIELD with the field, a sentence without
    msgspec's backquotes or ``$.`` paths."""
    request = pb.CreateGameRequest(game_type=pb.GAME_TYPE_RISE_AND_FALL, seat_names=["a", "b"])
    for name, value in fields.items():
        if name == "seat_names":
            del request.seat_names[:]
            request.seat_names.extend(value)  # type: ignore[arg-type]
        else:
            getattr(request, name).CopyFrom(value)
    got = expect_error(stub.CreateGame, request)
    assert (got.code, got.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_FIELD"), got
    assert got.metadata == {"field": field} and words in got.message, got
    assert "`" not in got.message and "$." not in got.message


def test_a_setup_the_game_refuses_names_the_options(
    stub: annales_pb2_grpc.GameServiceStub,
) -> None:
    """Unknown Imperium nations: INVALID_FIELD on options.imperium, in words."""
    got = expect_error(create_imperium_game, stub, seats=2, nations=["atlantis", "qin"])
    assert (got.reason, got.metadata) == ("INVALID_FIELD", {"field": "options.imperium"}), got
    assert "atlantis" in got.message


def test_too_large_names_its_limit(stub: annales_pb2_grpc.GameServiceStub) -> None:
    """TOO_LARGE carries `field` and `limit`."""
    got = expect_error(_create, stub, seed="s" * 1000)
    assert (got.code, got.reason) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "TOO_LARGE")
    assert got.metadata == {"field": "seed", "limit": "256"}


def test_a_seat_that_is_not_due_lists_no_actions(
    stub: annales_pb2_grpc.GameServiceStub,
) -> None:
    """ListLegalActions for a seat that is not due: OK, no actions (documented)."""
    game = create_game(stub, seats=3)
    pending = stub.GetGame(pb.GetGameRequest(game_id=game.game_id)).game.pending.seats
    idle = next(s for s in range(3) if s not in pending)
    legal = stub.ListLegalActions(
        pb.ListLegalActionsRequest(game_id=game.game_id), metadata=game.md(idle)
    )
    assert legal.seat == idle and not legal.actions and list(legal.pending.seats) == pending


# -- 10. reflection v1 and v1alpha -----------------------------------------------------------
@pytest.mark.parametrize("package", ["grpc.reflection.v1", "grpc.reflection.v1alpha"])
def test_reflection_v1_and_v1alpha(channel: grpc.Channel, package: str) -> None:
    """Both reflection services list the API and describe annales.v1.GameService together
    with errors.proto (the ErrorReason enum)."""
    call = channel.stream_stream(
        f"/{package}.ServerReflection/ServerReflectionInfo",
        request_serializer=refl.ServerReflectionRequest.SerializeToString,
        response_deserializer=refl.ServerReflectionResponse.FromString,
    )
    requests = [
        refl.ServerReflectionRequest(list_services=""),
        refl.ServerReflectionRequest(file_containing_symbol="annales.v1.GameService"),
    ]
    listed, described = list(call(iter(requests), timeout=10))
    names = {s.name for s in listed.list_services_response.service}
    assert {"annales.v1.GameService", "grpc.reflection.v1.ServerReflection",
            "grpc.reflection.v1alpha.ServerReflection"} <= names  # fmt: skip
    files = described.file_descriptor_response.file_descriptor_proto
    assert any(b"annales/v1/errors.proto" in f for f in files)


def test_a_record_that_is_not_utf8_is_a_failed_verification(
    stub: annales_pb2_grpc.GameServiceStub,
) -> None:
    """Bytes that are not UTF-8 in the header line: a typed non-OK verification (the
    full-record check answered INTERNAL; found by the fuzzer)."""
    for record in (b'{"record":"\xee\x80"}\n', b"\xff\xfe\n{}", b'{"seed":"zz"}\n'):
        report = stub.VerifyRecord(pb.VerifyRecordRequest(record=record))
        assert not report.ok and report.message


def test_a_tournament_organiser_judges_its_games(
    channel: grpc.Channel, stub: annales_pb2_grpc.GameServiceStub
) -> None:
    """The organiser token of a tournament is the judge of its games (and of no other)."""
    tournaments = tpb_grpc.TournamentServiceStub(channel)
    created = tournaments.CreateTournament(
        tpb.CreateTournamentRequest(
            game_type=pb.GAME_TYPE_RISE_AND_FALL, format=tpb.TOURNAMENT_FORMAT_SWISS,
            rounds=1, table_size=2, name="judged", master_seed=long_seed("judged"),
        )
    )  # fmt: skip
    organiser = auth(created.organiser_token)
    for name in ("Ann", "Bob"):
        tournaments.RegisterEntrant(
            tpb.RegisterEntrantRequest(
                tournament_id=created.tournament_id,
                name=name,
                kind=tpb.TOURNAMENT_ENTRANT_KIND_PERSON,
            ),
            metadata=organiser,
        )
    started = tournaments.StartTournament(
        tpb.StartTournamentRequest(tournament_id=created.tournament_id), metadata=organiser
    )
    game_id = started.rounds[0].games[0].game_id
    view = stub.GetView(pb.GetViewRequest(game_id=game_id), metadata=organiser)
    assert view.judge and len(view.seat_views) == 2
    refused = expect_error(stub.Undo, pb.UndoRequest(game_id=game_id), metadata=organiser)
    assert refused.reason == "JUDGE_CANNOT_ACT"
    elsewhere = create_game(stub, seats=2)
    other = expect_error(
        stub.GetView, pb.GetViewRequest(game_id=elsewhere.game_id), metadata=organiser
    )
    assert (other.code, other.reason) == (DENIED, "WRONG_GAME_TOKEN")


def test_options_the_proto_cannot_hold_leave_the_typed_options_empty() -> None:
    """A summary of options from an older ruleset (a key the proto lacks) still answers:
    typed options empty, options_json complete."""
    from service.api.games import typed_options

    assert typed_options("riseandfall", {"trophies": 5, "retired_option": 1}) == pb.GameOptions()
    assert typed_options("riseandfall", {"trophies": 5}).rise_and_fall.trophies == 5
