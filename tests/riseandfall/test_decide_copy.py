"""The private copy a Rise & Fall command is decided on (``domain.riseandfall.game._copy``).

Outside world building ("Création du Monde") the copy shares the world object instead of
copying it: only ``TilePlaced`` changes the world, and only while it is being built. Checked on
seeded bot games of both rulesets, the world built by the seats ("players") and dealt at random
(hex): at every decision the copy has exactly the state's bytes, shares the world only outside
world building, and deciding never changes the state it was given (the world included).
"""

from __future__ import annotations

import msgspec
import pytest

from domain.bots import make_bot
from domain.core import Chance
from domain.riseandfall.game import _copy
from domain.riseandfall.state import WORLD
from tests.harness import Table


@pytest.mark.parametrize(
    ("ruleset", "options"),
    [
        ("riseandfall/1", {"world": "players"}),
        ("riseandfall/2", {"world": "players"}),
        ("riseandfall/2", {}),
    ],
)
def test_the_decide_copy_equals_the_state_and_shares_only_the_built_world(
    ruleset: str, options: dict[str, str]
) -> None:
    """Copy bytes equal the state's; world shared iff not building; decide leaves state alone."""
    table = Table("riseandfall", 3, b"decide-copy", options, ruleset=ruleset)
    bots = {i: make_bot("random", f"decide-copy-{i}".encode()) for i in range(3)}
    game = table.game
    phases_seen = set()
    while not table.is_over():
        state = table.match.state
        phases_seen.add(state.phase)
        before = msgspec.msgpack.encode(state)
        copy = _copy(state)
        assert msgspec.msgpack.encode(copy) == before
        assert (copy.world is state.world) == (state.phase != WORLD)
        seat = game.pending(state).seats[0]
        command = bots[seat].choose(game, state, seat)
        game.decide(state, seat, command, Chance(table.seed, table.match.version))
        assert msgspec.msgpack.encode(state) == before, "deciding changed the state"
        table.submit(seat, command)
    if options:
        assert WORLD in phases_seen  # the seats built the world: both branches ran
