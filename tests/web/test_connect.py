"""The Connect port answers every RPC exactly as the gRPC port does (one implementation, two
transports): payloads byte-identical for the same request and token, the same typed errors,
the same WatchGame stream — walked over every method of every service."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import grpc
import pytest
from annales.v1 import annales_pb2 as pb
from annales.v1 import readmodels_pb2 as rpb
from annales.v1 import tournament_pb2 as tpb
from connectrpc.errors import ConnectError
from connectrpc.protocol import ProtocolType
from google.protobuf import json_format, message_factory
from google.protobuf.descriptor import MethodDescriptor
from google.protobuf.message import Message

from tests.api.helpers import (
    Driver,
    auth,
    create_game,
    create_imperium_game,
    create_tapestry_game,
    failure,
)
from tests.web.client import Connect, reason
from tests.web.conftest import WebServer

SERVICES = [
    pb.DESCRIPTOR.services_by_name["GameService"],
    pb.DESCRIPTOR.services_by_name["DiagnosticsService"],
    rpb.DESCRIPTOR.services_by_name["ReadModelService"],
    tpb.DESCRIPTOR.services_by_name["TournamentService"],
]
METHODS = {m.full_name: m for s in SERVICES for m in s.methods}


@dataclass(frozen=True)
class Outcome:
    """What a call returned: the response bytes, or the typed error."""

    ok: bytes | None
    code: str = ""
    reason: str = ""
    message: str = ""


def via_grpc(
    channel: grpc.Channel, method: MethodDescriptor, request: Message, token: str | None
) -> list[Outcome]:
    """The call over gRPC, raw response bytes (a list: one per streamed message)."""
    path = f"/{method.containing_service.full_name}/{method.name}"
    md = auth(token) if token else None
    try:
        if method.server_streaming:
            call = channel.unary_stream(path, request_serializer=lambda m: m.SerializeToString())
            return [Outcome(canonical(method, r)) for r in call(request, metadata=md, timeout=30)]
        unary = channel.unary_unary(path, request_serializer=lambda m: m.SerializeToString())
        return [Outcome(canonical(method, unary(request, metadata=md, timeout=30)))]
    except grpc.RpcError as error:
        f = failure(error)
        return [Outcome(None, f.code.name, f.reason, f.message)]


def via_connect(
    client: Connect, method: MethodDescriptor, request: Message, token: str | None
) -> list[Outcome]:
    """The call over Connect; responses re-encoded as binary protobuf for the comparison
    (a JSON client's responses are parsed from JSON first)."""
    try:
        if method.server_streaming:
            return [Outcome(canonical(method, r)) for r in client.stream(method, request, token)]
        return [Outcome(canonical(method, client.unary(method, request, token)))]
    except ConnectError as error:
        return [Outcome(None, error.code.name, reason(error), error.message)]


def canonical(method: MethodDescriptor, answer: bytes | Message) -> bytes:
    """The deterministic encoding of a response (protobuf leaves the order of map entries
    unspecified, so two encodings of one message may differ only there)."""
    if isinstance(answer, bytes):
        answer = message_factory.GetMessageClass(method.output_type).FromString(answer)
    return answer.SerializeToString(deterministic=True)


@dataclass
class World:
    """Games and a tournament to call the methods on."""

    games: dict[str, Any]
    finished: Any
    tournament: tpb.CreateTournamentResponse


@pytest.fixture(scope="module")
def world(web: WebServer) -> World:
    """A game of each type, one finished game, and a tournament (all made over gRPC)."""
    from annales.v1 import annales_pb2_grpc, tournament_pb2_grpc

    with web.process.channel() as channel:
        stub = annales_pb2_grpc.GameServiceStub(channel)
        games = {
            "riseandfall": create_game(stub, seats=2),
            "tapestry": create_tapestry_game(stub, seats=2),
            "imperium": create_imperium_game(stub, seats=2),
        }
        for name, game in games.items():
            Driver(stub, game, f"web-{name}".encode()).play(max_steps=6)
        finished = create_game(stub, seats=2, trophies=4)
        Driver(stub, finished, b"web-finished").play()
        tournament = tournament_pb2_grpc.TournamentServiceStub(channel).CreateTournament(
            tpb.CreateTournamentRequest(
                game_type=pb.GAME_TYPE_RISE_AND_FALL,
                options=pb.GameOptions(rise_and_fall={}),
                format=tpb.TOURNAMENT_FORMAT_SWISS,
                rounds=1,
                table_size=2,
                name="web cup",
                master_seed=f"web-{uuid.uuid4().hex}",
            )
        )
    return World(games, finished, tournament)


Case = tuple[Message, str | None]


def read_cases(world: World, channel: grpc.Channel) -> dict[str, list[Case]]:
    """For every read-only method: requests (with each seat's token and none)."""
    from annales.v1 import annales_pb2_grpc

    stub = annales_pb2_grpc.GameServiceStub(channel)
    cases: dict[str, list[Case]] = {name: [] for name in METHODS}
    record = stub.ExportRecord(pb.ExportRecordRequest(game_id=world.finished.game_id)).record
    tampered = record.replace(b'"seat":0', b'"seat":1', 1)
    for game in [*world.games.values(), world.finished]:
        gid = game.game_id
        for token in [None, *game.tokens]:
            cases["annales.v1.GameService.GetGame"].append((pb.GetGameRequest(game_id=gid), token))
            cases["annales.v1.GameService.GetView"] += [
                (pb.GetViewRequest(game_id=gid), token),
                (pb.GetViewRequest(game_id=gid, version=2), token),
            ]
            cases["annales.v1.GameService.ListLegalActions"].append(
                (pb.ListLegalActionsRequest(game_id=gid), token)
            )
            cases["annales.v1.GameService.GetHistory"].append(
                (pb.GetHistoryRequest(game_id=gid, page_size=5), token)
            )
            cases["annales.v1.GameService.ExportRecord"].append(
                (pb.ExportRecordRequest(game_id=gid), token)
            )
        cases["annales.v1.GameService.GetView"].append((pb.GetViewRequest(game_id=gid), "x.0.y"))
    gid = world.finished.game_id
    cases["annales.v1.GameService.WatchGame"] += [
        (pb.WatchGameRequest(game_id=gid), None),
        (pb.WatchGameRequest(game_id=gid, after_version=3), world.finished.tokens[1]),
        (pb.WatchGameRequest(game_id="missing"), None),
        (pb.WatchGameRequest(game_id=gid, after_version=-1), None),
    ]
    cases["annales.v1.GameService.VerifyRecord"] += [
        (pb.VerifyRecordRequest(record=record), None),
        (pb.VerifyRecordRequest(record=tampered), None),
        (pb.VerifyRecordRequest(record=b"not json"), None),
    ]
    cases["annales.v1.GameService.ListGames"] += [
        (pb.ListGamesRequest(page_size=3), None),
        (pb.ListGamesRequest(game_type=pb.GAME_TYPE_TAPESTRY), None),
        (pb.ListGamesRequest(status=pb.GAME_STATUS_FINISHED), None),
    ]
    cases["annales.v1.DiagnosticsService.Echo"].append((pb.EchoRequest(payload=b"\x00hi"), None))
    cases["annales.v1.DiagnosticsService.EchoStream"].append(
        (pb.EchoStreamRequest(payload=b"ab", count=3), None)
    )
    cases["annales.v1.ReadModelService.GetScoreTimeline"] += [
        (rpb.GetScoreTimelineRequest(game_id=gid), None),
        (rpb.GetScoreTimelineRequest(game_id=""), None),
    ]
    cases["annales.v1.ReadModelService.GetLeaderboard"].append((rpb.GetLeaderboardRequest(), None))
    cases["annales.v1.ReadModelService.GetBalanceStats"].append(
        (rpb.GetBalanceStatsRequest(), None)
    )
    tid, organiser = world.tournament.tournament_id, world.tournament.organiser_token
    cases["annales.v1.TournamentService.GetStandings"].append(
        (tpb.GetStandingsRequest(tournament_id=tid), None)
    )
    cases["annales.v1.TournamentService.ExportTournamentRecord"].append(
        (tpb.ExportTournamentRecordRequest(tournament_id=tid), None)
    )
    cases["annales.v1.TournamentService.VerifyTournamentRecord"].append(
        (tpb.VerifyTournamentRecordRequest(record=b"{}\n"), None)
    )
    # commands refused before they change anything: same typed error on both ports
    rf = world.games["riseandfall"]
    cases["annales.v1.GameService.SubmitAction"] += [
        (pb.SubmitActionRequest(game_id=rf.game_id, expected_version=1), rf.tokens[0]),
        (pb.SubmitActionRequest(game_id=rf.game_id), None),
        (pb.SubmitActionRequest(game_id=rf.game_id), "bad token"),
    ]
    cases["annales.v1.GameService.Undo"].append((pb.UndoRequest(game_id=gid), None))
    cases["annales.v1.GameService.RequestUndo"].append(
        (pb.RequestUndoRequest(game_id=gid, to_version=1), world.finished.tokens[0])
    )
    cases["annales.v1.GameService.RespondUndo"].append(
        (pb.RespondUndoRequest(game_id=gid, approve=True), world.finished.tokens[0])
    )
    cases["annales.v1.GameService.CreateGame"].append((pb.CreateGameRequest(), None))
    cases["annales.v1.TournamentService.CreateTournament"].append(
        (tpb.CreateTournamentRequest(rounds=-1), None)
    )
    for name, request in [
        ("RegisterEntrant", tpb.RegisterEntrantRequest(tournament_id=tid, name="x")),
        ("StartTournament", tpb.StartTournamentRequest(tournament_id=tid)),
        ("ReportResult", tpb.ReportResultRequest(tournament_id=tid, game_id="nope")),
    ]:
        cases[f"annales.v1.TournamentService.{name}"] += [
            (request, None),
            (request, organiser[:-2]),
        ]
    return cases


@pytest.mark.parametrize("codec", ["proto", "json"])
def test_every_method_same_answer(
    web: WebServer, world: World, channel: grpc.Channel, codec: str
) -> None:
    """Every method of every service, with each seat's token and none: the Connect answer
    (binary or JSON) equals the gRPC answer byte for byte, or the same typed error."""
    client = Connect(web.base, codec)
    cases = read_cases(world, channel)
    missing = [name for name, listed in cases.items() if not listed]
    assert not missing, f"methods without a case: {missing}"
    compared = 0
    for name, listed in cases.items():
        method = METHODS[name]
        for request, token in listed:
            expected = via_grpc(channel, method, request, token)
            got = via_connect(client, method, request, token)
            assert got == expected, f"{name} {request} token={token!r}"
            compared += 1
    assert compared > 100


def _twin(answer: Message, blank: Callable[[Message], None]) -> bytes:
    copy = type(answer)()
    copy.CopyFrom(answer)
    blank(copy)
    return copy.SerializeToString()


def test_commands_same_answer(web: WebServer, channel: grpc.Channel, connect: Connect) -> None:
    """Commands that change state: a replayed idempotent command answers byte-identically on
    both ports; a game created with the same seed on each port differs only in its id and
    tokens; so does a tournament created with the same master seed."""
    from annales.v1 import annales_pb2_grpc

    stub = annales_pb2_grpc.GameServiceStub(channel)
    game = create_game(stub, seats=2)
    legal = stub.ListLegalActions(
        pb.ListLegalActionsRequest(game_id=game.game_id), metadata=game.md(0)
    )
    seat = legal.seat if legal.actions else legal.pending.seats[0]
    legal = stub.ListLegalActions(
        pb.ListLegalActionsRequest(game_id=game.game_id), metadata=game.md(seat)
    )
    request = pb.SubmitActionRequest(
        game_id=game.game_id,
        action=legal.actions[0],
        expected_version=legal.version,
        idempotency_key="k1",
    )
    first = stub.SubmitAction(request, metadata=game.md(seat))
    assert not first.duplicate
    method = METHODS["annales.v1.GameService.SubmitAction"]
    again = via_grpc(channel, method, request, game.tokens[seat])
    assert again == via_connect(connect, method, request, game.tokens[seat])
    assert pb.SubmitActionResponse.FromString(again[0].ok or b"").duplicate

    seed = f"twin-{uuid.uuid4().hex}"
    create = pb.CreateGameRequest(
        game_type=pb.GAME_TYPE_TAPESTRY,
        seed=seed,
        options=pb.GameOptions(tapestry={}),
        seat_names=["a", "b"],
    )
    over_grpc = stub.CreateGame(create)
    over_connect = connect.unary(METHODS["annales.v1.GameService.CreateGame"], create)

    def blank_game(m: Any) -> None:  # what differs between any two games: id, secrets
        m.game_id = ""
        m.judge_token = ""
        m.seed_commitment = ""  # salted with a fresh nonce per game
        for t in m.seat_tokens:
            t.token = ""

    assert _twin(over_grpc, blank_game) == _twin(over_connect, blank_game)
    assert over_connect.seed_commitment and over_connect.game_id != over_grpc.game_id
    tournament = tpb.CreateTournamentRequest(
        game_type=pb.GAME_TYPE_RISE_AND_FALL,
        options=pb.GameOptions(rise_and_fall={}),
        format=tpb.TOURNAMENT_FORMAT_SWISS,
        rounds=1,
        table_size=2,
        name="twin",
        master_seed=seed,
    )
    from annales.v1 import tournament_pb2_grpc

    t_grpc = tournament_pb2_grpc.TournamentServiceStub(channel).CreateTournament(tournament)
    t_connect = connect.unary(METHODS["annales.v1.TournamentService.CreateTournament"], tournament)

    def blank_tournament(m: Any) -> None:
        m.tournament_id = ""
        m.organiser_token = ""

    assert _twin(t_grpc, blank_tournament) == _twin(t_connect, blank_tournament)


def test_play_and_watch_over_connect(
    web: WebServer, channel: grpc.Channel, connect_json: Connect
) -> None:
    """A game played to its end over Connect JSON only; a WatchGame stream opened before the
    first move over Connect streams every event, in order, and ends after the last; its
    messages equal a gRPC WatchGame from the same point."""
    game_method = METHODS["annales.v1.GameService.CreateGame"]
    created = connect_json.unary(
        game_method,
        pb.CreateGameRequest(
            game_type=pb.GAME_TYPE_RISE_AND_FALL,
            options=pb.GameOptions(rise_and_fall={"trophies": 4}),
            seat_names=["a", "b"],
            seed=f"watch-{uuid.uuid4().hex}",
        ),
    )
    tokens = [t.token for t in sorted(created.seat_tokens, key=lambda t: t.seat)]
    gid = created.game_id
    watch = METHODS["annales.v1.GameService.WatchGame"]
    stream = connect_json.stream(watch, pb.WatchGameRequest(game_id=gid), tokens[1])
    first = next(iter(stream))
    assert first.events[0].seq == 1
    legal_m = METHODS["annales.v1.GameService.ListLegalActions"]
    submit = METHODS["annales.v1.GameService.SubmitAction"]
    moves = 0
    seat = 0
    while moves < 2000:
        legal = connect_json.unary(legal_m, pb.ListLegalActionsRequest(game_id=gid), tokens[seat])
        if not legal.pending.seats:
            break
        if seat not in legal.pending.seats:
            seat = legal.pending.seats[0]
            continue
        action = legal.actions[moves % len(legal.actions)]
        connect_json.unary(
            submit,
            pb.SubmitActionRequest(game_id=gid, action=action, expected_version=legal.version),
            tokens[seat],
        )
        moves += 1
    assert not legal.pending.seats, "the game did not end"
    rest = list(stream)
    seqs = [e.seq for r in [first, *rest] for e in r.events]
    assert seqs == list(range(1, legal.version + 1))
    assert rest[-1].events[-1].kind == "SeedRevealed"
    expected = via_grpc(channel, watch, pb.WatchGameRequest(game_id=gid), tokens[1])
    got = via_connect(connect_json, watch, pb.WatchGameRequest(game_id=gid), tokens[1])
    assert got == expected


def test_grpc_web_too(web: WebServer, world: World, channel: grpc.Channel) -> None:
    """The same library serves gRPC-Web on the same port: same bytes as gRPC."""
    client = Connect(web.base, "proto", protocol=ProtocolType.GRPC_WEB)
    game = world.games["tapestry"]
    method = METHODS["annales.v1.GameService.GetView"]
    request = pb.GetViewRequest(game_id=game.game_id)
    assert via_connect(client, method, request, game.tokens[1]) == via_grpc(
        channel, method, request, game.tokens[1]
    )


def test_json_is_protobuf_json(web: WebServer, world: World, connect_json: Connect) -> None:
    """The JSON codec speaks canonical protobuf JSON (camelCase names) that a browser reads."""
    import json
    import urllib.request

    game = world.games["riseandfall"]
    body = json.dumps({"gameId": game.game_id}).encode()
    request = urllib.request.Request(
        f"{web.base}/annales.v1.GameService/GetGame",
        data=body,
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        data = json.loads(answer.read())
    parsed = json_format.ParseDict(data, pb.GetGameResponse())
    assert parsed.game.game_id == game.game_id
    assert "seatNames" in data["game"]


def test_watch_stream_ends_when_the_client_leaves(web: WebServer, channel: grpc.Channel) -> None:
    """A browser that closes a WatchGame stream (tab closed) frees the server's worker: the
    servicer's stream ends (its log line appears)."""
    import http.client
    import json
    import struct
    import time

    from annales.v1 import annales_pb2_grpc

    game = create_game(annales_pb2_grpc.GameServiceStub(channel), seats=2)
    ended = '"rpc": "WatchGame", "game_id": "' + game.game_id
    conn = http.client.HTTPConnection("127.0.0.1", web.web_port, timeout=30)
    body = json.dumps({"gameId": game.game_id}).encode()
    conn.request("POST", "/annales.v1.GameService/WatchGame",
                 body=struct.pack(">BI", 0, len(body)) + body,
                 headers={"content-type": "application/connect+json"})  # fmt: skip
    answer = conn.getresponse()
    flags, size = struct.unpack(">BI", answer.read(5))
    first = json.loads(answer.read(size))
    assert flags == 0 and first["events"][0]["seq"] == "1"
    assert ended not in web.process.output()
    conn.close()
    deadline = time.monotonic() + 60  # prompt in practice; generous for loaded machines
    while ended not in web.process.output() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert ended in web.process.output(), "the stream kept running after the client left"
