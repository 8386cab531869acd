"""Seeded Tapestry games played through the redaction oracle (:mod:`tests.api.tapestry_oracle`):
the seat counts and starting civilizations of oracle game ``index``, and :func:`run_oracle`,
which plays one game, checks every message against the oracle and returns the leaks found
(game 0 also checks that planted leaks are caught). Shared by the multiplayer and box tests.
"""

from __future__ import annotations

import random

from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc

from domain.tapestry.civs import IMPLEMENTED_CIVILIZATIONS
from tests.api.conftest import ServerProcess
from tests.api.helpers import Failure, create_tapestry_game, fixed_seed
from tests.api.tapestry_oracle import PROBE_RATE, check_tapestry, error_action, hidden_events
from tests.api.test_redaction import Recorder, Seen

#: seat counts cycled over the games.
SHAPES = (3, 2, 4, 5)


def starting_civilizations(index: int, seats: int) -> tuple[str, ...]:
    """The starting civilizations of oracle game ``index``: they cycle through all 16 so that
    every one is in play across the long run; every other game has a starting Mystic (sealed
    predictions always checked)."""
    keys = sorted(IMPLEMENTED_CIVILIZATIONS)
    chosen = [keys[(index * 5 + s) % len(keys)] for s in range(seats)]
    if index % 2 == 0 and "mystics" not in chosen:
        chosen[0] = "mystics"
    return tuple(chosen)


def run_oracle(
    stub: annales_pb2_grpc.GameServiceStub,
    server: ServerProcess,
    index: int,
    expansions: tuple[str, ...] = (),
    starting: tuple[str, ...] | None = None,
    recorder_type: type[Recorder] = Recorder,
    required: frozenset[str] = frozenset(),
    required_checks: tuple[str, ...] = (),
) -> list[str]:
    """One recorded game and its leaks (``expansions``: the boxes in play; ``starting``: the
    starting civilizations, else :func:`starting_civilizations`; ``required``: hidden event
    kinds the game must meet, so that their checks are not vacuous; ``required_checks``:
    further checks that must have met something)."""
    seats = SHAPES[index % len(SHAPES)]
    seed = fixed_seed(f"tapestry-oracle{index}{''.join(expansions)}")
    chosen = starting if starting is not None else starting_civilizations(index, seats)
    game = create_tapestry_game(
        stub, seats, seed=seed, starting_civilizations=chosen, expansions=expansions
    )
    recorder = recorder_type(
        stub,
        game,
        seats,
        random.Random(index),
        probe_rate=PROBE_RATE,
        error_action=error_action(),
        sealed_kinds=(),
        reveal_kinds=(),
        always_sealed=True,
    )
    recorder.play(f"tapestry-oracle-bot-{index}".encode())
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
    leaks = check_tapestry(recorder, server, seed, stats)
    for key in (
        "events",
        "views",
        "records",
        "non_interference",
        "legal_actions",
        *required_checks,
    ):
        assert stats.get(key, 0) > 0, f"vacuous check ({key}): {stats}"
    if "mystics" in chosen:
        assert stats.get("predictions", 0) > 0, f"vacuous check (predictions): {stats}"
    if required:
        met = {s.kind for s in hidden_events(server, game.game_id)[0]}
        assert required <= met, f"vacuous check ({sorted(required - met)})"
    if index == 0:
        _oracle_catches_planted_leaks(recorder, server, seed)
    return [f"game {index} ({seats} seats): {leak}" for leak in leaks]


def _oracle_catches_planted_leaks(recorder: Recorder, server: ServerProcess, seed: str) -> None:
    """Self-test: the oracle flags a drawn card put back into a redacted streamed event (or into
    the same event in a history page after the end), a view showing another seat's hand, a
    view whose hand size betrays a hidden change, and the seed in a message before the end; a
    sealed Mystics prediction put back into a redacted event (the oracle's first game has a
    starting Mystic)."""
    secrets, _, seed_end = hidden_events(server, recorder.game.game_id)
    sealed = {s.seq: s for s in secrets if s.kind == "PredictionMade"}
    guess_stream = next(
        m
        for m in recorder.seen
        if m.rpc == "WatchGame" and any(e.seq in sealed and e.redacted for e in m.message.events)
    )
    guessing = pb.WatchGameResponse()
    guessing.CopyFrom(guess_stream.message)
    guess = next(e for e in guessing.events if e.seq in sealed and e.redacted)
    guess.tapestry.prediction_made.value = sealed[guess.seq].value
    drawn = {s.seq: s for s in secrets if s.kind == "TapestryDrawn"}
    stream = next(
        m
        for m in recorder.seen
        if m.rpc == "WatchGame" and any(e.seq in drawn and e.redacted for e in m.message.events)
    )
    leaky = pb.WatchGameResponse()
    leaky.CopyFrom(stream.message)
    event = next(e for e in leaky.events if e.seq in drawn and e.redacted)
    event.tapestry.tapestry_drawn.cards.extend(drawn[event.seq].value)
    view_item = next(
        m
        for m in recorder.seen
        if m.rpc == "GetView"
        and any(s.hand_size for s in m.message.view.tapestry.seats if s.seat != m.viewer)
    )
    other = next(
        s.seat
        for s in view_item.message.view.tapestry.seats
        if s.seat != view_item.viewer and s.hand_size
    )
    peeking = pb.GetViewResponse()
    peeking.CopyFrom(view_item.message)
    peeking.view.tapestry.seats[other].hand.values.append(1)
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
            Seen(guess_stream.viewer, "WatchGame", guess_stream.lo, guess_stream.hi, guessing),
            # the same draw shown in a history page after the end: still a leak (per version)
            Seen(stream.viewer, "GetHistory", seed_end, seed_end, leaky),
        ],
    )
    found = check_tapestry(planted, server, seed)
    assert any("TapestryDrawn" in f and "shows" in f for f in found), found
    assert any(f.startswith("GetHistory") and "TapestryDrawn" in f for f in found), found
    assert any("hand" in f for f in found), found
    assert any("depends on values hidden" in f for f in found), found
    assert any("seed" in f for f in found), found
    assert any("PredictionMade" in f and "shows" in f for f in found), found
