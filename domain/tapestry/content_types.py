"""Tapestry content types: the frozen msgspec Structs that ``content/*.json`` decode into.

The loader and the validation live in :mod:`domain.tapestry.content`, which re-exports every
name defined here; import from there.

Benefit expressions are a tagged union (tag field ``"kind"``). In JSON::

    {"kind": "gain", "token": "gain_territory_tile", "count": 2}
    {"kind": "all", "items": [...]}        every item, in the listed order
    {"kind": "any_order", "items": [...]}  every item, in the order the player chooses
    {"kind": "one_of", "items": [...]}     exactly one item, chosen by the player
    {"kind": "pay", "pay": ["coin"], "gain": {...}}   optional: pay the cost units to gain

>>> import msgspec
>>> msgspec.json.decode(b'{"kind": "gain", "token": "explore"}', type=Benefit)
Gain(token='explore', count=1)
>>> tokens(OneOf(items=(Gain(token="explore"), Gain(token="gain_farm"))))
('explore', 'gain_farm')
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.core.provenance import Source as Source
from domain.core.provenance import Sourced as Sourced

Resource = Literal["coin", "worker", "food", "culture"]


# ---------------------------------------------------------------- benefit expressions


class Gain(msgspec.Struct, frozen=True, tag="gain", tag_field="kind"):
    """One benefit token taken ``count`` times (``vp`` with count n is n VP)."""

    token: str
    count: int = 1


class AllOf(msgspec.Struct, frozen=True, tag="all", tag_field="kind"):
    """Every item, in the listed order."""

    items: tuple[Benefit, ...]


class AnyOrder(msgspec.Struct, frozen=True, tag="any_order", tag_field="kind"):
    """Every item, in the order the player chooses."""

    items: tuple[Benefit, ...]


class OneOf(msgspec.Struct, frozen=True, tag="one_of", tag_field="kind"):
    """Exactly one of the items, chosen by the player."""

    items: tuple[Benefit, ...]


class Exchange(msgspec.Struct, frozen=True, tag="pay", tag_field="kind"):
    """An optional exchange: pay the cost units in ``pay`` to gain ``gain``."""

    pay: tuple[str, ...]
    gain: Benefit


Benefit = Gain | AllOf | AnyOrder | OneOf | Exchange


def tokens(benefit: Benefit) -> tuple[str, ...]:
    """Every token an expression mentions (benefit and cost tokens), depth first, in order."""
    if isinstance(benefit, Gain):
        return (benefit.token,)
    if isinstance(benefit, Exchange):
        return (*benefit.pay, *tokens(benefit.gain))
    found: list[str] = []
    for item in benefit.items:
        found.extend(tokens(item))
    return tuple(found)


class TokenDef(Sourced, frozen=True, kw_only=True):
    """One benefit or cost token and our own one-line definition of it."""

    token: str
    cost_unit: bool = False
    definition: str


# ---------------------------------------------------------------- advancement tracks


class Bonus(msgspec.Struct, frozen=True, kw_only=True):
    """The optional bonus of a track space: pay ``cost`` (one token per unit) for ``benefit``."""

    cost: tuple[str, ...]
    benefit: Benefit


class TrackSpace(Sourced, frozen=True, kw_only=True):
    """One space (1..12) of an advancement track.

    ``cost`` holds one cost token per unit paid to enter the space; ``landmark`` is the id of the
    landmark the first player to reach this space's tier claims (only on the tier's first
    space).
    """

    track: str
    space: int
    name: str
    name_fr: str = ""
    tier: int
    cost: tuple[str, ...]
    benefit: Benefit
    bonus: Bonus | None = None
    landmark: int | None = None


class Track(Sourced, frozen=True, kw_only=True):
    """An advancement track: the resource its costs use and its 12 spaces in order."""

    id: str
    name: str
    name_fr: str
    resource: Resource
    spaces: tuple[TrackSpace, ...]


class TracksFile(msgspec.Struct, frozen=True):
    """``tracks.json``."""

    tracks: tuple[Track, ...]


# ---------------------------------------------------------------- income mat


class IncomeSpace(Sourced, frozen=True, kw_only=True):
    """One space (1..6) of an income track; it shows once the building on it has been taken.

    ``income`` is collected in income step 4 (income turns 1-4), ``vp`` is scored in income
    step 3 (income turns 2-5); every visible space pays.
    """

    space: int
    name: str
    income: tuple[Benefit, ...]
    vp: tuple[Benefit, ...]


class IncomeTrack(Sourced, frozen=True, kw_only=True):
    """One income track of the income mat and the building type that covers it."""

    id: str
    name: str
    building: str
    resource: Resource
    start_buildings: int
    spaces: tuple[IncomeSpace, ...]


class EraBonus(Sourced, frozen=True, kw_only=True):
    """The bonus for being the first among you and your neighbours to start ``era``."""

    era: int
    benefit: Benefit


class Amount(Sourced, frozen=True, kw_only=True):
    """A single sourced number."""

    value: int


class IncomeMatFile(msgspec.Struct, frozen=True, kw_only=True):
    """``income_mat.json``."""

    tracks: tuple[IncomeTrack, ...]
    era_first_bonus: tuple[EraBonus, ...]
    resource_cap: Amount


# ---------------------------------------------------------------- tech cards


class Requirement(msgspec.Struct, frozen=True, kw_only=True):
    """The prerequisite for moving a tech card from the middle to the top row.

    ``type`` is ``"advancement_track"`` (``track`` at ``min_space`` or beyond) or
    ``"income_space_revealed"`` (space ``min_space`` of ``income_track``, named
    ``space_name``, uncovered). ``who`` is ``"you_or_a_neighbour"``.
    """

    type: Literal["advancement_track", "income_space_revealed"]
    track: str = ""
    income_track: str = ""
    min_space: int = 0
    space_name: str = ""
    who: str


class TechCard(Sourced, frozen=True, kw_only=True):
    """A tech card: circle benefit (bottom -> middle row), square benefit (middle -> top)."""

    id: int
    name: str
    name_fr: str = ""
    circle: Benefit
    square: Benefit
    requirement: Requirement | None
    one_time_square: bool = False
    landmark: int | None = None
    once_per_turn: bool = False


class TechCardsFile(msgspec.Struct, frozen=True):
    """``tech_cards.json``."""

    cards: tuple[TechCard, ...]


# ---------------------------------------------------------------- tapestry cards

TapestryKind = Literal["when_played", "this_era", "trap"]


class TapestryCard(Sourced, frozen=True, kw_only=True):
    """A tapestry card (``copies`` identical copies in the deck).

    ``benefit`` structures the card when it maps onto plain tokens; otherwise the engine
    implements it by ``key`` and ``summary`` describes it.
    """

    id: int
    key: str
    name: str
    name_fr: str = ""
    copies: int
    kind: TapestryKind
    summary: str
    benefit: Benefit | None = None
    removed_in_solo: int = 0


class TapestryCardsFile(msgspec.Struct, frozen=True):
    """``tapestry_cards.json``."""

    cards: tuple[TapestryCard, ...]


# ---------------------------------------------------------------- capitals and the map


class Capital(Sourced, frozen=True, kw_only=True):
    """A basic capital mat: 9 rows of 9 characters, ``'1'`` impassable, ``'0'`` buildable.

    ``pair`` is the capital sharing its start territory in 1-3 player games; ``start_small``
    and ``start_large`` are axial ``(q, r)`` start hexes on the small and large boards.
    """

    id: int
    name: str
    name_fr: str = ""
    grid: tuple[str, ...]
    pair: int
    start_small: tuple[int, int]
    start_large: tuple[int, int]


class CapitalsFile(msgspec.Struct, frozen=True):
    """``capitals.json``."""

    capitals: tuple[Capital, ...]


Terrain = Literal["sea", "desert", "forest", "grassland", "mountain"]


class MapHex(msgspec.Struct, frozen=True, kw_only=True):
    """A hex of a board at axial ``(q, r)``.

    Printed hexes carry 6 ``corners`` already in the board frame (corner 0 top-left, then
    clockwise) and optionally a ``center`` land terrain; empty hexes have ``corners == ()``.
    ``tile_ref`` is the facts folder's id for the printed art (not a drawable tile). The
    central island has six sea corners and its four ``lands`` inside (``center`` is None).
    ``start_for_capitals`` lists the capitals whose outposts start on this hex.
    """

    q: int
    r: int
    corners: tuple[Terrain, ...] = ()
    tile_ref: int | None = None
    center: Terrain | None = None
    central_island: bool = False
    lands: tuple[Terrain, ...] = ()
    start_for_capitals: tuple[int, ...] = ()


class Island(Sourced, frozen=True, kw_only=True):
    """A printed island of a board (the rulebook's variant "placez vos avant-postes au centre
    de l'île la plus proche de vous").

    ``hexes`` are the island's printed hexes (axial ``(q, r)``), ``centre`` the one of them
    touching every other; islands are listed clockwise around the board from the top, and
    ``id`` counts from 0 in that order.
    """

    id: int
    centre: tuple[int, int]
    hexes: tuple[tuple[int, int], ...]


class Board(Sourced, frozen=True, kw_only=True):
    """A map board (``"small"`` 1-3 players, ``"large"`` 4-5), its hexes and its islands
    around the central one (clockwise from the top)."""

    id: str
    players: tuple[int, ...]
    hexes: tuple[MapHex, ...]
    islands: tuple[Island, ...] = ()


class MapFile(msgspec.Struct, frozen=True):
    """``map.json``."""

    boards: tuple[Board, ...]


class TerritoryTile(Sourced, frozen=True, kw_only=True):
    """A territory tile in printed orientation: 6 corner terrains (0 top-left, clockwise).

    ``center`` is the land of a small-island tile (six sea corners); ``benefit`` is gained when
    the tile is explored.
    """

    id: int
    corners: tuple[Terrain, ...]
    center: Terrain | None = None
    benefit: Benefit | None = None


class TerritoryTilesFile(msgspec.Struct, frozen=True):
    """``territory_tiles.json``."""

    tiles: tuple[TerritoryTile, ...]


class SpaceTile(Sourced, frozen=True, kw_only=True):
    """A space tile and the benefit of exploring it."""

    id: int
    benefit: Benefit


class SpaceTilesFile(msgspec.Struct, frozen=True):
    """``space_tiles.json``."""

    tiles: tuple[SpaceTile, ...]


# ---------------------------------------------------------------- landmarks, dice, achievements

Cell = tuple[int, int]


class Landmark(Sourced, frozen=True, kw_only=True):
    """A landmark: where it is claimed and its footprint.

    ``orientations`` lists the distinct rotations, each a tuple of ``(row, col)`` cells.
    ``track``/``space`` are set when ``source_kind == "track"``, ``tech_card`` when ``"tech"``.
    """

    id: int
    name: str
    name_fr: str = ""
    source_kind: Literal["track", "tech"]
    track: str = ""
    space: int = 0
    tech_card: int | None = None
    orientations: tuple[tuple[Cell, ...], ...]


class LandmarksFile(msgspec.Struct, frozen=True):
    """``landmarks.json``."""

    landmarks: tuple[Landmark, ...]


class ScienceDie(Sourced, frozen=True, kw_only=True):
    """The science die: the track shown on each face."""

    faces: tuple[str, ...]


class ConquerDie(Sourced, frozen=True, kw_only=True):
    """A conquer die (red or black): the benefit on each face."""

    faces: tuple[Benefit, ...]


class DiceFile(msgspec.Struct, frozen=True, kw_only=True):
    """``dice.json``."""

    science: ScienceDie
    red: ConquerDie
    black: ConquerDie


class Achievement(Sourced, frozen=True, kw_only=True):
    """An achievement and its VP by rank (1st, 2nd, ...) on the small and large boards."""

    id: int
    key: str
    name: str
    name_fr: str = ""
    vp_small: tuple[int, ...]
    vp_large: tuple[int, ...]


class AchievementsFile(msgspec.Struct, frozen=True):
    """``achievements.json``."""

    achievements: tuple[Achievement, ...]


# ---------------------------------------------------------------- civilizations


class Civilization(Sourced, frozen=True, kw_only=True):
    """A civilization mat (``box``: the base game's or an expansion's).

    ``slots`` are the mat's printed benefits in order (empty when the mat has none; an empty
    :class:`AllOf` is a space with nothing on it); ``slot_paths[i]`` lists the slots reachable
    from slot ``i`` on path mats (Entertainers, Merrymakers), else ``()``. ``setup`` is what
    taking the civilization gives. ``adjustment`` is our description of the official
    rebalancing for a civilization held at the start ("" if none); ``adjustment_gain`` and
    ``adjustment_vp_per_opponent`` are its machine-usable part. ``implemented`` says whether
    the engine supports the civilization. ``box`` is the expansion box the mat comes in
    (``""``: the base game; else one of ``state.EXPANSIONS``).
    """

    id: int
    key: str
    name: str
    name_fr: str = ""
    #: the expansion box the mat comes in (``""``: the base game; else one of
    #: ``state.EXPANSIONS``).
    box: str = ""
    implemented: bool = False
    summary: str
    slots: tuple[Benefit, ...] = ()
    slot_paths: tuple[tuple[int, ...], ...] = ()
    setup: Benefit | None = None
    solo: bool = True
    gainable_mid_game: bool = True
    adjustment: str = ""
    adjustment_gain: Benefit | None = None
    adjustment_vp_per_opponent: int = 0


class CivilizationsFile(msgspec.Struct, frozen=True):
    """``civilizations.json``."""

    civilizations: tuple[Civilization, ...]


class TokensFile(msgspec.Struct, frozen=True):
    """``tokens.json``."""

    tokens: tuple[TokenDef, ...]


class Decision(Sourced, frozen=True, kw_only=True):
    """A rule decision taken by the engine's code where the sources are silent, unclear or
    disagree; ``annales content report --game tapestry`` lists the assumed ones."""

    topic: str


class DecisionsFile(msgspec.Struct, frozen=True):
    """``decisions.json``."""

    decisions: tuple[Decision, ...]
