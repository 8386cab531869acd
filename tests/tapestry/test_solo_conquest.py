"""Conquest, exploration and the Trap against the solo bots, one named test per rule of the
player aid ("CONQUÊTE I" against the human, "CONQUÊTE II" neutral, "EXPLORATION",
"EMBUSCADE").

Situations are built on a real solo game (setup events folded) and the bots' steps run through
the engine's own agenda (:class:`~domain.tapestry.engine.Ctx`), with recorded chance.
"""

from __future__ import annotations

from domain.core import Chance
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.commands import Decline, PlayTrap
from domain.tapestry.engine import Ctx, run
from domain.tapestry.rules import hex_at
from domain.tapestry.solo import AUTOMA, SHADOW
from domain.tapestry.solo import content as S
from domain.tapestry.solo import events as sev
from domain.tapestry.solo.conquest import conquer, defend, explore
from domain.tapestry.state import Frame, Outpost, TapestryState
from tests.tapestry.solo_helpers import GAME, call, of, started

TRAP = next(c.id for c in C.TAPESTRY_CARDS.values() if c.key == "trap")


# -- conquest and exploration ---------------------------------------------------------------
def _lone_human_next_to_automa(state: TapestryState) -> int:
    """Put a lone human outpost next to the Automa's start territory; returns its hex."""
    from domain.tapestry.rules import board_neighbours

    home = hex_at(state, *S.SETUP.automa_home)
    target = next(
        n for n in board_neighbours(state.board)[home] if n >= 0 and not state.hexes[n].outposts
    )
    state.hexes[target].tile = next(iter(C.TERRITORY_TILES))
    state.hexes[target].outposts.append(Outpost(seat=0))
    return target


def test_opponent_conquest_without_trap() -> None:
    """CONQUÊTE I: the Automa conquers a territory the human holds with one outpost: its
    outpost goes there and the human's is toppled."""
    state = started()
    target = _lone_human_next_to_automa(state)
    state.seats[0].hand = []
    events = call(state, conquer, False)
    assert of(events, sev.AutomaOutpostPlaced)[0].hex == target
    assert of(events, ev.OutpostToppled)[0].owner == 0
    assert state.hexes[target].controller() == AUTOMA


def test_opponent_conquest_with_trap() -> None:
    """CONQUÊTE I / EMBUSCADE: the human may play a Trap: the Automa's outpost is toppled."""
    state = started()
    target = _lone_human_next_to_automa(state)
    state.seats[0].hand = [TRAP]
    state.agenda = [Frame(kind="solo_action", seat=0, token="conquer")]
    ctx = Ctx(state, Chance(b"trap", 5))
    run(ctx)
    for event in ctx.events:
        GAME.evolve(state, event)
    state.agenda = ctx.state.agenda
    assert GAME.pending(state).decision == "trap"
    assert PlayTrap() in GAME.legal_actions(state, 0) and Decline() in GAME.legal_actions(state, 0)
    answer = GAME.decide(state, 0, PlayTrap(), Chance(b"trap", 6))
    toppled = of(answer, ev.OutpostToppled)
    assert toppled and toppled[0].owner == AUTOMA
    for event in answer:
        GAME.evolve(state, event)
    assert state.hexes[target].controller() == 0


def test_neutral_conquest_and_topple_icon() -> None:
    """CONQUÊTE II: no human territory to take: the Automa conquers a valid hex away from the
    human (an empty hex gets a tile at random rotation); with the topple icon on the priority
    card a toppled Shadow Empire outpost joins it."""
    state = started()
    solo = state.solo
    assert solo is not None
    solo.pair = [7, 1]  # card 1: topple icon
    events = call(state, conquer, False)
    placed = of(events, sev.AutomaOutpostPlaced)
    assert placed
    target = placed[0].hex
    assert of(events, sev.ShadowEmpireOutpostPlaced)[0].hex == target
    seats = [(o.seat, o.toppled) for o in state.hexes[target].outposts]
    assert seats == [(AUTOMA, False), (SHADOW, True)]
    solo.pair = [7, 2]  # card 2: no topple icon
    events = call(state, conquer, False, seed=b"again")
    assert of(events, sev.AutomaOutpostPlaced) and not of(events, sev.ShadowEmpireOutpostPlaced)


def test_neutral_conquest_aims_at_the_middle_island() -> None:
    """CONQUÊTE II, 2: while the middle island is still to conquer, the target is the valid
    hex nearest to it."""
    from domain.tapestry.solo.board import distances

    state = started()
    assert state.solo is not None
    state.solo.pair = [7, 2]
    island = next(i for i, h in enumerate(C.BOARDS[state.board].hexes) if h.central_island)
    from domain.tapestry.solo.conquest import neutral_targets

    before = distances(state, {island})
    valid = neutral_targets(state, False, False)
    events = call(state, conquer, False)
    target = of(events, sev.AutomaOutpostPlaced)[0].hex
    assert target in valid and before[target] == min(before[i] for i in valid)


def test_exploration_by_the_automa() -> None:
    """EXPLORATION: a tile drawn at random rotation on an empty hex next to the Automa; no
    outpost; skipped when no hex is valid."""
    state = started()
    events = call(state, explore, False)
    laid = of(events, sev.AutomaTileExplored)
    assert len(laid) == 1 and not of(events, sev.AutomaOutpostPlaced)
    assert state.hexes[laid[0].hex].tile == laid[0].tile
    for cell in state.hexes:  # nothing left to explore
        if not cell.explored:
            cell.tile = 0
    assert call(state, explore, False) == []


def test_human_conquers_automa_trap_check() -> None:
    """EMBUSCADE: when the human conquers an Automa territory, the Automa's face-down
    tapestry cards are revealed until a Trap: with one, the human's outpost is toppled."""
    state = started()
    home = hex_at(state, *S.SETUP.automa_home)
    state.hexes[home].outposts = [Outpost(seat=AUTOMA)]
    state.hexes[home].outposts.append(Outpost(seat=0))
    assert state.solo is not None
    state.solo.tapestry = [TRAP]
    events = call(state, defend, home, 0)
    check = of(events, sev.AutomaTrapChecked)[0]
    assert check.trap and check.revealed == (TRAP,)
    assert of(events, ev.OutpostToppled)[0].owner == 0
    state.solo.tapestry = []
    state.hexes[home].outposts = [Outpost(seat=AUTOMA), Outpost(seat=0)]
    events = call(state, defend, home, 0)
    assert not of(events, sev.AutomaTrapChecked)
    assert of(events, ev.OutpostToppled)[0].owner == AUTOMA
