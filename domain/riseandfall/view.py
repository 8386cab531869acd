"""What a seat (or a spectator) may see, and the redaction of sealed choices in events.

Visible to everyone: the world, every piece, treasuries, trophies, the decline zone and its
price, each seat's reserve, decline cards, hand size and the top card of its discard
("chaque joueur empile les cartes de sa défausse ... seule la dernière carte jouée soit
visible des adversaires"). Visible only to the seat itself: its whole hand and discard, its
sealed card choice (phase A) and its sealed decline choice (phase C) until they are revealed.
Others only learn *that* a seat has chosen. A spectator sees what every seat may see.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from domain.core import Event
from domain.riseandfall.content import BOX, PIECES, TROPHY_VP, PieceName
from domain.riseandfall.events import CardChosen, DeclineChosen, ScoreSheet
from domain.riseandfall.scoring import score_sheets
from domain.riseandfall.state import CHOOSE, DECLINE, OVER, WORLD, RiseFallState
from domain.riseandfall.world import World
from domain.riseandfall.worldbuild import supply

if TYPE_CHECKING:
    from domain.core import Game


class SupplyTile(msgspec.Struct, frozen=True):
    """The next terrain tile to place: its kind and shape index (``content/tiles.json``)."""

    kind: str
    shape: int


class PieceView(msgspec.Struct, frozen=True):
    """A piece in the world."""

    cell: int
    seat: int
    piece: PieceName


class TrophyView(msgspec.Struct, frozen=True):
    """A trophy tile: its piece type, VP and who won it (-1: still on the board)."""

    piece: PieceName
    vp: int
    owner: int


class SeatView(msgspec.Struct, frozen=True, kw_only=True):
    """One seat as the viewer may see it.

    ``hand`` and ``chosen``/``decline_choice`` are ``None`` when the viewer may not see them;
    ``discard`` is the whole pile (bottom first) for its owner, the top card for the others.
    """

    seat: int
    extinct: bool
    coins: int
    wood: int
    stone: int
    hand: tuple[PieceName, ...] | None = None
    hand_size: int
    discard: tuple[PieceName, ...]
    discard_size: int
    reserve: tuple[PieceName, ...]
    declined: tuple[PieceName, ...]
    trophies: tuple[PieceName, ...]
    pieces: tuple[int, ...]
    pieces_in_reserve: tuple[int, ...]
    to_deploy: tuple[PieceName, ...]
    has_chosen: bool
    chosen: PieceName | None = None
    played: PieceName | None = None
    decline_due: int
    has_declined: bool
    decline_choice: tuple[PieceName, ...] | None = None
    done: bool


class RiseFallView(msgspec.Struct, frozen=True, kw_only=True):
    """Everything a viewer may see of a Rise & Fall game."""

    viewer: int | None = None
    phase: str
    round: int
    first_player: int
    actor: int
    pending: tuple[int, ...]
    decision: str
    world: World
    next_tile: SupplyTile | None = None
    pieces: tuple[PieceView, ...]
    activated: tuple[int, ...]
    bank_coins: int
    bank_wood: int
    bank_stone: int
    trophy_target: int
    trophies_taken: int
    trophies: tuple[TrophyView, ...]
    declines: int
    buy_back_price: int
    seats: tuple[SeatView, ...]
    score_sheets: tuple[ScoreSheet, ...]
    final_scores: tuple[int, ...] | None = None
    winners: tuple[int, ...] | None = None


def _names(kinds: list[int] | tuple[int, ...]) -> tuple[PieceName, ...]:
    return tuple(PIECES[k] for k in kinds)


def _seat_view(state: RiseFallState, index: int, viewer: int | None) -> SeatView:
    seat = state.seats[index]
    own = viewer == index or state.phase == OVER
    discard = _names(seat.discard) if own else _names(seat.discard[-1:])
    return SeatView(
        seat=index,
        extinct=seat.extinct,
        coins=seat.coins,
        wood=seat.wood,
        stone=seat.stone,
        hand=_names(seat.hand) if own else None,
        hand_size=len(seat.hand),
        discard=discard,
        discard_size=len(seat.discard),
        reserve=_names(seat.reserve),
        declined=_names(seat.declined),
        trophies=_names(seat.trophies),
        pieces=tuple(seat.pieces),
        pieces_in_reserve=tuple(BOX[k] - seat.pieces[k] for k in range(len(PIECES))),
        to_deploy=_names(sorted(seat.to_deploy)),
        has_chosen=seat.chosen >= 0,
        chosen=PIECES[seat.chosen] if own and seat.chosen >= 0 else None,
        played=PIECES[seat.played] if seat.played >= 0 else None,
        decline_due=seat.decline_due,
        has_declined=seat.decline_choice is not None,
        decline_choice=_names(seat.decline_choice)
        if own and seat.decline_choice is not None
        else None,
        done=seat.done,
    )


def make_view(game: Game[RiseFallState], state: RiseFallState, viewer: int | None) -> RiseFallView:
    """The view of ``state`` for ``viewer`` (``None``: a spectator)."""
    pieces: list[PieceView] = []
    for cell in range(len(state.owner)):
        if state.owner[cell] >= 0:
            pieces.append(PieceView(cell, state.owner[cell], PIECES[state.kind[cell]]))
        if state.rider[cell] >= 0:
            pieces.append(PieceView(cell, state.rider[cell], "merchant"))
    tiles = supply(state.n, state.world.grid)
    next_tile = (
        SupplyTile(*tiles[state.tiles_placed])
        if state.phase == WORLD and state.tiles_placed < len(tiles)
        else None
    )
    pending = game.pending(state)
    return RiseFallView(
        viewer=viewer,
        phase=state.phase,
        round=state.round,
        first_player=state.first_player,
        actor=state.actor,
        pending=pending.seats,
        decision=pending.decision,
        world=state.world,
        next_tile=next_tile,
        pieces=tuple(pieces),
        activated=tuple(state.activated),
        bank_coins=state.bank_coins,
        bank_wood=state.bank_wood,
        bank_stone=state.bank_stone,
        trophy_target=state.options.trophies,
        trophies_taken=state.trophies_taken,
        trophies=tuple(
            TrophyView(PIECES[k], TROPHY_VP[k], state.trophy_owner[k]) for k in range(len(PIECES))
        ),
        declines=state.declines,
        buy_back_price=state.buy_back_price(),
        seats=tuple(_seat_view(state, i, viewer) for i in range(state.n)),
        score_sheets=score_sheets(state),
        final_scores=tuple(state.final_scores) if state.final_scores is not None else None,
        winners=tuple(state.winners) if state.winners is not None else None,
    )


def sealed(state: RiseFallState, event: Event) -> bool:
    """``True`` while the sealed choice in ``event`` has not been revealed yet."""
    if state.phase == OVER:
        return False
    if isinstance(event, CardChosen):
        return event.round == state.round and state.phase == CHOOSE
    if isinstance(event, DeclineChosen):
        return event.round == state.round and state.phase == DECLINE
    return False


def redact(state: RiseFallState, event: Event, viewer: int | None) -> Event:
    """``event`` as ``viewer`` may see it: other seats' sealed choices lose their cards."""
    if isinstance(event, CardChosen) and event.seat != viewer and sealed(state, event):
        return CardChosen(seat=event.seat, round=event.round, card="")
    if isinstance(event, DeclineChosen) and event.seat != viewer and sealed(state, event):
        return DeclineChosen(seat=event.seat, round=event.round, cards=())
    return event
