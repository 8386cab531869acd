"""Client-side helpers shared by the API tests and benchmarks: games, tokens, errors, bots.

Everything here talks to a server through the generated stubs only (no server imports), except
:func:`open_store_service`, which opens the server's SQLite file *as a reader* to learn the
true (hidden) values after the fact.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

import grpc
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from domain.core import Chance

T = TypeVar("T")


def auth(token: str) -> tuple[tuple[str, str], ...]:
    """Call metadata acting for the seat of ``token``."""
    return (("authorization", f"Bearer {token}"),)


@dataclass
class Game:
    """A game created through the API: its id, seat tokens and seed."""

    game_id: str
    tokens: list[str]
    seed: str
    version: int
    commitment: str

    def md(self, seat: int) -> tuple[tuple[str, str], ...]:
        """Metadata acting for ``seat``."""
        return auth(self.tokens[seat])


def long_seed(tag: str) -> str:
    """A long (≥ 16 characters) seed, unique per call, that is easy to search for."""
    return f"seed-{tag}-{uuid.uuid4().hex}"


def fixed_seed(tag: str) -> str:
    """A long seed that is the same on every run: for a seeded game whose test asserts that
    something happens in it (a hidden event kind met, a card reaching a zone), which a fresh
    seed would only make likely."""
    return f"seed-{tag}-fixed"


def create_game(
    stub: annales_pb2_grpc.GameServiceStub,
    seats: int = 3,
    seed: str | None = None,
    trophies: int | None = None,
    world: int | None = None,
) -> Game:
    """A new Rise & Fall game with ``seats`` seats."""
    seed = seed if seed is not None else long_seed("game")
    options = pb.GameOptions(rise_and_fall={})
    if trophies is not None:
        options.rise_and_fall.trophies = trophies
    if world is not None:
        options.rise_and_fall.world = world  # type: ignore[assignment]
    answer = stub.CreateGame(
        pb.CreateGameRequest(
            game_type=pb.GAME_TYPE_RISE_AND_FALL,
            options=options,
            seat_names=[f"bot{i}" for i in range(seats)],
            seed=seed,
        )
    )
    tokens = [t.token for t in sorted(answer.seat_tokens, key=lambda t: t.seat)]
    return Game(answer.game_id, tokens, seed, answer.version, answer.seed_commitment)


def create_tapestry_game(
    stub: annales_pb2_grpc.GameServiceStub,
    seats: int = 3,
    seed: str | None = None,
    civilizations_dealt: int | None = None,
    starting_civilizations: tuple[str, ...] = (),
    automa_level: int | None = None,
    expansions: tuple[str, ...] = (),
) -> Game:
    """A new Tapestry game with ``seats`` seats (``starting_civilizations``: per seat, a
    civilization key that seat starts with, ``""`` to deal it as usual; ``expansions``: the
    expansion boxes in play)."""
    seed = seed if seed is not None else long_seed("tapestry")
    options = pb.GameOptions(tapestry={})
    if civilizations_dealt is not None:
        options.tapestry.civilizations_dealt = civilizations_dealt
    if automa_level is not None:
        options.tapestry.automa_level = automa_level
    options.tapestry.starting_civilizations.extend(starting_civilizations)
    options.tapestry.expansions.extend(expansions)
    answer = stub.CreateGame(
        pb.CreateGameRequest(
            game_type=pb.GAME_TYPE_TAPESTRY,
            options=options,
            seat_names=[f"bot{i}" for i in range(seats)],
            seed=seed,
        )
    )
    tokens = [t.token for t in sorted(answer.seat_tokens, key=lambda t: t.seat)]
    return Game(answer.game_id, tokens, seed, answer.version, answer.seed_commitment)


def create_imperium_game(
    stub: annales_pb2_grpc.GameServiceStub,
    seats: int = 3,
    seed: str | None = None,
    nations: list[str] | None = None,
    sides: list[str] | None = None,
    box: str = "",
) -> Game:
    """A new Imperium game with ``seats`` seats (nations, power-card faces and the box of the
    common cards optional)."""
    seed = seed if seed is not None else long_seed("imperium")
    options = pb.GameOptions(imperium={})
    options.imperium.nations.extend(nations or [])
    options.imperium.sides.extend(sides or [])
    options.imperium.box = box
    answer = stub.CreateGame(
        pb.CreateGameRequest(
            game_type=pb.GAME_TYPE_IMPERIUM,
            options=options,
            seat_names=[f"bot{i}" for i in range(seats)],
            seed=seed,
        )
    )
    tokens = [t.token for t in sorted(answer.seat_tokens, key=lambda t: t.seat)]
    return Game(answer.game_id, tokens, seed, answer.version, answer.seed_commitment)


@dataclass
class Failure:
    """A failed call: status code, message and its ``google.rpc.ErrorInfo``."""

    code: grpc.StatusCode
    message: str
    reason: str
    domain: str
    metadata: dict[str, str]
    raw: bytes  # the serialized google.rpc.Status (what the client received), or b""


def failure(error: grpc.RpcError) -> Failure:
    """The typed error of a failed call (``reason`` is "" when there is no ErrorInfo)."""
    call: Any = error
    status = rpc_status.from_call(call)
    reason, domain, metadata = "", "", {}
    raw = b""
    if status is not None:
        raw = status.SerializeToString()
        for detail in status.details:
            info = error_details_pb2.ErrorInfo()
            if detail.Is(info.DESCRIPTOR) and detail.Unpack(info):
                reason, domain, metadata = info.reason, info.domain, dict(info.metadata)
    return Failure(call.code(), call.details() or "", reason, domain, metadata, raw)


def expect_error(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Failure:
    """Call ``function`` and return its typed error (fails the test when it succeeds)."""
    try:
        function(*args, **kwargs)
    except grpc.RpcError as error:
        return failure(error)
    raise AssertionError(f"{getattr(function, '_method', function)!r} succeeded unexpectedly")


def history(
    stub: annales_pb2_grpc.GameServiceStub,
    game_id: str,
    metadata: Any = None,
    page_size: int = 1000,
) -> list[pb.GameEvent]:
    """Every event of a game as ``metadata``'s caller may see it (all pages)."""
    events: list[pb.GameEvent] = []
    token = ""
    while True:
        page = stub.GetHistory(
            pb.GetHistoryRequest(game_id=game_id, page_size=page_size, page_token=token),
            metadata=metadata,
        )
        events.extend(page.events)
        token = page.next_page_token
        if not token:
            return events


@dataclass
class Driver:
    """Plays a game through the API: uniform random choices among ListLegalActions.

    Every action goes back unchanged, with ``expected_version`` and a fresh idempotency key.
    ``on_call(seat, kind, message)`` sees every response (for the redaction oracle).
    """

    stub: annales_pb2_grpc.GameServiceStub
    game: Game
    bot_seed: bytes
    on_call: Callable[[int | None, str, Any], None] | None = None
    keys: bool = True
    step: int = 0
    version: int = 0
    guess: int = 0
    submitted: list[tuple[int, pb.Action, pb.SubmitActionResponse]] = field(default_factory=list)

    def _seen(self, seat: int | None, kind: str, message: Any) -> None:
        if self.on_call is not None:
            self.on_call(seat, kind, message)

    def play_one(self) -> bool:
        """Play the next decision; ``False`` once the game is over."""
        seat = self.guess
        legal = self.stub.ListLegalActions(
            pb.ListLegalActionsRequest(game_id=self.game.game_id), metadata=self.game.md(seat)
        )
        self._seen(seat, "ListLegalActions", legal)
        seats = list(legal.pending.seats)
        if not seats:
            self.version = legal.version
            return False
        if seat not in seats:
            assert not legal.actions, f"seat {seat} has actions but is not pending"
            seat = seats[0]
            legal = self.stub.ListLegalActions(
                pb.ListLegalActionsRequest(game_id=self.game.game_id),
                metadata=self.game.md(seat),
            )
            self._seen(seat, "ListLegalActions", legal)
        assert legal.actions, f"seat {seat} is pending without legal actions"
        self.step += 1
        action = Chance(self.bot_seed, self.step).choice(list(legal.actions))
        request = pb.SubmitActionRequest(
            game_id=self.game.game_id, action=action, expected_version=legal.version
        )
        if self.keys:
            request.idempotency_key = f"{self.game.game_id[:8]}-{self.step}-{uuid.uuid4().hex}"
        answer = self.stub.SubmitAction(request, metadata=self.game.md(seat))
        self._seen(seat, "SubmitAction", answer)
        assert not answer.duplicate
        assert answer.version == legal.version + len(answer.events)
        assert [e.seq for e in answer.events] == list(range(legal.version + 1, answer.version + 1))
        self.submitted.append((seat, action, answer))
        self.version = answer.version
        self.guess = seat
        return True

    def play(self, max_steps: int = 100_000, after: Callable[[Driver], None] | None = None) -> int:
        """Play until the end (or ``max_steps``); ``after(driver)`` runs after each step."""
        steps = 0
        while steps < max_steps and self.play_one():
            steps += 1
            if after is not None:
                after(self)
        return steps


def drain(iterator: Iterator[T], until: Callable[[T], bool]) -> list[T]:
    """Read ``iterator`` until ``until(item)`` holds for the last item read."""
    items: list[T] = []
    for item in iterator:
        items.append(item)
        if until(item):
            break
    return items


def open_store_service(db: Any) -> Any:
    """A reader on the server's SQLite file: ``(GameService, EventStore)``.

    Only reads are made through it (``materialise``, ``events``, ``decode``); close the store
    when done. Used to learn the true hidden values after the fact.
    """
    from service.app.application import GameService
    from service.store.config import StoreConfig
    from service.store.eventstore import EventStore

    store = EventStore(StoreConfig(kind="sqlite", path=str(db)))
    return GameService(store), store


def advance_to(driver: Driver, decision: str, seat: int = 0) -> pb.ListLegalActionsResponse:
    """Play (with ``driver``) until the pending decision is ``decision``; its legal actions
    for ``seat``."""
    while True:
        legal = driver.stub.ListLegalActions(
            pb.ListLegalActionsRequest(game_id=driver.game.game_id), metadata=driver.game.md(seat)
        )
        if legal.pending.decision == decision:
            driver.version = legal.version
            return legal
        assert driver.play_one(), f"the game ended before {decision!r}"
