"""Rise & Fall content: civilisation cards, trophies, bank and rule decisions, from JSON data.

The data files live in ``content/`` next to this module and are decoded and validated with
msgspec at import time (a bad file fails loudly at start-up). Every record says where it comes
from: ``"source": "rulebook"`` with the ``"section"`` that states it, or ``"source":
"assumed"`` with a ``"note"`` explaining the choice. :func:`assumptions` lists every assumed
record (the world engineer's ``tiles.assumptions()`` lists the world's own).

Piece types are identified by a name and an index, in the score sheet's order:

>>> PIECES
('nomad', 'city', 'ship', 'mountaineer', 'merchant', 'temple')
>>> CARDS[CITY].development[3], CARDS[NOMAD].pieces
(15, 8)
>>> buy_back_price(1), buy_back_price(3), buy_back_price(9)
(5, 20, 80)
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import msgspec

_DIR = Path(__file__).parent / "content"

PieceName = Literal["nomad", "city", "ship", "mountaineer", "merchant", "temple"]

#: piece types (and civilisation cards) in score-sheet order; the index is the piece kind.
PIECES: tuple[PieceName, ...] = ("nomad", "city", "ship", "mountaineer", "merchant", "temple")
NOMAD, CITY, SHIP, MOUNTAINEER, MERCHANT, TEMPLE = range(6)
#: kind index of each piece name.
KIND: dict[str, int] = {name: index for index, name in enumerate(PIECES)}

Source = Literal["rulebook", "assumed"]


class Sourced(msgspec.Struct, frozen=True, kw_only=True):
    """Provenance of a record: the rulebook section, or an assumption with its note."""

    source: Source
    section: str = ""
    note: str = ""

    def check(self, what: str) -> None:
        """Raise ``ValueError`` when the provenance is incomplete."""
        if self.source == "rulebook" and not self.section:
            raise ValueError(f"{what}: a rulebook record needs a section")
        if self.source == "assumed" and not self.note:
            raise ValueError(f"{what}: an assumed record needs a note")


class CardSpec(Sourced, frozen=True, kw_only=True):
    """One civilisation card: its piece type, pieces in the box, actions and VP table.

    ``development[n]`` is the VP for ``n`` pieces controlled in the world.
    """

    name: PieceName
    label: str
    pieces: int
    actions: tuple[str, ...]
    development: tuple[int, ...]


class StartingCards(Sourced, frozen=True, kw_only=True):
    """The cards (and pieces) each seat starts with."""

    cards: tuple[PieceName, ...]


class CardsFile(msgspec.Struct, frozen=True):
    """``cards.json``."""

    starting_cards: StartingCards
    cards: tuple[CardSpec, ...]


class TrophySpec(Sourced, frozen=True, kw_only=True):
    """The trophy of one piece type and its VP."""

    piece: PieceName
    vp: int


class PriceStep(Sourced, frozen=True, kw_only=True):
    """The buy-back price once ``decline`` decline phases have been held."""

    decline: int
    price: int


class PriceBasis(Sourced, frozen=True, kw_only=True):
    """What the buy-back price ladder is indexed by."""

    rule: str


class TrophiesFile(msgspec.Struct, frozen=True):
    """``trophies.json``."""

    trophies: tuple[TrophySpec, ...]
    buy_back_prices: tuple[PriceStep, ...]
    price_basis: PriceBasis


class Denomination(Sourced, frozen=True, kw_only=True):
    """Coins of one value in the box."""

    value: int
    count: int


class Removed(Sourced, frozen=True, kw_only=True):
    """Coins taken out of the bank for a player count."""

    players: int
    coins: int


class ResourceStock(Sourced, frozen=True, kw_only=True):
    """Resource tokens in the box."""

    resource: Literal["wood", "stone"]
    count: int


class Amount(Sourced, frozen=True, kw_only=True):
    """A single sourced number."""

    value: int


class BankFile(msgspec.Struct, frozen=True):
    """``bank.json``."""

    denominations: tuple[Denomination, ...]
    removed: tuple[Removed, ...]
    resources: tuple[ResourceStock, ...]
    resource_cap: Amount
    starting_coins: Amount


class Decision(Sourced, frozen=True, kw_only=True):
    """A rule interpretation Annales had to make."""

    topic: str


class DecisionsFile(msgspec.Struct, frozen=True):
    """``decisions.json``."""

    decisions: tuple[Decision, ...]


def _load(name: str, kind: type[msgspec.Struct]) -> msgspec.Struct:
    data = (_DIR / name).read_bytes()
    return msgspec.json.decode(data, type=kind)


_cards = _load("cards.json", CardsFile)
_trophies = _load("trophies.json", TrophiesFile)
_bank = _load("bank.json", BankFile)
_decisions = _load("decisions.json", DecisionsFile)
assert isinstance(_cards, CardsFile)
assert isinstance(_trophies, TrophiesFile)
assert isinstance(_bank, BankFile)
assert isinstance(_decisions, DecisionsFile)

CARDS_FILE: CardsFile = _cards
TROPHIES_FILE: TrophiesFile = _trophies
BANK_FILE: BankFile = _bank
DECISIONS_FILE: DecisionsFile = _decisions


def _validate() -> None:
    names = tuple(card.name for card in CARDS_FILE.cards)
    if names != PIECES:
        raise ValueError(f"cards.json must list the cards in the order {PIECES}, got {names}")
    for card in CARDS_FILE.cards:
        card.check(f"card {card.name}")
        if len(card.development) != card.pieces + 1:
            raise ValueError(f"card {card.name}: development needs {card.pieces + 1} entries")
    CARDS_FILE.starting_cards.check("starting cards")
    if tuple(t.piece for t in TROPHIES_FILE.trophies) != PIECES:
        raise ValueError("trophies.json must list one trophy per piece type, in card order")
    for trophy in TROPHIES_FILE.trophies:
        trophy.check(f"trophy {trophy.piece}")
    steps = TROPHIES_FILE.buy_back_prices
    if [s.decline for s in steps] != list(range(1, len(steps) + 1)):
        raise ValueError("buy_back_prices must be listed for declines 1, 2, 3, ...")
    for step in steps:
        step.check(f"buy-back price {step.decline}")
    TROPHIES_FILE.price_basis.check("price basis")
    for denomination in BANK_FILE.denominations:
        denomination.check(f"denomination {denomination.value}")
    for removed in BANK_FILE.removed:
        removed.check(f"removed coins ({removed.players} players)")
    for stock in BANK_FILE.resources:
        stock.check(f"resource {stock.resource}")
    BANK_FILE.resource_cap.check("resource cap")
    BANK_FILE.starting_coins.check("starting coins")
    for decision in DECISIONS_FILE.decisions:
        decision.check(f"decision {decision.topic}")


_validate()

#: the six cards, indexed by piece kind.
CARDS: tuple[CardSpec, ...] = CARDS_FILE.cards
#: pieces of each kind in a seat's box.
BOX: tuple[int, ...] = tuple(card.pieces for card in CARDS)
#: VP of each piece type's trophy.
TROPHY_VP: tuple[int, ...] = tuple(t.vp for t in TROPHIES_FILE.trophies)
#: the kinds each seat starts with (cards in hand, one piece each to deploy).
STARTING: tuple[int, ...] = tuple(KIND[name] for name in CARDS_FILE.starting_cards.cards)
#: most wood (and most stone) a seat may hold.
RESOURCE_CAP: int = BANK_FILE.resource_cap.value
#: coins each seat starts with.
STARTING_COINS: int = BANK_FILE.starting_coins.value
#: the box's coin total.
COINS_IN_BOX: int = sum(d.value * d.count for d in BANK_FILE.denominations)
#: wood and stone tokens in the box.
WOOD_IN_BOX: int = next(r.count for r in BANK_FILE.resources if r.resource == "wood")
STONE_IN_BOX: int = next(r.count for r in BANK_FILE.resources if r.resource == "stone")


def bank_coins(players: int) -> int:
    """The bank's coins at the start of a game with ``players`` seats.

    >>> bank_coins(4), bank_coins(2)
    (1170, 770)
    """
    removed = next((r.coins for r in BANK_FILE.removed if r.players == players), 0)
    return COINS_IN_BOX - removed


def buy_back_price(declines: int) -> int:
    """The price of buying a card back after ``declines`` decline phases (0 if none yet)."""
    steps = TROPHIES_FILE.buy_back_prices
    if declines <= 0:
        return 0
    return steps[min(declines, len(steps)) - 1].price


def development_vp(kind: int, count: int) -> int:
    """VP of an active card of ``kind`` with ``count`` pieces in the world."""
    table = CARDS[kind].development
    return table[max(0, min(count, len(table) - 1))]


def assumptions() -> list[str]:
    """Every assumption of the rules content, one line each (``source == "assumed"``)."""
    lines: list[str] = []
    for card in CARDS:
        if card.source == "assumed":
            lines.append(f"cards.json/{card.name}: {card.note}")
    for trophy in TROPHIES_FILE.trophies:
        if trophy.source == "assumed":
            lines.append(f"trophies.json/trophy {trophy.piece}: {trophy.note}")
    for step in TROPHIES_FILE.buy_back_prices:
        if step.source == "assumed":
            lines.append(f"trophies.json/buy-back {step.decline}: {step.note}")
    basis = TROPHIES_FILE.price_basis
    if basis.source == "assumed":
        lines.append(f"trophies.json/price basis: {basis.note}")
    for denomination in BANK_FILE.denominations:
        if denomination.source == "assumed":
            lines.append(f"bank.json/{denomination.value} PO: {denomination.note}")
    for decision in DECISIONS_FILE.decisions:
        if decision.source == "assumed":
            lines.append(f"decisions.json/{decision.topic}: {decision.note}")
    return lines
