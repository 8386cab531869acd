"""The Tapestry redaction oracle (:mod:`tests.api.tapestry_oracle`) over solo games against
the Automa and the Shadow Empire: at the usual level, on the hard side (level 6) and with
Plans & Ploys, the Automa's face-down tapestry cards and the seed stay hidden from the seat
and from spectators until the game ends; the oracle flags a planted leak.
"""

from __future__ import annotations

import random

from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc

from tests.api.conftest import ServerProcess
from tests.api.helpers import create_tapestry_game, fixed_seed
from tests.api.tapestry_oracle import PROBE_RATE, check_tapestry, error_action, hidden_events
from tests.api.test_redaction import Recorder, Seen, _report


def run_solo_oracle(
    stub: annales_pb2_grpc.GameServiceStub,
    server: ServerProcess,
    index: int,
    level: int = 2,
    expansions: tuple[str, ...] = (),
) -> list[str]:
    """One recorded solo game (against the Automa and the Shadow Empire) at Automa ``level``,
    ``expansions`` in play, and its leaks: the Automa's face-down tapestry cards stay hidden
    from the seat and the spectator until the end, in events, views, records and legal
    actions; the oracle flags a planted leak."""
    suffix = ("" if level == 2 else f"-level{level}") + "".join(expansions)
    seed = fixed_seed(f"tapestry-solo-oracle{index}{suffix}")
    level_option = None if level == 2 else level
    game = create_tapestry_game(
        stub, 1, seed=seed, automa_level=level_option, expansions=expansions
    )
    recorder = Recorder(
        stub,
        game,
        1,
        random.Random(index),
        probe_rate=PROBE_RATE,
        error_action=error_action(),
        sealed_kinds=(),
        reveal_kinds=(),
        always_sealed=True,
    )
    recorder.play(f"tapestry-solo-oracle-bot-{index}".encode())
    stats: dict[str, int] = {}
    leaks = check_tapestry(recorder, server, seed, stats)
    for key in ("events", "records", "non_interference", "legal_actions"):
        assert stats.get(key, 0) > 0, f"vacuous check ({key}): {stats}"
    secrets, _, _ = hidden_events(server, game.game_id)
    automa = {s.seq: s for s in secrets if s.kind == "AutomaTapestryDrawn"}
    assert automa, "the Automa draws face-down tapestry cards from level 2"
    stream = next(
        m
        for m in recorder.seen
        if m.rpc == "WatchGame"
        and m.viewer == 0
        and any(e.seq in automa and e.redacted for e in m.message.events)
    )
    leaky = pb.WatchGameResponse()
    leaky.CopyFrom(stream.message)
    event = next(e for e in leaky.events if e.seq in automa and e.redacted)
    event.tapestry.automa_tapestry_drawn.cards.extend(automa[event.seq].value)
    view_item = next(m for m in recorder.seen if m.rpc == "GetView")
    planted = Recorder(
        recorder.stub,
        recorder.game,
        1,
        recorder.rng,
        seen=[Seen(stream.viewer, "WatchGame", stream.lo, stream.hi, leaky), view_item],
    )
    found = check_tapestry(planted, server, seed)
    assert any("AutomaTapestryDrawn" in f and "shows" in f for f in found), found
    return [f"solo game {index}: {leak}" for leak in leaks]


def test_tapestry_redaction_oracle_solo(
    stub: annales_pb2_grpc.GameServiceStub, server: ServerProcess
) -> None:
    """Solo: the Automa's face-down tapestry cards and the seed stay hidden from the seat and
    from spectators until the game ends (the decision deck keeps no order to leak)."""
    leaks = run_solo_oracle(stub, server, 0)
    assert not leaks, _report(leaks)


def test_tapestry_redaction_oracle_solo_hard_side(
    stub: annales_pb2_grpc.GameServiceStub, server: ServerProcess
) -> None:
    """Solo at level 6 (the hard side: a second Automa civilization card, a progress card
    drawn at the first income turn): the same secrets stay hidden."""
    leaks = run_solo_oracle(stub, server, 0, level=6)
    assert not leaks, _report(leaks)


def test_tapestry_redaction_oracle_solo_plans_and_ploys(
    stub: annales_pb2_grpc.GameServiceStub, server: ServerProcess
) -> None:
    """Solo with Plans & Ploys (progress cards drawn for income-turn ties, public): the
    Automa's face-down tapestry cards and the seed stay hidden until the game ends."""
    leaks = run_solo_oracle(stub, server, 0, level=3, expansions=("plans_and_ploys",))
    assert not leaks, _report(leaks)
