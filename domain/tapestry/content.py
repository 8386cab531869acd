"""Tapestry content (base game): tracks, income mat, cards, tiles, map, capitals, dice, civs.

The data files live in ``content/`` next to this module; they are decoded with msgspec into
the frozen Structs of :mod:`domain.tapestry.content_types` (re-exported here) and validated at
import time. A bad file fails loudly: :class:`ContentError` names the file and the record.

Every record says where it comes from (``source``): ``"reference"`` with the ``ref`` of the
facts folder, ``"rulebook"`` with the ``section`` of the French rulebook, or ``"assumed"`` with
a ``note``; :func:`assumptions` lists the assumed ones.

>>> TRACKS
('exploration', 'science', 'technology', 'military')
>>> s = space("exploration", 2)
>>> s.name, s.tier, s.cost, s.benefit
('Rafts', 1, ('any_resource',), Gain(token='explore', count=1))
>>> s.bonus.cost, s.bonus.benefit
(('any_resource',), Gain(token='gain_tapestry_card', count=1))
>>> space("science", 10).cost, TRACK["science"].resource
(('worker', 'worker'), 'worker')
>>> TECH_CARDS[5].name, TECH_CARDS[5].landmark, LANDMARKS[13].name
('Bakery', 13, 'Bakery')
>>> len(TECH_CARDS), sum(card.copies for card in TAPESTRY_CARDS.values())
(33, 50)
>>> board_for(3).id, len(board_for(3).hexes), len(board_for(5).hexes)
('small', 34, 61)
>>> RESOURCE_CAP, [t.building for t in INCOME_TRACKS]
(8, ['market', 'house', 'farm', 'armory'])
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import TypeVar

import msgspec

from domain.tapestry import hexmap
from domain.tapestry.content_types import (
    Achievement,
    AchievementsFile,
    AllOf,
    AnyOrder,
    Benefit,
    Board,
    Bonus,
    Capital,
    CapitalsFile,
    Civilization,
    CivilizationsFile,
    Decision,
    DecisionsFile,
    DiceFile,
    Exchange,
    Gain,
    IncomeMatFile,
    IncomeSpace,
    IncomeTrack,
    Landmark,
    LandmarksFile,
    MapFile,
    MapHex,
    OneOf,
    Requirement,
    Resource,
    Sourced,
    SpaceTile,
    SpaceTilesFile,
    TapestryCard,
    TapestryCardsFile,
    TechCard,
    TechCardsFile,
    TerritoryTile,
    TerritoryTilesFile,
    TokensFile,
    Track,
    TracksFile,
    TrackSpace,
    tokens,
)

__all__ = [
    "ACHIEVEMENTS",
    "BENEFIT_TOKENS",
    "BLACK_DIE",
    "BOARDS",
    "CAPITALS",
    "CIVILIZATIONS",
    "COST_TOKENS",
    "DECISIONS",
    "ERA_FIRST_BONUS",
    "INCOME_TRACKS",
    "LANDMARKS",
    "RED_DIE",
    "RESOURCES",
    "RESOURCE_CAP",
    "SCIENCE_DIE",
    "SPACE_TILES",
    "TAPESTRY_CARDS",
    "TECH_CARDS",
    "TERRITORY_TILES",
    "TRACK",
    "TRACKS",
    "Achievement",
    "AllOf",
    "AnyOrder",
    "Benefit",
    "Board",
    "Bonus",
    "Capital",
    "Civilization",
    "ContentError",
    "Decision",
    "Exchange",
    "Gain",
    "IncomeSpace",
    "IncomeTrack",
    "Landmark",
    "MapHex",
    "OneOf",
    "Requirement",
    "Resource",
    "Sourced",
    "SpaceTile",
    "TapestryCard",
    "TechCard",
    "TerritoryTile",
    "Track",
    "TrackSpace",
    "assumptions",
    "board_for",
    "space",
    "tier_cost",
    "tier_landmark",
    "tokens",
]

_DIR = Path(__file__).parent / "content"

#: the four advancement tracks, in the order Annales uses everywhere.
TRACKS: tuple[str, ...] = ("exploration", "science", "technology", "military")
#: the four resources.
RESOURCES: tuple[Resource, ...] = ("coin", "worker", "food", "culture")
#: tier (1..4) of each track space 1..12: three spaces per tier.
SPACES_PER_TIER = 3


class ContentError(ValueError):
    """A content file is malformed or inconsistent; the message names the file and record."""


_F = TypeVar("_F", bound=msgspec.Struct)


def _load(name: str, kind: type[_F]) -> _F:
    try:
        return msgspec.json.decode((_DIR / name).read_bytes(), type=kind)
    except (OSError, msgspec.DecodeError, msgspec.ValidationError) as error:
        raise ContentError(f"{name}: {error}") from error


def _fail(where: str, message: str) -> ContentError:
    return ContentError(f"{where}: {message}")


_tracks = _load("tracks.json", TracksFile)
_income = _load("income_mat.json", IncomeMatFile)
_tech = _load("tech_cards.json", TechCardsFile)
_tapestry = _load("tapestry_cards.json", TapestryCardsFile)
_capitals = _load("capitals.json", CapitalsFile)
_map = _load("map.json", MapFile)
_territory = _load("territory_tiles.json", TerritoryTilesFile)
_space = _load("space_tiles.json", SpaceTilesFile)
_landmarks = _load("landmarks.json", LandmarksFile)
_dice = _load("dice.json", DiceFile)
_achievements = _load("achievements.json", AchievementsFile)
_civs = _load("civilizations.json", CivilizationsFile)
#: expansion civilizations, by content file (dealt only when their box is in play).
_box_civs: dict[str, CivilizationsFile] = {
    name: _load(name, CivilizationsFile)
    for name in (
        "civilizations_plans_and_ploys.json",
        "civilizations_arts_and_architecture.json",
        "civilizations_fantasies_and_futures.json",
    )
}
_tokens = _load("tokens.json", TokensFile)
_decisions = _load("decisions.json", DecisionsFile)
#: rule decisions taken by the engine's code, by topic (``decisions.json``).
DECISIONS: dict[str, Decision] = {d.topic: d for d in _decisions.decisions}

_K = TypeVar("_K", int, str)
_R = TypeVar("_R")


def _index(name: str, records: tuple[_R, ...]) -> dict[_K, _R]:
    """Map records by their ``id`` field, refusing duplicates."""
    out: dict[_K, _R] = {}
    for record in records:
        ident: _K = getattr(record, "id")  # noqa: B009 - every indexed record has an id
        if ident in out:
            raise _fail(f"{name}#{ident}", "duplicate id")
        out[ident] = record
    return out


TRACK: dict[str, Track] = _index("tracks.json", _tracks.tracks)
INCOME_TRACKS: tuple[IncomeTrack, ...] = _income.tracks
RESOURCE_CAP: int = _income.resource_cap.value
#: era (2..4) -> bonus for the first among you and your neighbours to start that era.
ERA_FIRST_BONUS: dict[int, Benefit] = {
    bonus.era: bonus.benefit for bonus in _income.era_first_bonus
}
TECH_CARDS: dict[int, TechCard] = _index("tech_cards.json", _tech.cards)
TAPESTRY_CARDS: dict[int, TapestryCard] = _index("tapestry_cards.json", _tapestry.cards)
CAPITALS: dict[int, Capital] = _index("capitals.json", _capitals.capitals)
BOARDS: dict[str, Board] = _index("map.json", _map.boards)
TERRITORY_TILES: dict[int, TerritoryTile] = _index("territory_tiles.json", _territory.tiles)
SPACE_TILES: dict[int, SpaceTile] = _index("space_tiles.json", _space.tiles)
LANDMARKS: dict[int, Landmark] = _index("landmarks.json", _landmarks.landmarks)
#: the track shown by each face of the science die.
SCIENCE_DIE: tuple[str, ...] = _dice.science.faces
RED_DIE: tuple[Benefit, ...] = _dice.red.faces
BLACK_DIE: tuple[Benefit, ...] = _dice.black.faces
ACHIEVEMENTS: dict[int, Achievement] = _index("achievements.json", _achievements.achievements)
#: every civilization of every box, by id (``Civilization.box`` says which box).
CIVILIZATIONS: dict[int, Civilization] = _index(
    "civilizations.json",
    (*_civs.civilizations, *(c for f in _box_civs.values() for c in f.civilizations)),
)
#: benefit token -> our one-line definition (cost units included).
BENEFIT_TOKENS: dict[str, str] = {t.token: t.definition for t in _tokens.tokens}
#: tokens that are cost units (one unit paid per entry of a cost list).
COST_TOKENS: frozenset[str] = frozenset(t.token for t in _tokens.tokens if t.cost_unit)


def space(track: str, n: int) -> TrackSpace:
    """Space ``n`` (1..12) of ``track``.

    >>> space("military", 12).name
    'Mechs'
    """
    if not 1 <= n <= len(TRACK[track].spaces):
        raise KeyError(f"{track} has no space {n}")
    return TRACK[track].spaces[n - 1]


def board_for(players: int) -> Board:
    """The map board for a player count (small for 1-3, large for 4-5).

    >>> board_for(4).id
    'large'
    """
    for board in BOARDS.values():
        if players in board.players:
            return board
    raise KeyError(f"no board for {players} players")


def tier_landmark(track: str, tier: int) -> int | None:
    """The landmark claimed by the first player to enter ``tier`` (2..4) of ``track``.

    The rulebook (TOURS DE DÉVELOPPEMENT) ties a landmark to entering a tier, however the
    token gets there; the data stores it on the tier's first space.

    >>> LANDMARKS[tier_landmark("exploration", 2)].name
    'Lighthouse'
    >>> tier_landmark("science", 1) is None
    True
    """
    return space(track, (tier - 1) * SPACES_PER_TIER + 1).landmark


def tier_cost(track: str, tier: int) -> tuple[str, ...]:
    """The printed cost pattern of a tier: I any; II resource + any; III resource + 2 any; IV 2
    resources (rulebook: TOURS DE DÉVELOPPEMENT; the board prints it under each tier).

    >>> tier_cost("technology", 3)
    ('coin', 'any_resource', 'any_resource')
    """
    resource: str = TRACK[track].resource
    patterns: dict[int, tuple[str, ...]] = {
        1: ("any_resource",),
        2: (resource, "any_resource"),
        3: (resource, "any_resource", "any_resource"),
        4: (resource, resource),
    }
    return patterns[tier]


# ---------------------------------------------------------------- provenance and assumptions


def _records() -> Iterator[tuple[str, Sourced]]:
    """Every sourced record as ``("<file>#<label>", record)``."""
    for track in _tracks.tracks:
        yield f"tracks.json#{track.id}", track
        for s in track.spaces:
            yield f"tracks.json#{track.id}/{s.space}", s
    for income in _income.tracks:
        yield f"income_mat.json#{income.id}", income
        for i in income.spaces:
            yield f"income_mat.json#{income.id}/{i.space}", i
    for era in _income.era_first_bonus:
        yield f"income_mat.json#era_first_bonus/{era.era}", era
    yield "income_mat.json#resource_cap", _income.resource_cap
    groups: tuple[tuple[str, tuple[Sourced, ...]], ...] = (
        ("tech_cards.json", _tech.cards),
        ("tapestry_cards.json", _tapestry.cards),
        ("capitals.json", _capitals.capitals),
        ("map.json", _map.boards),
        ("territory_tiles.json", _territory.tiles),
        ("space_tiles.json", _space.tiles),
        ("landmarks.json", _landmarks.landmarks),
        ("achievements.json", _achievements.achievements),
        ("civilizations.json", _civs.civilizations),
        *((name, f.civilizations) for name, f in _box_civs.items()),
    )
    for name, records in groups:
        for record in records:
            yield f"{name}#{getattr(record, 'id')}", record  # noqa: B009
    for board in _map.boards:
        for island in board.islands:
            yield f"map.json#{board.id}/islands/{island.id}", island
    for decision in _decisions.decisions:
        yield f"decisions.json#{decision.topic}", decision
    yield "dice.json#science", _dice.science
    yield "dice.json#red", _dice.red
    yield "dice.json#black", _dice.black
    for token in _tokens.tokens:
        yield f"tokens.json#{token.token}", token


def assumptions() -> list[str]:
    """One line per ``assumed`` record: ``"<file>#<record>: <note>"``.

    >>> any(line.startswith("dice.json#science: ") for line in assumptions())
    True
    """
    return [f"{where}: {record.note}" for where, record in _records() if record.source == "assumed"]


# ---------------------------------------------------------------- validation


def _benefits() -> Iterator[tuple[str, Benefit]]:
    """Every benefit expression of the content, with where it is."""
    for track in _tracks.tracks:
        for s in track.spaces:
            where = f"tracks.json#{track.id}/{s.space}"
            yield where, s.benefit
            if s.bonus is not None:
                yield where, s.bonus.benefit
    for income in _income.tracks:
        for i in income.spaces:
            for benefit in (*i.income, *i.vp):
                yield f"income_mat.json#{income.id}/{i.space}", benefit
    for era in _income.era_first_bonus:
        yield f"income_mat.json#era_first_bonus/{era.era}", era.benefit
    for card in _tech.cards:
        yield f"tech_cards.json#{card.id}", card.circle
        yield f"tech_cards.json#{card.id}", card.square
    for tcard in _tapestry.cards:
        if tcard.benefit is not None:
            yield f"tapestry_cards.json#{tcard.id}", tcard.benefit
    for tile in _territory.tiles:
        if tile.benefit is not None:
            yield f"territory_tiles.json#{tile.id}", tile.benefit
    for stile in _space.tiles:
        yield f"space_tiles.json#{stile.id}", stile.benefit
    for face in (*_dice.red.faces, *_dice.black.faces):
        yield "dice.json", face
    files = {"civilizations.json": _civs, **_box_civs}
    for name, civ_file in files.items():
        for civ in civ_file.civilizations:
            for slot in civ.slots:
                yield f"{name}#{civ.id}", slot
            if civ.setup is not None:
                yield f"{name}#{civ.id}", civ.setup


def _cost_lists() -> Iterator[tuple[str, tuple[str, ...]]]:
    for track in _tracks.tracks:
        for s in track.spaces:
            yield f"tracks.json#{track.id}/{s.space}", s.cost
            if s.bonus is not None:
                yield f"tracks.json#{track.id}/{s.space}", s.bonus.cost


def _check_tracks() -> None:
    if tuple(TRACK) != TRACKS:
        raise _fail("tracks.json", f"tracks must be listed in the order {TRACKS}")
    claimed: dict[int, str] = {}
    for track in _tracks.tracks:
        if [s.space for s in track.spaces] != list(range(1, 13)):
            raise _fail(f"tracks.json#{track.id}", "needs spaces 1..12 in order")
        for s in track.spaces:
            where = f"tracks.json#{track.id}/{s.space}"
            if s.track != track.id:
                raise _fail(where, f"track field is {s.track!r}")
            if s.tier != (s.space - 1) // SPACES_PER_TIER + 1:
                raise _fail(where, f"tier {s.tier} does not match the space")
            if s.cost != tier_cost(track.id, s.tier):
                raise _fail(where, f"cost {s.cost} breaks the tier pattern")
            first_of_tier = s.tier > 1 and (s.space - 1) % SPACES_PER_TIER == 0
            if first_of_tier != (s.landmark is not None):
                raise _fail(where, "a landmark sits exactly on the first space of tiers II-IV")
            if s.landmark is not None:
                claimed[s.landmark] = where
    for card in _tech.cards:
        if card.landmark is not None:
            if card.landmark in claimed:
                raise _fail(f"tech_cards.json#{card.id}", f"landmark {card.landmark} is taken")
            claimed[card.landmark] = f"tech_cards.json#{card.id}"
    if sorted(claimed) != sorted(LANDMARKS):
        raise _fail("landmarks.json", "every landmark needs exactly one track space or tech card")
    for landmark in _landmarks.landmarks:
        where = f"landmarks.json#{landmark.id}"
        origin = (
            f"tracks.json#{landmark.track}/{landmark.space}"
            if landmark.source_kind == "track"
            else f"tech_cards.json#{landmark.tech_card}"
        )
        if claimed[landmark.id] != origin:
            raise _fail(where, f"says {origin} but {claimed[landmark.id]} grants it")
        if not landmark.orientations or any(not cells for cells in landmark.orientations):
            raise _fail(where, "needs at least one non-empty orientation")


def _check_income_and_cards() -> None:
    if [t.id for t in INCOME_TRACKS] != ["markets", "houses", "farms", "armories"]:
        raise _fail("income_mat.json", "income tracks must be markets, houses, farms, armories")
    for income in INCOME_TRACKS:
        if [i.space for i in income.spaces] != list(range(1, 7)):
            raise _fail(f"income_mat.json#{income.id}", "needs spaces 1..6 in order")
        if income.start_buildings != len(income.spaces) - 1:
            raise _fail(f"income_mat.json#{income.id}", "one building covers each space 2..6")
    if sorted(ERA_FIRST_BONUS) != [2, 3, 4]:
        raise _fail("income_mat.json#era_first_bonus", "needs eras 2, 3 and 4")
    if sorted(TECH_CARDS) != list(range(1, 34)):
        raise _fail("tech_cards.json", "needs the 33 base cards, ids 1..33")
    income_ids = {t.id: t for t in INCOME_TRACKS}
    for card in _tech.cards:
        req = card.requirement
        where = f"tech_cards.json#{card.id}"
        if req is None:
            continue
        if req.type == "advancement_track" and (req.track not in TRACK or req.min_space < 1):
            raise _fail(where, f"bad track requirement {req}")
        if req.type == "income_space_revealed":
            track = income_ids.get(req.income_track)
            if track is None or track.spaces[req.min_space - 1].name != req.space_name:
                raise _fail(where, f"bad income requirement {req}")
    copies = sum(card.copies for card in _tapestry.cards)
    if copies != 50 or len(_tapestry.cards) != 44:
        raise _fail("tapestry_cards.json", f"needs 44 cards and 50 copies, has {copies}")
    keys: set[str] = set()
    for tcard in _tapestry.cards:
        where = f"tapestry_cards.json#{tcard.id}"
        if tcard.key in keys or not tcard.key.isidentifier() or tcard.key.lower() != tcard.key:
            raise _fail(where, f"key {tcard.key!r} must be unique snake_case")
        keys.add(tcard.key)
        if not tcard.summary or tcard.copies < 1:
            raise _fail(where, "needs a summary and at least one copy")


def _check_map() -> None:
    if len(CAPITALS) != 6:
        raise _fail("capitals.json", "needs the 6 basic capitals")
    for capital in _capitals.capitals:
        where = f"capitals.json#{capital.id}"
        if len(capital.grid) != 9 or any(
            len(row) != 9 or set(row) - {"0", "1"} for row in capital.grid
        ):
            raise _fail(where, "grid must be 9 rows of 9 characters '0'/'1'")
        if sum(row.count("1") for row in capital.grid) != 22:
            raise _fail(where, "a basic capital has 22 impassable plots")
        if CAPITALS.get(capital.pair, capital).pair != capital.id or capital.pair == capital.id:
            raise _fail(where, f"pair {capital.pair} is not mutual")
    sizes = {"small": (3, 34, ((0, -3), (-3, 0), (3, 3))), "large": (4, 61, ())}
    if sorted(BOARDS) != sorted(sizes):
        raise _fail("map.json", "needs the small and large boards")
    for board in _map.boards:
        where = f"map.json#{board.id}"
        radius, count, cut = sizes[board.id]
        expected = {
            (q, r)
            for q in range(-radius, radius + 1)
            for r in range(-radius, radius + 1)
            if abs(q - r) <= radius and (q, r) not in cut
        }
        cells = [(h.q, h.r) for h in board.hexes]
        if len(cells) != count or set(cells) != expected:
            raise _fail(where, f"needs {count} distinct hexes of radius {radius}")
        for h in board.hexes:
            if len(h.corners) not in (0, 6) or (h.central_island and len(h.lands) != 4):
                raise _fail(f"{where}/{h.q}_{h.r}", "a hex has 0 or 6 corners")
        starts = {c for h in board.hexes for c in h.start_for_capitals}
        for capital in _capitals.capitals:
            start = capital.start_small if board.id == "small" else capital.start_large
            if start not in set(cells) or capital.id not in starts:
                raise _fail(f"capitals.json#{capital.id}", f"start hex {start} not on {where}")
        _check_islands(board)
    if sorted(TERRITORY_TILES) != list(range(1, 49)):
        raise _fail("territory_tiles.json", "needs 48 tiles, ids 1..48")
    for tile in _territory.tiles:
        island = all(corner == "sea" for corner in tile.corners)
        if len(tile.corners) != 6 or island != (tile.center is not None):
            raise _fail(f"territory_tiles.json#{tile.id}", "6 corners; center only on islands")
    if sorted(SPACE_TILES) != list(range(1, 16)):
        raise _fail("space_tiles.json", "needs 15 tiles, ids 1..15")


def _check_islands(board: Board) -> None:
    """The islands are exactly the edge-joined groups of printed hexes other than the central
    island, each centre touching every other hex of its island, listed clockwise from the top
    (the reading recorded with each island)."""
    printed = {(h.q, h.r) for h in board.hexes if h.corners and not h.central_island}
    listed = [cell for island in board.islands for cell in island.hexes]
    where = f"map.json#{board.id}/islands"
    if sorted(listed) != sorted(printed) or len(set(listed)) != len(listed):
        raise _fail(where, "the islands must cover the printed hexes once each")
    angles: list[float] = []
    for number, island in enumerate(board.islands):
        cells = set(island.hexes)
        for cell in island.hexes:
            if cell != island.centre and cell not in hexmap.neighbours(island.centre):
                raise _fail(f"{where}/{island.id}", f"{cell} does not touch the centre")
        joined = any(n in printed - cells for c in cells for n in hexmap.neighbours(c))
        if island.id != number or island.centre not in cells or joined:
            raise _fail(f"{where}/{island.id}", "ids 0.. in order; an island is a whole group")
        q, r = island.centre
        angles.append(math.atan2(r - q, -(q + r)) % math.tau)
    if angles != sorted(angles):
        raise _fail(where, "islands are listed clockwise from the top")


def _check_rest() -> None:
    if len(LANDMARKS) != 18:
        raise _fail("landmarks.json", "needs the 18 base landmarks")
    if len(SCIENCE_DIE) != 12 or set(SCIENCE_DIE) != set(TRACKS):
        raise _fail("dice.json#science", "12 faces showing the four tracks")
    if len(RED_DIE) != 6 or len(BLACK_DIE) != 6:
        raise _fail("dice.json", "conquer dice have 6 faces")
    if sorted(ACHIEVEMENTS) != [1, 2, 3]:
        raise _fail("achievements.json", "needs the 3 achievements")
    if len(_civs.civilizations) != 16 or any(c.box for c in _civs.civilizations):
        raise _fail("civilizations.json", "needs the 16 base civilizations")
    if len({c.key for c in CIVILIZATIONS.values()}) != len(CIVILIZATIONS):
        raise _fail("civilizations", "two civilizations share a key")
    for name, civ_file in {"civilizations.json": _civs, **_box_civs}.items():
        for civ in civ_file.civilizations:
            if not civ.summary:
                raise _fail(f"{name}#{civ.id}", "needs a summary")
            if name != "civilizations.json" and not name.endswith(f"_{civ.box}.json"):
                raise _fail(f"{name}#{civ.id}", f"box {civ.box!r} is not this file's")
    if len(BENEFIT_TOKENS) != len(_tokens.tokens):
        raise _fail("tokens.json", "a token is defined twice")
    for where, benefit in _benefits():
        for token in tokens(benefit):
            if token not in BENEFIT_TOKENS:
                raise _fail(where, f"token {token!r} is not defined in tokens.json")
    for where, cost in _cost_lists():
        for token in cost:
            if token not in COST_TOKENS:
                raise _fail(where, f"cost token {token!r} is not a cost unit in tokens.json")
    for where, record in _records():
        problem = record.provenance_error()
        if problem:
            raise _fail(where, problem)


_check_tracks()
_check_income_and_cards()
_check_map()
_check_rest()
