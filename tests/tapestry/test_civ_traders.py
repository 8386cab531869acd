"""Traders (Négociants): trade tokens on empty territories or beside a lone opposing outpost.

Sources: player aid "CIVILISATIONS / Négociants" (four tokens; income turns 2-5, optionally, a
token on an empty territory for 1 VP per adjacent opposing territory — if it is conquered,
the benefit of the die the conqueror did not keep —, or on a territory with one opposing
outpost for that territory's benefit), "CONQUÊTE" (a territory holding two pieces cannot be
conquered; the facts folder's Traders note), "RÉÉQUILIBRAGE DES CIVILISATIONS / NÉGOCIANTS"
(a starting Trader gains 2 resources of its choice and 10 VP, not a Trader gained later),
"Règles générales" (after the fifth income turn nothing more is gained), "Fin de la partie".
"""

from __future__ import annotations

from domain.tapestry import civ_traders as traders
from domain.tapestry import civs
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.civs import civ_id, setup_frames
from domain.tapestry.commands import Choose, ChooseResource, Conquer, Decline, TakeIncome
from domain.tapestry.engine import frame
from domain.tapestry.state import Frame, Outpost, TapestryState
from tests.tapestry.helpers import GAME, act, decision, of, table
from tests.tapestry.test_cards_support import answer, forced, options, run_frames, vp_of
from tests.tapestry.test_civ_heralds import play_with

KEY = "traders"
# the small board (2 players): seat 0's home is hex 18, seat 1's hex 27; printed territories
# 12, 19, 24 touch 18 and 21, 28, 31 touch 27; hexes 13 (next to 18), 22 and 29 (next to 28)
# are unexplored.
HOME0, HOME1 = 18, 27


def trader(seats: int = 2) -> TapestryState:
    """Seat 0 holds the Traders (an era-1 table on the small board)."""
    state = table(seats)
    assert state.board == "small" and state.seats[0].home == HOME0
    state.seats[0].civs = [civ_id(KEY)]
    return state


def income_ability(state: TapestryState, seat: int = 0, era: int = 2) -> list[ev.Event]:
    """Step 1 of income turn ``era`` for ``seat``: its civilization abilities."""
    return list(run_frames(state, Frame(kind="civ_income", seat=seat, token=KEY, ints=(era,))))


def put_token(state: TapestryState, index: int, seat: int = 0) -> None:
    """A trade token of ``seat`` on board hex ``index``."""
    state.hexes[index].outposts.append(Outpost(seat=seat, piece=KEY))


# -- placing a token -----------------------------------------------------------------------
def test_empty_territory_scores_one_vp_per_adjacent_opposing_territory() -> None:
    """Aid "Négociants": « sur un Territoire vide et gagner +1 PV par territoire adverse
    adjacent » (hex 28 touches seat 1's home 27 and hex 22; seat 0's own 29 does not count)."""
    state = trader(2)
    state.hexes[22].tile, state.hexes[22].outposts = 2, [Outpost(seat=1)]
    state.hexes[29].tile, state.hexes[29].outposts = 3, [Outpost(seat=0)]
    income_ability(state)
    assert decision(state) == "traders"
    events = answer(state, Choose(index=28))
    assert vp_of(events, 0, "civ:traders") == 2
    assert of(events, ev.PiecePlaced) == [ev.PiecePlaced(seat=0, hex=28, piece=KEY)]
    assert traders.tokens_on_map(state, 0) == [28]
    assert state.hexes[28].controller() == -1  # a token gives no control


def test_lone_opposing_outpost_gives_the_territory_benefit() -> None:
    """Aid "Négociants": « sur un Territoire ayant 1 Avant-poste adverse (gagnez le bénéfice du
    territoire) » (territory tile 1 gives a coin)."""
    state = trader(2)
    state.hexes[13].tile = 1
    state.hexes[13].outposts = [Outpost(seat=1)]
    income_ability(state)
    events = answer(state, Choose(index=13))
    assert state.seats[0].resources[0] == 1 and not of(events, ev.VPScored)
    assert [p.piece for p in state.hexes[13].outposts] == ["", KEY]
    assert state.hexes[13].controller() == 1


def test_offered_territories() -> None:
    """Aid "Négociants": empty territories and lone opposing outposts; not a territory of your
    own, not one holding two pieces, not an unexplored hex; declining is allowed."""
    state = trader(2)
    state.hexes[24].outposts = [Outpost(seat=0)]
    state.hexes[31].outposts = [Outpost(seat=1)]
    put_token(state, 12)
    income_ability(state)
    offered = {o.index for o in options(state) if isinstance(o, Choose)}
    explored = {i for i, h in enumerate(state.hexes) if h.explored}
    assert offered == explored - {HOME0, HOME1, 24, 12}
    assert 31 in offered and 13 not in offered
    assert options(state)[-1] == Decline()
    events = answer(state, Decline())
    assert not of(events, ev.PiecePlaced)


def test_four_tokens_only() -> None:
    """Aid "Négociants": « Posez 4 pions sur la fiche »: no token left, no decision."""
    state = trader(2)
    for index in (12, 19, 21, 28):
        put_token(state, index)
    income_ability(state)
    assert decision(state) == "turn"


def test_the_ability_comes_with_the_income_turn() -> None:
    """Aid "Négociants": « Lors des Tours de Revenus 2-5 »."""
    state = trader(2)
    state.seats[0].hand = [42]
    act(state, 0, TakeIncome())
    assert decision(state) == "traders"


# -- conquest ------------------------------------------------------------------------------
def conquer_options(state: TapestryState, seat: int) -> set[int]:
    """Board indices ``seat`` may conquer now."""
    state.agenda = [frame("conquer", seat, ints=(0,))]
    return {state.hex_index(o.q, o.r) for o in GAME.legal_actions(state, seat)}  # type: ignore[attr-defined]


def test_a_token_beside_an_outpost_blocks_conquest() -> None:
    """ "Conquête": no conquest of a territory holding two pieces; a trade token is one."""
    state = trader(2)
    state.hexes[24].outposts = [Outpost(seat=1)]
    assert 24 in conquer_options(state, 0)
    put_token(state, 24)
    assert 24 not in conquer_options(state, 0)


def test_conquered_token_territory_gives_the_trader_the_other_die() -> None:
    """Aid "Négociants": « Si ce Territoire est conquis, vous gagnez le bénéfice du dé non
    retenu par le conquérant » (the conqueror keeps the red VP die; the Trader the black
    coin)."""
    state = trader(2)
    put_token(state, 21)
    state.agenda = [frame("conquer", 1, ints=(0,))]
    cell = state.hexes[21]
    forced(
        state,
        Conquer(q=cell.q, r=cell.r),
        lambda events: any(
            isinstance(e, ev.ConquerDiceRolled) and e.black == 0 and e.red in (0, 1, 3, 4)
            for e in events
        ),
    )
    assert decision(state) == "choose_die"
    red_vp = C.RED_DIE[state.agenda[-1].ints[1]]
    answer(state, Choose(index=0))
    assert isinstance(red_vp, C.Gain) and state.seats[1].vp == red_vp.count
    assert state.seats[0].resources[0] == 1 and state.seats[1].resources[0] == 0
    assert state.hexes[21].controller() == 1
    assert 21 not in conquer_options(state, 0)  # two pieces now


def test_no_other_die_when_the_conqueror_keeps_both() -> None:
    """Aid "Négociants": with both dice kept (Pillage and Plunder, some tech cards) no die is
    left over for the Trader."""
    state = trader(2)
    put_token(state, 21)
    state.agenda = [frame("conquer", 1, ints=(1,))]  # both dice
    cell = state.hexes[21]
    act(state, 1, Conquer(q=cell.q, r=cell.r))
    while decision(state) != "turn":
        answer(state, options(state)[0])
    assert sum(state.seats[0].resources) == 0 and state.seats[0].vp == 0


def test_a_trader_may_conquer_its_own_token_territory() -> None:
    """ "Conquête": only territories you control are barred, and a token gives no control, so
    the Trader may conquer a territory holding its lone token; it then keeps one die and, as
    the token's owner, gains the other (the aid's « dé non retenu par le conquérant »)."""
    state = trader(2)
    put_token(state, 24)
    assert 24 in conquer_options(state, 0)
    cell = state.hexes[24]
    forced(
        state,
        Conquer(q=cell.q, r=cell.r),
        lambda events: any(
            isinstance(e, ev.ConquerDiceRolled) and e.black == 0 and e.red in (0, 1, 3, 4)
            for e in events
        ),
    )
    red_vp = C.RED_DIE[state.agenda[-1].ints[1]]
    answer(state, Choose(index=0))
    assert isinstance(red_vp, C.Gain) and state.seats[0].vp == red_vp.count
    assert state.seats[0].resources[0] == 1 and state.hexes[24].controller() == 0


def test_a_finished_trader_gains_nothing() -> None:
    """ "Règles générales": after the fifth income turn nothing more is gained."""
    state = trader(2)
    state.seats[0].finished = True
    put_token(state, 21)
    state.agenda = [frame("conquer", 1, ints=(0,))]
    cell = state.hexes[21]
    act(state, 1, Conquer(q=cell.q, r=cell.r))
    answer(state, Choose(index=0))
    while decision(state) != "turn":
        answer(state, options(state)[0])
    assert sum(state.seats[0].resources) == 0 and state.seats[0].vp == 0


# -- rebalancing ---------------------------------------------------------------------------
def test_starting_trader_gains_two_resources_and_ten_vp() -> None:
    """RÉÉQUILIBRAGE "NÉGOCIANTS": « Gagnez [2 ressources au choix] et 10 PV si vous commencez
    la partie avec les Négociants »."""
    state = trader(2)
    run_frames(state, *setup_frames(state, 0))
    answer(state, ChooseResource(resource="coin"))
    answer(state, ChooseResource(resource="food"))
    assert state.seats[0].resources == [1, 0, 1, 0] and state.seats[0].vp == 10


def test_no_rebalancing_for_a_trader_gained_later() -> None:
    """RÉÉQUILIBRAGE: « N'appliquez pas ces règles pour les civilisations obtenues pendant la
    partie »."""
    state = trader(2)
    state.seats[0].civs = [civ_id("leaders"), civ_id(KEY)]
    assert not any(f.source == "adjustment:traders" for f in setup_frames(state, 0))


def test_traders_may_be_gained_mid_game() -> None:
    """ "Règles générales": the Traders have no rule against a mid-game gain."""
    assert KEY in civs.GAINABLE and KEY in civs.IMPLEMENTED_CIVILIZATIONS
    assert C.CIVILIZATIONS[civ_id(KEY)].gainable_mid_game


def test_seeded_games_with_starting_traders_finish() -> None:
    """ "Fin de la partie": games with starting Traders end, every seat finished."""
    for seats, seed in ((2, 1), (4, 2), (5, 3)):
        state, met = play_with(KEY, seats, seed, ("traders",))
        assert state.seats[0].civs[0] == civ_id(KEY)
        assert all(s.finished for s in state.seats)
        assert "traders" in met
        assert len(traders.tokens_on_map(state, 0)) <= traders.MAT_TOKENS
