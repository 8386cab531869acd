"""Rise & Fall events: the facts of a game, past tense, fine-grained enough to animate.

Every event is a frozen, keyword-only :class:`domain.core.Event`. Events carrying an outcome
nobody knew before (a draw from the seed, the reveal of sealed choices) set ``REVEALS = True``
so undo never goes past them. Card and piece types are named (``"nomad"``, ``"city"``...).

Sealed choices (:class:`CardChosen`, :class:`DeclineChosen`) are stored at once; other seats
see them redacted (empty card names) until :class:`CardsRevealed` / :class:`CardsDeclined`
make every choice public (see ``RiseAndFall.redact_event``).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.core import Event
from domain.riseandfall.commands import ActionName
from domain.riseandfall.content import PieceName
from domain.riseandfall.worldbuild import TilePlacement

ResourceName = Literal["wood", "stone"]
#: a card that may not show: ``""`` when hidden from the viewer (:class:`CardChosen`) or for
#: an extinct seat (:class:`CardsRevealed`)
CardShown = Literal[PieceName, ""]


# -- setup ---------------------------------------------------------------------------------
class WorldTilePlaced(Event, frozen=True, kw_only=True):
    """A terrain tile was placed (``seat`` -1: drawn from the seed at setup)."""

    seat: int
    placement: TilePlacement


class TileSetAside(Event, frozen=True, kw_only=True):
    """The next terrain tile fits nowhere and is set aside (assumed rule, see tiles.json)."""

    kind: str
    shape: int


class FirstPlayerDrawn(Event, frozen=True, kw_only=True):
    """The first player was drawn at random, for building the world or for the deployment.

    The deployment's first player holds the first-player token for round 1.
    """

    REVEALS = True
    seat: int
    purpose: Literal["world", "deployment"]


class TurnStarted(Event, frozen=True, kw_only=True):
    """It is now ``seat``'s turn (tile placement, deployment, actions or buy-back)."""

    seat: int


class PieceDeployed(Event, frozen=True, kw_only=True):
    """A starting piece was placed ("Déploiement initial")."""

    seat: int
    piece: PieceName
    cell: int


# -- phase A -------------------------------------------------------------------------------
class RoundStarted(Event, frozen=True, kw_only=True):
    """A new round began (phase A) with ``first_player`` holding the token."""

    round: int
    first_player: int


class CardChosen(Event, frozen=True, kw_only=True):
    """A seat laid a card face down (``card`` is ``""`` when redacted for other seats)."""

    seat: int
    round: int
    card: CardShown
    salt: str = ""


class CardsRevealed(Event, frozen=True, kw_only=True):
    """Every card chosen this round was turned face up (``""`` for an extinct seat)."""

    REVEALS = True
    round: int
    cards: tuple[CardShown, ...]


# -- phase B -------------------------------------------------------------------------------
class TurnForfeited(Event, frozen=True, kw_only=True):
    """Cas malheureux: ``seat`` controls no piece of its played card when its turn comes."""

    seat: int
    card: CardShown


class PieceMoved(Event, frozen=True, kw_only=True):
    """A nomad, ship, mountaineer or merchant moved from ``origin`` to ``cell``."""

    seat: int
    piece: PieceName
    origin: int
    cell: int


class ResourceProduced(Event, frozen=True, kw_only=True):
    """A nomad or mountaineer on ``cell`` took a resource from the bank."""

    seat: int
    piece: PieceName
    cell: int
    resource: ResourceName


class CityBuilt(Event, frozen=True, kw_only=True):
    """``builder`` (nomad, ship or mountaineer) on ``origin`` became a city on ``cell``."""

    seat: int
    builder: PieceName
    origin: int
    cell: int
    wood: int
    stone: int


class TempleBuilt(Event, frozen=True, kw_only=True):
    """``builder`` (nomad or ship) on ``origin`` became a temple on ``cell``."""

    seat: int
    builder: PieceName
    origin: int
    cell: int
    stone: int


class ShipBuilt(Event, frozen=True, kw_only=True):
    """``builder`` (nomad or merchant) on ``origin`` became a ship on the sea ``cell``."""

    seat: int
    builder: PieceName
    origin: int
    cell: int
    wood: int


class NomadGrown(Event, frozen=True, kw_only=True):
    """Croissance: the city on ``city`` added a nomad on ``cell``."""

    seat: int
    city: int
    cell: int


class PieceTrained(Event, frozen=True, kw_only=True):
    """Éducation: the city on ``city`` turned the nomad on ``cell`` into ``piece``."""

    seat: int
    city: int
    cell: int
    piece: PieceName
    coins: int


class ShipTransformed(Event, frozen=True, kw_only=True):
    """Transformation: the ship on ``origin`` became ``piece`` on ``cell``."""

    seat: int
    origin: int
    cell: int
    piece: PieceName
    coins: int


class CoinsEarned(Event, frozen=True, kw_only=True):
    """Taxes, trade or tithe: ``amount`` due, ``paid`` by the bank (it pays what it can)."""

    seat: int
    piece: PieceName
    cell: int
    action: ActionName
    amount: int
    paid: int


class ResourceSold(Event, frozen=True, kw_only=True):
    """A merchant sold a resource to the bank (``paid`` coins of the 5 due)."""

    seat: int
    cell: int
    resource: ResourceName
    paid: int


class ResourceBought(Event, frozen=True, kw_only=True):
    """A merchant bought a resource from the bank for ``coins``."""

    seat: int
    cell: int
    resource: ResourceName
    coins: int


class PieceConverted(Event, frozen=True, kw_only=True):
    """The temple on ``temple`` converted ``victim``'s ``piece`` on ``cell`` for ``coins``."""

    seat: int
    temple: int
    victim: int
    piece: PieceName
    cell: int
    coins: int


class TrophyWon(Event, frozen=True, kw_only=True):
    """``seat`` placed its last ``piece`` first and took that trophy."""

    seat: int
    piece: PieceName


class CardToReserve(Event, frozen=True, kw_only=True):
    """``seat`` lost its last piece of ``card``: the active card went to the reserve."""

    seat: int
    card: PieceName


class CardToHand(Event, frozen=True, kw_only=True):
    """``seat`` controls a piece of ``card`` again: the card left the reserve for the hand."""

    seat: int
    card: PieceName


class ActionsEnded(Event, frozen=True, kw_only=True):
    """``seat`` ended its actions for the round."""

    seat: int


# -- phases C and D ------------------------------------------------------------------------
class DeclineStarted(Event, frozen=True, kw_only=True):
    """Phase C: each seat must put ``due[seat]`` cards in decline."""

    round: int
    due: tuple[int, ...]


class DeclineChosen(Event, frozen=True, kw_only=True):
    """A seat chose its cards for the decline, face down (``()`` when redacted)."""

    seat: int
    round: int
    cards: tuple[PieceName, ...]
    salt: str = ""


class CardsDeclined(Event, frozen=True, kw_only=True):
    """Every seat's declined cards were revealed and put in the decline zone."""

    REVEALS = True
    round: int
    cards: tuple[tuple[PieceName, ...], ...]


class BuyBackStarted(Event, frozen=True, kw_only=True):
    """Phase D began; a card in decline costs ``price`` coins."""

    round: int
    price: int


class CardBoughtBack(Event, frozen=True, kw_only=True):
    """``seat`` paid ``price`` for ``card``, which went to its hand or reserve."""

    seat: int
    card: PieceName
    price: int
    to: Literal["hand", "reserve"]


class BuyBackSkipped(Event, frozen=True, kw_only=True):
    """``seat`` bought nothing back this round."""

    seat: int


# -- phase E, F and the end ----------------------------------------------------------------
class CardsRecycled(Event, frozen=True, kw_only=True):
    """``seat`` had no card in hand and took back its discard (``cards``)."""

    seat: int
    cards: tuple[PieceName, ...]


class FirstPlayerPassed(Event, frozen=True, kw_only=True):
    """The first-player token passed from ``origin`` to the left, to ``seat``."""

    origin: int
    seat: int


class CivilisationExtinct(Event, frozen=True, kw_only=True):
    """``seat``'s civilisation died out: pieces removed, treasury back to the bank.

    ``reason`` is ``"no_card"`` (no card in hand at phase A) or ``"cannot_buy_back"`` (no
    active card and not enough coins in phase D).
    """

    seat: int
    reason: Literal["no_card", "cannot_buy_back"]
    coins: int
    wood: int
    stone: int


class ScoreSheet(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's score sheet ("Décompte des Points de Victoire").

    Attributes:
        coins: coins in the treasury; ``economy`` = coins // 2.
        trophies: VP of the trophies won.
        developed: pieces counted per card (card order), -1 for a card crossed out (in
            decline or reserve); ``development``: VP per card (-1 when crossed out).
        regions: sizes of the regions dominated, per terrain (sea, plain, forest, mountain);
            ``territory``: VP per terrain (2, 1, 3, 4 VP per cell).
        total: the final score.
    """

    coins: int
    economy: int
    trophies: int
    developed: tuple[int, ...]
    development: tuple[int, ...]
    regions: tuple[tuple[int, ...], ...]
    territory: tuple[int, ...]
    total: int


class GameEnded(Event, frozen=True, kw_only=True):
    """The game ended (``reason``: ``"trophies"``, ``"last_civilisation"`` or ``"stalemate"``,
    100 rounds in a row without a trophy — an assumed rule) and was scored."""

    reason: str
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    sheets: tuple[ScoreSheet, ...]


RiseFallEvent = (
    WorldTilePlaced
    | TileSetAside
    | FirstPlayerDrawn
    | TurnStarted
    | PieceDeployed
    | RoundStarted
    | CardChosen
    | CardsRevealed
    | TurnForfeited
    | PieceMoved
    | ResourceProduced
    | CityBuilt
    | TempleBuilt
    | ShipBuilt
    | NomadGrown
    | PieceTrained
    | ShipTransformed
    | CoinsEarned
    | ResourceSold
    | ResourceBought
    | PieceConverted
    | TrophyWon
    | CardToReserve
    | CardToHand
    | ActionsEnded
    | DeclineStarted
    | DeclineChosen
    | CardsDeclined
    | BuyBackStarted
    | CardBoughtBack
    | BuyBackSkipped
    | CardsRecycled
    | FirstPlayerPassed
    | CivilisationExtinct
    | GameEnded
)
