"""The round's flow: what happens automatically after each decision, as events.

:class:`Sim` folds the events decided so far into a private copy of the state, so each step
reads the state as it will be. The ``after_*`` functions add the automatic consequences of a
decision until the next decision point ("Tour de jeu"):

* after an action: trophies ("Obtenir un Trophée") and card-state changes ("Changement d'état");
* after the last card choice: the reveal, then phase B with the first player
  ("A - Jouer une carte Civilisation", "B - Actions", "Cas malheureux");
* after the last actor: phase C if a trophy was won this round, else D ("C - Déclin");
* after the decline reveal or the last buyer: E (recycling, first-player token), F (end or a
  new round) and the extinction of seats with no card in hand at phase A ("Cas rares").
"""

from __future__ import annotations

from collections.abc import Callable

from domain.core import Event
from domain.riseandfall import events as ev
from domain.riseandfall.content import BOX, PIECES
from domain.riseandfall.scoring import final_outcome
from domain.riseandfall.state import RiseFallState

Fold = Callable[[RiseFallState, Event], RiseFallState]
Copy = Callable[[RiseFallState], RiseFallState]


class Sim:
    """Events being decided, and the state they lead to (a private copy of the state).

    Create it only once a command is known to be valid: it copies the state at once, so
    ``sim.state`` is always the same object, updated by every :meth:`emit`.
    """

    __slots__ = ("_fold", "events", "state")

    def __init__(self, state: RiseFallState, fold: Fold, copy: Copy) -> None:
        self.state = copy(state)
        self._fold = fold
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        """Record ``event`` and fold it into the private copy."""
        self.events.append(event)
        self._fold(self.state, event)


def sync_cards(sim: Sim) -> None:
    """Card-state changes after pieces changed ("Changement d'état").

    An active card (hand or discard) whose last piece left the world goes to the reserve; a
    reserve card whose piece type is back in the world goes to the hand. Cards in decline
    never move.
    """
    state = sim.state
    for seat_no in state.living():
        seat = state.seats[seat_no]
        for kind, name in enumerate(PIECES):
            count = seat.pieces[kind]
            if count == 0 and (kind in seat.hand or kind in seat.discard):
                sim.emit(ev.CardToReserve(seat=seat_no, card=name))
            elif count > 0 and kind in seat.reserve:
                sim.emit(ev.CardToHand(seat=seat_no, card=name))


def after_action(sim: Sim, seat: int) -> None:
    """Trophies won by ``seat``'s last action, then card-state changes."""
    state = sim.state
    for kind, name in enumerate(PIECES):
        if state.seats[seat].pieces[kind] >= BOX[kind] and state.trophy_owner[kind] < 0:
            sim.emit(ev.TrophyWon(seat=seat, piece=name))
    sync_cards(sim)


# -- deployment and phase A ----------------------------------------------------------------
def after_deploy(sim: Sim, seat: int) -> None:
    """Next seat to deploy, or round 1 once every starting piece is placed."""
    state = sim.state
    for step in range(1, state.n + 1):
        nxt = (seat + step) % state.n
        if state.seats[nxt].to_deploy:
            sim.emit(ev.TurnStarted(seat=nxt))
            return
    start_round(sim, 1)


def start_round(sim: Sim, number: int) -> None:
    """Phase A of round ``number``: extinction of seats with no card in hand."""
    sim.emit(ev.RoundStarted(round=number, first_player=sim.state.first_player))
    for seat_no in sim.state.living():
        seat = sim.state.seats[seat_no]
        if not seat.hand:
            sim.emit(
                ev.CivilisationExtinct(
                    seat=seat_no,
                    reason="no_card",
                    coins=seat.coins,
                    wood=seat.wood,
                    stone=seat.stone,
                )
            )
    if len(sim.state.living()) < 2:
        end_game(sim, "last_civilisation")


def after_choice(sim: Sim) -> None:
    """Reveal the cards once every living seat has chosen, then start phase B."""
    state = sim.state
    if any(state.seats[s].chosen < 0 for s in state.living()):
        return
    cards: tuple[ev.CardShown, ...] = tuple(
        PIECES[s.chosen] if s.chosen >= 0 else "" for s in state.seats
    )
    sim.emit(ev.CardsRevealed(round=state.round, cards=cards))
    next_actor(sim)


# -- phase B -------------------------------------------------------------------------------
def next_actor(sim: Sim) -> None:
    """The next seat to act in phase B; forfeits for the unlucky; phase C or D at the end."""
    state = sim.state
    for seat_no in state.order():
        seat = state.seats[seat_no]
        if seat.done:
            continue
        kind = seat.played
        if kind >= 0 and seat.pieces[kind] > 0:
            sim.emit(ev.TurnStarted(seat=seat_no))
            return
        # Cas malheureux: the card goes to the reserve and the turn passes.
        if kind >= 0 and (kind in seat.hand or kind in seat.discard):
            sim.emit(ev.CardToReserve(seat=seat_no, card=PIECES[kind]))
        sim.emit(ev.TurnForfeited(seat=seat_no, card=PIECES[kind] if kind >= 0 else ""))
    end_actions(sim)


def end_actions(sim: Sim) -> None:
    """After phase B: the decline (if a trophy was won this round) or the buy-back."""
    state = sim.state
    won = state.trophies_this_round
    if won <= 0:
        start_buyback(sim)
        return
    due = tuple(
        min(won, len(state.seats[s].active())) if state.alive(s) else 0 for s in range(state.n)
    )
    sim.emit(ev.DeclineStarted(round=state.round, due=due))
    after_decline_choice(sim)


# -- phases C and D ------------------------------------------------------------------------
def after_decline_choice(sim: Sim) -> None:
    """Reveal the declined cards once every seat that owes some has chosen them."""
    state = sim.state
    seats = state.seats
    if any(s.decline_due > 0 and s.decline_choice is None for s in seats):
        return
    cards = tuple(
        tuple(PIECES[k] for k in (s.decline_choice or [])) if s.decline_due > 0 else ()
        for s in seats
    )
    sim.emit(ev.CardsDeclined(round=state.round, cards=cards))
    start_buyback(sim)


def start_buyback(sim: Sim) -> None:
    """Phase D: the price of the round, then the first seat with a choice."""
    sim.emit(ev.BuyBackStarted(round=sim.state.round, price=sim.state.buy_back_price()))
    next_buyer(sim)


def next_buyer(sim: Sim) -> None:
    """The next seat (turn order) that can buy a card back; extinction for the broke."""
    state = sim.state
    price = state.buy_back_price()
    for seat_no in state.order():
        seat = state.seats[seat_no]
        if seat.done or not seat.declined:
            continue
        if seat.coins >= price:
            sim.emit(ev.TurnStarted(seat=seat_no))
            return
        if not seat.active():
            sim.emit(
                ev.CivilisationExtinct(
                    seat=seat_no,
                    reason="cannot_buy_back",
                    coins=seat.coins,
                    wood=seat.wood,
                    stone=seat.stone,
                )
            )
    end_round(sim)


#: rounds in a row without any trophy after which the game ends (assumed rule "stalemate",
#: content/decisions.json): some positions let no seat ever win another trophy.
STALEMATE_ROUNDS = 100


# -- phases E and F ------------------------------------------------------------------------
def end_round(sim: Sim) -> None:
    """E: recycling and the first-player token; F: the end of the game or a new round."""
    state = sim.state
    recycled = False
    for seat_no in state.living():
        seat = state.seats[seat_no]
        if not seat.hand and seat.discard:
            cards = tuple(PIECES[k] for k in sorted(set(seat.discard)))
            sim.emit(ev.CardsRecycled(seat=seat_no, cards=cards))
            recycled = True
    if recycled:
        first = state.first_player
        for step in range(1, state.n + 1):
            nxt = (first + step) % state.n
            if state.alive(nxt):
                if nxt != first:
                    sim.emit(ev.FirstPlayerPassed(origin=first, seat=nxt))
                break
    quiet = state.quiet_rounds + (1 if state.trophies_this_round == 0 else 0)
    if state.trophies_taken >= state.options.trophies:
        end_game(sim, "trophies")
    elif len(state.living()) < 2:
        end_game(sim, "last_civilisation")
    elif quiet >= STALEMATE_ROUNDS:
        end_game(sim, "stalemate")
    else:
        start_round(sim, state.round + 1)


def end_game(sim: Sim, reason: str) -> None:
    """F: the score sheets and the winners."""
    scores, winners, sheets = final_outcome(sim.state)
    sim.emit(ev.GameEnded(reason=reason, scores=scores, winners=winners, sheets=sheets))
