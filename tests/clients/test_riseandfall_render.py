"""The terminal drawing of the Rise & Fall world: hexes in offset rows (``riseandfall/2``),
squares for ``riseandfall/1``; the view carries the grid a client needs to draw it."""

from __future__ import annotations

import msgspec
from annales_cli.render import drawn_at, render_world

from domain.core import Chance
from domain.riseandfall.game import RiseAndFall, RiseAndFallHex
from domain.riseandfall.hexgrid import HEX


def _view(game: RiseAndFall) -> dict[str, object]:
    state = game.initial(game.decode_options({}), 2)
    for event in game.setup(state, Chance(b"render", 0)):
        state = game.evolve(state, event)
    data = msgspec.to_builtins(game.view(state, None))
    assert isinstance(data, dict)
    return data


def test_hex_world_is_drawn_in_offset_rows() -> None:
    """Every hex of the world is drawn where odd-r offset rows put it: odd rows start half a
    cell (one character) further right, and each drawn row holds the hexes of one r."""
    view = _view(RiseAndFallHex())
    world = view["world"]
    assert isinstance(world, dict) and world["grid"] == "hex"
    lines = render_world(view).plain.splitlines()[:-1]
    rows = [int(line[:3]) for line in lines]
    terrain = world["terrain"]
    used = [c for c, t in enumerate(terrain) if t >= 0]
    assert rows == list(range(min(c // 40 for c in used), max(c // 40 for c in used) + 1))
    col0 = min(drawn_at(c, True)[0] for c in used)
    for line, r in zip(lines, rows, strict=True):
        body = line[4 + (r % 2) :]
        for q in range(40):
            cell = HEX.cell_of(q, r)
            col, _ = drawn_at(cell, True)
            if terrain[cell] >= 0:
                assert body[2 * (col - col0) : 2 * (col - col0) + 2] != " ."
    assert any(line[4] == " " and r % 2 for line, r in zip(lines, rows, strict=True))


def test_square_world_is_still_drawn_as_a_grid() -> None:
    """``riseandfall/1`` views say ``grid == "square"`` and keep the column header."""
    view = _view(RiseAndFall())
    assert view["world"]["grid"] == "square"  # type: ignore[index]
    assert render_world(view).plain.splitlines()[0].startswith("    ")
