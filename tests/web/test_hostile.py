"""Hostile HTTP on the web port: huge bodies, wrong content types, malformed JSON and bytes,
tokens in the wrong place, cross-origin calls — each gets a typed answer and changes nothing.
Plus the redaction check through the Connect port: every seat's and a spectator's view,
legal actions, history and export equal the gRPC port's at every step of a game."""

from __future__ import annotations

import base64
import http.client
import json
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc
from google.rpc import error_details_pb2

from tests.api.conftest import free_port, start_server, stop_server
from tests.api.helpers import Driver, Game, create_game, create_imperium_game
from tests.web.client import Connect
from tests.web.conftest import WebServer
from tests.web.test_connect import METHODS, via_connect, via_grpc

SUBMIT = "/annales.v1.GameService/SubmitAction"


def post(
    port: int, path: str, body: bytes, headers: dict[str, str], method: str = "POST"
) -> tuple[int, dict[str, str], bytes]:
    """One raw HTTP request: status, headers (lower-case names), body."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request(method, path, body=body, headers=headers)
        answer = conn.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        conn.close()


def connect_error(body: bytes) -> tuple[str, str]:
    """The Connect error's code and ErrorInfo reason."""
    data = json.loads(body)
    reason = ""
    for detail in data.get("details", []):
        if detail["type"] == "google.rpc.ErrorInfo":
            raw = base64.b64decode(detail["value"] + "==")
            reason = error_details_pb2.ErrorInfo.FromString(raw).reason
    return data["code"], reason


@pytest.fixture(scope="module")
def game(web: WebServer) -> Game:
    """A Rise & Fall game with a few moves."""
    with web.process.channel() as channel:
        stub = annales_pb2_grpc.GameServiceStub(channel)
        made = create_game(stub, seats=2)
        Driver(stub, made, b"hostile").play(max_steps=4)
        return made


def version(web: WebServer, game: Game) -> int:
    """The game's head version (over gRPC)."""
    with web.process.channel() as channel:
        stub = annales_pb2_grpc.GameServiceStub(channel)
        return int(stub.GetGame(pb.GetGameRequest(game_id=game.game_id)).game.head_version)


def legal_submit(web: WebServer, game: Game) -> tuple[dict[str, Any], int]:
    """A legal SubmitAction request as JSON, and the seat to send it as."""
    from google.protobuf import json_format

    with web.process.channel() as channel:
        stub = annales_pb2_grpc.GameServiceStub(channel)
        legal = stub.ListLegalActions(
            pb.ListLegalActionsRequest(game_id=game.game_id), metadata=game.md(0)
        )
        seat = 0 if legal.actions else legal.pending.seats[0]
        legal = stub.ListLegalActions(
            pb.ListLegalActionsRequest(game_id=game.game_id), metadata=game.md(seat)
        )
    request = pb.SubmitActionRequest(
        game_id=game.game_id, action=legal.actions[0], expected_version=legal.version
    )
    return json_format.MessageToDict(request), seat


CASES: list[tuple[str, str]] = [
    ("huge body", "resource_exhausted"),
    ("text/plain", "415"),
    ("xml", "415"),
    ("malformed json", "invalid_argument/MALFORMED_REQUEST"),
    ("json array", "invalid_argument/MALFORMED_REQUEST"),
    ("malformed proto", "invalid_argument/MALFORMED_REQUEST"),
    ("token in query", "unauthenticated/TOKEN_IN_URL"),
    ("token in body", "invalid_argument/MALFORMED_REQUEST"),
    ("token in cookie", "unauthenticated/TOKEN_REQUIRED"),
    ("token without Bearer", "unauthenticated/BAD_AUTHORIZATION"),
    ("forged token of no game", "unauthenticated/BAD_TOKEN"),
    ("cross-origin", "permission_denied/CROSS_ORIGIN"),
    ("unknown method", "404"),
]


@pytest.mark.parametrize(("case", "expected"), CASES, ids=[c for c, _ in CASES])
def test_hostile_requests_are_typed_and_change_nothing(
    web: WebServer, game: Game, case: str, expected: str
) -> None:
    """A legal move sent the wrong way is refused with the expected typed status (an HTTP
    status for what the Connect protocol answers at the HTTP level) and the game's version
    does not move; the same move sent properly afterwards is accepted."""
    body, seat = legal_submit(web, game)
    token = game.tokens[seat]
    headers = {"content-type": "application/json", "authorization": f"Bearer {token}"}
    raw = json.dumps(body).encode()
    path = SUBMIT
    if case == "huge body":
        raw = b'{"gameId": "' + b"x" * (65 * 1024 * 1024) + b'"}'
    elif case == "text/plain":
        headers["content-type"] = "text/plain"
    elif case == "xml":
        headers["content-type"] = "application/xml"
        raw = b"<SubmitActionRequest/>"
    elif case == "malformed json":
        raw = raw[:-3]
    elif case == "json array":
        raw = b"[1, 2]"
    elif case == "malformed proto":
        headers["content-type"] = "application/proto"
        raw = b"\xff\xff\xff\x0f\x01"
    elif case == "token in query":
        path = f"{SUBMIT}?token={token}"
        del headers["authorization"]
    elif case == "token in body":
        raw = json.dumps({**body, "token": token}).encode()
        del headers["authorization"]
    elif case == "token in cookie":
        headers["cookie"] = f"token={token}"
        del headers["authorization"]
    elif case == "token without Bearer":
        headers["authorization"] = token
    elif case == "forged token of no game":
        headers["authorization"] = f"Bearer {'0' * 32}.0.secret"
    elif case == "cross-origin":
        headers["origin"] = "http://evil.example"
    elif case == "unknown method":
        path = "/annales.v1.GameService/DropTables"
    before = version(web, game)
    status, answer_headers, answer = post(web.web_port, path, raw, headers)
    if expected.isdigit():
        assert status == int(expected), (status, answer[:300])
    else:
        code, reason = connect_error(answer)
        assert f"{code}/{reason}".rstrip("/") == expected or code == expected, (code, reason)
        assert status >= 400
    if case == "cross-origin":
        assert "access-control-allow-origin" not in answer_headers
    assert version(web, game) == before
    assert b"Traceback" not in answer
    # the same move, sent properly, is accepted
    status, _, answer = post(
        web.web_port,
        SUBMIT,
        json.dumps(body).encode(),
        {"content-type": "application/json", "authorization": f"Bearer {token}"},
    )
    assert status == 200, answer[:300]
    assert version(web, game) > before


#: JSON bodies that are not a ListGamesRequest, and a word their error message must contain
JSON_BODIES: list[tuple[bytes, str]] = [
    (b"[]", "not an array"),  # the web check's finding: an empty array was taken as {}
    (b"null", "not null"),
    (b'"x"', "not a string"),
    (b"{x", "not valid JSON (line 1, column 2)"),
    (b'{"tokenx": 1}', "has no field 'tokenx'"),
    (b'{"pageSize": "many"}', "'pageSize' has a value of the wrong type"),
    (b'{"gameType": "GAME_TYPE_CHESS"}', "GAME_TYPE_CHESS is not a value of annales.v1.GameType"),
]


@pytest.mark.parametrize(("body", "words"), JSON_BODIES, ids=[w for _, w in JSON_BODIES])
def test_json_that_is_not_the_request_is_refused_in_our_words(
    web: WebServer, body: bytes, words: str
) -> None:
    """Any JSON body that is not an object of the request (an array, even empty; null; a
    scalar; bad syntax; an unknown field; a value of the wrong type) is ``invalid_argument``
    ``MALFORMED_REQUEST`` with a sentence of ours, never the JSON library's text (web check,
    2026-12-07: ``[]`` listed the games; messages quoted protobuf's parser)."""
    path = "/annales.v1.GameService/ListGames"
    status, _, answer = post(web.web_port, path, body, {"content-type": "application/json"})
    assert status == 400, answer[:300]
    assert connect_error(answer) == ("invalid_argument", "MALFORMED_REQUEST")
    message = json.loads(answer)["message"]
    assert words in message, message
    for library_text in ("Failed to", "Available Fields", "Expecting", "char "):
        assert library_text not in message, message


def test_cors(web: WebServer, tmp_path_factory: pytest.TempPathFactory) -> None:
    """The page's own origin may call; another origin gets no CORS grant (preflight 403)
    unless it was given with --web-origin, which then gets a preflight grant and the
    Access-Control-Allow-Origin header."""
    own = f"http://127.0.0.1:{web.web_port}"
    echo = "/annales.v1.DiagnosticsService/Echo"
    body = b'{"payload": "aGk="}'
    status, headers, _ = post(
        web.web_port, echo, body, {"content-type": "application/json", "origin": own}
    )
    assert status == 200 and headers["access-control-allow-origin"] == own
    status, headers, _ = post(
        web.web_port,
        echo,
        b"",
        {"origin": "http://evil.example", "access-control-request-method": "POST"},
        "OPTIONS",
    )
    assert status == 403 and "access-control-allow-origin" not in headers
    port = free_port()
    other = start_server(
        tmp_path_factory.mktemp("web-cors"),
        ("--web-port", str(port), "--no-projections", "--web-origin", "https://annales.example"),
    )
    try:
        status, headers, _ = post(
            port,
            echo,
            b"",
            {
                "origin": "https://annales.example",
                "access-control-request-method": "POST",
                "access-control-request-headers": "authorization",
            },
            "OPTIONS",
        )
        assert status == 204
        assert headers["access-control-allow-origin"] == "https://annales.example"
        assert "authorization" in headers["access-control-allow-headers"]
        status, headers, _ = post(
            port,
            echo,
            body,
            {"content-type": "application/json", "origin": "https://annales.example"},
        )
        assert status == 200 and headers["access-control-allow-origin"] == "https://annales.example"
        status, _, answer = post(
            port, echo, body, {"content-type": "application/json", "origin": "https://evil.example"}
        )
        assert status == 403 and connect_error(answer) == ("permission_denied", "CROSS_ORIGIN")
    finally:
        assert stop_server(other) == 0


def test_static_files(web: WebServer) -> None:
    """The app at /, its files, nothing outside the static folder."""
    status, headers, body = post(web.web_port, "/", b"", {}, "GET")
    assert status == 200 and headers["content-type"].startswith("text/html")
    assert b"<script" in body and "content-security-policy" in headers
    for path in ("/../connect.py", "/%2e%2e/connect.py", "/.hidden", "/static/../server.py"):
        status, _, _ = post(web.web_port, path, b"", {}, "GET")
        assert status == 404, path


def _viewers(game: Game) -> Iterator[str | None]:
    yield None
    yield from game.tokens


@pytest.mark.parametrize("kind", ["riseandfall", "imperium"])
def test_redaction_same_on_both_ports(web: WebServer, kind: str) -> None:
    """A short game (Rise & Fall: sealed card choices; Imperium: hidden hands and decks):
    after every move, each seat's and a spectator's GetView, GetGame, ListLegalActions,
    GetHistory and ExportRecord over Connect (JSON) equal the gRPC port's byte for byte — the
    gRPC answers being the ones the redaction oracle checks (tests/api/test_redaction.py)."""
    client = Connect(web.base, "json")
    names = ["GetView", "GetGame", "ListLegalActions", "GetHistory", "ExportRecord"]
    with web.process.channel() as channel:
        stub = annales_pb2_grpc.GameServiceStub(channel)
        game = create_game(stub, 3) if kind == "riseandfall" else create_imperium_game(stub, 2)
        driver = Driver(stub, game, f"redact-{kind}".encode())
        compared = 0

        def compare(_: Driver) -> None:
            nonlocal compared
            for token in _viewers(game):
                for name in names:
                    method = METHODS[f"annales.v1.GameService.{name}"]
                    request = method.input_type._concrete_class(game_id=game.game_id)
                    expected = via_grpc(channel, method, request, token)
                    assert via_connect(client, method, request, token) == expected, (name, token)
                    compared += 1

        compare(driver)
        driver.play(max_steps=8, after=compare)
    assert compared >= 8 * 5 * 3
    assert isinstance(channel, grpc.Channel)
