"""Spies (Espions, Plans & Ploys).

Sources: the facts folder's record (``civilizations.json#36``: « Income turns 2-5: use an unused
option to copy from a neighbour: a WHEN PLAYED tapestry on their mat, a tile in their supply,
their current track-space benefit, or a tech card's current-row benefit; you may view their
hand. »); "RÉÉQUILIBRAGE DES CIVILISATIONS" (« ESPIONS Perdez [icône] si vous commencez la
partie avec les Espions. ») and F.À.Q. "PLATEAUX CIVILISATION PARTICULIERS" (a resource lost at
the end of the first income turn); "Voisins"; ``decisions.json#spies_options``,
``#spies_hand``, ``#lost_icon_resource``.
"""

from __future__ import annotations

import pytest

from domain.bots import make_bot
from domain.tapestry import civs
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.bot import TapestryBot
from domain.tapestry.civs import civ_id
from domain.tapestry.commands import Choose, Decline
from domain.tapestry.expansions import civ_spies as sp
from domain.tapestry.state import Frame, Played, TapestryState, TechOwned
from domain.tapestry.view import seat_view
from tests.tapestry.box_civ_helpers import play_bots, play_boxed, refold, state_bytes
from tests.tapestry.box_pp_helpers import income as pp_income
from tests.tapestry.box_pp_helpers import seated
from tests.tapestry.helpers import of
from tests.tapestry.test_cards_support import answer, options, run_frames

KEY = "spies"
BOX = "plans_and_ploys"


def spy(seats: int = 2) -> TapestryState:
    """Seat 0 holds the Spies in a game with Plans & Ploys."""
    return seated(KEY, seats)


def income(state: TapestryState, era: int = 2) -> list[ev.Event]:
    """Step 1 of income turn ``era`` for seat 0."""
    return pp_income(state, KEY, era)


def copy(option: int, neighbour: int, item: int) -> Choose:
    """The command copying ``item`` of ``neighbour`` with ``option``."""
    return Choose(index=option * sp.OPTION + neighbour * sp.NEIGHBOUR + item)


def card(key: str) -> int:
    """The id of tapestry card ``key``."""
    return next(c.id for c in C.TAPESTRY_CARDS.values() if c.key == key)


# -- content, dealing, rebalancing ------------------------------------------------------------
def test_record_dealing_and_not_solo() -> None:
    """Facts folder ``civilizations.json#36`` and the player aid (not played solo); "PREMIÈRE
    MISE EN PLACE": dealt and gained only with its box."""
    record = C.CIVILIZATIONS[civ_id(KEY)]
    assert record.box == BOX and record.name_fr == "Espions" and record.implemented
    assert not record.solo and record.setup is None
    assert sp.OPTIONS == ("tapestry", "tile", "track", "tech")
    assert civ_id(KEY) not in civs.implemented_ids() and civ_id(KEY) in civs.implemented_ids((BOX,))
    assert KEY in civs.gainable((BOX,))


def test_rebalancing_loses_a_resource_at_the_end_of_the_first_income_turn() -> None:
    """ "RÉÉQUILIBRAGE" (ESPIONS: « Perdez [icône] ») and F.À.Q. "PLATEAUX CIVILISATION
    PARTICULIERS" (« Vous perdez la ressource à la fin du premier tour de revenus »): one
    resource of choice, only for a starting Spy, only after income turn 1."""
    state = spy()
    state.seats[0].resources = [1, 1, 0, 0]
    frame = Frame(kind="income", seat=0, ints=(5, 1))
    run_frames(state, frame)
    assert state.agenda[-1].kind == "resource" and state.agenda[-1].ints == (-1,)
    answer(state, options(state)[0])
    assert sum(state.seats[0].resources) == 1
    run_frames(state, Frame(kind="income", seat=0, ints=(5, 2)))
    assert state.agenda[-1].kind != "resource"


# -- the four options --------------------------------------------------------------------------
def test_copy_a_when_played_card_on_a_neighbours_mat() -> None:
    """Option 1: a visible WHEN PLAYED card of a neighbour's mat resolves for the Spy (Feudalism:
    a resource or 3 VP per landmark); a THIS ERA card is not offered."""
    state = spy()
    state.seats[1].mat = [Played(card=card("feudalism"), era=1)]
    income(state)
    assert copy(sp.TAPESTRY, 1, 0) in options(state)
    answer(state, copy(sp.TAPESTRY, 1, 0))
    assert state.agenda[-1].kind == "choose"
    assert state.seats[0].civ_tokens[KEY] == [sp.TAPESTRY]
    era_card = next(c.id for c in C.TAPESTRY_CARDS.values() if c.kind == "this_era")
    other = spy()
    other.seats[1].mat = [Played(card=era_card, era=1)]
    income(other)
    assert all(c.index // sp.OPTION != sp.TAPESTRY for c in options(other) if isinstance(c, Choose))


def test_copy_a_tile_in_a_neighbours_supply_which_stays_theirs() -> None:
    """Option 2: territory tile 1 (a coin) of the neighbour's supply gives the Spy a coin; the
    neighbour keeps the tile."""
    state = spy()
    state.seats[1].territory = [1]
    income(state)
    answer(state, copy(sp.TILE, 1, 1))
    assert state.seats[0].resources == [1, 0, 0, 0] and state.seats[1].territory == [1]


def test_copy_a_neighbours_track_space_benefit_not_its_bonus() -> None:
    """Option 3: the benefit of the space the neighbour stands on (exploration 2), no bonus."""
    state = spy()
    state.seats[1].tracks[0] = [2]
    income(state)
    events = answer(state, copy(sp.TRACK, 1, 0))
    assert not any(f.kind == "bonus" for f in state.agenda)
    assert not of(events, ev.TokenMoved) or all(m.seat == 0 for m in of(events, ev.TokenMoved))
    assert C.space("exploration", 2).benefit is not None


def test_copy_a_tech_cards_current_row_benefit() -> None:
    """Option 4: a middle-row card gives its circle, a top-row card its square; a bottom-row
    card shows none."""
    state = spy()
    low, mid, top = sorted(C.TECH_CARDS)[:3]
    state.seats[1].tech = [
        TechOwned(card=low),
        TechOwned(card=mid, row=1),
        TechOwned(card=top, row=2),
    ]
    income(state)
    offered = [c for c in options(state) if isinstance(c, Choose)]
    assert copy(sp.TECH, 1, mid) in offered and copy(sp.TECH, 1, top) in offered
    assert copy(sp.TECH, 1, low) not in offered
    found = {i: b for o, n, i, b in sp.copies(state, 0) if o == sp.TECH}
    assert found == {mid: C.TECH_CARDS[mid].circle, top: C.TECH_CARDS[top].square}


def test_each_option_once_and_only_neighbours() -> None:
    """ "Voisins": at 4 seats seat 2 is not a neighbour of seat 0; each option is used once."""
    state = spy(4)
    for other in (1, 2, 3):
        state.seats[other].territory = [1]
    income(state)
    tiles = {c.index for c in options(state) if isinstance(c, Choose)}
    assert tiles == {copy(sp.TILE, 1, 1).index, copy(sp.TILE, 3, 1).index}
    answer(state, copy(sp.TILE, 3, 1))
    income(state, era=3)
    assert state.agenda[-1].kind != KEY  # the tile option is spent; nothing else to copy


# -- the neighbours' hands -------------------------------------------------------------------
def test_the_spy_sees_its_neighbours_hands_only_while_deciding() -> None:
    """« you may view their hand » (``decisions.json#spies_hand``): while the Spy's decision is
    pending, the Spy's view shows seats 1 and 3's hands; seat 2's stays hidden, no other viewer
    sees them, and once the Spy has decided they are hidden again."""
    state = spy(4)
    for other in (1, 2, 3):
        state.seats[other].hand = [card("feudalism") + other]
        state.seats[other].territory = [1]
    assert seat_view(state, 1, 0).hand is None
    income(state)
    assert seat_view(state, 1, 0).hand == tuple(state.seats[1].hand)
    assert seat_view(state, 3, 0).hand == tuple(state.seats[3].hand)
    assert seat_view(state, 2, 0).hand is None
    assert seat_view(state, 1, 2).hand is None and seat_view(state, 1, None).hand is None
    answer(state, Decline())
    assert seat_view(state, 1, 0).hand is None


# -- whole games -------------------------------------------------------------------------------
@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_whole_seeded_games_fold_to_the_state(seats: int) -> None:
    """ "Fin de la partie": seeded random games, seat 0 starting with the Spies, finish; a fresh
    fold of the log equals the state held."""
    state, log = play_boxed(KEY, seats, 3)
    assert all(s.finished for s in state.seats)
    assert state_bytes(state) == refold(KEY, log, seats)


def test_the_bots_copy() -> None:
    """The ``tapestry`` bot (seat 0, reading only its own hand) and ``greedy`` bots play a whole
    game; the Spy copies."""
    bots = [TapestryBot(b"sp-0"), make_bot("greedy", b"sp-1"), make_bot("greedy", b"sp-2")]
    state, log = play_bots(KEY, bots, b"spies-bots")
    assert state.seats[0].civ_tokens.get(KEY)
    assert state_bytes(state) == refold(KEY, log, 3)


def test_a_copied_espionage_copies_in_turn() -> None:
    """A neighbour's Espionage copied by the Spy copies in turn a visible WHEN PLAYED card (as a
    Herald's borrowed Espionage: ``herald_spy``)."""
    state = spy()
    state.seats[1].mat = [Played(card=card("espionage"), era=1)]
    state.seats[0].mat = [
        Played(card=card("feudalism"), era=1),
        Played(card=card("dystopia"), era=2),
    ]
    income(state)
    answer(state, copy(sp.TAPESTRY, 1, 0))
    assert state.agenda[-1].kind == "herald_spy"
    assert options(state) == [Choose(index=card("dystopia")), Choose(index=card("feudalism"))]
