"""The rulebook's variant of the start on the nearest island ("VARIANTES": « Lors de la mise en
place, au lieu d'utiliser les capitales pour déterminer l'emplacement de départ sur la carte,
placez vos avant-postes au centre de l'île la plus proche de vous. Lors d'une partie à 4
joueurs, espacez les positions de départ équitablement afin qu'aucun joueur n'ait pas de
voisin. »), option ``island_start`` of ``tapestry/2``.

Games run through the kernel (:class:`tests.harness.Table`): setup events, legal actions, the
creation event's recorded options, views and whole games.
"""

from __future__ import annotations

import pytest

from domain.bots import make_bot
from domain.core import MalformedCommand
from domain.registry import get_ruleset
from domain.tapestry import content as C
from domain.tapestry import hexmap
from domain.tapestry.commands import ChooseCapital
from domain.tapestry.events import OutpostsStarted
from domain.tapestry.rules import hex_at
from tests.harness import Table, play

ISLAND = {"island_start": True}


def _printed_groups(board: str) -> list[set[tuple[int, int]]]:
    """The edge-joined groups of printed hexes other than the central island, found by a flood
    fill written here independently of the content checks."""
    printed = {(h.q, h.r) for h in C.BOARDS[board].hexes if h.corners and not h.central_island}
    groups: list[set[tuple[int, int]]] = []
    for start in sorted(printed):
        if any(start in g for g in groups):
            continue
        group, frontier = {start}, [start]
        while frontier:
            for n in hexmap.neighbours(frontier.pop()):
                if n in printed and n not in group:
                    group.add(n)
                    frontier.append(n)
        groups.append(group)
    return groups


@pytest.mark.parametrize(("board", "count"), [("small", 3), ("large", 6)])
def test_islands_are_the_printed_land_groups_around_the_central_island(
    board: str, count: int
) -> None:
    """ "VARIANTES" needs the map's islands: each is one edge-joined group of printed hexes, its
    centre the hex touching all the others — the printed start territory of the capitals."""
    islands = C.BOARDS[board].islands
    assert len(islands) == count
    assert sorted(sorted(i.hexes) for i in islands) == sorted(
        sorted(g) for g in _printed_groups(board)
    )
    starts = {(h.q, h.r) for h in C.BOARDS[board].hexes if h.start_for_capitals}
    for island in islands:
        others = set(island.hexes) - {island.centre}
        assert len(others) == 3 and others <= set(hexmap.neighbours(island.centre))
        assert island.centre in starts
        assert island.source == "assumed" and "VARIANTES" in island.note


def test_islands_are_numbered_clockwise_from_the_top() -> None:
    """On the large board the islands follow the capitals' numbers 1 to 6 clockwise, starting
    at the top (screen up is smaller ``q + r``)."""
    by_start = {(h.q, h.r): h.start_for_capitals for h in C.BOARDS["large"].hexes}
    assert [by_start[i.centre] for i in C.BOARDS["large"].islands] == [
        (1,),
        (2,),
        (3,),
        (4,),
        (5,),
        (6,),
    ]
    top = C.BOARDS["small"].islands[0].centre
    assert top == min((i.centre for i in C.BOARDS["small"].islands), key=lambda c: c[0] + c[1])


def _setup(seats: int, seed: bytes) -> Table:
    """A ``tapestry/2`` game with the variant, every seat keeping its first capital."""
    table = Table("tapestry", seats, seed, ISLAND)
    state = table.match.state
    for seat in range(seats):
        offered = [c for c in table.game.legal_actions(state, seat) if isinstance(c, ChooseCapital)]
        if offered:
            table.submit(seat, offered[0])
    return table


def _starts(table: Table) -> dict[int, int]:
    return {
        e.seat: e.hex for e in map(table.decode, table.envelopes) if isinstance(e, OutpostsStarted)
    }


@pytest.mark.parametrize(("seats", "islands"), [(2, [0, 1]), (3, [0, 1, 2]), (5, [0, 1, 2, 3, 4])])
def test_each_seat_starts_on_the_centre_of_its_island(seats: int, islands: list[int]) -> None:
    """ "VARIANTES": « placez vos avant-postes au centre de l'île la plus proche de vous »: the
    2 starting outposts of seat ``i`` (seats clockwise, seat 0 at the top island) stand on its
    island's centre, whatever capital it keeps."""
    table = _setup(seats, f"island-{seats}".encode())
    state = table.match.state
    board = C.board_for(seats)
    expected = {
        seat: hex_at(state, *board.islands[island].centre) for seat, island in enumerate(islands)
    }
    assert _starts(table) == expected
    for seat, home in expected.items():
        assert state.seats[seat].home == home
        assert [o.seat for o in state.hexes[home].outposts] == [seat, seat]


def test_four_seats_are_spread_so_that_each_has_a_neighbour() -> None:
    """ "VARIANTES": « Lors d'une partie à 4 joueurs, espacez les positions de départ
    équitablement afin qu'aucun joueur n'ait pas de voisin »: on the 6 islands of the large
    board the 4 seats take islands 0, 1, 3, 4 — gaps of 1 and 2 in turn — so every seat has a
    taken island beside its own."""
    table = _setup(4, b"island-4")
    state = table.match.state
    centres = [hex_at(state, *i.centre) for i in C.BOARDS["large"].islands]
    taken = [centres.index(h) for h in _starts_hexes(table)]
    assert taken == [0, 1, 3, 4]
    for island in taken:
        assert (island - 1) % 6 in taken or (island + 1) % 6 in taken


def _starts_hexes(table: Table) -> list[int]:
    starts = _starts(table)
    return [starts[seat] for seat in sorted(starts)]


def test_the_capital_kept_no_longer_decides_the_start() -> None:
    """ "au lieu d'utiliser les capitales": the setup still offers both capitals of the pair
    (legal actions unchanged); either one puts the outposts on the same island centre."""
    homes = set()
    for pick in (0, 1):
        table = Table("tapestry", 2, b"island-pick", ISLAND)
        state = table.match.state
        offered = [c for c in table.game.legal_actions(state, 0) if isinstance(c, ChooseCapital)]
        assert len(offered) == 2
        table.submit(0, offered[pick])
        homes.add(_starts(table)[0])
    board = C.BOARDS["small"]
    assert homes == {hex_at(table.match.state, *board.islands[0].centre)}


def test_without_the_variant_the_capital_decides_the_start() -> None:
    """Off by default: the outposts go on the capital's printed start territory."""
    table = Table("tapestry", 2, b"island-off")
    state = table.match.state
    offered = [c for c in table.game.legal_actions(state, 1) if isinstance(c, ChooseCapital)]
    table.submit(1, offered[0])
    start = C.CAPITALS[offered[0].capital].start_small
    assert _starts(table)[1] == hex_at(table.match.state, *start)


def test_the_view_names_the_variant_and_each_home() -> None:
    """Views show the variant in force and each seat's start territory."""
    table = _setup(3, b"island-view")
    state = table.match.state
    view = table.game.view(state, 0)
    assert view.variants == ("island_start",)
    assert [s.home for s in view.seats] == [state.seats[i].home for i in range(3)]
    assert all(s.home >= 0 for s in view.seats)
    plain = Table("tapestry", 3, b"island-view")
    assert plain.game.view(plain.match.state, None).variants == ()


def test_the_option_is_recorded_only_when_set() -> None:
    """Older ``tapestry/2`` games keep byte-identical creation events: ``island_start`` is
    recorded only when set."""
    game = get_ruleset("tapestry/2")
    assert "island_start" not in game.recorded_options(game.decode_options({}))
    assert game.recorded_options(game.decode_options(ISLAND))["island_start"] is True


def test_solo_and_tapestry_1_refuse_the_variant() -> None:
    """A solo game starts where the Automa's rules say; ``tapestry/1`` has no variants: both
    are INVALID_OPTION naming the option."""
    game = get_ruleset("tapestry/2")
    with pytest.raises(MalformedCommand) as solo:
        game.initial(game.decode_options(ISLAND), 1)
    assert solo.value.code == "INVALID_OPTION" and "island_start" in str(solo.value)
    with pytest.raises(MalformedCommand) as old:
        get_ruleset("tapestry/1").decode_options(ISLAND)
    assert old.value.code == "INVALID_OPTION" and "island_start" in str(old.value)


@pytest.mark.parametrize("seats", [2, 4])
def test_island_start_games_run_to_the_end(seats: int) -> None:
    """Whole games with the variant, random bots, no exception."""
    table = Table("tapestry", seats, f"island-game-{seats}".encode(), ISLAND)
    bots = {i: make_bot("random", bytes([i, seats, 7])) for i in range(seats)}
    play(table, bots)
    assert table.is_over()
