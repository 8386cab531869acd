"""What a seat (or a spectator) may see, and the redaction of private events.

Public: play areas, garrisoned cards, discard piles, development areas, accession cards,
tokens, the market with its tokens and tucked unrest, the unrest pile, the exile pile, pile
sizes, the pending decision. Private to a seat: its hand, its history ("Histoire": only its
owner may consult it), cards it looks at. Hidden from everyone: decks, nation decks, the fame
deck, removed cards (only their counts are shown). Once the game is over everything is shown.
"""

from __future__ import annotations

from typing import cast

import msgspec

from domain.core import Event
from domain.imperium.civ.view import CivView, civ_public, civ_view
from domain.imperium.commands import ImperiumCommand
from domain.imperium.engine import current_options
from domain.imperium.events import AgendaSet, CardDrawn, CardMoved, MarketPrepared
from domain.imperium.state import OVER, Frame, ImperiumState, Slot

_PUBLIC_SEAT = {"discard", "play", "dev", "accession", "journey"}
_OWNER_SEAT = {"hand", "history", "looked", "submerged"}
_PUBLIC_SHARED = {"unrest", "exile", "revealed"}


class SeatView(msgspec.Struct, frozen=True, kw_only=True):
    """One seat as the viewer may see it (``hand``/``history`` ``None`` when hidden).

    ``treated``: icons cards count as showing until the end of the turn (Agriculture);
    ``ignore_icon``: the state icon the next card played this turn ignores (Combs)."""

    seat: int
    nation: str
    power: str
    empire: bool
    materials: int
    population: int
    progress: int
    actions: int
    exhaust: int
    exhausted: tuple[str, ...]
    nation_token: bool
    dev_token: bool
    hand: tuple[str, ...] | None = None
    hand_size: int
    history: tuple[str, ...] | None = None
    history_size: int
    deck_size: int
    discard: tuple[str, ...]
    play: tuple[str, ...]
    garrison: dict[str, tuple[str, ...]]
    development: tuple[str, ...]
    nation_deck_size: int
    accession: tuple[str, ...]
    looked: tuple[str, ...] | None = None
    treated: dict[str, dict[str, int]] = msgspec.field(default_factory=dict)
    ignore_icon: str = ""
    journey: tuple[str, ...] = ()
    card_tokens: dict[str, int] = msgspec.field(default_factory=dict)
    submerged: tuple[str, ...] | None = None
    submerged_size: int = 0


class ImperiumView(msgspec.Struct, frozen=True, kw_only=True):
    """Everything a viewer may see of an Imperium game."""

    viewer: int | None = None
    phase: str
    round: int
    turn: int
    first: int
    current: int
    order: str
    pending: tuple[int, ...]
    decision: str
    prompt: str
    frame: Frame | None = None
    options: tuple[ImperiumCommand, ...]
    market: tuple[Slot, ...]
    pile_sizes: dict[str, int]
    fame_size: int
    king_of_kings: str
    unrest: tuple[str, ...]
    exile: tuple[str, ...]
    end_trigger: str
    final_round: int
    seats: tuple[SeatView, ...]
    final_scores: tuple[int, ...] | None = None
    winners: tuple[int, ...] | None = None
    #: solo games: the C.I.V.'s public board.
    civ: CivView | None = None


def seat_view(state: ImperiumState, index: int, viewer: int | None) -> SeatView:
    """One seat as ``viewer`` may see it."""
    seat = state.seats[index]
    own = viewer == index or state.phase == OVER
    return SeatView(
        seat=index,
        nation=seat.nation,
        power=seat.power,
        empire=seat.empire,
        materials=seat.materials,
        population=seat.population,
        progress=seat.progress,
        actions=seat.actions,
        exhaust=seat.exhaust,
        exhausted=tuple(seat.exhausted),
        nation_token=seat.nation_token,
        dev_token=seat.dev_token,
        hand=tuple(seat.hand) if own else None,
        hand_size=len(seat.hand),
        history=tuple(seat.history) if own else None,
        history_size=len(seat.history),
        deck_size=len(seat.deck) + len(seat.deck_top),
        discard=tuple(seat.discard),
        play=tuple(seat.play),
        garrison={k: tuple(v) for k, v in sorted(seat.garrison.items())},
        development=tuple(seat.dev),
        nation_deck_size=len(seat.nation_deck) + len(seat.nation_top) + len(seat.nation_bottom),
        accession=tuple(seat.accession),
        looked=tuple(seat.looked) if own else None,
        treated={k: dict(v) for k, v in sorted(seat.treated.items())},
        ignore_icon=seat.ignore_icon,
        journey=tuple(seat.journey),
        card_tokens=dict(sorted(seat.card_tokens.items())),
        submerged=tuple(seat.submerged) if own else None,
        submerged_size=len(seat.submerged),
    )


def make_view(
    state: ImperiumState, viewer: int | None, pending: tuple[tuple[int, ...], str, str]
) -> ImperiumView:
    """The view of ``state`` for ``viewer`` (``None``: a spectator)."""
    seats, decision, prompt = pending
    top = state.agenda[-1] if state.agenda else None
    options: tuple[ImperiumCommand, ...] = ()
    if top is not None and viewer == top.seat:
        options = cast(tuple[ImperiumCommand, ...], tuple(current_options(state)))
    return ImperiumView(
        viewer=viewer,
        phase=state.phase,
        round=state.round,
        turn=state.turn,
        first=state.first,
        current=state.current,
        order=state.order,
        pending=seats,
        decision=decision,
        prompt=prompt,
        frame=top if top is not None and viewer == top.seat else None,
        options=options,
        market=tuple(state.market),
        pile_sizes={k: len(v) for k, v in sorted(state.piles.items())},
        fame_size=len(state.piles.get("fame", [])) + len(state.fame_top),
        king_of_kings=state.kok_face,
        unrest=tuple(state.unrest),
        exile=tuple(state.exile),
        end_trigger=state.end_trigger,
        final_round=state.final_round,
        seats=tuple(seat_view(state, i, viewer) for i in range(state.n)),
        final_scores=tuple(state.final_scores) if state.final_scores is not None else None,
        winners=tuple(state.winners) if state.winners is not None else None,
        civ=civ_view(state),
    )


def visible(zone: str, viewer: int | None) -> bool:
    """``True`` when ``viewer`` may see the cards of ``zone``."""
    head, _, rest = zone.partition(":")
    if rest:
        if rest in _PUBLIC_SEAT or rest.startswith("garrison/"):
            return True
        return rest in _OWNER_SEAT and viewer is not None and head == str(viewer)
    return zone in _PUBLIC_SHARED or (zone.startswith("market/"))


def redact(state: ImperiumState, event: Event, viewer: int | None) -> Event:
    """``event`` as ``viewer`` may see it: moves between zones it cannot see lose their card;
    the setup piles lose their contents (only their sizes stay public through the view); the
    agenda loses the options of other seats' decisions (a pick among hand or deck cards) and
    the memo its cards (cards just drawn or looked at)."""
    if state.phase == OVER:
        return event
    if isinstance(event, (CardDrawn, CardMoved)):
        if civ_public(state, event.src, event.dst):
            return event
        if not visible(event.src, viewer) and not visible(event.dst, viewer):
            return type(event)(seat=event.seat, card="", src=event.src, dst=event.dst)
        return event
    if isinstance(event, MarketPrepared):
        return MarketPrepared(
            piles={k: () for k in event.piles},
            unrest=event.unrest,
            removed=(),
            slots=event.slots,
        )
    if isinstance(event, AgendaSet):
        return _redact_agenda(event, viewer)
    return event


def _redact_agenda(event: AgendaSet, viewer: int | None) -> AgendaSet:
    """The agenda as ``viewer`` may see it (the same object when nothing is hidden)."""
    hidden = any(f.options and f.seat != viewer for f in event.frames)
    memo = event.memo
    if not (hidden or memo.just_drawn or memo.looked_at or memo.just_acquired):
        return event
    frames = tuple(
        f if f.seat == viewer or not f.options else msgspec.structs.replace(f, options=())
        for f in event.frames
    )
    blank = msgspec.structs.replace(memo, just_drawn=[], looked_at=[], just_acquired="")
    return AgendaSet(frames=frames, memo=blank)
