"""Round trips per game: SubmitAction's pending decision and next actions against the calls
they replace.

The same seeded games (Rise & Fall 3 players, Tapestry 2 players: same seed, same choice
index at every decision) are played through a real server twice:

* *classic*: before each decision GetGame (who must decide?) then ListLegalActions (what may
  that seat do?), then SubmitAction — three calls per decision;
* *pending*: SubmitAction with ``include_next_actions``; its ``pending`` says who decides
  next, and when that is the same seat its ``next_actions`` are already there, so
  ListLegalActions is called only when another seat takes over — 1 to 2 calls per decision.

Printed: RPCs per game and per decision of both, their ratio, and the wall time per game
(ratio too). ``python -m tests.bench.roundtrips``; also part of ``make bench``.
"""

from __future__ import annotations

import random
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc

from tests.api.conftest import start_server, stop_server
from tests.api.helpers import auth

GAMES = (("riseandfall", pb.GAME_TYPE_RISE_AND_FALL, 3), ("tapestry", pb.GAME_TYPE_TAPESTRY, 2))
#: decisions per game at most (a whole Rise & Fall game is a few hundred)
MAX_DECISIONS = 400


@dataclass
class Played:
    """One game played: RPCs, decisions and seconds."""

    calls: int
    decisions: int
    seconds: float
    hashes: list[str]  # "seq:kind" of every event (the game ids differ)


def _create(stub: annales_pb2_grpc.GameServiceStub, game_type: int, seats: int, seed: str) -> (
    tuple[str, list[str]]
):  # fmt: skip
    answer = stub.CreateGame(
        pb.CreateGameRequest(
            game_type=game_type, seat_names=[f"p{i}" for i in range(seats)], seed=seed
        )
    )
    return answer.game_id, [t.token for t in sorted(answer.seat_tokens, key=lambda t: t.seat)]


def play_classic(stub: annales_pb2_grpc.GameServiceStub, game_type: int, seats: int,
                 seed: str) -> Played:  # fmt: skip
    """GetGame + ListLegalActions + SubmitAction per decision."""
    start = time.perf_counter()
    game_id, tokens = _create(stub, game_type, seats, seed)
    chooser = random.Random(seed)
    calls, decisions, hashes = 1, 0, []
    while decisions < MAX_DECISIONS:
        pending = stub.GetGame(pb.GetGameRequest(game_id=game_id)).game.pending
        calls += 1
        if not pending.seats:
            break
        seat = pending.seats[0]
        legal = stub.ListLegalActions(
            pb.ListLegalActionsRequest(game_id=game_id), metadata=auth(tokens[seat])
        )
        calls += 1
        action = legal.actions[chooser.randrange(len(legal.actions))]
        answer = stub.SubmitAction(
            pb.SubmitActionRequest(game_id=game_id, action=action, expected_version=legal.version),
            metadata=auth(tokens[seat]),
        )
        calls += 1
        decisions += 1
        hashes.extend(f"{e.seq}:{e.kind}" for e in answer.events)
    return Played(calls, decisions, time.perf_counter() - start, hashes)


def play_pending(stub: annales_pb2_grpc.GameServiceStub, game_type: int, seats: int,
                 seed: str) -> Played:  # fmt: skip
    """SubmitAction(include_next_actions) per decision, ListLegalActions on a change of seat."""
    start = time.perf_counter()
    game_id, tokens = _create(stub, game_type, seats, seed)
    chooser = random.Random(seed)
    pending = stub.GetGame(pb.GetGameRequest(game_id=game_id)).game.pending
    calls, decisions, hashes = 2, 0, []
    actions: list[pb.Action] = []
    acted: int | None = None
    version = 0
    while decisions < MAX_DECISIONS and pending.seats:
        seat = pending.seats[0]
        if seat != acted or not actions:
            legal = stub.ListLegalActions(
                pb.ListLegalActionsRequest(game_id=game_id), metadata=auth(tokens[seat])
            )
            calls += 1
            actions, version = list(legal.actions), legal.version
        action = actions[chooser.randrange(len(actions))]
        answer = stub.SubmitAction(
            pb.SubmitActionRequest(game_id=game_id, action=action, expected_version=version,
                                   include_next_actions=True),
            metadata=auth(tokens[seat]),
        )  # fmt: skip
        calls += 1
        decisions += 1
        hashes.extend(f"{e.seq}:{e.kind}" for e in answer.events)
        pending, acted = answer.pending, seat
        actions, version = list(answer.next_actions), answer.version
    return Played(calls, decisions, time.perf_counter() - start, hashes)


def main(games_per_type: int = 3) -> None:
    """Play ``games_per_type`` games of each type both ways and print the comparison."""
    with tempfile.TemporaryDirectory() as directory:
        server = start_server(Path(directory), ("--no-projections",))
        try:
            with server.channel() as channel:
                stub = annales_pb2_grpc.GameServiceStub(channel)
                for name, game_type, seats in GAMES:
                    classic: list[Played] = []
                    pending: list[Played] = []
                    for index in range(games_per_type):
                        seed = f"roundtrips-{name}-{index}"
                        classic.append(play_classic(stub, game_type, seats, seed))
                        pending.append(play_pending(stub, game_type, seats, seed))
                        assert classic[-1].hashes == pending[-1].hashes, "not the same game"
                    _report(name, seats, classic, pending)
        finally:
            stop_server(server)


def _report(name: str, seats: int, classic: list[Played], pending: list[Played]) -> None:
    decisions = sum(p.decisions for p in classic)
    old_calls = sum(p.calls for p in classic)
    new_calls = sum(p.calls for p in pending)
    old_s = sum(p.seconds for p in classic)
    new_s = sum(p.seconds for p in pending)
    games = len(classic)
    print(
        f"{name} {seats}p, {games} games, {decisions / games:.0f} decisions/game: classic "
        f"{old_calls / games:.0f} RPCs/game ({old_calls / decisions:.2f}/decision) | with "
        f"SubmitAction.pending + next_actions {new_calls / games:.0f} RPCs/game "
        f"({new_calls / decisions:.2f}/decision) | calls saved {1 - new_calls / old_calls:.0%} "
        f"(ratio new/classic {new_calls / old_calls:.2f}) | wall time per game "
        f"{old_s / games * 1000:.0f} ms vs {new_s / games * 1000:.0f} ms "
        f"(ratio {new_s / old_s:.2f})"
    )


if __name__ == "__main__":
    main()
