"""The solo content: ``content/automa.json``, loaded and validated at import.

Every record carries its provenance (:class:`~domain.core.provenance.Sourced`); the ``assumed``
ones are listed by :func:`assumptions` (``annales content report --game tapestry``).

>>> len(DECISION_CARDS), sorted(CIVILIZATIONS)
(22, [1, 2, 3, 4])
>>> LEVELS[2].tapestry_draws, LEVELS[1].tapestry_draws
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Literal

import msgspec

from domain.core.provenance import Sourced
from domain.tapestry import content as C

TrackRule = Literal["all_unfinished", "closest_to_finish", "closest_to_landmark_or_finish"]
Action = Literal["explore_anywhere", "conquer", "research", "conquerors", "vp_per_landmark"]


class HexPriority(Sourced, frozen=True, kw_only=True):
    """A decision card's hex tiebreak: rows walked from ``start`` along ``along``, the next
    row ``next_row`` further (axial vectors of the map)."""

    start: tuple[int, int]
    along: tuple[int, int]
    next_row: tuple[int, int]


class DecisionCard(Sourced, frozen=True, kw_only=True):
    """A decision card (1-7: the start of the decision deck; 8-22: the progress deck)."""

    id: int
    deck: Literal["start", "progress"]
    income_icon: bool
    topple_icon: bool
    automa_rule: TrackRule
    shadow_rule: TrackRule
    order: tuple[str, ...]
    hex: HexPriority


class Ability(msgspec.Struct, frozen=True, kw_only=True):
    """An Automa civilization's income ability: an action at the listed income turns."""

    eras: tuple[int, ...]
    action: Action


class AutomaCivilization(Sourced, frozen=True, kw_only=True):
    """An Automa civilization card face: its favourite track (a track, or
    :data:`SCIENCE_DIE_FAVORITE`: rolled at setup) and income abilities; ``box`` the expansion
    box the card comes in (``""``: the base game), dealt only with that box in play."""

    id: int
    name: str
    favorite: str
    abilities: tuple[Ability, ...]
    box: str = ""


class Level(Sourced, frozen=True, kw_only=True):
    """A difficulty level (the Automa's income card): which income steps it takes.

    ``mat_side`` picks the income board's multiplier rows; ``first_income`` the bots' advances
    at their first income turn (``"favorite"``: once on their favourite track, ``"all"``:
    once on every track); ``extra_civilizations`` Automa civilization cards added at setup
    (their favourite track ignored, their income ability used)."""

    level: int
    name: str
    mat_side: Literal["normal", "hard"]
    tapestry_draws: bool
    civilization_ability: bool
    extra_advance: bool
    extra_progress: int
    first_income: Literal["none", "favorite", "all"] = "none"
    extra_civilizations: int = 0


class Multipliers(Sourced, frozen=True, kw_only=True):
    """The income VP multipliers of one income turn on one side of the Automa board."""

    era: int
    side: Literal["normal", "hard"] = "normal"
    landmark_territory: int
    military_science: int
    technology_exploration: int


class EraFirst(Sourced, frozen=True, kw_only=True):
    """VP per era number when the Automa is first into an era."""

    vp_per_era: int


class Setup(Sourced, frozen=True, kw_only=True):
    """Solo setup facts: start territories, decks."""

    human_home: tuple[int, int]
    automa_home: tuple[int, int]
    automa_outposts: int
    start_deck: tuple[int, ...]
    progress_deck: tuple[int, ...]
    progress_into_deck: int
    shadow_only_deck: tuple[int, ...]


class Removed(Sourced, frozen=True, kw_only=True):
    """Components left out of a solo game (``traps``: Trap copies removed)."""

    keys: tuple[str, ...]
    traps: int = 0


class Expansion(Sourced, frozen=True, kw_only=True):
    """The solo rules' changes for one expansion box (``None``: none known)."""

    box: str
    changes: tuple[str, ...] | None


class Decision(Sourced, frozen=True, kw_only=True):
    """A rule decision of the solo engine where the sources are silent or unclear."""

    topic: str


class AutomaFile(msgspec.Struct, frozen=True, kw_only=True):
    """``content/automa.json``."""

    _about: str = msgspec.field(name="_about", default="")
    decision_cards: tuple[DecisionCard, ...]
    civilizations: tuple[AutomaCivilization, ...]
    levels: tuple[Level, ...]
    multipliers: tuple[Multipliers, ...]
    era_first_vp: EraFirst
    setup: Setup
    removed_tapestry_cards: Removed
    removed_civilizations: Removed
    shadow_variant: Sourced
    expansions: tuple[Expansion, ...]
    decisions: tuple[Decision, ...]


#: an Automa civilization card's favourite shown as the science die (Plans & Ploys' solo change
#: ``favorite_by_science_die``: the die is rolled at setup).
SCIENCE_DIE_FAVORITE = "science_die"
#: the solo change of that name (``automa.json#expansions``).
FAVORITE_BY_SCIENCE_DIE = "favorite_by_science_die"
#: the prefix of a solo change removing civilizations (``remove_civilizations:a,b``).
REMOVE_CIVILIZATIONS = "remove_civilizations:"


class SoloContentError(ValueError):
    """``automa.json`` is malformed or inconsistent."""


def _load() -> AutomaFile:
    path = Path(C.__file__).parent / "content" / "automa.json"
    try:
        return msgspec.json.decode(path.read_bytes(), type=AutomaFile)
    except (OSError, msgspec.DecodeError, msgspec.ValidationError) as error:
        raise SoloContentError(f"automa.json: {error}") from error


_file = _load()
DECISION_CARDS: dict[int, DecisionCard] = {c.id: c for c in _file.decision_cards}
CIVILIZATIONS: dict[int, AutomaCivilization] = {c.id: c for c in _file.civilizations}
LEVELS: dict[int, Level] = {lv.level: lv for lv in _file.levels}
#: (board side, income turn) -> multipliers.
MULTIPLIERS: dict[tuple[str, int], Multipliers] = {(m.side, m.era): m for m in _file.multipliers}
ERA_FIRST_VP: int = _file.era_first_vp.vp_per_era
SETUP: Setup = _file.setup
EXPANSIONS: dict[str, Expansion] = {e.box: e for e in _file.expansions}
REMOVED_CIVILIZATIONS: tuple[str, ...] = _file.removed_civilizations.keys


def civilizations_for(boxes: tuple[str, ...]) -> list[int]:
    """The Automa civilization cards dealt with ``boxes`` in play (the base game's and those of
    the boxes), ascending."""
    return sorted(c.id for c in CIVILIZATIONS.values() if not c.box or c.box in boxes)


def removed_by(change: str) -> tuple[str, ...]:
    """The civilization keys a ``remove_civilizations:`` change names (``()`` for any other
    change)."""
    if not change.startswith(REMOVE_CIVILIZATIONS):
        return ()
    return tuple(change[len(REMOVE_CIVILIZATIONS) :].split(","))


def dealt_solo(civilization: int) -> bool:
    """``True`` when a civilization mat may be dealt (or fixed) in a solo game: its ``solo``
    flag (the facts folder's ``solo_allowed``) is set and the aid does not remove it."""
    record = C.CIVILIZATIONS[civilization]
    return record.solo and record.key not in REMOVED_CIVILIZATIONS


def _removed_cards() -> tuple[int, ...]:
    by_key = {card.key: card.id for card in C.TAPESTRY_CARDS.values()}
    found = [by_key[key] for key in _file.removed_tapestry_cards.keys]
    found.extend([by_key["trap"]] * _file.removed_tapestry_cards.traps)
    return tuple(sorted(found))


#: tapestry card ids out of a solo game, one entry per copy (the 13 cards of the aid).
REMOVED_CARDS: tuple[int, ...] = _removed_cards()


def _records() -> Iterator[tuple[str, Sourced]]:
    for card in _file.decision_cards:
        yield f"automa.json#decision_cards/{card.id}", card
        yield f"automa.json#decision_cards/{card.id}/hex", card.hex
    for civ in _file.civilizations:
        yield f"automa.json#civilizations/{civ.id}", civ
    for level in _file.levels:
        yield f"automa.json#levels/{level.level}", level
    for mult in _file.multipliers:
        yield f"automa.json#multipliers/{mult.side}/{mult.era}", mult
    yield "automa.json#era_first_vp", _file.era_first_vp
    yield "automa.json#setup", _file.setup
    yield "automa.json#removed_tapestry_cards", _file.removed_tapestry_cards
    yield "automa.json#removed_civilizations", _file.removed_civilizations
    yield "automa.json#shadow_variant", _file.shadow_variant
    for box in _file.expansions:
        yield f"automa.json#expansions/{box.box}", box
    for decision in _file.decisions:
        yield f"automa.json#decisions/{decision.topic}", decision


def assumptions() -> list[str]:
    """One line per ``assumed`` record of ``automa.json``: ``"<file>#<record>: <note>"``."""
    return [f"{where}: {record.note}" for where, record in _records() if record.source == "assumed"]


def _validate() -> None:
    for where, record in _records():
        error = record.provenance_error()
        if error:
            raise SoloContentError(f"{where}: {error}")
    tracks = set(C.TRACKS)
    for card in _file.decision_cards:
        if sorted(card.order) != sorted([*C.TRACKS, "favorite"]):
            raise SoloContentError(f"decision card {card.id}: order {card.order}")
    if sorted(DECISION_CARDS) != list(range(1, 23)):
        raise SoloContentError("decision cards must be 1-22")
    for civ in _file.civilizations:
        if civ.favorite not in tracks and civ.favorite != SCIENCE_DIE_FAVORITE:
            raise SoloContentError(f"Automa civilization {civ.id}: track {civ.favorite}")
        check_card(civ)
    sides = [(side, era) for side in ("hard", "normal") for era in (2, 3, 4, 5)]
    if sorted(LEVELS) != [1, 2, 3, 4, 5, 6] or sorted(MULTIPLIERS) != sides:
        raise SoloContentError("levels 1-6 and multipliers for income turns 2-5 on both sides")
    for level in _file.levels:
        if level.extra_civilizations >= len(CIVILIZATIONS):
            raise SoloContentError(f"level {level.level}: too many extra civilizations")
    civ_keys = {c.key for c in C.CIVILIZATIONS.values()}
    for key in REMOVED_CIVILIZATIONS:
        if key not in civ_keys:
            raise SoloContentError(f"removed civilization {key!r} is unknown")
    for box in _file.expansions:
        for change in box.changes or ():
            for key in removed_by(change):
                if key not in civ_keys:
                    raise SoloContentError(f"expansions/{box.box}: civilization {key!r} is unknown")


def check_card(civ: AutomaCivilization) -> None:
    """A card's box is a box of ``expansions``; a card showing the science die needs a box
    whose solo changes roll it (the base game has no such rule)."""
    if civ.box and civ.box not in EXPANSIONS:
        raise SoloContentError(f"Automa civilization {civ.id}: unknown box {civ.box!r}")
    if civ.favorite == SCIENCE_DIE_FAVORITE:
        changes = EXPANSIONS[civ.box].changes if civ.box else None
        if not changes or FAVORITE_BY_SCIENCE_DIE not in changes:
            raise SoloContentError(
                f"Automa civilization {civ.id}: a science-die favourite needs a box whose solo "
                f"changes include {FAVORITE_BY_SCIENCE_DIE}"
            )


_validate()
