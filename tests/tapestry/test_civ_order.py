"""Several civilizations: their income abilities run in the order the player chooses
("Tours de revenus", step 1: "activez les capacités de vos civilisations dans l'ordre de votre
choix")."""

from __future__ import annotations

from domain.core import Chance
from domain.tapestry.civs import civ_id, income_abilities
from domain.tapestry.commands import Choose
from domain.tapestry.engine import Ctx
from domain.tapestry.state import Frame
from tests.tapestry.helpers import table
from tests.tapestry.test_cards_support import answer, options, run_frames


def test_two_civilizations_ask_for_the_order_of_their_abilities() -> None:
    """Leaders then Merrymakers held: step 1 asks which goes first; choosing the second puts
    the Merrymakers' ability on top of the agenda, the Leaders' right under it."""
    state = table(2)
    leaders, merrymakers = civ_id("leaders"), civ_id("merrymakers")
    state.seats[0].civs = [leaders, merrymakers]
    ctx = Ctx(state, Chance(b"order", 1))
    income_abilities(ctx, 0, 2)
    assert ctx.state.agenda[-1] == Frame(kind="civ_order", seat=0, ints=(2, leaders, merrymakers))
    run_frames(state, Frame(kind="civ_order", seat=0, ints=(2, leaders, merrymakers)))
    assert options(state) == [Choose(index=0), Choose(index=1)]
    answer(state, Choose(index=1))
    # the Merrymakers' ability ran first: its decision is on top, the Leaders' frame waits
    kinds = [(f.kind, f.token) for f in state.agenda]
    assert ("civ_income", "leaders") in kinds
    assert state.agenda[-1].token == "merrymakers"


def test_a_single_civilization_is_not_asked() -> None:
    """One civilization: no order to choose; its ability runs at once."""
    state = table(2)
    state.seats[0].civs = [civ_id("leaders")]
    ctx = Ctx(state, Chance(b"order", 1))
    income_abilities(ctx, 0, 2)
    assert [f.kind for f in ctx.state.agenda[-1:]] == ["civ_income"]
