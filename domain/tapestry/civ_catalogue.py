"""The catalogue of implemented Tapestry civilizations: which may be dealt at setup and which
gained during the game, for the base game and by expansion box, and the lookups by key.

The tables are filled here for the base game and by the expansion civilizations' modules for
their boxes (``domain.tapestry.expansions``), all imported by ``domain.tapestry.handlers``
before any program uses them. This module needs only the content, so the options can check
the civilizations they name (``TapestryOptions.starting_civilizations``).
"""

from __future__ import annotations

from collections.abc import Iterable

from domain.tapestry import content as C

IMPLEMENTED_CIVILIZATIONS: tuple[str, ...] = (
    "heralds",
    "inventors",
    "traders",
    "isolationists",
    "mystics",
    "nomads",
    "architects",
    "craftsmen",
    "historians",
    "alchemists",
    "entertainers",
    "futurists",
    "leaders",
    "merrymakers",
    "militants",
    "the_chosen",
)
#: implemented civilizations whose mid-game gain rule is implemented too.
GAINABLE: tuple[str, ...] = (
    "heralds",
    "inventors",
    "traders",
    "isolationists",
    "nomads",
    "architects",
    "craftsmen",
    "historians",
    "alchemists",
    "entertainers",
    "leaders",
    "merrymakers",
    "militants",
)
#: implemented expansion civilizations, by box: dealt and gained only when their box is in
#: play (their modules, under ``domain.tapestry.expansions``, register them).
BOX_CIVILIZATIONS: dict[str, list[str]] = {
    "arts_and_architecture": [
        "collectors",
        "gamblers",
        "relentless",
        "renegades",
        "urban_planners",
    ],
    "fantasies_and_futures": [
        "artificers",
        "celestials",
        "elder_ones",
        "faefolk",
        "genies",
        "illuminati",
        "merfolk",
        "psionics",
        "weefolk",
        "werefolk",
    ],
}
#: those of them that may be gained during the game, by box (in the draw's pool order).
BOX_GAINABLE: dict[str, list[str]] = {
    "arts_and_architecture": list(BOX_CIVILIZATIONS["arts_and_architecture"]),
    "fantasies_and_futures": list(BOX_CIVILIZATIONS["fantasies_and_futures"]),
}
#: the rules revision from which a civilization of :data:`BOX_GAINABLE` may be gained during
#: the game (the others: from every revision). ``tapestry/3`` added the mats of Arts &
#: Architecture and Fantasies & Futures and the Riverfolk, whose mid-game rules it implements.
GAINABLE_FROM: dict[str, int] = {
    key: 3
    for key in (
        *BOX_CIVILIZATIONS["arts_and_architecture"],
        *BOX_CIVILIZATIONS["fantasies_and_futures"],
    )
}
_KEYS: dict[str, int] = {c.key: c.id for c in C.CIVILIZATIONS.values()}


def civ_id(key: str) -> int:
    """The id of the civilization named ``key``."""
    return _KEYS[key]


def implemented_ids(boxes: Iterable[str] = ()) -> list[int]:
    """Ids of the implemented civilizations of the base game and of ``boxes``, ascending."""
    keys = [*IMPLEMENTED_CIVILIZATIONS]
    for box in boxes:
        keys.extend(BOX_CIVILIZATIONS.get(box, ()))
    return sorted(_KEYS[k] for k in keys)


def gainable(boxes: Iterable[str] = (), revision: int = 3) -> list[str]:
    """Keys of the civilizations that may be gained during a game of rules ``revision`` with
    ``boxes`` in play: :data:`GAINABLE`, then those of the boxes (in that order: the draw's
    pool order).

    >>> "faefolk" in gainable(["fantasies_and_futures"], revision=2)
    False
    >>> "faefolk" in gainable(["fantasies_and_futures"], revision=3)
    True
    """
    keys = [*GAINABLE]
    for box in boxes:
        keys.extend(box_gainable(box, revision))
    return keys


def box_gainable(box: str, revision: int) -> list[str]:
    """Keys of ``box``'s civilizations that may be gained during a game of rules
    ``revision``, in the draw's pool order."""
    return [k for k in BOX_GAINABLE.get(box, ()) if GAINABLE_FROM.get(k, 1) <= revision]


def starting_civilization_id(text: str, boxes: Iterable[str] | None = None) -> int:
    """The id of an implemented civilization named by its key or its id as text (the
    ``starting_civilizations`` option), of the base game or of ``boxes`` (``None``: any box);
    raises ``ValueError`` for any other text, naming the box a civilization needs.

    >>> starting_civilization_id("militants") == starting_civilization_id("12") == 12
    True
    """
    every = implemented_ids(tuple(BOX_CIVILIZATIONS))
    implemented = every if boxes is None else implemented_ids(boxes)
    by_key = {C.CIVILIZATIONS[c].key: c for c in implemented}
    if text in by_key:
        return by_key[text]
    if text.isdigit() and int(text) in implemented:
        return int(text)
    elsewhere = [c for c in every if text in (C.CIVILIZATIONS[c].key, str(c))]
    if elsewhere:
        box = C.CIVILIZATIONS[elsewhere[0]].box
        raise ValueError(
            f"starting_civilizations: {text!r} comes with the {box} box, which is not in play "
            "(option expansions)"
        )
    raise ValueError(
        f"starting_civilizations: {text!r} is not an implemented civilization "
        f"(known: {', '.join(sorted(by_key))})"
    )
