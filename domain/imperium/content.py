"""Imperium content (both boxes): nations, common cards, unrest, state cards, setup figures.

The data files live in ``content/`` next to this module; they are decoded with msgspec into
the frozen Structs of :mod:`domain.imperium.content_types` and
:mod:`domain.imperium.content_effects` and validated at import time. A bad file fails
loudly: :class:`ContentError` names the file and the record. The checks include the card
counts of every nation against the rulebook's component list, the pile counts by player-count
icon, the 83 common cards of each box, every card id a nation, a pile, an effect or a note
refers to, and the provenance of every record.

Every record says where it comes from (``source``): ``"reference"`` with the ``ref`` of the
facts folder (``shared/reference/imperium``), ``"rulebook"`` with the ``section`` of the French
rulebook, or ``"assumed"`` with a ``note``; :func:`assumptions` lists the assumed ones.

Cards are keyed by their physical card number (identical copies have distinct numbers:
``CAR3`` and ``CAR4`` are the two Elephants); each face of a double-sided card is a card of
its own (``CAR1A``/``CAR1B``, ``KOK-A``/``KOK-B``). The box is a data attribute
(``Card.box``, ``Nation.box``). The Legends box adds ``common_legends.json`` (its five
market piles, :data:`COMMON_SETS` ``["legends"]``) and one ``nation_<key>.json`` per Legends
nation listed in :data:`LEGENDS_NATIONS`. Its King of Kings, common unrest cards and state
cards are identical copies of the Classics ones (reference ``common_shared.json``: "each box
contains its own copy"), so one definition serves both boxes (``decisions.json``).

>>> set(CLASSICS_NATIONS) <= set(NATIONS) and tuple(NATIONS) == ALL_NATIONS
True
>>> len(COMMON_SETS["legends"].piles["tributary"].cards), COMMON_SETS["legends"].king_of_kings[0].id
(11, 'KOK-A')
>>> car = NATIONS["carthaginians"]
>>> [face.id for face in car.power], car.accession, car.starting_state
(['CAR1A', 'CAR1B'], ('CAR2',), 'barbarian')
>>> CARDS["CAR4"].name, CARDS["CAR4"].copy_ids, CARDS["CAR4"].development_cost
('Elephants', ('CAR3', 'CAR4'), Cost(materials=0, population=3, progress=0))
>>> len(car.starting_deck), len(car.nation_deck), len(car.development)
(10, 5, 6)
>>> CARDS["1UNC10"].name, CARDS["1UNC10"].pile, CARDS["1UNC10"].vp.describe()
('Agriculture', 'uncivilised', '2 VP per 1 fertile icons (max 10)')
>>> len(COMMON.piles["uncivilised"].cards), len(pile_cards("uncivilised", 3))
(22, 21)
>>> len(COMMON_UNREST), [in_game(CARDS[u], 3) for u in ("UNR1", "UNR9", "UNR11")]
(12, [True, True, False])
>>> SETUP.market_deck_size.values["4"], SETUP.starting_resources.values
(8, {'materials': 3, 'population': 2, 'progress': 1})
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TypeVar

import msgspec

from domain.imperium.content_effects import EffectError, Filter, Ref, decode_effects
from domain.imperium.content_types import (
    PILES,
    VP,
    AccessionRole,
    Box,
    Card,
    CardData,
    CardNote,
    CommonFile,
    CommonSet,
    Cost,
    Decision,
    Figure,
    Location,
    Nation,
    NationFile,
    NotesFile,
    Pile,
    PileCounts,
    PileName,
    PlayerCount,
    SetupFigures,
    SharedFile,
    SolsticeCard,
    Source,
    Sourced,
    StateCardsData,
    VPCase,
    VPTerm,
)

__all__ = [
    "ACCESSION_ROLES", "ALL_NATIONS", "BOXES", "CARDS", "CARD_NOTES", "CLASSICS_NATIONS", "COMMON",
    "COMMON_SETS", "COMMON_UNREST", "COMPONENTS", "DECISIONS", "IN_PLAY_NATIONS", "KING_OF_KINGS",
    "LEGENDS_NATIONS", "NATIONS", "PILES", "SETUP", "SOLSTICE", "STATE_CARDS",
    "UNREST_PILE_NATIONS", "VP", "AccessionRole", "Box", "Card", "CardNote", "CommonSet",
    "ContentError", "Cost", "Decision", "Figure", "Location", "Nation", "Pile", "PileName",
    "PlayerCount", "SetupFigures", "SolsticeCard", "Source", "Sourced", "StateCards", "VPCase",
    "VPTerm", "assumptions", "card", "in_game", "pile_cards", "unrest_pile",
]  # fmt: skip

_DIR = Path(__file__).parent / "content"
_T = TypeVar("_T")

#: the Classics nations, in the rulebook's order ("Nations : boîte Antique").
CLASSICS_NATIONS: tuple[str, ...] = (
    "carthaginians", "celts", "greeks", "macedonians", "persians", "romans", "scythians",
    "vikings",
)  # fmt: skip
#: the Legends nations whose content file validates and whose rules are implemented
#: (rulebook order); each helper adds a key once its nation is complete.
LEGENDS_NATIONS: tuple[str, ...] = (
    "arthurians", "atlanteans", "egyptians", "mauryans", "minoans",
    "olmecs", "qin", "utopians",
)  # fmt: skip
#: every playable nation (Classics then Legends); ``NATIONS`` holds exactly these.
ALL_NATIONS: tuple[str, ...] = CLASSICS_NATIONS + LEGENDS_NATIONS
#: the two boxes (common-card sets).
BOXES: tuple[Box, ...] = ("classics", "legends")
COMPONENTS = "Matériel (liste des composants, p. 2)"
#: nations with cards for the market unrest pile (rulebook, "Mise en place des joueurs":
#: Arthurians, Celts, Olmecs, Qin, Utopians, Vikings).
UNREST_PILE_NATIONS = frozenset({"arthurians", "celts", "olmecs", "qin", "utopians", "vikings"})
#: nations whose accession-slot card has another role, or that have none ("Mise en place des
#: joueurs"; Nations : Arthuriens, Atlantes, Utopiens, Vikings).
ACCESSION_ROLES: dict[str, AccessionRole] = {
    "vikings": "zenith", "arthurians": "nadir", "atlanteans": "none", "utopians": "none",
}  # fmt: skip
#: nations with cards that start in play (King Arthur's Court; the Utopian journey cards).
IN_PLAY_NATIONS = frozenset({"arthurians", "utopians"})


class ContentError(ValueError):
    """A content file is malformed or inconsistent; the message names file and record."""

    def __init__(self, file: str, record: str, message: str) -> None:
        super().__init__(f"{file}: {record}: {message}")
        self.file = file
        self.record = record


def _load(name: str, kind: type[_T]) -> _T:
    try:
        return msgspec.json.decode((_DIR / name).read_bytes(), type=kind)
    except (OSError, msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise ContentError(name, "(file)", str(exc)) from None


def _check(file: str, record: str, sourced: Sourced) -> None:
    error = sourced.provenance_error()
    if error:
        raise ContentError(file, record, error)


_NOTES: NotesFile = _load("card_notes.json", NotesFile)
_DECISIONS: NotesFile = _load("decisions.json", NotesFile)
_NOTE_TEXT: dict[str, tuple[str, ...]] = {}
for _note in _NOTES.notes:
    _check("card_notes.json", f"note {_note.cards}", _note)
    for _cid in _note.cards:
        _NOTE_TEXT[_cid] = (*_NOTE_TEXT.get(_cid, ()), _note.text)
for _decision in _DECISIONS.decisions:
    _check("decisions.json", f"decision {_decision.topic}", _decision)

#: every card of the Classics box, keyed by card number (one entry per physical card/face).
CARDS: dict[str, Card] = {}
_ORIGIN: dict[str, str] = {}
_RECORDS: list[tuple[str, str, Sourced]] = []


def _add_cards(file: str, data: CardData) -> tuple[str, ...]:
    """Build the Cards of one record (one per copy) and register them; return their ids."""
    record = f"card {data.ids[0] if data.ids else '?'}"
    _check(file, record, data)
    _RECORDS.append((file, record, data))
    if not data.ids:
        raise ContentError(file, record, "a card record needs at least one id")
    try:
        effects = decode_effects(list(data.effects))
    except EffectError as exc:
        raise ContentError(file, record, f"effects: {exc}") from None
    facts = {f: getattr(data, f) for f in data.__struct_fields__ if f not in ("ids", "effects")}
    for cid in data.ids:
        if cid in CARDS:
            raise ContentError(file, record, f"id {cid} already defined in {_ORIGIN[cid]}")
        CARDS[cid] = Card(
            **facts, id=cid, copies=len(data.ids), copy_ids=data.ids, effects=effects,
            notes=_NOTE_TEXT.get(cid, ()),
        )  # fmt: skip
        _ORIGIN[cid] = file
    return data.ids


_SECTION_OF = {
    "in_play": "in_play", "accession": "accession", "nation_deck": "nation_deck",
    "development_area": "development", "unrest_pile": "unrest_pile",
    "personal_deck": "starting_deck",
}  # fmt: skip


def _nation(key: str) -> Nation:
    file = f"nation_{key}.json"
    data = _load(file, NationFile)
    meta = data.nation
    _check(file, f"nation {key}", meta)
    _check(file, "rulebook_count", data.rulebook_count)
    _check(file, "section_counts", data.section_counts)
    _RECORDS.append((file, f"nation {key}", meta))
    if meta.key != key:
        raise ContentError(file, f"nation {key}", f"key is {meta.key!r}")
    sections: dict[str, list[str]] = {s: [] for s in _SECTION_OF.values()}
    power: list[Card] = []
    for record in data.cards:
        ids = _add_cards(file, record)
        where = f"card {ids[0]}"
        if record.nation != key or record.box != meta.box:
            raise ContentError(file, where, f"nation/box must be {key}/{meta.box}")
        if any(not cid.startswith(meta.prefix) for cid in ids):
            raise ContentError(file, where, f"card number without the prefix {meta.prefix}")
        if record.starting_location == "power":
            power.extend(CARDS[cid] for cid in ids)
        elif record.starting_location in _SECTION_OF:
            sections[_SECTION_OF[record.starting_location]].extend(ids)
        else:
            raise ContentError(file, where, f"bad location {record.starting_location!r}")
    if len(power) != 2 or tuple(f.id for f in power) != power[0].faces:
        raise ContentError(file, "power", "the power card needs faces A and B, in order")
    counts = data.section_counts
    declared = {"power": counts.power, **{s: getattr(counts, s) for s in sections}}
    found = {"power": 1, **{s: _physical(ids) for s, ids in sections.items()}}
    if found != declared:
        raise ContentError(file, "section_counts", f"declared {declared}, found {found}")
    if sum(found.values()) != data.rulebook_count.value:
        raise ContentError(
            file, "rulebook_count",
            f"{sum(found.values())} cards, the rulebook ({COMPONENTS}) says "
            f"{data.rulebook_count.value}",
        )  # fmt: skip
    if bool(sections["unrest_pile"]) != (key in UNREST_PILE_NATIONS):
        raise ContentError(file, "unrest_pile", "disagrees with 'Mise en place des joueurs'")
    if bool(sections["in_play"]) != (key in IN_PLAY_NATIONS):
        raise ContentError(file, "in_play", "only Arthurians and Utopians have in-play cards")
    if meta.accession_role != ACCESSION_ROLES.get(key, "accession"):
        raise ContentError(file, "accession_role", "disagrees with 'Mise en place des joueurs'")
    if len(sections["accession"]) != (0 if meta.accession_role == "none" else 1):
        raise ContentError(file, "accession", "one accession-slot card, none if its role is none")
    if meta.development_role == "none" and sections["development"]:
        raise ContentError(file, "development", "development_role none but development cards")
    return Nation(
        source=meta.source, ref=meta.ref, section=meta.section, note=meta.note, key=key,
        name=meta.name, name_fr=meta.name_fr, box=meta.box, prefix=meta.prefix,
        accession_role=meta.accession_role, development_role=meta.development_role,
        starting_state=meta.starting_state, setup_rules=meta.setup_rules,
        power=(power[0], power[1]), rulebook_count=data.rulebook_count.value,
        **{s: tuple(ids) for s, ids in sections.items()},
    )  # fmt: skip


def _physical(ids: list[str]) -> int:
    """Physical cards among card ids: the faces of a double-sided card count once."""
    return len({CARDS[cid].faces or (cid,) for cid in ids})


def _count_by_icon(file: str, record: str, ids: list[str], counts: PileCounts) -> None:
    _check(file, record, counts)
    found = {
        "all": sum(CARDS[c].player_count is None for c in ids),
        "3+": sum(CARDS[c].player_count == "3+" for c in ids),
        "4": sum(CARDS[c].player_count == "4" for c in ids),
    }
    declared = {"all": counts.all, "3+": counts.three_plus, "4": counts.four}
    if found != declared:
        raise ContentError(file, record, f"declared {declared}, found {found}")


def _common(box: Box) -> CommonSet:
    file = f"common_{box}.json"
    data = _load(file, CommonFile)
    if data.box != box:
        raise ContentError(file, "box", f"box is {data.box!r}")
    _check(file, "common_total", data.common_total)
    if tuple(data.piles) != PILES:
        raise ContentError(file, "piles", f"piles must be {PILES}")
    piles: dict[PileName, Pile] = {}
    for name, pile in data.piles.items():
        ids: list[str] = []
        for record in pile.cards:
            ids.extend(_add_cards(file, record))
            suits = record.suits
            home = "uncivilised" if {"uncivilised", "civilised"} <= set(suits) else suits[0]
            if record.pile != name or home != name or record.nation is not None:
                raise ContentError(file, f"card {record.ids[0]}", f"does not belong to {name}")
        _count_by_icon(file, f"pile {name}", ids, pile.counts)
        piles[name] = Pile(name=name, cards=tuple(ids))
    if box != "classics" and not data.king_of_kings:
        # the Legends King of Kings and unrest cards are copies of the Classics ones
        classics = COMMON_SETS["classics"]
        kok, unrest = list(classics.king_of_kings), list(classics.unrest)
    else:
        kok = [CARDS[cid] for record in data.king_of_kings for cid in _add_cards(file, record)]
        shared = _load("shared_classics.json", SharedFile)
        unrest = []
        for record in shared.unrest:
            unrest.extend(_add_cards("shared_classics.json", record))
            if record.suits != ("unrest",):
                raise ContentError("shared_classics.json", f"card {record.ids[0]}", "not unrest")
        _count_by_icon("shared_classics.json", "unrest_counts", unrest, shared.unrest_counts)
    if [c.id for c in kok] != ["KOK-A", "KOK-B"] or kok[0].faces != ("KOK-A", "KOK-B"):
        raise ContentError(file, "king_of_kings", "needs faces KOK-A and KOK-B")
    market = sum(len(p.cards) for p in piles.values())
    if market + 1 + len(unrest) != data.common_total.value:
        raise ContentError(
            file, "common_total",
            f"{market} market + 1 King of Kings + {len(unrest)} unrest != "
            f"{data.common_total.value} ({COMPONENTS})",
        )  # fmt: skip
    return CommonSet(
        box=data.box, piles=piles, king_of_kings=(kok[0], kok[1]), unrest=tuple(unrest)
    )


class StateCards(msgspec.Struct, frozen=True, kw_only=True):
    """The double-sided state cards: ``count`` per box, faces (barbarian, empire)."""

    count: int
    faces: tuple[Card, Card]


#: every playable nation (:data:`ALL_NATIONS`), Classics then Legends, in the rulebook's order.
NATIONS: dict[str, Nation] = {key: _nation(key) for key in ALL_NATIONS}
#: each box's common cards: five market piles, King of Kings, the 12 common unrest cards.
COMMON_SETS: dict[Box, CommonSet] = {}
for _box in BOXES:
    COMMON_SETS[_box] = _common(_box)
#: the Classics common cards (the default box).
COMMON: CommonSet = COMMON_SETS["classics"]
#: the 12 common unrest card ids (each card has its player-count icon).
COMMON_UNREST: tuple[str, ...] = COMMON.unrest
#: King of Kings, faces A and B.
KING_OF_KINGS: tuple[Card, Card] = COMMON.king_of_kings

_SHARED: SharedFile = _load("shared_classics.json", SharedFile)


def _state_cards(data: StateCardsData) -> StateCards:
    file = "shared_classics.json"
    _check(file, "state_cards", data)
    faces = []
    for record in data.faces:
        _check(file, f"state card {record.ids}", record)
        _RECORDS.append((file, f"state card {record.ids[0]}", record))
        faces.append(Card(**{f: getattr(record, f) for f in record.__struct_fields__
                             if f not in ("ids", "effects")}, id=record.ids[0]))  # fmt: skip
    if [f.state_icon for f in faces] != ["barbarian", "empire"] or data.count != 4:
        raise ContentError(file, "state_cards", f"4 cards, faces barbarian/empire ({COMPONENTS})")
    return StateCards(count=data.count, faces=(faces[0], faces[1]))


#: the state cards (4 per box), faces barbarian and empire.
STATE_CARDS: StateCards = _state_cards(_SHARED.state_cards)
#: the Solstice card (round marker).
SOLSTICE: SolsticeCard = _SHARED.solstice
#: setup figures from the rulebook.
SETUP: SetupFigures = _SHARED.setup
#: our clarifications of cards, and our content decisions.
CARD_NOTES: tuple[CardNote, ...] = _NOTES.notes
DECISIONS: tuple[Decision, ...] = _DECISIONS.decisions


def _refs(value: object) -> Iterator[str]:
    """Every card id a decoded effect names (``Ref.ids``, ``Filter.ids``), depth first."""
    if isinstance(value, Ref | Filter):
        yield from value.ids
    if isinstance(value, msgspec.Struct):
        for name in value.__struct_fields__:
            yield from _refs(getattr(value, name))
    elif isinstance(value, tuple | list):
        for item in value:
            yield from _refs(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _refs(item)


def _validate() -> None:
    _check("shared_classics.json", "solstice", SOLSTICE)
    for name in SETUP.__struct_fields__:
        _check("shared_classics.json", f"setup {name}", getattr(SETUP, name))
    for cid, card in CARDS.items():
        where = _ORIGIN[cid]
        for other in (*card.faces, *card.related, *_refs(card.effects)):
            if other not in CARDS:
                raise ContentError(where, f"card {cid}", f"refers to unknown card {other}")
    for note in CARD_NOTES:
        for cid in note.cards:
            if cid not in CARDS:
                raise ContentError("card_notes.json", f"note {note.cards}", f"no card {cid}")


_validate()


def card(card_id: str) -> Card:
    """The card with that number (raises ``KeyError`` naming it when unknown)."""
    try:
        return CARDS[card_id]
    except KeyError:
        raise KeyError(f"unknown Imperium card {card_id!r}") from None


def in_game(card: Card, players: int) -> bool:
    """Whether a card with a player-count icon is used at that player count.

    Rulebook, "Détail des cartes" and "Mise en place générale": cards marked 3+ are not used
    solo or with 2 players; cards marked 4 only with 4 players.

    >>> in_game(CARDS["1CIV1"], 3), in_game(CARDS["1CIV1"], 4), in_game(CARDS["1REG1"], 2)
    (False, True, False)
    """
    if card.player_count == "4":
        return players >= 4
    if card.player_count == "3+":
        return players >= 3
    return True


def pile_cards(pile: PileName, players: int, box: Box = "classics") -> tuple[str, ...]:
    """The card ids of a box's market pile used at that player count (King of Kings excluded).

    >>> len(pile_cards("tributary", 2, "legends")), pile_cards("fame", 4, "legends")[0]
    (9, '2FAM1')
    """
    return tuple(c for c in COMMON_SETS[box].piles[pile].cards if in_game(CARDS[c], players))


def unrest_pile(
    players: int, nations: tuple[str, ...], *, nations_by_count: bool
) -> tuple[str, ...]:
    """The market unrest pile at setup: common unrest for the player count, then the
    ``unrest_pile`` cards of the nations in play (rulebook, "Mise en place générale").

    The nations' cards follow their player-count icon too (« les cartes avec 3+ ne sont pas
    utilisées dans une partie en solitaire ou à deux joueurs », "Détail des cartes";
    « Certaines cartes [Instabilités] peuvent être retirées du jeu au cours de l'étape 5 »,
    "Mise en place des joueurs"): ``nations_by_count=True``, the rulings of ``imperium/5``;
    ``nations_by_count=False`` keeps every nation card, as the rulesets before ``imperium/5``
    did.

    >>> by_count = {"nations_by_count": True}
    >>> len(unrest_pile(2, ("romans", "celts"), **by_count))
    8
    >>> len(unrest_pile(4, ("vikings",), **by_count))
    14
    >>> len(unrest_pile(2, ("romans", "celts"), nations_by_count=False))
    13
    """
    common = tuple(c for c in COMMON_UNREST if in_game(CARDS[c], players))
    own = tuple(c for key in nations for c in NATIONS[key].unrest_pile)
    if nations_by_count:
        own = tuple(c for c in own if in_game(CARDS[c], players))
    return common + own


def assumptions() -> list[str]:
    """Every assumed record of the content, as ``"<file>: <record>: <note>"`` lines.

    >>> any("take" in line for line in assumptions())
    True
    """
    lines = [f"decisions.json: {d.topic}: {d.note}" for d in DECISIONS if d.source == "assumed"]
    lines += [f"card_notes.json: {n.cards}: {n.note}" for n in CARD_NOTES if n.source == "assumed"]
    lines += [f"{f}: {r}: {s.note}" for f, r, s in _RECORDS if s.source == "assumed"]
    return lines
