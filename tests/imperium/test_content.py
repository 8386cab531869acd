"""Imperium content (Classics box): counts, references, effect decoding, provenance, spot checks.

Each test names the rulebook section (French rulebook, ``shared/rules/imperium-rulebook-fr.txt``)
or the card note it reproduces.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path
from typing import Any

import msgspec
import pytest

from domain.imperium import content as C
from domain.imperium.content_effects import (
    STEP_KEYS,
    Block,
    CostThen,
    Event,
    Filter,
    Flip,
    InsteadOfGaining,
    May,
    ReturnUnrest,
    Swap,
    TriggerGameEnd,
    UpTo,
    Zone,
    decode_effects,
    walk_steps,
)

CONTENT = Path(C.__file__).parent / "content"
REFERENCE = Path("/work/shared/reference/imperium")

#: "Matériel" (component list, p. 2): cards per nation, Classics box.
RULEBOOK_NATION_CARDS = {
    "carthaginians": 23, "celts": 28, "greeks": 23, "macedonians": 23, "persians": 23,
    "romans": 23, "scythians": 24, "vikings": 26,
}  # fmt: skip


def _physical(nation: C.Nation) -> int:
    """Physical cards of a nation: the double-sided power card counts once."""
    sections = (nation.in_play, nation.accession, nation.nation_deck, nation.development,
                nation.unrest_pile, nation.starting_deck)  # fmt: skip
    return 1 + sum(len(s) for s in sections)


# ---------------------------------------------------------------- counts (Matériel)


@pytest.mark.parametrize("key", sorted(RULEBOOK_NATION_CARDS))
def test_nation_card_count_matches_the_component_list(key: str) -> None:
    """Matériel: '23 cartes Carthaginois', '28 cartes Celtes', … '26 cartes Vikings'."""
    nation = C.NATIONS[key]
    assert _physical(nation) == RULEBOOK_NATION_CARDS[key] == nation.rulebook_count
    assert len(set(nation.all_ids())) == len(nation.all_ids())


def test_the_eight_classics_nations_in_rulebook_order() -> None:
    """Nations, boîte Antique: the eight Classics nations, with their French names."""
    classics = [C.NATIONS[k] for k in C.CLASSICS_NATIONS]
    assert tuple(C.NATIONS)[: len(classics)] == C.CLASSICS_NATIONS
    assert [n.name_fr for n in classics] == [
        "Carthaginois", "Celtes", "Grecs", "Macédoniens", "Perses", "Romains", "Scythes",
        "Vikings",
    ]  # fmt: skip
    assert {n.box for n in classics} == {"classics"}


def test_section_sizes_per_nation() -> None:
    """Nation sections as the reference counts them (starting decks are 9 to 11 cards)."""
    sizes = {
        k: (len(n.accession), len(n.nation_deck), len(n.development), len(n.unrest_pile),
            len(n.starting_deck))
        for k, n in C.NATIONS.items()
        if k in C.CLASSICS_NATIONS
    }  # fmt: skip
    assert sizes == {
        "carthaginians": (1, 5, 6, 0, 10), "celts": (1, 6, 5, 5, 10),
        "greeks": (1, 3, 8, 0, 10), "macedonians": (1, 3, 7, 0, 11),
        "persians": (1, 4, 7, 0, 10), "romans": (1, 5, 6, 0, 10),
        "scythians": (1, 7, 4, 0, 11), "vikings": (1, 13, 0, 2, 9),
    }  # fmt: skip


def test_common_cards_total_83() -> None:
    """Matériel: '83 cartes communes' = 70 market cards + King of Kings + 12 unrest."""
    market = sum(len(p.cards) for p in C.COMMON.piles.values())
    assert (market, len(C.KING_OF_KINGS[0].faces), len(C.COMMON_UNREST)) == (70, 2, 12)
    assert market + 1 + len(C.COMMON_UNREST) == 83


def test_pile_counts_by_player_count_icon() -> None:
    """Mise en place générale, étape 5: cards marked 3+ or 4 leave smaller games."""

    def split(ids: tuple[str, ...]) -> tuple[int, int, int]:
        icons = [C.CARDS[c].player_count for c in ids]
        return icons.count(None), icons.count("3+"), icons.count("4")

    found = {name: split(pile.cards) for name, pile in C.COMMON.piles.items()}
    assert found == {
        "fame": (8, 0, 0), "uncivilised": (18, 3, 1), "civilised": (12, 1, 2),
        "region": (13, 1, 0), "tributary": (9, 1, 1),
    }  # fmt: skip
    assert split(C.COMMON_UNREST) == (8, 2, 2)
    assert [len(C.pile_cards("civilised", n)) for n in (2, 3, 4)] == [12, 13, 15]


def test_state_cards_and_solstice() -> None:
    """Matériel: 4 cartes Statut (barbarian / empire faces), 1 carte Solstice."""
    assert C.STATE_CARDS.count == 4
    assert [f.state_icon for f in C.STATE_CARDS.faces] == ["barbarian", "empire"]
    assert C.SOLSTICE.count == 1 and C.SOLSTICE.section


def test_setup_figures() -> None:
    """Mise en place générale: 3 materials, 2 population, 1 progress; 3 action and 5 exhaust
    tokens; decks of 6/7/8 cards for 2/3/4 players; 2/1/0 fame cards removed; hand of 5."""
    setup = C.SETUP
    assert setup.starting_resources.values == {"materials": 3, "population": 2, "progress": 1}
    assert setup.state_card_tokens.values["actions"] == 3
    assert setup.state_card_tokens.values["exhaust"] == 5
    assert setup.market_deck_size.values == {"2": 6, "3": 7, "4": 8}
    assert setup.fame_removed.values == {"2": 2, "3": 1, "4": 0}
    assert setup.hand_size.values == {"start": 5}
    assert setup.components.values["exhaust_tokens"] == 21


# ---------------------------------------------------------------- references


def test_every_card_of_a_nation_or_pile_exists_and_every_card_is_placed() -> None:
    """Every id a nation, a pile or the unrest list names is a card; every card is placed
    exactly once (a nation section, a market pile, King of Kings or the common unrest)."""
    placed: list[str] = []
    for nation in C.NATIONS.values():
        placed.extend(nation.all_ids())
    for common in C.COMMON_SETS.values():
        for pile in common.piles.values():
            placed.extend(pile.cards)
    placed.extend(face.id for face in C.KING_OF_KINGS)
    placed.extend(C.COMMON_UNREST)
    assert all(cid in C.CARDS for cid in placed)
    assert sorted(placed) == sorted(C.CARDS)


def test_cards_know_their_nation_pile_and_location() -> None:
    """Détail des cartes: the starting-location symbol decides where a card starts."""
    where = {
        "accession": "accession", "nation_deck": "nation_deck",
        "development": "development_area", "unrest_pile": "unrest_pile",
        "starting_deck": "personal_deck",
    }  # fmt: skip
    for key, nation in C.NATIONS.items():
        for section, location in where.items():
            for cid in getattr(nation, section):
                assert (C.CARDS[cid].nation, C.CARDS[cid].starting_location) == (key, location)
        assert [f.starting_location for f in nation.power] == ["power", "power"]
    for name, pile in C.COMMON.piles.items():
        assert all(C.CARDS[c].pile == name and C.CARDS[c].nation is None for c in pile.cards)


def test_dual_suit_cards_go_to_the_uncivilised_pile() -> None:
    """Détail des cartes / Mise en place générale: a card with both the tradition and the
    civilised icon counts as a tradition card for setup, as both in play."""
    dual = [c for c in C.CARDS.values() if {"uncivilised", "civilised"} <= set(c.suits)]
    assert dual and all(c.pile == "uncivilised" for c in dual)


def test_copies_share_their_facts() -> None:
    """Identical copies have their own numbers and the same facts (CAR3/CAR4 Elephants)."""
    for card in C.CARDS.values():
        assert card.id in card.copy_ids and card.copies == len(card.copy_ids)
        for other in card.copy_ids:
            assert C.CARDS[other].effects == card.effects
            assert C.CARDS[other].name == card.name


# ---------------------------------------------------------------- effects

#: the step keys of effects_dsl.md (§3 game actions, §4 control steps, §8 passive modifiers).
DSL_STEP_KEYS = {
    "gain", "pay", "draw", "draw_fame", "take", "discard", "acquire", "innovate", "develop",
    "exile", "history", "submerge", "abandon", "recall", "recover", "look", "look_additional",
    "return_unrest", "garrison", "garrison_self", "find", "steal", "give", "free_play", "play",
    "put_on_deck", "move", "place_tokens", "regain_exhaust_token", "reveal", "declare",
    "shuffle", "swap", "swap_exile_with_market", "flip", "flip_state_card", "replace_self_with",
    "put_into_play", "trigger_game_end", "instead_of_gaining", "ignore_attack",
    "double_tokens_gained", "treat_icon", "ignore_state_icon", "use_exhaust_effect_of",
    "reduce_requirement", "substitute", "replace_gain", "reminder", "may", "choose",
    "choose_any", "cost", "if", "each", "for_each", "hand_size", "remove_state_icon",
    "reduce_cost", "redirect", "replace_cleanup_token", "acquire_from_exile_allowed",
    "free_play_allowed", "counts_as", "defines_zone",
}  # fmt: skip


def test_step_keys_are_the_dsl_list() -> None:
    """effects_dsl.md §3/§4/§8: one typed step per documented key, no more, no less."""
    assert set(STEP_KEYS) == DSL_STEP_KEYS


def _records() -> list[tuple[str, dict[str, Any]]]:
    found: list[tuple[str, dict[str, Any]]] = []

    def walk(value: Any, file: str) -> None:
        if isinstance(value, dict):
            if "ids" in value and "vp" in value:
                found.append((file, value))
            for item in value.values():
                walk(item, file)
        elif isinstance(value, list):
            for item in value:
                walk(item, file)

    for path in sorted(CONTENT.glob("*.json")):
        walk(json.loads(path.read_text(encoding="utf-8")), path.name)
    return found


def test_every_effect_decodes_and_round_trips() -> None:
    """Every card record's effects decode into Blocks, and survive a JSON round trip."""
    records = _records()
    assert len(records) > 200
    for file, record in records:
        blocks = decode_effects(record.get("effects", []))
        again = msgspec.json.decode(msgspec.json.encode(blocks), type=tuple[Block, ...])
        assert again == blocks, (file, record["ids"])
    assert sum(len(c.effects) for c in C.CARDS.values()) > 300


def test_every_step_key_used_is_typed() -> None:
    """The Classics cards use most of the DSL; every step they use is a typed Struct."""
    used = {
        str(step.__struct_config__.tag)
        for card in C.CARDS.values()
        for block in card.effects
        for step in walk_steps(block.do)
    }
    assert used <= DSL_STEP_KEYS
    assert {"gain", "acquire", "garrison", "return_unrest", "take", "swap"} <= used


# ---------------------------------------------------------------- provenance


def test_provenance_is_complete() -> None:
    """Every record says where it comes from (reference ref, rulebook section or note)."""
    for file, record in _records():
        sourced = msgspec.convert(
            {k: record.get(k, "") for k in ("ref", "section", "note")}
            | {"source": record["source"]},
            C.Sourced,
        )
        assert sourced.provenance_error() == "", (file, record["ids"])
    others: list[C.Sourced] = [*C.NATIONS.values(), C.SOLSTICE, *C.CARD_NOTES, *C.DECISIONS]
    others += [getattr(C.SETUP, f) for f in C.SETUP.__struct_fields__]
    assert all(s.provenance_error() == "" for s in others)


def test_assumptions_list_every_assumed_record() -> None:
    """assumptions() names the 'take' destination, the numbering and every assumed card."""
    lines = C.assumptions()
    assumed = [d for d in C.DECISIONS if d.source == "assumed"]
    topics = {d.topic for d in assumed}
    assert {"take_destination", "card_numbering", "king_of_kings_ids"} <= topics
    assert all(any(d.topic in line for line in lines) for d in assumed)
    assert any("STATE-BARBARIAN" in line for line in lines)


@pytest.mark.skipif(not REFERENCE.is_dir(), reason="the facts folder is not checked out here")
def test_reference_refs_point_at_real_records() -> None:
    """Each ``ref`` '<file>.json#<id>' names a file of the facts folder holding that id."""
    for file, record in _records():
        if record["source"] != "reference":
            continue
        target, _, cid = record["ref"].partition("#")
        assert f'"{cid}"' in (REFERENCE / target).read_text(encoding="utf-8"), (file, cid)


# ---------------------------------------------------------------- failing loudly


def _load_copy(tmp_path: Path, edit: Any) -> None:
    """Load a copy of content.py over an edited copy of the data files."""
    shutil.copy(C.__file__, tmp_path / "content.py")
    shutil.copytree(CONTENT, tmp_path / "content")
    edit(tmp_path / "content")
    spec = importlib.util.spec_from_file_location("imperium_content_copy", tmp_path / "content.py")
    assert spec is not None and spec.loader is not None
    spec.loader.exec_module(importlib.util.module_from_spec(spec))


def _edit_json(path: Path, change: Any) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")


def test_a_missing_card_fails_the_rulebook_count(tmp_path: Path) -> None:
    """Matériel cross-check: dropping a Celtic card makes the import fail, naming the file."""

    def drop(folder: Path) -> None:
        def change(data: Any) -> None:
            data["cards"][-1]["ids"].pop()  # one of the two copies of CEL22/CEL23
            data["section_counts"]["starting_deck"] -= 1

        _edit_json(folder / "nation_celts.json", change)

    with pytest.raises(ValueError, match=r"nation_celts\.json: rulebook_count: 27 cards"):
        _load_copy(tmp_path, drop)


def test_an_unknown_step_key_fails_naming_the_card(tmp_path: Path) -> None:
    """effects_dsl.md: a step key outside the DSL's list is rejected at import."""

    def corrupt(folder: Path) -> None:
        def change(data: Any) -> None:
            data["cards"][2]["effects"] = [{"trigger": "play", "do": [{"teleport": 1}]}]

        _edit_json(folder / "nation_romans.json", change)

    with pytest.raises(
        ValueError, match=r"nation_romans\.json: card ROM2: effects: block 0: unknown step"
    ):
        _load_copy(tmp_path, corrupt)


def test_missing_provenance_fails(tmp_path: Path) -> None:
    """Standards: a record without provenance is refused at import."""

    def corrupt(folder: Path) -> None:
        _edit_json(folder / "common_classics.json", lambda d: d["piles"]["region"]["cards"][0]
                   .update(source="rulebook"))  # fmt: skip

    with pytest.raises(ValueError, match=r"common_classics\.json: card 1REG1: a rulebook"):
        _load_copy(tmp_path, corrupt)


# ---------------------------------------------------------------- rulebook spot checks


def _plain(value: object) -> Any:
    """The JSON form of a decoded value (tuples become lists)."""
    return msgspec.json.decode(msgspec.json.encode(value))


def test_nation_setup_roles() -> None:
    """Mise en place des joueurs: the accession slot is a Zenith card for the Vikings; only
    the Celts and the Vikings (in Classics) add cards to the unrest pile; everyone starts
    barbarian; no Classics nation has in-play cards besides the power card."""
    classics = {k: C.NATIONS[k] for k in C.CLASSICS_NATIONS}
    assert {k: n.accession_role for k, n in classics.items() if n.accession_role != "accession"} \
        == {"vikings": "zenith"}  # fmt: skip
    assert {k for k, n in classics.items() if n.unrest_pile} == {"celts", "vikings"}
    assert {n.starting_state for n in classics.values()} == {"barbarian"}
    assert all(not n.in_play for n in classics.values())
    assert all(C.CARDS[c].has_suit("unrest") for c in C.NATIONS["celts"].unrest_pile)


def test_unrest_pile_at_setup() -> None:
    """Mise en place générale: common unrest for the player count plus the nations' cards,
    these too by their player-count icon (« les cartes avec 3+ ne sont pas utilisées dans une
    partie en solitaire ou à deux joueurs », rulebook l.187-189; ``imperium/5``). The rulesets
    before it kept every nation card (``nations_by_count=False``)."""
    assert len(C.unrest_pile(2, ("celts", "romans"), nations_by_count=True)) == 8 + 0
    assert len(C.unrest_pile(3, ("celts", "romans", "greeks"), nations_by_count=True)) == 10 + 2
    assert len(C.unrest_pile(4, ("vikings", "greeks"), nations_by_count=True)) == 12 + 2
    assert len(C.unrest_pile(2, ("celts", "romans"), nations_by_count=False)) == 8 + 5


def test_shaduf_card_note() -> None:
    """Notes concernant certaines cartes, Chadouf: exhausted on your turn when a river card in
    play is used to gain materials, by its own effect or another card's."""
    shaduf = C.CARDS["1UNC12"]
    assert shaduf.name == "Shaduf" and shaduf.persistent
    (block,) = shaduf.effects
    assert block.trigger == "exhaust" and block.when is not None
    assert block.when == Event(event="gain_resource_from_card", resource="materials",
                               card_filter=Filter(type_icon="river"), zone="play_area")  # fmt: skip
    assert not block.when.any_turn
    assert shaduf.notes


def test_king_of_kings_card_note() -> None:
    """Notes concernant certaines cartes, Roi des rois: never drawn from the fame deck;
    resolving face A flips it and triggers the end; face B is left in place and may be
    resolved by several players."""
    face_a, face_b = C.KING_OF_KINGS
    assert (face_a.id, face_b.id) == ("KOK-A", "KOK-B")
    assert "KOK-A" not in C.COMMON.piles["fame"].cards
    steps_a = [s for b in face_a.effects for s in walk_steps(b.do)]
    steps_b = [s for b in face_b.effects for s in walk_steps(b.do)]
    assert any(isinstance(s, InsteadOfGaining) for s in steps_a)
    assert any(isinstance(s, Flip) for s in steps_a)
    assert any(isinstance(s, TriggerGameEnd) for s in steps_a)
    assert not any(isinstance(s, Flip | TriggerGameEnd) for s in steps_b)
    assert face_b.effects[0].repeatable_by_multiple_players
    assert face_a.notes and face_a.notes == face_b.notes


def test_sumerians_card_note() -> None:
    """Notes concernant certaines cartes, Sumériens: at game end, before the winner is
    decided (scoring or collapse), return up to 2 unrest from hand, play area, discard pile,
    deck or history."""
    sumerians = C.CARDS["1TRI7"]
    end = [b for b in sumerians.effects if b.trigger == "game_end"]
    assert len(end) == 1
    assert end[0].timing == "before_final_scoring_or_collapse_resolution"
    zones: tuple[Zone, ...] = ("hand", "play_area", "discard", "deck", "history")
    assert end[0].do == (ReturnUnrest(count=UpTo(up_to=2), from_=zones),)


def test_sacred_way_card_note() -> None:
    """Notes concernant certaines cartes, Voie sacrée: cannot bring the accession card in.
    (Voie sacrée is read as 1REG14 Sacred Pass; see assumptions().)"""
    sacred = C.CARDS["1REG14"]
    swaps = [s for b in sacred.effects for s in walk_steps(b.do) if isinstance(s, Swap)]
    assert swaps == [Swap(card_from="hand", with_="nation_deck_top", accession_card_excluded=True)]
    assert any("1REG14" in line or "Sacred Pass" in line for line in C.assumptions())


def test_nomads_card_note() -> None:
    """Notes concernant certaines cartes, Nomades: two versions, only one barbarian icon."""
    nomads = [c for c in C.NATIONS["scythians"].starting_deck if C.CARDS[c].name == "Nomads"]
    assert sorted(str(C.CARDS[c].state_icon) for c in nomads) == ["None", "barbarian"]
    assert C.CARDS[nomads[0]].effects == C.CARDS[nomads[1]].effects


def test_legends_card_notes_belong_to_the_legends_box() -> None:
    """Notes concernant certaines cartes: Domestication and Acclamé are Legends common cards
    (Éléphants indiens, Embaumement, Grande Route are Legends nation cards)."""
    legends = {c.name: c for c in C.CARDS.values() if c.box == "legends"}
    classics = {c.name for c in C.CARDS.values() if c.box == "classics"}
    for name in ("Domestication", "Acclaimed"):
        assert name not in classics and legends[name].nation is None and legends[name].notes


def test_macedonian_turn_example() -> None:
    """Exemple d'un tour de jeu: Advance pays 3 materials to acquire a tradition/civilised
    card; Port (persistent) gains 1 material per river icon in play; the Haliacmon Valley is
    a persistent region with a river icon that gains 1 population and may garrison;
    Mercenaries is an empire card a barbarian cannot play."""
    mac = C.NATIONS["macedonians"]
    names = {C.CARDS[c].name: c for c in mac.starting_deck}
    assert {"Advance", "Haliacmon Valley", "Orestis"} <= set(names)
    advance = C.CARDS[names["Advance"]].effects[0].do[0]
    first = advance.options[0][0]  # type: ignore[union-attr]
    assert isinstance(first, CostThen)
    assert [_plain(s) for s in (*first.cost, *first.then)] == [
        {"op": "pay", "materials": 3}, {"op": "acquire", "suits": ["uncivilised", "civilised"]},
    ]  # fmt: skip
    valley = C.CARDS[names["Haliacmon Valley"]]
    assert valley.persistent and "river" in valley.region_type_icons
    assert _plain(valley.effects[0].do[0]) == {"op": "gain", "population": 1}
    assert isinstance(valley.effects[0].do[1], May)
    port = C.CARDS["1UNC19"]
    assert port.name == "Port" and port.persistent
    assert _plain(port.effects[0].do[0])["materials"]["per"]["filter"] == {"type_icon": "river"}
    assert C.CARDS["1CIV13"].name == "Mercenaries" and C.CARDS["1CIV13"].state_icon == "empire"


def test_carthaginian_cleanup_rule() -> None:
    """Nettoyage: the Carthaginians place 1 (face A) or 2 (face B) materials instead of the
    progress token."""
    face_a, face_b = C.NATIONS["carthaginians"].power
    places = [
        _plain(step)
        for face in (face_a, face_b)
        for block in face.effects
        for step in block.do
        if step.__struct_config__.tag == "replace_cleanup_token"
    ]
    assert places == [
        {"op": "replace_cleanup_token", "instead_of": "progress", "place": {"materials": n}}
        for n in (1, 2)
    ]
