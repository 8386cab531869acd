"""Mystics (Mystiques): sealed predictions, a resource when reached, 10 VP when exact.

Sources: the player aid, "CIVILISATIONS / Mystiques" (four categories; +1 resource when a
number is reached; 5th income turn: +10 VP per correct prediction; cannot be gained during the
game), "RÉÉQUILIBRAGE DES CIVILISATIONS / MYSTIQUES" (a starting Mystic gains a resource, icon
lost). Hidden information: a prediction is a sealed choice until it is scored.
"""

from __future__ import annotations

from domain.core import Chance
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.civ_mystics import (
    DECISION,
    EXACT_VP,
    KEY,
    MAXIMUM,
    REACHED,
    counts,
    predictions,
    revealed,
)
from domain.tapestry.civs import GAINABLE, civ_id, implemented_ids
from domain.tapestry.commands import Choose, ChooseResource, Invent, TakeIncome
from domain.tapestry.engine import frame
from domain.tapestry.evolve import MYSTICS_REVEALED
from domain.tapestry.rules import gain
from domain.tapestry.state import OVER, Frame, TapestryState, TechOwned
from tests.tapestry.helpers import GAME, act, decision, first_choices, of, play_out, started, table
from tests.tapestry.test_cards_support import benefit, run_frames

MYSTICS = civ_id(KEY)


def _mystic(guess: list[int], seats: int = 2) -> TapestryState:
    """Seat 0 plays the Mystics with sealed ``guess`` (tech, districts, territories, tracks)."""
    state = table(seats)
    state.seats[0].civs = [MYSTICS]
    state.seats[0].civ_tokens = {KEY: list(guess)}
    return state


def _predict_all(state: TapestryState, values: tuple[int, ...]) -> list[ev.Event]:
    """Answer the four prediction decisions of the pending seat with ``values``."""
    events: list[ev.Event] = []
    for value in values:
        assert decision(state) == DECISION
        seat = GAME.pending(state).seats[0]
        events += act(state, seat, Choose(index=value))
        while decision(state) == "resource":
            events += act(state, GAME.pending(state).seats[0], ChooseResource(resource="coin"))
    return events


def test_starting_mystic_predicts_four_categories_then_gains_a_resource() -> None:
    """Aid: a number in each category (tech cards, districts, conquests, completed tracks);
    facts folder: 1-9, 1-9, 1-9, 1-4. Rebalancing: then 1 resource of choice."""
    state = started([KEY, ""], seed=b"mystics-setup")
    first_choices(state)
    while GAME.pending(state).seats[0] != 0 or decision(state) != DECISION:
        seat = GAME.pending(state).seats[0]
        act(state, seat, GAME.legal_actions(state, seat)[0])
    for category, top in enumerate(MAXIMUM):
        assert state.agenda[-1].ints == (category,)
        assert GAME.legal_actions(state, 0) == [Choose(index=v) for v in range(1, top + 1)]
        act(state, 0, Choose(index=min(3, top)))
    assert predictions(state, 0) == [3, 3, 3, 3]
    assert decision(state) == "resource"
    assert state.agenda[-1].source == f"adjustment:{KEY}"


def test_prediction_is_sealed_with_a_salt() -> None:
    """A sealed choice: the event carries a salt from ``chance.secret``; other seats (and
    spectators) receive value 0 and no salt; its own seat sees everything."""
    state = table(2)
    state.seats[0].civs = [MYSTICS]
    events = run_frames(state, frame(DECISION, 0, ints=(2,)))
    assert decision(state) == DECISION
    made = of(act(state, 0, Choose(index=7)), ev.PredictionMade)[0]
    assert made.value == 7 and len(made.salt) == 64
    for viewer in (1, None):
        assert GAME.redact_event(state, made, viewer) == ev.PredictionMade(
            seat=0, category=2, value=0
        )
    assert GAME.redact_event(state, made, 0) is made
    assert not events or all(not isinstance(e, ev.PredictionMade) for e in events)


def test_salt_is_bound_to_the_seed() -> None:
    """``chance.secret``: the same command on the same seed gives the same salt (an undone
    command submitted again), another seed another salt."""
    state = table(2)
    state.seats[0].civs = [MYSTICS]
    state.agenda.append(frame(DECISION, 0, ints=(0,)))
    salts = [
        of(GAME.decide(state, 0, Choose(index=4), Chance(seed, 9)), ev.PredictionMade)[0].salt
        for seed in (b"one", b"one", b"two")
    ]
    assert salts[0] == salts[1] != salts[2]


def test_views_hide_predictions_from_other_seats() -> None:
    """Other seats and spectators do not see the predictions in views; the reached flags are
    public; the view of another seat does not depend on the predictions."""
    state = _mystic([2, 3, 4, 1])
    state.seats[0].civ_tokens[REACHED] = [0, 0, 1, 0]
    assert GAME.view(state, 0).seats[0].civ_tokens[KEY] == (2, 3, 4, 1)
    for viewer in (1, None):
        tokens = GAME.view(state, viewer).seats[0].civ_tokens
        assert KEY not in tokens and tokens[REACHED] == (0, 0, 1, 0)
    other = _mystic([9, 1, 1, 4])
    other.seats[0].civ_tokens[REACHED] = [0, 0, 1, 0]
    assert GAME.view(state, 1) == GAME.view(other, 1)


def test_reveal_lifts_the_seal() -> None:
    """Once revealed (fifth income turn) or once the game is over, everyone sees them."""
    state = _mystic([2, 3, 4, 1])
    made = ev.PredictionMade(seat=0, category=0, value=2, salt="ab" * 32)
    state.seats[0].civ_tokens[MYSTICS_REVEALED] = [2, 0, 1, 0]
    assert GAME.redact_event(state, made, 1) is made
    assert GAME.view(state, 1).seats[0].civ_tokens[KEY] == (2, 3, 4, 1)
    ended = _mystic([2, 3, 4, 1])
    ended.phase = OVER
    assert GAME.redact_event(ended, made, 1) is made


def test_reaching_a_prediction_pays_a_resource_once() -> None:
    """Aid: "+1 [ressource] lorsque vous atteignez le nombre" — the first time only."""
    state = _mystic([1, 9, 9, 4])
    benefit(state, 0, "invent")
    card = next(c for c in GAME.legal_actions(state, 0) if isinstance(c, Invent))
    events = act(state, 0, card)
    sets = [e for e in of(events, ev.CivTokensSet) if e.key == REACHED]
    assert sets == [ev.CivTokensSet(seat=0, key=REACHED, values=(1, 0, 0, 0))]
    assert decision(state) == "resource" and state.agenda[-1].source == f"civ:{KEY}"
    act(state, 0, ChooseResource(resource="culture"))
    assert state.seats[0].resources[3] == 1
    benefit(state, 0, "invent")
    card = next(c for c in GAME.legal_actions(state, 0) if isinstance(c, Invent))
    events = act(state, 0, card)
    assert not [e for e in of(events, ev.CivTokensSet) if e.key == REACHED]
    assert decision(state) != "resource"


def test_reaching_means_equal_or_beyond() -> None:
    """Assumed: a count passing its prediction (e.g. two districts at once) reaches it."""
    state = _mystic([2, 9, 9, 4])
    state.seats[0].tech = [TechOwned(card=c) for c in (1, 2, 3)]
    events = benefit(state, 0, "gain_territory_tile")  # any change triggers the check
    assert [e.values for e in of(events, ev.CivTokensSet) if e.key == REACHED] == [(1, 0, 0, 0)]


def test_controlled_territories_count_the_start_territory() -> None:
    """Facts folder ("controlled territories", C12): the start territory counts, so a
    prediction of 1 territory is reached at once, during the setup."""
    state = table(2)
    state.seats[0].civs = [MYSTICS]
    assert counts(state, 0)[2] == 1
    run_frames(state, frame("expr", 0, expr=gain("mystics_predict")))
    events = _predict_all(state, (5, 5, 1, 4))
    assert [e.values for e in of(events, ev.CivTokensSet) if e.key == REACHED] == [(0, 0, 1, 0)]
    assert state.seats[0].resources[0] == 1


def test_fifth_income_reveals_and_scores_exact_predictions() -> None:
    """Aid: "5ème tour de Revenus : +10 PV pour chaque prédiction correcte"; nothing before."""
    state = _mystic([0, 0, 1, 0])
    state.seats[0].civ_tokens[KEY] = [2, 5, 1, 0 + 1]
    state.seats[0].tech = [TechOwned(card=4), TechOwned(card=5)]
    state.seats[0].completed = [True, False, False, False]
    events = run_frames(state, Frame(kind="civ_income", seat=0, token=KEY, ints=(4,)))
    assert not of(events, ev.PredictionsRevealed) and not revealed(state, 0)
    events = run_frames(state, Frame(kind="civ_income", seat=0, token=KEY, ints=(5,)))
    shown = of(events, ev.PredictionsRevealed)
    assert shown == [ev.PredictionsRevealed(seat=0, predictions=(2, 5, 1, 1), counts=(2, 0, 1, 1))]
    assert [(e.vp, e.reason) for e in of(events, ev.VPScored)] == [(3 * EXACT_VP, f"civ:{KEY}")]
    assert revealed(state, 0)


def test_fifth_income_turn_through_the_turn() -> None:
    """ "Tours de revenus" step 1 of income turn 5 reveals the Mystic's predictions."""
    state = _mystic([1, 1, 1, 1])
    state.seats[0].civ_tokens[REACHED] = [0, 0, 1, 0]
    state.seats[0].income_turns = 4
    events = act(state, 0, TakeIncome())
    assert of(events, ev.PredictionsRevealed)
    assert (EXACT_VP, f"civ:{KEY}") in [(e.vp, e.reason) for e in of(events, ev.VPScored)]


def test_nothing_more_after_the_reveal() -> None:
    """ "Fin de la partie": after the fifth income turn, nothing more is gained."""
    state = _mystic([2, 9, 9, 4])
    state.seats[0].civ_tokens[MYSTICS_REVEALED] = [0, 0, 1, 0]
    state.seats[0].tech = [TechOwned(card=c) for c in (1, 2, 3)]
    events = benefit(state, 0, "gain_territory_tile")
    assert not [e for e in of(events, ev.CivTokensSet) if e.key == REACHED]


def test_cannot_be_gained_mid_game() -> None:
    """Aid: "cette civilisation ne peut être gagnée en cours de jeu"."""
    assert KEY not in GAINABLE
    assert not C.CIVILIZATIONS[MYSTICS].gainable_mid_game
    state = table(2)
    state.civs_out = [c for c in implemented_ids() if c != MYSTICS]
    events = run_frames(state, frame("expr", 0, expr=gain("gain_random_civilization")))
    assert not of(events, ev.CivilizationGained)


def test_seeded_games_with_a_starting_mystic_finish() -> None:
    """Seeded games (2 to 4 seats) with the Mystics as a starting civilization reach their
    end, with the predictions revealed and public at the end."""
    for seats in (2, 3, 4):
        state = play_out([KEY] + [""] * (seats - 1), f"mystics-{seats}".encode())
        assert GAME.is_over(state)
        assert revealed(state, 0)
        assert GAME.view(state, 1).seats[0].civ_tokens[KEY] == tuple(predictions(state, 0))
