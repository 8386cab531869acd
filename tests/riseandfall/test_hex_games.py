"""Seeded random ``riseandfall/2`` games with the world built by the seats.

Each game: the seats (random bots) lay every tile through ``PlaceTile`` commands, then play to
the end. Checked: no exception, a winner, the live state equals a fresh fold of the events,
"TOUTES les tuiles de Plaine doivent être posées" (no plain ever set aside, every plain of the
"Création du Monde" table in the world), and on sampled world-building states the legal
placements are sound (each is accepted) and complete (a brute force over every orientation
and anchor near the world accepts exactly the listed placements that move no plain).

The normal run plays a few games per player count; ``make long`` plays ``LONG_GAMES`` (500)
per player count.
"""

from __future__ import annotations

import pytest

from domain.bots import RandomBot
from domain.core import Chance, RuleViolation, replay_events
from domain.riseandfall.commands import PlaceTile
from domain.riseandfall.grids import grid_named
from domain.riseandfall.tiles import orientations
from domain.riseandfall.worldbuild import TilePlacement, check_placement, stage_counts, supply
from tests.harness import Table, play, state_bytes

RULESET = "riseandfall/2"
CI_GAMES = 1
LONG_GAMES = 500
LONG_CHUNK = 50
#: every this many world-building decisions, the legal placements are brute-forced.
PROBE_EVERY = 9


def brute_placements(state: object, kind: str, shape: int) -> set[TilePlacement]:
    """Every placement moving no plain that ``check_placement`` accepts, over every distinct
    orientation and every anchor within 3 cells of the world's extent."""
    world = state.world  # type: ignore[attr-defined]
    grid = grid_named(world.grid)
    used = [c for c, t in enumerate(world.terrain) if t >= 0]
    xs = [grid.xy(c)[0] for c in used]
    ys = [grid.xy(c)[1] for c in used]
    found: set[TilePlacement] = set()
    for o in orientations(kind, shape, world.grid):
        for x in range(min(xs) - 3, max(xs) + 2):
            for y in range(min(ys) - 3, max(ys) + 2):
                placement = TilePlacement(kind, shape, o.rotation, x, y)
                try:
                    check_placement(world, placement, state.rules.max_moves)  # type: ignore[attr-defined]
                except RuleViolation:
                    continue
                found.add(placement)
    return found


def hex_game(seats: int, seed: int, probe: bool = True) -> dict[str, int]:
    """Play one seeded game; the counts of what was checked."""
    table = Table(
        "riseandfall", seats, f"hex-{seed}".encode(), {"world": "players"}, ruleset=RULESET
    )
    game = table.game
    assert game.ruleset_version == RULESET
    bots = {i: RandomBot(f"hexbot-{seed}-{i}".encode()) for i in range(seats)}
    seen = {"probes": 0, "moves": 0}

    def before(t: Table, seat: int, command: object) -> None:
        state = t.match.state
        if state.phase != "world" or not isinstance(command, PlaceTile):
            return
        seen["moves"] += len(command.placement.moves)
        if not probe or state.tiles_placed % PROBE_EVERY:
            return
        kind, shape = supply(state.n, state.world.grid)[state.tiles_placed]
        listed = [a.placement for a in game.legal_actions(state, seat)]  # type: ignore[union-attr]
        assert len(set(listed)) == len(listed)
        for placement in listed[:: max(1, len(listed) // 10)]:
            game.decide(state, seat, PlaceTile(placement=placement), Chance(b"p", 0))
        assert {p for p in listed if not p.moves} == brute_placements(state, kind, shape)
        seen["probes"] += 1

    play(table, bots, before=before)
    state = table.match.state
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winners
    fresh = replay_events(game, table.stored())
    assert state_bytes(game, fresh.state) == state_bytes(game, state)
    aside = [e for e in map(table.decode, table.envelopes) if type(e).__name__ == "TileSetAside"]
    assert not [e for e in aside if e.kind == "plain"], "a plain was set aside"  # type: ignore[attr-defined]
    plains = sum(1 for t in state.world.tiles if t.kind == "plain")
    assert plains == stage_counts(seats, "hex")["plain"]
    assert state.world.grid == "hex"
    return seen


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("seed", range(CI_GAMES))
def test_hex_games_lay_every_plain_and_list_sound_complete_placements(
    seats: int, seed: int
) -> None:
    """Création du Monde on hexes, with the seats building: all plains laid, placements
    sound and complete on sampled states, the game ends and replays identically."""
    seen = hex_game(seats, seed)
    assert seen["probes"] > 0


@pytest.mark.long
@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("chunk", range(LONG_GAMES // LONG_CHUNK))
def test_long_hex_games(seats: int, chunk: int) -> None:
    """``make long``: 500 seeded ``riseandfall/2`` games per player count (chunks of 50)."""
    for seed in range(chunk * LONG_CHUNK, (chunk + 1) * LONG_CHUNK):
        hex_game(seats, 10_000 + seed, probe=seed % 10 == 0)
