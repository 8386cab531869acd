"""The solo rules' entry points used by :class:`~domain.tapestry.game.TapestryGame`.

Importing this module registers the bots' agenda frames (:mod:`.turn`, :mod:`.income`,
:mod:`.conquest`), their turn before each human turn (``engine.END_TURN``) and the Automa's
defence when a seat conquers its territory (``mapping.BOT_DEFENDS``).
"""

from __future__ import annotations

from typing import Any, get_args

from domain.core.game import PartyScore
from domain.tapestry import content as C
from domain.tapestry.civ_catalogue import starting_civilization_id
from domain.tapestry.expansions import inventory
from domain.tapestry.mapping import BOT_DEFENDS
from domain.tapestry.solo import AUTOMA, NAMES, boxes
from domain.tapestry.solo import content as S
from domain.tapestry.solo.conquest import defend
from domain.tapestry.solo.turn import has_bots, prepare
from domain.tapestry.state import OVER, TapestryState

BOT_DEFENDS.append(defend)


class SoloRulesMissing(ValueError):
    """An expansion box is enabled whose solo rules are not implemented."""


#: the solo changes applied by a mechanism of the engine (:mod:`.boxes`, :mod:`.turn`).
MECHANISMS: frozenset[str] = frozenset(
    {S.FAVORITE_BY_SCIENCE_DIE, boxes.TWO_TOKENS, boxes.TIEBREAK}
)


def applied(change: str) -> bool:
    """``True`` when the engine applies ``change``: a mechanism; a removal of civilizations
    whose ``solo`` flag keeps them out of solo games (:func:`.content.dealt_solo`); or a
    change about a component in none of our sources (``expansions.json`` source ``none``),
    played without the component and named in the game's notes — only while the component
    stays absent."""
    if change in MECHANISMS:
        return True
    removed = S.removed_by(change)
    if removed:
        ids = {c.key: c.id for c in C.CIVILIZATIONS.values()}
        return all(key in ids and not S.dealt_solo(ids[key]) for key in removed)
    label = boxes.ABSENT_COMPONENT_CHANGES.get(change)
    if label is None:
        return False
    absent = {c.label for c in inventory.COMPONENTS if c.source == "none"}
    return label in absent


#: the solo changes of ``automa.json#expansions`` the engine applies. A box is played solo
#: only when every change its record lists is here (:func:`check_expansions`); Plans & Ploys'
#: landmark cards are here only as a component absent (:func:`applied`).
IMPLEMENTED_SOLO_CHANGES: frozenset[str] = frozenset(
    change for record in S.EXPANSIONS.values() for change in record.changes or () if applied(change)
)


def expansion_boxes(options: Any) -> tuple[str, ...]:
    """The expansion boxes enabled by ``options`` (none while the options have no
    ``expansions`` field)."""
    boxes = getattr(options, "expansions", ())
    return tuple(boxes) if boxes else ()


def accepted_boxes(options_type: type) -> tuple[str, ...]:
    """Every box the options type accepts in an ``expansions`` field (``()``: no field)."""
    fields = getattr(options_type, "__annotations__", {})
    kind = fields.get("expansions")
    if kind is None:
        return ()
    found: list[str] = []
    stack = [kind]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.append(item)
        else:
            stack.extend(get_args(item))
    return tuple(sorted(set(found)))


def check_expansions(boxes: tuple[str, ...]) -> None:
    """Refuse a box whose solo rules are unknown or not all applied by the engine (raises
    :class:`SoloRulesMissing` naming the box and the changes missing)."""
    for box in boxes:
        record = S.EXPANSIONS.get(box)
        if record is None or record.changes is None:
            raise SoloRulesMissing(
                f"expansions: the solo rules of {box!r} are not in our sources "
                "(content/automa.json#expansions), so it is not played solo"
            )
        missing = [change for change in record.changes if change not in IMPLEMENTED_SOLO_CHANGES]
        if missing:
            raise SoloRulesMissing(
                f"expansions: {box!r} is not played solo yet: its solo changes "
                f"{', '.join(missing)} (content/automa.json#expansions) are not implemented"
            )


def check_options(options: Any, seats: int) -> None:
    """Solo and Shadow Empire options against the seat count (raises ``ValueError`` naming
    the field)."""
    if getattr(options, "shadow_empire", False) and seats != 2:
        raise ValueError(f"shadow_empire: the Shadow Empire variant is for 2 seats, not {seats}")
    if seats == 1:
        check_expansions(expansion_boxes(options))
        for text in getattr(options, "starting_civilizations", ()):
            if text and not S.dealt_solo(starting_civilization_id(text)):
                raise ValueError(f"starting_civilizations: {text!r} is not played solo")


def parties(state: TapestryState) -> tuple[PartyScore, ...]:
    """The Automa's score (the Shadow Empire never scores)."""
    solo = state.solo
    if solo is None or not solo.automa:
        return ()
    won = state.phase == OVER and not state.winners
    return (PartyScore(name=NAMES[AUTOMA], score=solo.vp, winner=won),)


assumptions = S.assumptions
notes = boxes.notes

__all__ = ["check_options", "has_bots", "notes", "parties", "prepare"]
