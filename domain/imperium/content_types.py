"""Imperium content types: the frozen msgspec Structs of cards, nations, piles and setup.

The loader and the validation live in :mod:`domain.imperium.content`, which re-exports the
names used by the rules; import from there. Card effects are typed in
:mod:`domain.imperium.content_effects`.

Two shapes exist for a card. :class:`CardData` is a record of a content file: one record per
group of identical copies (``ids`` lists their card numbers) with the effects still in the
notation. :class:`Card` is what the rules use: **one Card per physical card number** (or per
face of a double-sided card), its ``id`` that number, ``copy_ids`` the numbers of its
identical copies, and ``effects`` decoded into :class:`~domain.imperium.content_effects.Block`.

>>> Cost(materials=2, population=1).total()
3
>>> VP(kind="fixed", value=2).describe()
'2 VP'
>>> VP(kind="conditional", cases=(VPCase(where="history", value=7),), otherwise=3).describe()
'7 VP in history, otherwise 3 VP'
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.core.provenance import Source as Source
from domain.core.provenance import Sourced as Sourced
from domain.imperium.content_effects import Block, Filter, Resource, StateSide, Suit

Box = Literal["classics", "legends"]
PlayerCount = Literal["3+", "4"]
#: the market piles of a common set (fame includes the King of Kings slot).
PileName = Literal["fame", "uncivilised", "civilised", "region", "tributary"]
PILES: tuple[PileName, ...] = ("fame", "uncivilised", "civilised", "region", "tributary")
#: where a card starts the game (rulebook, "Détail des cartes": starting-location symbol).
Location = Literal[
    "power", "in_play", "accession", "nation_deck", "development_area", "unrest_pile",
    "personal_deck", "market_fame_pile", "market_uncivilised_pile", "market_civilised_pile",
    "market_region_pile", "market_tributary_pile", "market_fame_slot", "state_card",
]  # fmt: skip
#: the role of the card in a nation's accession slot (rulebook, "Mise en place des joueurs").
AccessionRole = Literal["accession", "zenith", "nadir", "none"]
TypeIcon = Literal["city", "metropolis", "knight", "mask", "scroll"]
RegionIcon = Literal["production", "fertile", "river"]
VPKind = Literal["none", "fixed", "negative", "conditional", "negative_conditional", "variable"]


class Cost(msgspec.Struct, frozen=True, kw_only=True):
    """A development cost in tokens."""

    materials: int = 0
    population: int = 0
    progress: int = 0

    def total(self) -> int:
        """Number of tokens the cost asks for."""
        return self.materials + self.population + self.progress


class VPCards(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """Cards counted by a VP term: those in ``zone`` matching ``filter``.

    Zones: ``scored`` (every card the player scores: hand, play area incl. power card, deck,
    discard, history and garrisoned cards, not the nation deck or development area),
    ``play_area``, ``history``, ``garrisoned_here``, ``scored_by_other_players``,
    ``exile_pile`` (the market's exile pile; ``owner: any`` = whoever exiled them).
    """

    zone: Literal[
        "scored", "play_area", "history", "garrisoned_here", "scored_by_other_players",
        "exile_pile",
    ]  # fmt: skip
    filter: Filter | None = None
    owner: Literal["any"] | None = None


class VPPlayers(msgspec.Struct, frozen=True, kw_only=True):
    """Players counted by a VP term: those with fewer tokens of ``with_fewer`` than you."""

    with_fewer: Resource


class VPOf(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """What a VP term counts: tokens of one ``resource``, printed ``icons`` (suit, type or
    region-type icons, counted one by one) in ``zone``, or ``cards``."""

    resource: Resource | None = None
    icons: tuple[str, ...] = ()
    zone: Literal["scored", "play_area"] | None = None
    cards: VPCards | None = None
    players: VPPlayers | None = None


class VPTerm(msgspec.Struct, frozen=True, kw_only=True):
    """``vp_each`` points for every ``per_count`` items counted by ``of``."""

    vp_each: int
    per_count: int
    of: VPOf


class VPCase(msgspec.Struct, frozen=True, kw_only=True):
    """A conditional VP value: ``value`` when the card ends the game ``where``
    (``garrisoned``: under another card; ``not_play_area``: anywhere but the play area)."""

    where: Literal["history", "play_area", "garrisoned", "not_play_area"]
    value: int


class VP(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """The victory points of a card.

    ``fixed``/``negative``: ``value``. ``conditional``: the first matching case, else
    ``otherwise``. ``variable``: the sum of the terms, capped at ``max_per_card`` (10 by the
    rules). ``none``: no points.
    """

    kind: VPKind
    value: int = 0
    cases: tuple[VPCase, ...] = ()
    otherwise: int = 0
    terms: tuple[VPTerm, ...] = ()
    max_per_card: int | None = None

    def describe(self) -> str:
        """A short English description in our own words, generated from the structure."""
        if self.kind in ("none", "fixed", "negative"):
            return f"{self.value} VP" if self.kind != "none" else "no VP"
        if self.cases:
            cases = ", ".join(f"{c.value} VP in {c.where.replace('_', ' ')}" for c in self.cases)
            return f"{cases}, otherwise {self.otherwise} VP"
        parts = []
        for term in self.terms:
            what = term.of.resource or " or ".join(term.of.icons) + " icons"
            if term.of.players is not None:
                what = f"players with fewer {term.of.players.with_fewer}"
            if term.of.cards is not None:
                what = f"cards ({term.of.cards.zone.replace('_', ' ')})"
            parts.append(f"{term.vp_each} VP per {term.per_count} {what}")
        return " + ".join(parts) + (f" (max {self.max_per_card})" if self.max_per_card else "")


class CardFacts(Sourced, frozen=True, kw_only=True):
    """The printed facts of a card (fields shared by :class:`CardData` and :class:`Card`).

    ``suits`` are the category icons (a card with both ``uncivilised`` and ``civilised`` goes
    to the uncivilised pile at setup and counts as both in play). ``faces`` lists the ids of
    every face of a double-sided card (A then B; empty for single-sided cards).
    ``nation`` is the nation key, ``None`` for common cards; ``pile`` is the market pile of a
    common card. ``related`` names cards the effects refer to.
    """

    name: str
    box: Box
    nation: str | None = None
    pile: PileName | None = None
    suits: tuple[Suit, ...] = ()
    state_icon: StateSide | None = None
    type_icons: tuple[TypeIcon, ...] = ()
    region_type_icons: tuple[RegionIcon, ...] = ()
    persistent: bool = False
    attack: bool = False
    starting_location: Location
    player_count: PlayerCount | None = None
    development_cost: Cost | None = None
    vp: VP
    keywords: tuple[str, ...] = ()
    faces: tuple[str, ...] = ()
    related: tuple[str, ...] = ()


class CardData(CardFacts, frozen=True, kw_only=True):
    """A card record of a content file: identical copies share it (``ids``); ``effects`` is
    the notation of ``effects_dsl.md``, decoded at load time."""

    ids: tuple[str, ...]
    effects: tuple[dict[str, object], ...] = ()


class CardNote(Sourced, frozen=True, kw_only=True):
    """A clarification of a card, in our own words (usually from the rulebook's card notes)."""

    cards: tuple[str, ...]
    text: str


class Card(CardFacts, frozen=True, kw_only=True):
    """One physical card (or one face of a double-sided card), as the rules use it.

    ``copies`` = how many identical copies exist (``copy_ids`` their numbers, this one
    included); ``notes`` are clarifications in our own words.
    """

    id: str
    copies: int = 1
    copy_ids: tuple[str, ...] = ()
    effects: tuple[Block, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def double_sided(self) -> bool:
        """Whether the card has two faces."""
        return bool(self.faces)

    def has_suit(self, suit: Suit) -> bool:
        """Whether the card shows that category icon."""
        return suit in self.suits


class SectionCounts(Sourced, frozen=True, kw_only=True):
    """How many physical cards each section of a nation holds (a double-sided card once)."""

    power: int
    in_play: int
    accession: int
    nation_deck: int
    development: int
    unrest_pile: int
    starting_deck: int


class RulebookCount(Sourced, frozen=True, kw_only=True):
    """A count printed in the rulebook's component list."""

    value: int


class NationData(Sourced, frozen=True, kw_only=True):
    """The nation record of a nation file (see :class:`Nation`)."""

    key: str
    name: str
    name_fr: str
    box: Box
    prefix: str
    accession_role: AccessionRole
    development_role: Literal["developments", "quests", "none"]
    starting_state: StateSide
    setup_rules: tuple[str, ...] = ()


class NationFile(msgspec.Struct, frozen=True, kw_only=True):
    """``nation_<key>.json``: the nation, its declared counts and its cards."""

    nation: NationData
    rulebook_count: RulebookCount
    section_counts: SectionCounts
    cards: tuple[CardData, ...]


class Nation(Sourced, frozen=True, kw_only=True):
    """A playable nation, with its card sections as physical card ids (copies expanded).

    ``power`` = the two faces (A, B) of its power card. ``accession`` holds the card of the
    accession slot (its role: ``accession_role``; Vikings: ``zenith``). ``unrest_pile``: cards
    added to the market unrest pile when the nation is played. ``starting_deck``: the personal
    deck (cards without a starting-location symbol). ``setup_rules``: our own summary of the
    nation's special setup/clean-up rules.
    """

    key: str
    name: str
    name_fr: str
    box: Box
    prefix: str
    accession_role: AccessionRole
    development_role: Literal["developments", "quests", "none"]
    starting_state: StateSide
    setup_rules: tuple[str, ...]
    power: tuple[Card, Card]
    in_play: tuple[str, ...]
    accession: tuple[str, ...]
    nation_deck: tuple[str, ...]
    development: tuple[str, ...]
    unrest_pile: tuple[str, ...]
    starting_deck: tuple[str, ...]
    rulebook_count: int

    def all_ids(self) -> tuple[str, ...]:
        """Every card id of the nation (power faces included), in section order."""
        return (
            *(face.id for face in self.power), *self.in_play, *self.accession,
            *self.nation_deck, *self.development, *self.unrest_pile, *self.starting_deck,
        )  # fmt: skip


class PileCounts(Sourced, frozen=True, kw_only=True):
    """Cards of a market pile by player-count icon (``all`` = no icon)."""

    all: int
    three_plus: int = msgspec.field(name="3+")
    four: int = msgspec.field(name="4")


class PileData(msgspec.Struct, frozen=True, kw_only=True):
    """A market pile in a common file: its declared counts and its card records."""

    counts: PileCounts
    cards: tuple[CardData, ...]


class CommonFile(msgspec.Struct, frozen=True, kw_only=True):
    """``common_<box>.json``: the market piles, the King of Kings and the box total."""

    box: Box
    piles: dict[PileName, PileData]
    king_of_kings: tuple[CardData, ...]
    common_total: RulebookCount


class Pile(msgspec.Struct, frozen=True, kw_only=True):
    """A market pile: its card ids (copies expanded); each card carries its player-count icon."""

    name: PileName
    cards: tuple[str, ...]


class CommonSet(msgspec.Struct, frozen=True, kw_only=True):
    """A box's common cards: the five market piles, King of Kings (faces A, B), the unrest."""

    box: Box
    piles: dict[PileName, Pile]
    king_of_kings: tuple[Card, Card]
    unrest: tuple[str, ...]


class Figure(Sourced, frozen=True, kw_only=True):
    """A sourced setup figure: ``values`` keyed by what they count (e.g. a player count)."""

    values: dict[str, int]


class StateCardsData(Sourced, frozen=True, kw_only=True):
    """The double-sided state cards: how many per box and their two faces (no effects)."""

    count: int
    faces: tuple[CardData, ...]


class SolsticeCard(Sourced, frozen=True, kw_only=True):
    """The Solstice card: a round marker (not in the reference database)."""

    count: int
    summary: str


class SetupFigures(msgspec.Struct, frozen=True, kw_only=True):
    """Setup numbers from the rulebook (``Mise en place`` sections).

    ``market_deck_size``: cards in each of the region, uncivilised and civilised decks by
    player count; ``fame_removed``: fame cards removed unseen by player count.
    """

    starting_resources: Figure
    state_card_tokens: Figure
    hand_size: Figure
    market_deck_size: Figure
    fame_removed: Figure
    market_slots: Figure
    variable_vp_cap: Figure
    components: Figure


class Decision(Sourced, frozen=True, kw_only=True):
    """A reading or a choice Annales had to make about the content (usually assumed)."""

    topic: str


class SharedFile(msgspec.Struct, frozen=True, kw_only=True):
    """``shared_<box>.json``: common unrest, state cards, Solstice, setup figures."""

    box: Box
    unrest: tuple[CardData, ...]
    unrest_counts: PileCounts
    state_cards: StateCardsData
    solstice: SolsticeCard
    setup: SetupFigures


class NotesFile(msgspec.Struct, frozen=True, kw_only=True):
    """``card_notes.json`` and ``decisions.json``."""

    notes: tuple[CardNote, ...] = ()
    decisions: tuple[Decision, ...] = ()
