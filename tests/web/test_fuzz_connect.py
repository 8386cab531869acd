"""The API fuzzer (tests/fuzz) through the Connect port: the same cases, resolved the same
way, sent as bytes with Connect's binary codec (``application/proto``; WatchGame as a
``application/connect+proto`` stream) to the web port, and checked by the same oracle —
typed statuses with an ErrorInfo, state unchanged unless the action was legal, the server up.

``FUZZ_CONNECT_CASES`` (default 300) cases from a fixed seed (``FUZZ_SEED`` for others).
The transport is swapped in :meth:`ConnectFuzzer.invoke` only; games are followed and
checked over gRPC, so both ports are seen to hold the same state.
"""

from __future__ import annotations

import base64
import http.client
import json
import math
import os
import struct
from typing import Any

import grpc
from annales.v1 import annales_pb2 as pb
from google.rpc import error_details_pb2
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from tests.fuzz.cases import STREAMING, Call, Raw
from tests.fuzz.oracle import Outcome
from tests.fuzz.runner import CALL_TIMEOUT, WATCH_WAIT, Fuzzer
from tests.fuzz.test_fuzz_api import BATCH, CASES, _report
from tests.web.conftest import WebServer

FUZZ_CONNECT_CASES = int(os.environ.get("FUZZ_CONNECT_CASES", "300"))
FUZZ_SEED = os.environ.get("FUZZ_SEED", "")


def _header(value: Any) -> str:
    """A metadata value as an HTTP header can carry it (latin-1, no line breaks)."""
    text = value.decode("latin-1") if isinstance(value, bytes) else str(value)
    text = text.encode("latin-1", "replace").decode("latin-1")
    return text.replace("\r", " ").replace("\n", " ").strip() or "x"


def _error(data: dict[str, Any]) -> Outcome:
    """The Outcome of a Connect error object."""
    code = grpc.StatusCode[str(data.get("code", "unknown")).upper()]
    reason, domain, metadata = "", "", {}
    for detail in data.get("details", []):
        if detail.get("type") == "google.rpc.ErrorInfo":
            info = error_details_pb2.ErrorInfo.FromString(base64.b64decode(detail["value"] + "=="))
            reason, domain, metadata = info.reason, info.domain, dict(info.metadata)
    return Outcome(code, str(data.get("message", "")), reason, domain, metadata)


class ConnectFuzzer(Fuzzer):
    """The fuzzer, calling the web port with Connect's binary protocol."""

    def __init__(self, channel: grpc.Channel, port: int) -> None:
        super().__init__(channel)
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=CALL_TIMEOUT)

    def invoke(self, method: str, payload: bytes, metadata: Any, waiting: bool = False) -> Outcome:
        """Send ``payload`` over Connect: the status and the first response's bytes."""
        headers = {"connect-protocol-version": "1"}
        for key, value in metadata or ():
            headers[key] = _header(value)
        if method in STREAMING:
            return self._stream(method, payload, headers, waiting)
        headers["content-type"] = "application/proto"
        status, body = self._post(method, payload, headers)
        if status == 200:
            return Outcome(grpc.StatusCode.OK, response=body)
        return _error(json.loads(body))

    def _post(self, method: str, body: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
        try:
            self.conn.request("POST", method, body=body, headers=headers)
            answer = self.conn.getresponse()
            return answer.status, answer.read()
        except (http.client.HTTPException, OSError):
            self.conn.close()  # a connection the server closed: one new try
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=CALL_TIMEOUT)
            self.conn.request("POST", method, body=body, headers=headers)
            answer = self.conn.getresponse()
            return answer.status, answer.read()

    def _stream(self, method: str, payload: bytes, headers: dict[str, str],
                waiting: bool) -> Outcome:  # fmt: skip
        headers["content-type"] = "application/connect+proto"
        conn = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=WATCH_WAIT if waiting else CALL_TIMEOUT
        )
        try:
            conn.request("POST", method, body=struct.pack(">BI", 0, len(payload)) + payload,
                         headers=headers)  # fmt: skip
            answer = conn.getresponse()
            if answer.status != 200:
                return _error(json.loads(answer.read()))
            prefix = answer.read(5)
            flags, size = struct.unpack(">BI", prefix)
            message = answer.read(size)
            if flags & 0x02:
                end = json.loads(message or b"{}")
                if "error" in end:
                    return _error(end["error"])
                return Outcome(grpc.StatusCode.OK, response=None)
            return Outcome(grpc.StatusCode.OK, response=message)
        except TimeoutError:
            return Outcome(grpc.StatusCode.DEADLINE_EXCEEDED, "waited")
        finally:
            conn.close()


def test_fuzz_every_rpc_over_connect(web: WebServer) -> None:
    """≥ FUZZ_CONNECT_CASES adversarial calls through the Connect port, every one answered
    as the gRPC port's oracle expects; the games' logs intact at the end."""
    channel = web.process.channel()
    logged = len(web.process.output())  # the session's server: judge only this test's lines
    fuzzer = ConnectFuzzer(channel, web.web_port)
    for game_type, seats in ((pb.GAME_TYPE_RISE_AND_FALL, 3), (pb.GAME_TYPE_TAPESTRY, 2),
                             (pb.GAME_TYPE_IMPERIUM, 2)):  # fmt: skip
        fuzzer.create(game_type, seats, f"connect-fuzz-{game_type}-{seats}-0123456789")

    @settings(max_examples=math.ceil(FUZZ_CONNECT_CASES / BATCH), derandomize=not FUZZ_SEED,
              database=None, deadline=None, phases=[Phase.explicit, Phase.generate],
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(st.lists(CASES, min_size=BATCH, max_size=BATCH))
    def batch(drawn: list[Call | Raw]) -> None:
        for case in drawn:
            fuzzer.run(case)
        fuzzer.check_store()

    if FUZZ_SEED:
        batch = seed(int(FUZZ_SEED))(batch)
    try:
        batch()
        fuzzer.check_store(everything=True)
        fuzzer.check_logs()
    finally:
        print(_report(fuzzer))
        fuzzer.conn.close()
        channel.close()
    assert fuzzer.cases >= FUZZ_CONNECT_CASES, _report(fuzzer)
    output = web.process.output()[logged:]
    assert "unexpected error" not in output and "Traceback" not in output, output[-4000:]
