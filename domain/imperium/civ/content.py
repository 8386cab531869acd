"""The solo content (``content/solo.json``): levels, C.I.V. rules, decision tables, campaign.

Loaded and validated at import time: every record carries its provenance (rulebook + section,
or ``assumed`` + the evidence), every level, nation and card name a record uses exists, and
every decision-table row parses into C.I.V. steps (:data:`STEP_KINDS`) and human-side steps
(the card-effect notation of :mod:`domain.imperium.content_effects`).

A row's ``since`` is the first rules revision that has it (rows the OCR left unreadable are
read from ``imperium/4``; earlier revisions skip them, and number the rows they keep as they
always did: :meth:`Table.rows_for`); ``do3``/``you3`` and ``do4``/``you4`` replace a row's
effect from revision 3 and 4, ``you5`` its human-side steps from revision 5.

A table row's ``do`` is a chain of alternatives ``a | b | c`` ("Si possible, …; sinon, …"):
the first alternative whose guard steps (:data:`GUARDS`) can all be met is resolved; an
alternative is a list of steps joined by ``+``; a step is ``kind:arg:arg``.

>>> level("imperator").slots, level("overlord").slots, level("chieftain").token_slot
(5, 6, 5)
>>> table_for("vikings", "empire").side, table_for("carthaginians", "empire").nation
('barbarian', 'carthaginians')
>>> parse_alternatives("spend:materials:2 + acquire:region | gain:progress:1")[1]
(CivStep(kind='gain', args=('progress', '1')),)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import msgspec

from domain.core.provenance import Sourced
from domain.imperium import content as C
from domain.imperium.content_effects import EffectError, Step, decode_step

FILE = Path(__file__).resolve().parent.parent / "content" / "solo.json"
LEVELS: tuple[str, ...] = ("chieftain", "warlord", "imperator", "sovereign", "overlord")
RESOURCES = ("materials", "population", "progress")
SUITS = ("civilised", "uncivilised", "region", "tributary", "fame", "unrest")
#: the type icons a table row may name (« un [chevalier] », « un [masque] », « un
#: [parchemin] »: the Arthurian, Olmec and Utopian rows, ``imperium/4``).
TYPES = ("knight", "mask", "scroll", "city", "metropolis")
#: the newest rules revision whose table rows are in the file.
NEWEST = 4

#: step kind -> number of arguments (see the module docstring).
STEP_KINDS: dict[str, int] = {
    "gain": 2,  # resource, amount
    "per_region": 2,  # resource, amount per region in the C.I.V.'s play area
    "spend": 2,  # guard: resource, amount
    "spend_all": 2,  # guard (at least one): resource spent, resource gained one for one
    "discard_top": 1,  # the top N cards of the C.I.V. deck into its discard
    "dynasty": 1,  # the top N dynasty cards into its discard
    "archive": 0,  # this card into the C.I.V.'s history
    "play": 0,  # this card into the C.I.V.'s play area
    "to_top": 0,  # this card onto the C.I.V.'s deck
    "exile": 0,  # exile one market card (lowest slot without tokens)
    "acquire": 1,  # guard: suits separated by "/"
    "innovate": 1,  # a suit
    "return_unrest": 0,  # guard: an unrest card of its discard back to the pile
    "abandon_for_fame": 1,  # guard: abandon N regions in play to draw a fame card
    "steal": 2,  # attack: resource, amount taken from the human
    "convert": 3,  # if possible (not a guard): pay resource x amount to gain 1 of resource
    "take_unrest": 0,  # the top unrest card into its discard ("Récupérez"; imperium/5: its deck)
    "abandon": 1,  # guard: abandon N of its regions in play (the last played first)
    "nothing": 0,  # no C.I.V. step (a row whose alternative only acts on the human)
    "regions": 1,  # guard only: at least N of its regions in play ("S'il y a au moins …")
    "draw_fame": 0,  # it draws a fame card onto its deck (King of Kings when none is left)
    "end_game": 0,  # trigger the final scoring ("DÉCLENCHEZ LA FIN DE PARTIE")
    "exile_quest": 0,  # exile its next pending quest unless it is the Graal (Arthurians)
    "recover": 1,  # a card of that suit from its discard onto its deck, if any (imperium/3)
    "die_slot": 2,  # resource, amount onto the market card above the die's slot (imperium/3)
    "acquire_exiled": 1,  # guard: the exiled card of that suit worth most VP onto its deck
    "archive_region": 0,  # the region it played last into its history
    "recall_region": 0,  # the region it played last onto its deck ("RAPPELER")
    # imperium/4 (a selector is a suit of SUITS or a type icon of TYPES):
    "archive_discard": 1,  # guard: the last card of that selector in its discard -> history
    "discard_has": 2,  # guard only: at least N cards of that selector in its discard
    "recover_quest": 0,  # guard: its first pending quest onto its deck (Arthurians)
    "exile_self": 0,  # this card into the exile pile ("sinon, exilez cette carte")
    "play_discard": 1,  # the last card of that selector in its discard into its play area
    "acquire_tokened": 1,  # guard: the best market card with at least 1 such token
    "archive_top": 1,  # the top N cards of the C.I.V. deck into its history
    # guards on the human (« Si vous avez au moins une [vassal] en jeu », « Si vous êtes en
    # [Empire] »): the human's side of the condition is its ``if`` step (content_effects)
    "you_have": 2,  # guard only: at least N cards of that selector in the human's play area
    "you_state": 1,  # guard only: the human's state card shows that side (barbarian/empire)
}
#: steps that make an alternative unavailable when they cannot be met.
GUARDS = frozenset(
    {"spend", "spend_all", "acquire", "return_unrest", "abandon_for_fame", "abandon", "regions",
     "acquire_exiled", "archive_discard", "discard_has", "recover_quest", "acquire_tokened",
     "you_have", "you_state"}
)  # fmt: skip


class SoloError(ValueError):
    """A bad record in ``solo.json`` (file and record named)."""


class CivStep(msgspec.Struct, frozen=True):
    """One C.I.V. step of a table row: ``kind`` (a key of :data:`STEP_KINDS`) and ``args``."""

    kind: str
    args: tuple[str, ...] = ()


class Level(Sourced, frozen=True, kw_only=True):
    """A difficulty level ("NIVEAUX DE DIFFICULTÉ")."""

    key: str
    name_fr: str
    slots: int
    token_slot: int
    burn_after_refill: int
    setup_tokens: tuple[int, int, int]
    tokens_per_vp: int
    actions: str


class SupremeMaster(Sourced, frozen=True, kw_only=True):
    """The "Maître suprême" modifier of the Suzerain level."""

    base_level: str
    progress_per_unrest_returned: int


class Rule(Sourced, frozen=True, kw_only=True):
    """One solo rule, paraphrased, with its section."""

    key: str
    text: str


class NationRule(Sourced, frozen=True, kw_only=True):
    """Nation-specific C.I.V. rules (cleanup tokens, starting side, dynasty deck shape)."""

    nation: str
    cleanup_tokens: tuple[int, int, int] = (0, 0, 1)
    starts_empire: bool = False
    dynasty: Literal["standard", "atlanteans", "no_developments", "arthurians", "none"] = "standard"


class DifficultyMark(Sourced, frozen=True, kw_only=True):
    """A nation's printed difficulty ("Difficulté": 1 to 4 stars; the OCR lost the stars)."""

    nation: str
    ocr: str
    stars: int


class SoloDecision(Sourced, frozen=True, kw_only=True):
    """A reading or choice the booklet left open (solo rules)."""

    topic: str


class Campaign(Sourced, frozen=True, kw_only=True):
    """The campaign figures ("MODE CAMPAGNE")."""

    wins_needed: int
    losses_allowed: int
    first_level: str
    lost_campaign_bonus: tuple[int, int, int]


class RowData(msgspec.Struct, frozen=True, kw_only=True):
    """A table row as written in the file."""

    match: str
    do: str
    text: str
    you: tuple[dict[str, Any], ...] = ()
    you_else: tuple[dict[str, Any], ...] = ()
    match_assumed: str = ""
    do_assumed: str = ""
    do3: str = ""
    you3: tuple[dict[str, Any], ...] = ()
    since: int = 1
    do4: str = ""
    you4: tuple[dict[str, Any], ...] = ()
    you_else4: tuple[dict[str, Any], ...] = ()
    you5: tuple[dict[str, Any], ...] = ()


class Row(msgspec.Struct, frozen=True, kw_only=True):
    """A decoded decision-table row: match key, alternatives, human-side steps; from rules
    revision 3 (``imperium/3``) ``alternatives3``/``you3`` (the row's ``do3``/``you3``,
    parts of the printed effect the earlier rulesets left out; the same as ``alternatives``/
    ``you`` when the file gives none); ``since``, ``alternatives4``/``you4`` likewise for
    revision 4 (``imperium/4``), ``you5`` for revision 5 (``imperium/5``: the human's part a
    row printed and the earlier rulesets left out). ``index`` is the row's place in the file
    (the number ``imperium/4`` emits; :meth:`Table.rows_for` renumbers the rows an earlier
    revision keeps)."""

    index: int
    match: str
    alternatives: tuple[tuple[CivStep, ...], ...]
    you: tuple[Step, ...]
    you_else: tuple[Step, ...]
    text: str
    assumed: bool
    alternatives3: tuple[tuple[CivStep, ...], ...] = ()
    you3: tuple[Step, ...] = ()
    since: int = 1
    alternatives4: tuple[tuple[CivStep, ...], ...] = ()
    you4: tuple[Step, ...] = ()
    you_else4: tuple[Step, ...] = ()
    you5: tuple[Step, ...] = ()

    def alternatives_for(self, revision: int) -> tuple[tuple[CivStep, ...], ...]:
        """The alternatives resolved under rules ``revision``."""
        if revision >= 4:
            return self.alternatives4
        return self.alternatives3 if revision >= 3 else self.alternatives

    def you_for(self, revision: int) -> tuple[Step, ...]:
        """The human-side steps under rules ``revision``."""
        if revision >= 5:
            return self.you5
        if revision >= 4:
            return self.you4
        return self.you3 if revision >= 3 else self.you

    def you_else_for(self, revision: int) -> tuple[Step, ...]:
        """The human-side steps added when an alternative after the first is resolved."""
        return self.you_else4 if revision >= 4 else self.you_else


class TableData(Sourced, frozen=True, kw_only=True):
    """A nation's table for one side, as written."""

    nation: str
    side: Literal["barbarian", "empire"]
    rows: tuple[RowData, ...]


class Table(msgspec.Struct, frozen=True, kw_only=True):
    """A decoded decision table: ``rows`` every row of the file (the rows of the newest
    revision); ``earlier`` the rows an earlier revision keeps, numbered as it numbers them."""

    nation: str
    side: str
    rows: tuple[Row, ...]
    assumed: bool
    earlier: dict[int, tuple[Row, ...]] = msgspec.field(default_factory=dict)

    def rows_for(self, revision: int) -> tuple[Row, ...]:
        """The rows resolved under rules ``revision``, top first, each with the number that
        revision emits (``CivCardResolved.row``)."""
        return self.rows if revision >= NEWEST else self.earlier[min(revision, NEWEST - 1)]


class VoyageData(Sourced, frozen=True, kw_only=True):
    """One row of the Utopians' voyage table ("TABLEAUX DE RÉFÉRENCE DES NATIONS: Utopiens"),
    resolved for the voyage card showing ``face`` each time the C.I.V.'s deck is empty when a
    slot must be filled ("PHASE DE NETTOYAGE DE LA C.I.V."): with at least ``need`` tokens it
    advances (spends all of a progress need, then ``advance``: ``turn`` the card over,
    ``replace`` it by the next card, or nothing) and resolves ``success``; otherwise it
    resolves ``failure``, the human gains ``you_failure`` (materials, population, progress)
    and, with ``failure_unrest``, it takes an unrest card into its discard once its deck is
    reshuffled."""

    face: str
    name_fr: str
    need: tuple[str, int]
    advance: Literal["turn", "replace", ""]
    success: str
    failure: str
    failure_unrest: bool = False
    you_failure: tuple[int, int, int] = (0, 0, 0)
    text: str


class Voyage(msgspec.Struct, frozen=True, kw_only=True):
    """A decoded voyage row (see :class:`VoyageData`)."""

    face: str
    need: tuple[str, int]
    advance: str
    success: tuple[CivStep, ...]
    failure: tuple[CivStep, ...]
    failure_unrest: bool
    you_failure: tuple[int, int, int]
    text: str


class SoloFile(msgspec.Struct, frozen=True, kw_only=True):
    """The whole ``solo.json``."""

    about: str
    token_glyphs: Sourced
    levels: tuple[Level, ...]
    supreme_master: SupremeMaster
    rules: tuple[Rule, ...]
    nation_rules: tuple[NationRule, ...]
    difficulty_marks: tuple[DifficultyMark, ...]
    decisions: tuple[SoloDecision, ...]
    campaign: Campaign
    voyage: tuple[VoyageData, ...]
    tables: tuple[TableData, ...]


def parse_alternatives(text: str) -> tuple[tuple[CivStep, ...], ...]:
    """``"a:1 + b | c"`` -> alternatives of :class:`CivStep` (raises ``SoloError``)."""
    result = []
    for alternative in text.split("|"):
        steps = []
        for raw in alternative.split("+"):
            kind, *args = raw.strip().split(":")
            if STEP_KINDS.get(kind) != len(args):
                raise SoloError(f"bad step {raw.strip()!r}")
            _check_args(kind, args)
            steps.append(CivStep(kind, tuple(args)))
        result.append(tuple(steps))
    return tuple(result)


def _check_args(kind: str, args: list[str]) -> None:
    if kind in ("gain", "per_region", "spend", "steal") and (
        args[0] not in RESOURCES or not args[1].isdigit()
    ):
        raise SoloError(f"bad {kind} arguments {args}")
    if kind == "convert" and (args[0] not in RESOURCES or args[2] not in RESOURCES
                              or not args[1].isdigit()):  # fmt: skip
        raise SoloError(f"bad convert arguments {args}")
    if kind == "spend_all" and not all(a in RESOURCES for a in args):
        raise SoloError(f"bad spend_all arguments {args}")
    if kind == "die_slot" and (args[0] not in RESOURCES or not args[1].isdigit()):
        raise SoloError(f"bad die_slot arguments {args}")
    if kind == "acquire_exiled" and args[0] not in SUITS:
        raise SoloError(f"bad recover suit {args}")
    if kind in ("recover", "archive_discard", "discard_has", "play_discard", "you_have") and (
        args[0] not in SUITS + TYPES
    ):
        raise SoloError(f"bad {kind} selector {args}")
    if kind in ("discard_has", "you_have") and not args[1].isdigit():
        raise SoloError(f"bad {kind} count {args}")
    if kind == "you_state" and args[0] not in ("barbarian", "empire"):
        raise SoloError(f"bad you_state side {args}")
    if kind == "acquire_tokened" and args[0] not in RESOURCES:
        raise SoloError(f"bad acquire_tokened resource {args}")
    counted = ("discard_top", "archive_top", "dynasty", "abandon_for_fame", "abandon", "regions")
    if kind in counted and not args[0].isdigit():
        raise SoloError(f"bad {kind} count {args}")
    if kind in ("acquire", "innovate") and not all(s in SUITS for s in args[0].split("/")):
        raise SoloError(f"bad {kind} suits {args}")


def _check_match(match: str) -> None:
    if match == "other":
        return
    head, _, value = match.partition(":")
    names = {card.name for card in C.CARDS.values()}
    ok = (
        (head == "suit" and value in SUITS)
        or (head == "name" and value in names)
        or (head == "state" and value in ("barbarian", "empire"))
        or (head == "icon" and value == "attack")
        or (head == "type" and value in TYPES)
    )
    if not ok:
        raise SoloError(f"bad match {match!r}")


def _decode_you(steps: tuple[dict[str, Any], ...]) -> tuple[Step, ...]:
    try:
        return tuple(decode_step(s) for s in steps)
    except EffectError as exc:
        raise SoloError(f"human-side steps: {exc}") from None


def _table(data: TableData) -> Table:
    rows = []
    for index, raw in enumerate(data.rows):
        try:
            _check_match(raw.match)
            alternatives = parse_alternatives(raw.do)
            you, you_else = _decode_you(raw.you), _decode_you(raw.you_else)
            alternatives3 = parse_alternatives(raw.do3) if raw.do3 else alternatives
            you3 = _decode_you(raw.you3) if raw.you3 else you
            alternatives4 = parse_alternatives(raw.do4) if raw.do4 else alternatives3
            you4 = _decode_you(raw.you4) if raw.you4 else you3
            you_else4 = _decode_you(raw.you_else4) if raw.you_else4 else you_else
            you5 = _decode_you(raw.you5) if raw.you5 else you4
            if not 1 <= raw.since <= NEWEST or (raw.since > 1 and raw.match == "other"):
                raise SoloError(f"bad since {raw.since}")
        except SoloError as exc:
            raise SoloError(
                f"solo.json: table {data.nation}/{data.side} row {index}: {exc}"
            ) from None
        rows.append(
            Row(
                index=index,
                match=raw.match,
                alternatives=alternatives,
                you=you,
                you_else=you_else,
                text=raw.text,
                assumed=data.source == "assumed" or bool(raw.match_assumed or raw.do_assumed),
                alternatives3=alternatives3,
                you3=you3,
                since=raw.since,
                alternatives4=alternatives4,
                you4=you4,
                you_else4=you_else4,
                you5=you5,
            )
        )
    if not rows or rows[-1].match != "other":
        raise SoloError(f"solo.json: table {data.nation}/{data.side}: the last row must be 'other'")
    earlier = {
        revision: tuple(msgspec.structs.replace(row, index=index) for index, row in
                        enumerate(r for r in rows if r.since <= revision))
        for revision in range(1, NEWEST)
    }  # fmt: skip
    return Table(nation=data.nation, side=data.side, rows=tuple(rows),
                 assumed=data.source == "assumed", earlier=earlier)  # fmt: skip


def _load() -> SoloFile:
    try:
        data = msgspec.json.decode(FILE.read_bytes(), type=SoloFile)
    except msgspec.ValidationError as exc:
        raise SoloError(f"solo.json: {exc}") from None
    records: list[tuple[str, Sourced]] = [("token_glyphs", data.token_glyphs),
                                          ("supreme_master", data.supreme_master),
                                          ("campaign", data.campaign)]  # fmt: skip
    records += [(f"level {r.key}", r) for r in data.levels]
    records += [(f"rule {r.key}", r) for r in data.rules]
    records += [(f"nation rule {r.nation}", r) for r in data.nation_rules]
    records += [(f"difficulty {r.nation}", r) for r in data.difficulty_marks]
    records += [(f"decision {r.topic}", r) for r in data.decisions]
    records += [(f"table {t.nation}/{t.side}", t) for t in data.tables]
    records += [(f"voyage {v.face}", v) for v in data.voyage]
    for name, record in records:
        error = record.provenance_error()
        if error:
            raise SoloError(f"solo.json: {name}: {error}")
    if tuple(lv.key for lv in data.levels) != LEVELS:
        raise SoloError(f"solo.json: levels must be {LEVELS}")
    for nation in [r.nation for r in data.nation_rules] + [m.nation for m in data.difficulty_marks]:
        if nation not in C.NATIONS:
            raise SoloError(f"solo.json: unknown nation {nation!r}")
    if sorted(m.nation for m in data.difficulty_marks) != sorted(C.ALL_NATIONS):
        raise SoloError("solo.json: one difficulty mark per nation")
    for table in data.tables:
        if table.nation not in C.NATIONS:
            raise SoloError(f"solo.json: unknown table nation {table.nation!r}")
    return data


def _voyage(data: VoyageData) -> Voyage:
    try:
        if data.face not in C.CARDS or data.need[0] not in RESOURCES:
            raise SoloError(f"bad face or need {data.face!r} {data.need}")
        success, failure = parse_alternatives(data.success), parse_alternatives(data.failure)
    except SoloError as exc:
        raise SoloError(f"solo.json: voyage {data.face}: {exc}") from None
    if len(success) != 1 or len(failure) != 1:
        raise SoloError(f"solo.json: voyage {data.face}: one alternative each")
    return Voyage(face=data.face, need=data.need, advance=data.advance, success=success[0],
                  failure=failure[0], failure_unrest=data.failure_unrest,
                  you_failure=data.you_failure, text=data.text)  # fmt: skip


SOLO: SoloFile = _load()
#: the Utopian C.I.V.'s voyage rows by the face of its voyage card.
VOYAGE: dict[str, Voyage] = {v.face: _voyage(v) for v in SOLO.voyage}
TABLES: dict[tuple[str, str], Table] = {(t.nation, t.side): _table(t) for t in SOLO.tables}
NATION_RULES: dict[str, NationRule] = {r.nation: r for r in SOLO.nation_rules}
_LEVELS = {lv.key: lv for lv in SOLO.levels}


def level(key: str) -> Level:
    """The level called ``key`` (one of :data:`LEVELS`)."""
    return _LEVELS[key]


def nation_rule(nation: str) -> NationRule:
    """The C.I.V. rules of ``nation`` (defaults when the booklet gives none)."""
    return NATION_RULES.get(nation) or NationRule(nation=nation, source="assumed", note="none")


def table_for(nation: str, side: str) -> Table:
    """The decision table of ``nation`` for ``side``; a nation whose C.I.V. is only ever on one
    side (:func:`sides`) has one printed table, used whatever its state card says."""
    return TABLES.get((nation, side)) or TABLES[(nation, sides(nation)[0])]


def sides(nation: str) -> tuple[str, ...]:
    """The state sides a C.I.V. of ``nation`` can be on: the Atlanteans start and stay an
    empire, the Vikings and Arthurians never establish one, the Utopians have no dynasty deck
    (so no accession card); the booklet prints one table for each of these four."""
    if nation_rule(nation).starts_empire:
        return ("empire",)
    if C.NATIONS[nation].accession_role != "accession" or nation_rule(nation).dynasty == "none":
        return ("barbarian",)
    return ("barbarian", "empire")


def transcribed() -> list[str]:
    """The nations whose own tables (every side its C.I.V. can be on) are in the file."""
    return sorted(n for n in C.ALL_NATIONS if all((n, side) in TABLES for side in sides(n)))


def assumptions() -> list[str]:
    """Every assumed solo record, one line each (for ``annales content report``)."""
    lines = [f"solo.json: token_glyphs: {SOLO.token_glyphs.note}"]
    lines += [f"solo.json: decision {d.topic}: {d.note}" for d in SOLO.decisions
              if d.source == "assumed"]  # fmt: skip
    lines += [f"solo.json: difficulty {m.nation}: {m.note}" for m in SOLO.difficulty_marks
              if m.source == "assumed"]  # fmt: skip
    lines += [f"solo.json: voyage {v.face} ({v.name_fr}): {v.note}" for v in SOLO.voyage
              if v.source == "assumed"]  # fmt: skip
    for data in SOLO.tables:
        if data.source == "assumed":
            lines.append(f"solo.json: table {data.nation}/{data.side}: {data.note}")
        for index, row in enumerate(data.rows):
            if row.match_assumed:
                lines.append(f"solo.json: table {data.nation}/{data.side} row {index} "
                             f"({row.match}): {row.match_assumed}")  # fmt: skip
            if row.do_assumed:
                lines.append(f"solo.json: table {data.nation}/{data.side} row {index} "
                             f"({row.match}) effect: {row.do_assumed}")  # fmt: skip
    return lines


_missing = [n for n in C.ALL_NATIONS if n not in transcribed()]
if _missing:
    raise SoloError(f"solo.json: no decision table for {_missing}")
