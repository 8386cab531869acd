"""Hidden information: sealed card choices (A) and declines (C), hands and discards.

docs/architecture.md "Simultaneous choices": each sealed choice is stored at once but redacted from
every other seat's view and events until one reveal event makes them all public.
"""

from __future__ import annotations

import msgspec

from domain.core import Chance, Command, Event
from domain.riseandfall import events as ev
from domain.riseandfall.commands import ChooseCard, DeclineCards, Deploy
from domain.riseandfall.state import RiseFallOptions, RiseFallState
from tests.riseandfall.helpers import GAME, run
from tests.riseandfall.test_rounds import trophy_table, win_temple


def deployed(seats: int = 2, seed: bytes = b"view") -> RiseFallState:
    """A random-world game after the initial deployment (first legal placements)."""
    state = GAME.initial(RiseFallOptions(), seats)
    for event in GAME.setup(state, Chance(seed, 0)):
        GAME.evolve(state, event)
    while state.phase == "deploy":
        seat = GAME.pending(state).seats[0]
        command = GAME.legal_actions(state, seat)[seat * 7]
        assert isinstance(command, Deploy)
        _, state = run(state, seat, command)
    return state


def _json(value: object) -> bytes:
    return msgspec.json.encode(value)


def test_card_choice_is_sealed_until_revealed() -> None:
    """A - Jouer une carte: the choice is face down until every seat has chosen."""
    state = deployed()
    assert state.phase == "choose" and GAME.pending(state).seats == (0, 1)
    views: dict[str, bytes] = {}
    spectator: dict[str, bytes] = {}
    chosen: dict[str, Event] = {}
    for card in ("nomad", "city", "ship"):
        events, after = run(state, 0, ChooseCard(card=card))
        assert len(events) == 1 and len(events[0].salt) == 64  # salted against brute force
        assert msgspec.structs.replace(events[0], salt="") == ev.CardChosen(
            seat=0, round=1, card=card
        )
        views[card] = _json(GAME.view(after, 1))
        spectator[card] = _json(GAME.view(after, None))
        chosen[card] = events[0]
        own = GAME.view(after, 0).seats[0]
        assert own.chosen == card and own.hand is not None and card not in own.hand
        other = GAME.view(after, 1).seats[0]
        assert other.chosen is None and other.has_chosen and other.hand is None
        assert GAME.redact_event(after, events[0], 1) == ev.CardChosen(seat=0, round=1, card="")
        assert GAME.redact_event(after, events[0], None) == ev.CardChosen(seat=0, round=1, card="")
        assert GAME.redact_event(after, events[0], 0) == events[0]
        assert GAME.pending(after).seats == (1,)
        assert GAME.scores(after) == GAME.scores(state)
    assert len(set(views.values())) == 1  # seat 1 learns nothing about seat 0's card
    assert len(set(spectator.values())) == 1
    _, after = run(state, 0, ChooseCard(card="city"))
    events, revealed = run(after, 1, ChooseCard(card="ship"))
    assert isinstance(events[1], ev.CardsRevealed) and events[1].cards == ("city", "ship")
    assert ev.CardsRevealed.REVEALS
    assert GAME.redact_event(revealed, chosen["city"], 1) == chosen["city"]
    assert GAME.view(revealed, 1).seats[0].played == "city"
    assert GAME.view(revealed, 1).seats[0].discard == ("city",)


def test_hand_and_discard_visibility() -> None:
    """Cartes actives: opponents see the hand's size and only the top card of the discard."""
    state = deployed()
    seat = state.seats[0]
    seat.hand = [1]
    seat.discard = [0, 2]
    mine = GAME.view(state, 0).seats[0]
    theirs = GAME.view(state, 1).seats[0]
    assert mine.hand == ("city",) and mine.discard == ("nomad", "ship")
    assert theirs.hand is None and theirs.hand_size == 1
    assert theirs.discard == ("ship",) and theirs.discard_size == 2


def test_decline_choice_is_sealed_until_revealed() -> None:
    """C - Déclin: the cards are laid face down and revealed together."""
    _, state = win_temple(trophy_table())
    texts = set()
    for cards in (("nomad",), ("temple",)):
        events, after = run(state, 0, DeclineCards(cards=cards))
        texts.add(_json(GAME.view(after, 1)))
        assert GAME.redact_event(after, events[0], 1) == ev.DeclineChosen(seat=0, round=1, cards=())
        assert GAME.view(after, 0).seats[0].decline_choice == cards
        assert GAME.view(after, 1).seats[0].decline_choice is None
    assert len(texts) == 1
    events, after = run(state, 0, DeclineCards(cards=("nomad",)))
    more, done = run(after, 1, DeclineCards(cards=("city",)))
    assert GAME.redact_event(done, events[0], 1) == events[0]
    assert any(isinstance(e, ev.CardsDeclined) for e in more)


def test_views_and_events_encode() -> None:
    """Views and events are plain msgspec data (what the service sends)."""
    state = deployed(3)
    for viewer in (None, 0, 1, 2):
        data = msgspec.json.decode(_json(GAME.view(state, viewer)))
        assert data["phase"] == "choose" and len(data["seats"]) == 3
    command: Command = ChooseCard(card="nomad")
    assert (
        msgspec.msgpack.decode(msgspec.msgpack.encode(command), type=GAME.command_type) == command
    )


def test_evolve_is_total_on_redacted_events() -> None:
    """Folding a redacted sealed choice changes nothing and never raises."""
    state = deployed()
    before = GAME.encode_state(state)
    GAME.evolve(state, ev.CardChosen(seat=0, round=1, card=""))
    GAME.evolve(state, ev.DeclineChosen(seat=0, round=1, cards=()))
    assert GAME.encode_state(state) == before
