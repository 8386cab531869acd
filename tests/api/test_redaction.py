"""Redaction oracle: nothing a seat (or a spectator) receives reveals another seat's secrets.

Issue "Public gRPC API, seat security, live streams" — requirement: *every outgoing payload —
state, views, events, history, streams, error messages, exports of unfinished games — passes
through one redaction function*; sealed choices stay hidden until revealed, hands stay
private, and the seed stays secret until the game ends.

Random games are played through the API while every seat and a spectator record EVERY
message they receive: ListLegalActions / SubmitAction answers, their own WatchGame stream,
GetView / GetGame, GetHistory pages, ExportRecord before and after the end, and error
statuses. After the game, the true hidden values are read from the server's own store (a
reader on its SQLite file) and every recorded message is checked:

* a sealed card choice (``CardChosen`` until ``CardsRevealed``) or decline choice
  (``DeclineChosen`` until ``CardsDeclined``) of seat ``p`` appears in no message to another
  viewer — neither in the event (``card`` / ``cards`` empty and ``redacted`` set), nor in a
  view's ``chosen`` / ``decline_choice``, nor in an exported record (event data, payload or
  the command line that produced it);
* another seat's hand is never shown (``hand`` unset; only the top card of the discard, which
  must be the true top card);
* the seed (a long text: its bytes, hex and base64) appears in no message before the game
  ended, and ``GameSummary.seed`` is empty until then.

A message produced while the head was at version ``V`` is judged at ``V``; stream messages
are drained after every command so their production version is bounded by the driver's
version. ``N_GAMES`` seeded games run in the normal suite; ``make long`` runs 200.

The recording machinery (:class:`Recorder`, :class:`Seen`, :func:`seed_leaks`) is game-agnostic
and shared with the Tapestry oracle (``test_tapestry_redaction.py``): a game gives its own
probe action and sealed-event kinds, or ``always_sealed`` when some information is hidden from
the first event to the last (hands).
"""

from __future__ import annotations

import base64
import json
import os
import queue
import random
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import grpc
import pytest
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc
from annales.v1 import riseandfall_pb2 as rf
from google.protobuf.message import Message

from tests.api.conftest import ServerProcess
from tests.api.helpers import (
    Driver,
    Failure,
    Game,
    create_game,
    failure,
    long_seed,
    open_store_service,
)

#: games of the normal run (each game is ~1,500 fsynced commands: ~8 s on these machines),
#: split in blocks so that ``pytest -n`` spreads them over its workers.
N_GAMES = int(os.environ.get("ANNALES_ORACLE_GAMES", "6"))
SAMPLE_BLOCKS = 2
N_GAMES_LONG = 200
#: seat counts cycled over the sample games (4-seat games are 3x longer: ``make long`` only).
SHAPES = (3, 2)
SHAPES_LONG = (3, 2, 4)
#: the chance of probing at a step where some choice is sealed (the first one always is).
SEALED_PROBE_RATE = 0.2
#: a non-sealed probe every so many versions (hands, discards, seed).
PLAIN_PROBE_EVERY = 150
#: ExportRecord probes while choices are sealed, per game.
EXPORT_PROBES = 4
#: streams are drained at least every so many versions (every command while sealed).
DRAIN_EVERY = 40
QUEUE_TIMEOUT = 20.0


@dataclass
class Seen:
    """One message received by ``viewer`` (None: spectator), produced at a head version in
    ``[lo, hi]``."""

    viewer: int | None
    rpc: str
    lo: int
    hi: int
    message: Any  # a protobuf message, a Failure, or an export (bytes, complete)


@dataclass
class Secret:
    """A sealed choice: hidden from other viewers at head versions in ``[start, reveal)``."""

    kind: str  # "card" or "decline"
    seat: int
    round: int
    value: tuple[str, ...]
    start: int
    reveal: int
    command_id: str


class Watcher:
    """A WatchGame stream read by a thread into a queue."""

    def __init__(self, stub: annales_pb2_grpc.GameServiceStub, game_id: str, metadata: Any) -> None:
        self.call = stub.WatchGame(
            pb.WatchGameRequest(game_id=game_id, after_version=0), metadata=metadata
        )
        self.queue: queue.Queue[Any] = queue.Queue()
        self.last = 0
        self.ended = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            for message in self.call:
                self.queue.put(message)
            self.queue.put(None)
        except grpc.RpcError as error:
            self.queue.put(error)

    def drain(self, version: int) -> Iterator[pb.WatchGameResponse]:
        """Every message up to ``version``."""
        while self.last < version and not self.ended:
            item = self.queue.get(timeout=QUEUE_TIMEOUT)
            if item is None:
                self.ended = True
                return
            if isinstance(item, grpc.RpcError):
                raise AssertionError(f"stream failed: {failure(item)}")
            self.last = item.version
            yield item


def _choose_card_action() -> pb.Action:
    return pb.Action(
        rise_and_fall=rf.RiseAndFallAction(
            choose_card=rf.RiseAndFallChooseCard(card=rf.RISE_AND_FALL_PIECE_CITY)
        )
    )


@dataclass
class Recorder:
    """Plays one game and records everything each viewer receives.

    Game-specific parts (Rise & Fall by default): ``error_action`` is the action sent out of
    turn / at a stale version to provoke errors; events of ``sealed_kinds`` open a sealed
    period and ``reveal_kinds`` close it (probes are dense while one is open);
    ``always_sealed`` probes densely all game long (hidden hands, for instance).
    """

    stub: annales_pb2_grpc.GameServiceStub
    game: Game
    seats: int
    rng: random.Random
    seen: list[Seen] = field(default_factory=list)
    open_sealed: set[tuple[str, int]] = field(default_factory=set)
    probe_rate: float = SEALED_PROBE_RATE
    exports_left: int = EXPORT_PROBES
    last_plain: int = 0
    last_drain: int = 0
    watchers: dict[int | None, Watcher] = field(default_factory=dict)
    error_action: pb.Action = field(default_factory=_choose_card_action)
    sealed_kinds: tuple[str, ...] = ("CardChosen", "DeclineChosen")
    reveal_kinds: tuple[str, ...] = ("CardsRevealed", "CardsDeclined", "GameEnded")
    always_sealed: bool = False

    @property
    def viewers(self) -> list[int | None]:
        return [*range(self.seats), None]

    def md(self, viewer: int | None) -> Any:
        return None if viewer is None else self.game.md(viewer)

    def record(self, viewer: int | None, rpc: str, version: int, message: Any) -> None:
        self.seen.append(Seen(viewer, rpc, version, version, message))

    def on_call(self, viewer: int | None, rpc: str, message: Any) -> None:
        """Driver hook: ListLegalActions answers (at their version) and SubmitAction answers
        (produced at the version they report)."""
        self.record(viewer, rpc, message.version, message)
        if rpc == "SubmitAction":
            for event in message.events:
                if event.kind in self.sealed_kinds:
                    self.open_sealed.add((event.kind, event.seat))
                elif event.kind in self.reveal_kinds:
                    self.open_sealed.clear()

    def call(self, viewer: int | None, rpc: str, version: int, request: Message) -> None:
        try:
            answer = getattr(self.stub, rpc)(request, metadata=self.md(viewer))
        except grpc.RpcError as error:
            self.record(viewer, rpc, version, failure(error))
            return
        if rpc == "ExportRecord":
            self.record(viewer, rpc, version, (answer.record, answer.complete))
        else:
            self.record(viewer, rpc, version, answer)

    def probe(self, version: int, export: bool) -> None:
        """Ask every viewer for everything it may ask (views, history, export, errors)."""
        game_id = self.game.game_id
        for viewer in self.viewers:
            if viewer is None:
                self.call(None, "GetGame", version, pb.GetGameRequest(game_id=game_id))
            else:
                self.call(viewer, "GetView", version, pb.GetViewRequest(game_id=game_id))
            after = max(0, version - 25)
            self.call(
                viewer,
                "GetHistory",
                version,
                pb.GetHistoryRequest(
                    game_id=game_id, page_size=10, page_token=str(after) if after else ""
                ),
            )
            if export:
                self.call(viewer, "ExportRecord", version, pb.ExportRecordRequest(game_id=game_id))
            # an error: act out of turn / as a spectator / at a stale version
            action = self.error_action
            self.call(
                viewer,
                "SubmitAction",
                version,
                pb.SubmitActionRequest(
                    game_id=game_id, action=action, expected_version=max(1, version - 1)
                ),
            )
            if viewer is not None:
                legal = self.stub.ListLegalActions(
                    pb.ListLegalActionsRequest(game_id=game_id), metadata=self.md(viewer)
                )
                self.record(viewer, "ListLegalActions", version, legal)
                if viewer not in legal.pending.seats:  # a rule error, nothing applied
                    self.call(
                        viewer,
                        "SubmitAction",
                        version,
                        pb.SubmitActionRequest(
                            game_id=game_id, action=action, expected_version=version
                        ),
                    )

    def after_step(self, driver: Driver) -> None:
        version = driver.version
        # While a choice is sealed, streams are drained after every command, so that each
        # message's production version is known tightly; otherwise now and then.
        sealed = self.always_sealed or bool(self.open_sealed)
        if sealed or version - self.last_drain >= DRAIN_EVERY:
            self.drain(version)
        first = self.exports_left == EXPORT_PROBES
        if sealed and (first or self.rng.random() < self.probe_rate):
            export = self.exports_left > 0 and (first or self.rng.random() < 0.2)
            self.exports_left -= export
            self.probe(version, export)
            self.last_plain = version
        elif version - self.last_plain >= PLAIN_PROBE_EVERY:
            self.probe(version, False)
            self.last_plain = version

    def drain(self, version: int) -> None:
        for viewer, watcher in self.watchers.items():
            for message in watcher.drain(version):
                self.seen.append(Seen(viewer, "WatchGame", message.version, version, message))
        self.last_drain = version

    def play(self, bot_seed: bytes) -> int:
        self.watchers = {v: Watcher(self.stub, self.game.game_id, self.md(v)) for v in self.viewers}
        driver = Driver(self.stub, self.game, bot_seed, on_call=self.on_call)
        driver.version = self.game.version
        self.after_step(driver)
        driver.play(after=self.after_step)
        end = driver.version
        self.drain(end)
        for viewer, watcher in self.watchers.items():
            watcher.thread.join(QUEUE_TIMEOUT)
            assert watcher.last == end, f"the stream of {viewer} stopped at {watcher.last}"
        self.probe(end, True)
        return end


# -- the truth ------------------------------------------------------------------------------
def secrets_of(server: ServerProcess, game_id: str) -> tuple[list[Secret], int]:
    """Sealed choices with their reveal versions, and the version of the seed reveal."""
    service, store = open_store_service(server.db)
    try:
        envelopes = service.events(game_id)
        decoded = [(e, service.decode(game_id, e)) for e in envelopes]
    finally:
        store.close()
    end = next(e.seq for e, _ in decoded if e.kind == "SeedRevealed")
    secrets: list[Secret] = []
    for index, (envelope, event) in enumerate(decoded):
        if envelope.kind not in ("CardChosen", "DeclineChosen"):
            continue
        revealer = "CardsRevealed" if envelope.kind == "CardChosen" else "CardsDeclined"
        reveal = next(
            (
                e.seq
                for e, _ in decoded[index + 1 :]
                if e.kind in (revealer, "GameEnded", "SeedRevealed")
            ),
            end,
        )
        value = (event.card,) if envelope.kind == "CardChosen" else tuple(event.cards)
        secrets.append(
            Secret(
                "card" if envelope.kind == "CardChosen" else "decline",
                event.seat,
                event.round,
                value,
                envelope.seq,
                reveal,
                envelope.command_id,
            )
        )
    return secrets, end


def true_states(server: ServerProcess, game_id: str, versions: set[int]) -> dict[int, Any]:
    """The game state at each version (materialised from the server's file)."""
    service, store = open_store_service(server.db)
    try:
        return {v: service.materialise(game_id, v).match.state for v in sorted(versions)}
    finally:
        store.close()


# -- the checks -----------------------------------------------------------------------------
def _events_of(message: Any) -> list[pb.GameEvent]:
    if isinstance(message, pb.SubmitActionResponse | pb.WatchGameResponse | pb.GetHistoryResponse):
        return list(message.events)
    return []


def _view_of(message: Any) -> Any:
    if isinstance(message, pb.GetGameResponse | pb.GetViewResponse):
        return message.view.rise_and_fall
    return None


def _blob(message: Any) -> bytes:
    if isinstance(message, Message):
        return message.SerializeToString()
    if isinstance(message, Failure):
        return message.raw + message.message.encode() + json.dumps(message.metadata).encode()
    if isinstance(message, tuple):
        return message[0]
    raise TypeError(type(message))


def seed_forms(seed: str) -> list[bytes]:
    """The forms a text seed may take in a payload: its bytes, hex (both cases), base64."""
    seed_bytes = seed.encode()
    return [
        seed_bytes,
        seed_bytes.hex().encode(),
        seed_bytes.hex().upper().encode(),
        base64.b64encode(seed_bytes),
        base64.b64encode(seed_bytes).rstrip(b"="),
    ]


def seed_leaks(item: Seen, end: int, forms: list[bytes]) -> list[str]:
    """The seed in ``item`` (or ``GameSummary.seed`` set) before version ``end``."""
    if item.hi >= end:
        return []
    where = f"{item.rpc} to {item.viewer} at v{item.lo}..{item.hi}"
    blob = _blob(item.message)
    leaks = [f"{where}: contains the seed ({form[:12]!r}...)" for form in forms if form in blob]
    summary = getattr(item.message, "game", None)
    if isinstance(summary, pb.GameSummary) and summary.seed:
        leaks.append(f"{where}: GameSummary.seed set before the end")
    return leaks


def check_game(
    recorder: Recorder, server: ServerProcess, seed: str, stats: dict[str, int] | None = None
) -> list[str]:
    """Every leak found in the recorded messages (empty when none); ``stats`` counts the
    hidden items met (so that a test can tell the check was not vacuous)."""
    stats = stats if stats is not None else {}
    game_id = recorder.game.game_id
    secrets, end = secrets_of(server, game_id)
    assert secrets, "a whole game has sealed choices"
    leaks: list[str] = []
    forms = seed_forms(seed)
    by_key = {(s.kind, s.seat, s.round): s for s in secrets}
    by_seq = {s.start: s for s in secrets}
    view_versions = {m.hi for m in recorder.seen if _view_of(m.message) is not None}
    states = true_states(server, game_id, view_versions)

    def hidden(secret: Secret, item: Seen) -> bool:
        # hidden from this viewer at every head version the message may have been made at
        return item.viewer != secret.seat and secret.start <= item.hi < secret.reveal

    for item in recorder.seen:
        where = f"{item.rpc} to {item.viewer} at v{item.lo}..{item.hi}"
        # the seed, before the end
        leaks.extend(seed_leaks(item, end, forms))
        # sealed choices in events
        for event in _events_of(item.message):
            secret = by_seq.get(event.seq)
            if secret is None or not hidden(secret, item):
                continue
            payload = event.rise_and_fall
            shown = (
                (payload.card_chosen.card,)
                if secret.kind == "card"
                else tuple(payload.decline_chosen.cards)
            )
            stats["events"] = stats.get("events", 0) + 1
            if any(shown) or not event.redacted:
                leaks.append(
                    f"{where}: event {event.seq} shows seat {secret.seat}'s sealed "
                    f"{secret.kind} {shown} (redacted={event.redacted})"
                )
        # sealed choices and hands in views
        view = _view_of(item.message)
        if view is not None:
            state = states[item.hi]
            for seat_view in view.seats:
                seat = seat_view.seat
                if seat == item.viewer or view.phase == "over":
                    continue
                if seat_view.HasField("hand"):
                    leaks.append(f"{where}: shows seat {seat}'s hand {seat_view.hand.values}")
                if len(seat_view.discard) > 1:
                    leaks.append(f"{where}: shows seat {seat}'s discard {seat_view.discard}")
                true_discard = state.seats[seat].discard
                if seat_view.discard_size != len(true_discard):
                    leaks.append(f"{where}: wrong discard size for seat {seat}")
                for kind, present in (
                    ("card", seat_view.HasField("chosen")),
                    ("decline", seat_view.HasField("decline_choice")),
                ):
                    secret = by_key.get((kind, seat, view.round))
                    if secret is not None and hidden(secret, item):
                        stats["views"] = stats.get("views", 0) + 1
                    if present and (secret is None or hidden(secret, item)):
                        leaks.append(f"{where}: view shows seat {seat}'s sealed {kind}")
        # sealed choices in exported records
        if isinstance(item.message, tuple):
            record, complete = item.message
            if complete != (item.hi >= end):
                leaks.append(f"{where}: complete={complete} at v{item.hi} (end v{end})")
            hidden_here = {s.start: s for s in secrets if hidden(s, item)}
            hidden_commands = {s.command_id: s for s in hidden_here.values()}
            for line in record.splitlines():
                data = json.loads(line)
                if data.get("type") == "event" and data["seq"] in hidden_here:
                    secret = hidden_here[data["seq"]]
                    event = data["event"]
                    shown = event.get("card") or event.get("cards")
                    if shown or data["payload"] is not None:
                        leaks.append(
                            f"{where}: record event {data['seq']} shows seat "
                            f"{secret.seat}'s sealed {secret.kind}"
                        )
                if data.get("type") == "command" and data["command_id"] in hidden_commands:
                    secret = hidden_commands[data["command_id"]]
                    if data["command"] is not None:
                        leaks.append(
                            f"{where}: record command {data['command_id'][:8]} of seat "
                            f"{secret.seat} shows its sealed {secret.kind}: "
                            f"{data['command']}"
                        )
    return leaks


def run_oracle(
    stub: annales_pb2_grpc.GameServiceStub,
    server: ServerProcess,
    index: int,
    shapes: tuple[int, ...] = SHAPES,
    probe_rate: float = SEALED_PROBE_RATE,
) -> list[str]:
    seats = shapes[index % len(shapes)]
    seed = long_seed(f"oracle{index}")
    game = create_game(stub, seats, seed=seed)
    recorder = Recorder(stub, game, seats, random.Random(index), probe_rate=probe_rate)
    recorder.play(f"oracle-bot-{index}".encode())
    kinds = {m.rpc for m in recorder.seen}
    assert {
        "WatchGame",
        "GetView",
        "GetGame",
        "GetHistory",
        "ExportRecord",
        "SubmitAction",
        "ListLegalActions",
    } <= kinds
    assert any(isinstance(m.message, Failure) for m in recorder.seen)
    stats: dict[str, int] = {}
    leaks = check_game(recorder, server, seed, stats)
    assert stats.get("events", 0) > 0 and stats.get("views", 0) > 0, f"vacuous check: {stats}"
    if index == 0:
        _oracle_catches_planted_leaks(recorder, server, seed)
    return [f"game {index} ({seats} seats): {leak}" for leak in leaks]


def _oracle_catches_planted_leaks(recorder: Recorder, server: ServerProcess, seed: str) -> None:
    """Self-test: the oracle flags a sealed card put back into a redacted streamed event, a
    view showing another seat's hand, and the seed in a message before the end."""
    secrets, _ = secrets_of(server, recorder.game.game_id)
    by_seq = {s.start: s for s in secrets if s.kind == "card"}
    stream = next(
        m
        for m in recorder.seen
        if m.rpc == "WatchGame" and any(e.seq in by_seq and e.redacted for e in m.message.events)
    )
    leaky = pb.WatchGameResponse()
    leaky.CopyFrom(stream.message)
    event = next(e for e in leaky.events if e.seq in by_seq and e.redacted)
    event.rise_and_fall.card_chosen.card = rf.RiseAndFallPiece.Value(
        "RISE_AND_FALL_PIECE_" + by_seq[event.seq].value[0].upper()
    )
    view_item = next(m for m in recorder.seen if m.rpc == "GetView" and m.viewer is not None)
    peeking = pb.GetViewResponse()
    peeking.CopyFrom(view_item.message)
    other = (view_item.viewer + 1) % recorder.seats  # type: ignore[operator]
    peeking.view.rise_and_fall.seats[other].hand.values.append(rf.RISE_AND_FALL_PIECE_CITY)
    told = pb.EchoResponse(payload=b"..." + seed.encode().hex().encode())
    planted = Recorder(
        recorder.stub,
        recorder.game,
        recorder.seats,
        recorder.rng,
        seen=[
            Seen(stream.viewer, "WatchGame", stream.lo, stream.hi, leaky),
            Seen(view_item.viewer, "GetView", view_item.lo, view_item.hi, peeking),
            Seen(None, "GetGame", 2, 2, told),
        ],
    )
    found = check_game(planted, server, seed)
    assert any("sealed card" in f for f in found), found
    assert any("hand" in f for f in found), found
    assert any("seed" in f for f in found), found


def _report(leaks: list[str]) -> str:
    kinds: dict[str, int] = {}
    for leak in leaks:
        rpc = leak.split(": ", 2)[1].split(" to ")[0]
        what = "record command" if "record command" in leak else leak.split(": ", 2)[2][:40]
        kinds[f"{rpc}: {what}"] = kinds.get(f"{rpc}: {what}", 0) + 1
    summary = "\n".join(f"  {n} x {k}" for k, n in sorted(kinds.items()))
    return f"{len(leaks)} leaks:\n{summary}\ne.g.:\n" + "\n".join(leaks[:10])


@pytest.mark.parametrize("block", range(SAMPLE_BLOCKS))
def test_redaction_oracle_sample(
    stub: annales_pb2_grpc.GameServiceStub, server: ServerProcess, block: int
) -> None:
    """Redaction of every outgoing payload (sealed card / decline choices, hands, seed) over a
    seeded sample of random 2- and 3-seat games, every seat and a spectator recording every
    message they receive (answers, streams, history pages, exports, errors)."""
    leaks: list[str] = []
    for index in range(block, N_GAMES, SAMPLE_BLOCKS):
        leaks.extend(run_oracle(stub, server, index))
    assert not leaks, _report(leaks)


@pytest.mark.long
@pytest.mark.parametrize("block", range(20))
def test_redaction_oracle_long(
    stub: annales_pb2_grpc.GameServiceStub, server: ServerProcess, block: int
) -> None:
    """The same redaction oracle over 200 random games (``make long``), in blocks of 10."""
    leaks: list[str] = []
    per_block = N_GAMES_LONG // 20
    for index in range(1000 + block * per_block, 1000 + (block + 1) * per_block):
        leaks.extend(run_oracle(stub, server, index, SHAPES_LONG, probe_rate=0.1))
    assert not leaks, _report(leaks)
