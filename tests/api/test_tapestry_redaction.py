"""The Tapestry redaction oracle (:mod:`tests.api.tapestry_oracle`) over seeded multiplayer
games: a few in the normal run, 50 in ``make long`` (with every civilization in play), and
games with the Plans & Ploys box — the Treasure Hunters, Advisors and Islanders, and the Spies,
whose view shows its neighbours' hands while it decides its copy.

Nothing a seat (or a spectator) receives reveals what it may not know: other seats' draws,
hands and civilization offers, face-down cards, sealed Mystic predictions and the seed.
The games are played by :mod:`tests.api.tapestry_oracle_games`.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc

from domain.tapestry.civs import IMPLEMENTED_CIVILIZATIONS
from tests.api.conftest import ServerProcess
from tests.api.tapestry_oracle_games import SHAPES, run_oracle, starting_civilizations
from tests.api.test_redaction import Recorder, _report

#: games of the normal run, in blocks that ``pytest -n`` spreads over its workers.
N_GAMES = int(os.environ.get("ANNALES_TAPESTRY_ORACLE_GAMES", "4"))
SAMPLE_BLOCKS = 2
#: ``make long``: 50 games in blocks of 5.
N_GAMES_LONG = 50
LONG_BLOCKS = 10


def test_the_long_oracle_puts_every_civilization_in_play() -> None:
    """Issue "Tapestry part 2": the redaction oracle runs with every civilization in play."""
    shapes = [SHAPES[i % len(SHAPES)] for i in range(N_GAMES_LONG)]
    played = {c for i, n in enumerate(shapes) for c in starting_civilizations(i, n)}
    assert played == set(IMPLEMENTED_CIVILIZATIONS)


@pytest.mark.parametrize("block", range(SAMPLE_BLOCKS))
def test_tapestry_redaction_oracle_sample(
    stub: annales_pb2_grpc.GameServiceStub, server: ServerProcess, block: int
) -> None:
    """Other seats' draws and hands, dealt civilizations, face-down cards and the seed stay
    hidden in every message of a few seeded Tapestry games (2 to 5 seats)."""
    leaks: list[str] = []
    for index in range(block, N_GAMES, SAMPLE_BLOCKS):
        leaks.extend(run_oracle(stub, server, index))
    assert not leaks, _report(leaks)


@pytest.mark.long
@pytest.mark.parametrize("block", range(LONG_BLOCKS))
def test_tapestry_redaction_oracle_long(
    stub: annales_pb2_grpc.GameServiceStub, server: ServerProcess, block: int
) -> None:
    """The same oracle over 50 seeded Tapestry games (``make long``), in blocks of 5."""
    leaks: list[str] = []
    per_block = N_GAMES_LONG // LONG_BLOCKS
    for index in range(1000 + block * per_block, 1000 + (block + 1) * per_block):
        leaks.extend(run_oracle(stub, server, index))
    assert not leaks, _report(leaks)


@pytest.mark.parametrize("index", [1, 2])
def test_tapestry_redaction_oracle_plans_and_ploys(
    stub: annales_pb2_grpc.GameServiceStub, server: ServerProcess, index: int
) -> None:
    """The same oracle with the Plans & Ploys box in play, a seat starting with the Treasure
    Hunters (their dice and tokens are public; territory draws from the exploration bag, hands
    and deals stay hidden)."""
    seats = SHAPES[index % len(SHAPES)]
    starting = ("treasure_hunters", *("" for _ in range(seats - 1)))
    leaks = run_oracle(stub, server, index, ("plans_and_ploys",), starting)
    assert not leaks, _report(leaks)


@pytest.mark.parametrize("key", ["advisors", "islanders"])
def test_tapestry_redaction_oracle_plans_and_ploys_civilizations(
    stub: annales_pb2_grpc.GameServiceStub, server: ServerProcess, key: str
) -> None:
    """The oracle with a seat starting with the Advisors (cards handed between hands:
    ``TapestryGiven`` shows its card to the two seats only) or the Islanders (tiles from the
    supply onto the mat, public)."""
    index = 1
    seats = SHAPES[index % len(SHAPES)]
    starting = (key, *("" for _ in range(seats - 1)))
    leaks = run_oracle(stub, server, index, ("plans_and_ploys",), starting)
    assert not leaks, _report(leaks)


class SpyRecorder(Recorder):
    """A recorder that also probes every viewer whenever a Spy's copy is pending (the only
    moment its neighbours' hands are shown to it)."""

    def after_step(self, driver: Any) -> None:
        """The usual probes, then a full probe if the Spies' decision is pending."""
        super().after_step(driver)
        legal = self.stub.ListLegalActions(
            pb.ListLegalActionsRequest(game_id=self.game.game_id), metadata=self.md(0)
        )
        if legal.pending.decision == "spies":
            self.probe(driver.version, False)


def test_tapestry_redaction_oracle_spies(
    stub: annales_pb2_grpc.GameServiceStub, server: ServerProcess
) -> None:
    """Plans & Ploys, Spies (``civilizations.json#36``: « you may view their hand »;
    ``decisions.json#spies_hand``): while the Spy decides its copy, its view shows both
    neighbours' true hands, and no other viewer's does (4 seats: seat 2 is no neighbour of the
    Spy); every other secret stays hidden as always."""
    index = 2
    assert SHAPES[index % len(SHAPES)] == 4
    starting = ("spies", "", "", "")
    leaks = run_oracle(
        stub,
        server,
        index,
        ("plans_and_ploys",),
        starting,
        recorder_type=SpyRecorder,
        required_checks=("spy_peeks",),
    )
    assert not leaks, _report(leaks)
