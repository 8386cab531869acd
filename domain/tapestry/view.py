"""What a seat (or a spectator) may see, and the redaction of private events.

Public: the map, every track, resources, VP, buildings and capitals, tech cards, territory and
space tiles in supply (kept face up), face-up tapestry cards on mats, hand sizes, achievements
and landmarks, the pending decision. Private to a seat: its tapestry hand (and a card another
seat handed to it or it handed out, the Advisors; also shown to a neighbouring Spy while the Spy
decides its copy, :data:`HAND_PEEKS`), the civilizations dealt to it, its Mystics predictions
(until they are scored), the tapestry card and territory tile face down on its Collectors mat,
a Psionics draw waiting for its keeps (the cards or tiles not kept go back unseen) and the
Merfolk's submerged cards (their number is public). Secret to
everyone: a tapestry card laid face down from the deck (shown as card 0), and deck orders
(never stored: draws are uniform at draw time).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import msgspec

from domain.core import Event
from domain.tapestry.commands import TapestryCommand
from domain.tapestry.engine import current_options
from domain.tapestry.events import (
    CardsSubmerged,
    CivilizationsDealt,
    CivilizationsOffered,
    Collected,
    OptionKept,
    OptionsDrawn,
    PredictionMade,
    TapestryDrawn,
    TapestryGiven,
    TapestryPlayed,
)
from domain.tapestry.evolve import MYSTICS, MYSTICS_REVEALED, OFFER
from domain.tapestry.rules import SUNK
from domain.tapestry.setup import setup_options
from domain.tapestry.solo.view import SoloView, redact_solo, solo_view
from domain.tapestry.state import (
    COLLECTORS,
    OVER,
    SETUP,
    SHELF,
    Frame,
    HexState,
    Played,
    TapestryState,
    TechOwned,
)

#: civ_tokens keys private to their seat until a second key appears (their reveal): the
#: Mystics' sealed predictions, until they are scored.
PRIVATE_CIV_TOKENS: dict[str, str] = {MYSTICS: MYSTICS_REVEALED}


#: checks ``(state, viewer, seat) -> bool`` that let a viewer see another seat's tapestry hand
#: (the Spies, :mod:`domain.tapestry.expansions.civ_spies`, register theirs).
HAND_PEEKS: list[Callable[[TapestryState, int | None, int], bool]] = []


#: civ_tokens entries shown to other seats as -1 when filled (a component face down): the
#: Collectors' tapestry card and territory tile (``SHELF`` positions).
FACE_DOWN_CIV_TOKENS: dict[str, tuple[int, ...]] = {
    COLLECTORS: (SHELF.index("tapestry"), SHELF.index("territory"))
}


def _shown(key: str, values: list[int], own: bool) -> tuple[int, ...]:
    """A civ_tokens entry as a viewer may see it (face-down components as -1)."""
    hidden = () if own else FACE_DOWN_CIV_TOKENS.get(key, ())
    return tuple(-1 if i in hidden and v else v for i, v in enumerate(values))


#: civ_tokens keys always private to their seat: a Psionics draw waiting for its keeps, the
#: Merfolk's submerged cards (their count is public: ``merfolk``).
ALWAYS_PRIVATE_CIV_TOKENS: frozenset[str] = frozenset({OFFER, SUNK})


def sealed_key(tokens: dict[str, list[int]], key: str) -> bool:
    """``True`` while the civ_tokens entry ``key`` is private to its seat."""
    if key in ALWAYS_PRIVATE_CIV_TOKENS:
        return True
    lift = PRIVATE_CIV_TOKENS.get(key)
    return lift is not None and lift not in tokens


class SeatView(msgspec.Struct, frozen=True, kw_only=True):
    """One seat as the viewer may see it (``hand``/``civ_offer`` ``None`` when hidden)."""

    seat: int
    civilizations: tuple[int, ...]
    civ_offer: tuple[int, ...] | None = None
    capital: int
    capital_offer: tuple[int, ...]
    resources: tuple[int, ...]
    vp: int
    tracks: tuple[tuple[int, ...], ...]
    positions: tuple[int, ...]
    buildings_taken: tuple[int, ...]
    capital_grid: tuple[str, ...]
    landmarks: tuple[int, ...]
    tech: tuple[TechOwned, ...]
    hand: tuple[int, ...] | None = None
    hand_size: int
    mat: tuple[Played, ...]
    territory: tuple[int, ...]
    space: tuple[int, ...]
    space_explored: tuple[int, ...]
    outposts: int
    income_turns: int
    finished: bool
    achievements: tuple[int, ...]
    civ_tokens: dict[str, tuple[int, ...]]
    #: the capital's impassable plots (``'1'``), printed or added (Architects' cubes).
    capital_blocked: tuple[str, ...] = ()
    #: board index of the start territory (-1 before the capital is kept).
    home: int = -1
    #: income tracks whose buildings left gaps (Artificers): building -> spaces covered.
    income_covered: dict[str, tuple[int, ...]] = msgspec.field(default_factory=dict)
    #: income buildings set aside, off the mat and out of the capital (Artificers).
    buildings_aside: dict[str, int] = msgspec.field(default_factory=dict)


class TapestryView(msgspec.Struct, frozen=True, kw_only=True):
    """Everything a viewer may see of a Tapestry game.

    Fields that may be absent (``viewer`` for a spectator, ``frame`` with no decision pending,
    the final scores before the end) default to ``None``, as the API leaves them unset.
    """

    viewer: int | None = None
    phase: str
    board: str
    hexes: tuple[HexState, ...]
    first_player: int
    current: int
    turn: int
    pending: tuple[int, ...]
    decision: str
    prompt: str
    frame: Frame | None = None
    options: tuple[TapestryCommand, ...]
    tech_display: tuple[int, ...]
    tech_discard: tuple[int, ...]
    tapestry_discard: tuple[int, ...]
    landmark_owner: dict[str, int]
    achievement_claims: dict[str, tuple[int, ...]]
    seats: tuple[SeatView, ...]
    final_scores: tuple[int, ...] | None = None
    winners: tuple[int, ...] | None = None
    #: the Automa and the Shadow Empire (``None`` in a game without bots).
    solo: SoloView | None = None
    #: the rulebook's variants ("VARIANTES") in force, by option name (``variants_of``).
    variants: tuple[str, ...] = ()


def _mat(played: list[Played]) -> tuple[Played, ...]:
    return tuple(p if p.face_up else Played(card=0, era=p.era, face_up=False) for p in played)


def seat_view(state: TapestryState, index: int, viewer: int | None) -> SeatView:
    """One seat as ``viewer`` may see it."""
    seat = state.seats[index]
    own = viewer == index or state.phase == OVER
    # Plans & Ploys, Spies: a Spy deciding its copy sees its neighbours' hands (only the hand)
    peek = own or any(check(state, viewer, index) for check in HAND_PEEKS)
    return SeatView(
        seat=index,
        civilizations=tuple(seat.civs),
        civ_offer=tuple(seat.civ_offer) if own else None,
        capital=seat.capital,
        capital_offer=tuple(seat.capital_offer),
        resources=tuple(seat.resources),
        vp=seat.vp,
        tracks=tuple(tuple(t) for t in seat.tracks),
        positions=tuple(seat.position(t) for t in range(4)),
        buildings_taken=tuple(seat.taken),
        capital_grid=tuple(seat.grid_filled),
        landmarks=tuple(seat.landmarks),
        tech=tuple(seat.tech),
        hand=tuple(sorted(seat.hand)) if peek else None,
        hand_size=len(seat.hand),
        mat=_mat(seat.mat),
        territory=tuple(seat.territory),
        space=tuple(seat.space),
        space_explored=tuple(seat.space_explored),
        outposts=seat.outposts,
        income_turns=seat.income_turns,
        finished=seat.finished,
        achievements=tuple(seat.achievements),
        civ_tokens={
            k: _shown(k, v, own)
            for k, v in seat.civ_tokens.items()
            if own or not sealed_key(seat.civ_tokens, k)
        },
        capital_blocked=tuple(seat.grid_blocked),
        home=seat.home,
        income_covered={k: tuple(v) for k, v in seat.covered.items()},
        buildings_aside=dict(seat.aside),
    )


def variants_of(state: TapestryState) -> tuple[str, ...]:
    """The names of the ``tapestry/2`` variant options in force, in option order.

    >>> from domain.tapestry.state import TapestryOptions, TapestryRules
    >>> rules = TapestryRules(revision=2, island_start=True)
    >>> variants_of(TapestryState(options=TapestryOptions(), seats=[], rules=rules))
    ('island_start',)
    """
    rules = state.rules
    flags = (
        ("draw_two_tapestry", rules.draw_two_tapestry),
        ("draw_two_civilizations", rules.draw_two_civilizations),
        ("nanotechnology_two_cards", rules.nanotechnology_two_cards),
        ("removed_tapestry_cards", bool(rules.removed_tapestry)),
        ("removed_tech_cards", bool(rules.removed_tech)),
        ("island_start", rules.island_start),
        ("civilization_box", bool(rules.civilization_box)),
    )
    return tuple(name for name, on in flags if on)


def make_view(
    state: TapestryState, viewer: int | None, pending: tuple[tuple[int, ...], str, str]
) -> TapestryView:
    """The view of ``state`` for ``viewer`` (``None``: a spectator)."""
    seats, decision, prompt = pending
    top = state.agenda[-1] if state.agenda and state.phase != SETUP else None
    options: tuple[TapestryCommand, ...] = ()
    if top is not None and viewer == top.seat:
        options = cast(tuple[TapestryCommand, ...], tuple(current_options(state)))
    elif state.phase == SETUP and viewer is not None and viewer in seats:
        options = cast(tuple[TapestryCommand, ...], tuple(setup_options(state, viewer)))
    return TapestryView(
        viewer=viewer,
        phase=state.phase,
        board=state.board,
        hexes=tuple(state.hexes),
        first_player=state.first_player,
        current=state.current,
        turn=state.turn,
        pending=seats,
        decision=decision,
        prompt=prompt,
        frame=top,
        options=options,
        tech_display=tuple(state.tech_display),
        tech_discard=tuple(state.tech_discard),
        tapestry_discard=tuple(state.tapestry_discard),
        landmark_owner=dict(state.landmark_owner),
        achievement_claims={k: tuple(v) for k, v in state.achievement_claims.items()},
        seats=tuple(seat_view(state, i, viewer) for i in range(state.n)),
        final_scores=tuple(state.final_scores) if state.final_scores is not None else None,
        winners=tuple(state.winners) if state.winners is not None else None,
        solo=solo_view(state),
        variants=variants_of(state),
    )


def redact(state: TapestryState, event: Event, viewer: int | None) -> Event:
    """``event`` as ``viewer`` may see it: others' draws and deals lose their cards, others'
    sealed Mystics predictions their value and salt."""
    event = redact_solo(state, event)
    if (
        isinstance(event, PredictionMade)
        and event.seat != viewer
        and state.phase != OVER
        and sealed_key(state.seats[event.seat].civ_tokens, MYSTICS)
    ):
        return PredictionMade(seat=event.seat, category=event.category, value=0)
    if (
        isinstance(event, Collected)
        and event.seat != viewer
        and state.phase != OVER
        and event.slot in FACE_DOWN_CIV_TOKENS[COLLECTORS]
    ):
        return Collected(seat=event.seat, slot=event.slot, item=0)
    if isinstance(event, TapestryDrawn) and event.seat != viewer and state.phase != OVER:
        return TapestryDrawn(seat=event.seat, count=event.count)
    if (
        isinstance(event, TapestryGiven)
        and viewer not in (event.seat, event.to)
        and state.phase != OVER
    ):
        return TapestryGiven(seat=event.seat, to=event.to, card=0)
    if isinstance(event, CivilizationsDealt) and event.seat != viewer and state.phase != OVER:
        return CivilizationsDealt(seat=event.seat, civilizations=())
    if isinstance(event, CivilizationsOffered) and event.seat != viewer and state.phase != OVER:
        return CivilizationsOffered(seat=event.seat, civilizations=())
    if isinstance(event, OptionsDrawn) and event.seat != viewer and state.phase != OVER:
        return OptionsDrawn(
            seat=event.seat, kind=event.kind, group=event.group, discard=event.discard
        )
    if isinstance(event, CardsSubmerged) and event.seat != viewer and state.phase != OVER:
        return CardsSubmerged(seat=event.seat, count=event.count, surfaced=event.surfaced)
    if isinstance(event, OptionKept) and event.seat != viewer and state.phase != OVER:
        return OptionKept(seat=event.seat, kind=event.kind)
    if isinstance(event, TapestryPlayed) and not event.face_up and state.phase != OVER:
        return TapestryPlayed(
            seat=event.seat, card=0, era=event.era, face_up=False, from_hand=False
        )
    return event
