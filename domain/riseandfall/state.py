"""The Rise & Fall game state: options, seats, pieces on the board, bank, trophies and phase.

The state is a compact mutable :class:`msgspec.Struct`: the board is three lists indexed by
cell (``owner``, ``kind`` of the piece on the cell, and ``rider``, the owner of a merchant
standing on a city — the only stack the rules allow, "Marchands / Mouvement"), seats are
indexed by seat number, cards and piece types are kind indices (see
:data:`domain.riseandfall.content.PIECES`). Only :mod:`domain.riseandfall.evolve` changes it.

Phases (``state.phase``), following "Tour de jeu":

* ``world`` — seats place terrain tiles (option ``world="players"``);
* ``deploy`` — initial deployment, one piece per turn;
* ``choose`` — A: sealed card choice;
* ``actions`` — B: each seat activates its pieces in turn;
* ``decline`` — C: sealed choice of the cards put in decline;
* ``buyback`` — D: buy-back, in turn order (E and F are automatic);
* ``over`` — the game has ended.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.riseandfall.content import BOX, KIND, PIECES, buy_back_price
from domain.riseandfall.rulesets import RiseFallRules
from domain.riseandfall.world import GRID, World

WORLD, DEPLOY, CHOOSE, ACTIONS, DECLINE, BUYBACK, OVER = (
    "world",
    "deploy",
    "choose",
    "actions",
    "decline",
    "buyback",
    "over",
)
#: number of cells of the grid (cell ids are ``0 .. CELLS - 1``).
CELLS = GRID * GRID


class RiseFallOptions(msgspec.Struct, frozen=True, kw_only=True):
    """Options chosen when the game is created.

    Attributes:
        world: ``"random"`` — the world is built from the seed at setup; ``"players"`` — the
            seats place the tiles in turn ("Création du Monde").
        trophies: trophies needed to end the game: 4 (normal), 5 (advanced), 6 (epic)
            ("Durée de la partie").

    The optional 3-second rule of phase A is always ignored (see ``content/decisions.json``).
    """

    world: Literal["random", "players"] = "random"
    trophies: Annotated[int, msgspec.Meta(ge=4, le=6)] = 4


class SeatState(msgspec.Struct, kw_only=True):
    """One seat's civilisation.

    Attributes:
        hand: card kinds in hand, ascending.
        discard: the discard pile, bottom first (the last is the visible top card).
        reserve: card kinds in the reserve, ascending.
        declined: this seat's card kinds in the decline zone, ascending.
        coins, wood, stone: the treasury.
        trophies: piece kinds of the trophies won, in the order won.
        pieces: pieces of each kind in the world.
        to_deploy: kinds still to place during the initial deployment.
        chosen: the sealed card choice of phase A (-1: none yet).
        played: the card revealed this round (-1: none).
        decline_due: cards this seat must put in decline in phase C.
        decline_choice: the sealed cards chosen in phase C (``None``: not chosen yet).
        done: finished the current sequential step (actions or buy-back) this round.
        extinct: the civilisation died out ("Extinction d'une civilisation").
    """

    hand: list[int] = msgspec.field(default_factory=list)
    discard: list[int] = msgspec.field(default_factory=list)
    reserve: list[int] = msgspec.field(default_factory=list)
    declined: list[int] = msgspec.field(default_factory=list)
    coins: int = 0
    wood: int = 0
    stone: int = 0
    trophies: list[int] = msgspec.field(default_factory=list)
    pieces: list[int] = msgspec.field(default_factory=lambda: [0] * len(PIECES))
    to_deploy: list[int] = msgspec.field(default_factory=list)
    chosen: int = -1
    played: int = -1
    decline_due: int = 0
    decline_choice: list[int] | None = None
    done: bool = False
    extinct: bool = False

    def active(self) -> list[int]:
        """The active cards (hand and discard), ascending."""
        return sorted({*self.hand, *self.discard})

    def in_reserve(self, kind: int) -> int:
        """Pieces of ``kind`` still in this seat's reserve (the box minus the world)."""
        return BOX[kind] - self.pieces[kind]


class RiseFallState(msgspec.Struct, kw_only=True):
    """The whole game state (see the module docstring)."""

    options: RiseFallOptions
    world: World
    seats: list[SeatState]
    phase: str = WORLD
    round: int = 0
    first_player: int = -1
    actor: int = -1
    tiles_placed: int = 0
    owner: list[int] = msgspec.field(default_factory=lambda: [-1] * CELLS)
    kind: list[int] = msgspec.field(default_factory=lambda: [-1] * CELLS)
    rider: list[int] = msgspec.field(default_factory=lambda: [-1] * CELLS)
    activated: list[int] = msgspec.field(default_factory=list)
    bank_coins: int = 0
    bank_wood: int = 0
    bank_stone: int = 0
    trophy_owner: list[int] = msgspec.field(default_factory=lambda: [-1] * len(PIECES))
    trophies_taken: int = 0
    trophies_this_round: int = 0
    quiet_rounds: int = 0
    declines: int = 0
    final_scores: list[int] | None = None
    winners: list[int] | None = None
    rules: RiseFallRules = msgspec.field(default_factory=RiseFallRules)

    def buy_back_price(self) -> int:
        """The price of buying a card back now ("D - Rachat d'une carte en Déclin"): by the
        decline phases so far (``riseandfall/1``) or by the trophies won so far by all seats
        (``riseandfall/2``: "dépend du nombre des Trophées déjà obtenus")."""
        if self.rules.buy_back_by == "trophies":
            return buy_back_price(self.trophies_taken)
        return buy_back_price(self.declines)

    # -- seats ---------------------------------------------------------------------------
    @property
    def n(self) -> int:
        """Number of seats."""
        return len(self.seats)

    def alive(self, seat: int) -> bool:
        """``True`` while the seat's civilisation is not extinct."""
        return not self.seats[seat].extinct

    def order(self) -> list[int]:
        """Living seats in turn order, from the first player clockwise."""
        start = max(self.first_player, 0)
        return [(start + i) % self.n for i in range(self.n) if self.alive((start + i) % self.n)]

    def living(self) -> list[int]:
        """Living seats, ascending."""
        return [s for s in range(self.n) if self.alive(s)]

    # -- board ---------------------------------------------------------------------------
    def pieces_at(self, cell: int) -> list[tuple[int, int]]:
        """``(owner, kind)`` of the pieces on ``cell`` (the city first under a merchant)."""
        found: list[tuple[int, int]] = []
        if self.owner[cell] >= 0:
            found.append((self.owner[cell], self.kind[cell]))
        if self.rider[cell] >= 0:
            found.append((self.rider[cell], KIND["merchant"]))
        return found

    def empty(self, cell: int) -> bool:
        """``True`` when no piece stands on ``cell``."""
        return self.owner[cell] < 0

    def piece_of(self, cell: int, kind: int) -> int:
        """The owner of the piece of ``kind`` on ``cell`` (-1 if there is none)."""
        if kind == KIND["merchant"] and self.rider[cell] >= 0:
            return self.rider[cell]
        if self.owner[cell] >= 0 and self.kind[cell] == kind:
            return self.owner[cell]
        return -1

    def cells_of(self, seat: int, kind: int) -> list[int]:
        """Cells holding a piece of ``seat`` of ``kind``, ascending."""
        return [c for c in range(CELLS) if self.piece_of(c, kind) == seat]
