"""Tapestry content files against the French rulebook (sections named in each test).

The files are validated at import; these tests pin the counts, the printed patterns and a few
spaces and cards read directly from the rulebook, and check that a broken file fails loudly.
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
from pathlib import Path

import pytest

from domain.tapestry import content as c
from domain.tapestry.content import AllOf, AnyOrder, Exchange, Gain, OneOf

CONTENT_DIR = Path(c.__file__).parent / "content"
REFERENCE_DIR = Path("/work/shared/reference/tapestry")


def gain(token: str, count: int = 1) -> Gain:
    """Shorthand for a single-token benefit."""
    return Gain(token=token, count=count)


# ---------------------------------------------------------------- counts (MATÉRIEL)


def test_component_counts_match_the_base_game_material_list() -> None:
    """MATÉRIEL (base game column): 33 tech cards, 50 tapestry cards, 48 territory tiles,
    15 space tiles, 18 landmark miniatures, 16 civilizations, 6 basic capitals."""
    assert sum(len(track.spaces) for track in c.TRACK.values()) == 48
    assert len(c.TECH_CARDS) == 33
    assert len(c.TAPESTRY_CARDS) == 44
    assert sum(card.copies for card in c.TAPESTRY_CARDS.values()) == 50
    assert len(c.TERRITORY_TILES) == 48
    assert len(c.SPACE_TILES) == 15
    assert len(c.LANDMARKS) == 18
    assert len([civ for civ in c.CIVILIZATIONS.values() if not civ.box]) == 16
    assert len(c.CAPITALS) == 6
    assert len(c.ACHIEVEMENTS) == 3


def test_trap_is_the_only_multi_copy_tapestry_and_is_a_response_card() -> None:
    """CARTES RIPOSTE: the Embuscade (Trap) is discarded during an opponent's conquest; the
    base deck holds 7 of them and 43 single cards."""
    multi = [card for card in c.TAPESTRY_CARDS.values() if card.copies > 1]
    assert [(card.name_fr, card.copies, card.kind) for card in multi] == [("Embuscade", 7, "trap")]
    kinds = {card.kind for card in c.TAPESTRY_CARDS.values()}
    assert kinds == {"when_played", "this_era", "trap"}


def test_board_sizes_small_34_large_61_with_the_central_island() -> None:
    """MISE EN PLACE: the small board serves 1-3 players, the large 4-5; both have the
    central island at the centre (OBJECTIFS: Conquérir l'île centrale)."""
    assert len(c.board_for(1).hexes) == len(c.board_for(3).hexes) == 34
    assert len(c.board_for(4).hexes) == len(c.board_for(5).hexes) == 61
    for board in c.BOARDS.values():
        centre = [h for h in board.hexes if (h.q, h.r) == (0, 0)]
        assert len(centre) == 1 and centre[0].central_island
        assert sorted(centre[0].lands) == ["desert", "forest", "grassland", "mountain"]
    with pytest.raises(KeyError):
        c.board_for(6)


# ---------------------------------------------------------------- tracks (TOURS DE DÉVELOPPEMENT)


def test_every_space_costs_its_tier_pattern() -> None:
    """TOURS DE DÉVELOPPEMENT: pay the cost printed under the tier (its example: one resource
    of your choice on tier I). The board prints tier I = 1 any resource, II = track resource +
    1 any, III = track resource + 2 any, IV = 2 track resources."""
    resource = {"exploration": "food", "science": "worker", "technology": "coin"}
    resource["military"] = "culture"
    for track in c.TRACKS:
        assert c.TRACK[track].resource == resource[track]
        r = resource[track]
        expected = {
            1: ("any_resource",),
            2: (r, "any_resource"),
            3: (r, "any_resource", "any_resource"),
            4: (r, r),
        }
        for n in range(1, 13):
            s = c.space(track, n)
            assert s.tier == (n + 2) // 3
            assert s.cost == expected[s.tier] == c.tier_cost(track, s.tier)


def test_landmarks_belong_to_tiers_two_to_four_and_tech_cards() -> None:
    """TOURS DE DÉVELOPPEMENT: the first player to enter a new tier (II-IV) of a track gains
    its landmark; BÂTIMENTS & CAPITALES: some tech cards give one too; each exists once."""
    granted: list[int] = []
    for track in c.TRACKS:
        assert c.tier_landmark(track, 1) is None
        for tier in (2, 3, 4):
            landmark = c.tier_landmark(track, tier)
            assert landmark is not None
            assert c.LANDMARKS[landmark].source_kind == "track"
            assert (c.LANDMARKS[landmark].track, c.LANDMARKS[landmark].space) == (
                track,
                (tier - 1) * 3 + 1,
            )
            granted.append(landmark)
    for card in c.TECH_CARDS.values():
        if card.landmark is not None:
            assert c.LANDMARKS[card.landmark].tech_card == card.id
            granted.append(card.landmark)
    assert sorted(granted) == sorted(c.LANDMARKS)
    assert len(granted) == len(set(granted)) == 18


def test_exploration_spaces_from_the_track_guide() -> None:
    """GUIDE DES PISTES, Exploration: Reconnaissance gives 2 territory tiles; Chariots explore
    OR a farm; Automobiles may discard 2 tiles for 5 VP; Navette Spatiale 1 VP per technology
    space, 3 tiles for 10 VP; Voyage Interstellaire 3 space tiles then explore one."""
    assert c.space("exploration", 1).name_fr == "Reconnaissance"
    assert c.space("exploration", 1).benefit == gain("gain_territory_tile", 2)
    assert c.space("exploration", 3).benefit == OneOf(items=(gain("explore"), gain("gain_farm")))
    cars = c.space("exploration", 8).bonus
    assert cars is not None
    assert cars.cost == ("territory_tile", "territory_tile") and cars.benefit == gain("vp", 5)
    shuttle = c.space("exploration", 10)
    assert shuttle.benefit == gain("vp_per_technology_space")
    assert shuttle.bonus is not None and shuttle.bonus.cost == ("territory_tile",) * 3
    assert shuttle.bonus.benefit == gain("vp", 10)
    assert c.space("exploration", 11).benefit == AllOf(
        items=(gain("gain_space_tile", 3), gain("explore_space"))
    )


def test_science_spaces_from_the_track_guide() -> None:
    """GUIDE DES PISTES, Science: space 3 is research without benefit OR a house, with no
    bonus; space 5 research with benefit, then 2 tapestry cards for 5 VP; space 12 rolls the
    die 4 times, 5 VP per roll that would leave a track."""
    herbalism = c.space("science", 3)
    assert herbalism.benefit == OneOf(items=(gain("research_no_benefit"), gain("gain_house")))
    assert herbalism.bonus is None
    chemistry = c.space("science", 5)
    assert chemistry.benefit == gain("research")
    assert chemistry.bonus is not None
    assert chemistry.bonus.cost == ("tapestry_card", "tapestry_card")
    assert chemistry.bonus.benefit == gain("vp", 5)
    assert c.space("science", 12).benefit == gain("research_no_benefit_overflow_vp", 4)
    assert c.space("science", 7).name_fr == "Recherches Universitaires"


def test_technology_and_military_spaces_from_the_track_guide() -> None:
    """GUIDE DES PISTES: Nanotechnologie (upgrade and a top-row square in any order, then 3
    tech cards for 10 VP on the classic board); Singularité d'IA (one resource of each type,
    restart on any track); Drones Assassins (score the capital, 3 tapestry cards for 10 VP);
    Cavalerie (conquer and an armory); Mechas (both dice, a new civilization)."""
    nano = c.space("technology", 11)
    assert nano.benefit == AnyOrder(
        items=(gain("upgrade_tech"), gain("gain_square_benefit_top_row"))
    )
    assert nano.bonus is not None and nano.bonus.cost == ("tech_card",) * 3
    ai = c.space("technology", 12)
    assert isinstance(ai.benefit, AllOf)
    assert {item for item in c.tokens(ai.benefit)} == {
        "gain_coin",
        "gain_worker",
        "gain_food",
        "gain_culture",
        "restart_token_on_any_track",
    }
    drones = c.space("military", 11)
    assert drones.benefit == gain("score_capital")
    assert drones.bonus is not None and drones.bonus.benefit == gain("vp", 10)
    assert drones.bonus.cost == ("tapestry_card",) * 3
    assert c.space("military", 5).benefit == AnyOrder(items=(gain("conquer"), gain("gain_armory")))
    assert c.space("military", 12).benefit == AnyOrder(
        items=(gain("conquer_both_dice"), gain("gain_random_civilization"))
    )


def test_the_two_french_guide_disagreements_are_recorded_as_assumptions() -> None:
    """GUIDE DES PISTES: Biologie (science 6) and Acier (technology 6) differ from the other
    sources; the choice made is listed by assumptions()."""
    lines = c.assumptions()
    assert any(line.startswith("tracks.json#science/6: ") for line in lines)
    assert any(line.startswith("tracks.json#technology/6: ") for line in lines)
    steel = c.space("technology", 6).bonus
    assert steel is not None and steel.benefit == gain("invent")


# ---------------------------------------------------------------- income mat and tech cards


def test_income_mat_cap_and_first_to_era_bonus() -> None:
    """4 GAGNER DES REVENUS: at most 8 of each resource. 2 JOUER 1 CARTE FRESQUE: the first
    among you and your neighbours to start era 2 takes 1 resource of your choice."""
    assert c.RESOURCE_CAP == 8
    assert c.ERA_FIRST_BONUS[2] == gain("gain_any_resource")
    assert sorted(c.ERA_FIRST_BONUS) == [2, 3, 4]
    assert [t.start_buildings for t in c.INCOME_TRACKS] == [5, 5, 5, 5]


def test_income_mat_step_three_example() -> None:
    """3 AMÉLIORER 1 CARTE TECHNO & GAGNER DES PV: the icons are 1 VP per tech card (markets),
    1 VP per full row/column (houses) and 1 VP per controlled territory (armories)."""
    markets, houses, _, armories = c.INCOME_TRACKS
    assert markets.spaces[0].vp == (gain("vp_per_tech_card"),)
    assert houses.spaces[0].vp == (gain("score_capital"),)
    assert armories.spaces[2].vp == (gain("vp_per_controlled_territory"),)


def test_tech_cards_from_the_tech_card_guide() -> None:
    """GUIDE DES CARTES TECHNOLOGIE: 'Gagnez 4 PV' then 'Placez la Boulangerie'; 'Gagnez 1
    Ferme' then '1 PV pour chaque ferme'; 'Gagnez 1 pièce' then 'Reculez sur 1 de ces pistes'."""
    bakery = c.TECH_CARDS[5]
    assert (bakery.name_fr, bakery.circle, bakery.square) == (
        "Boulangerie",
        gain("vp", 4),
        gain("gain_landmark_bakery"),
    )
    assert bakery.requirement is not None
    assert bakery.requirement.type == "income_space_revealed"
    ammonia = c.TECH_CARDS[2]
    assert (ammonia.circle, ammonia.square) == (gain("gain_farm"), gain("vp_per_farm"))
    time_travel = c.TECH_CARDS[28]
    assert time_travel.circle == gain("gain_coin")
    assert isinstance(time_travel.square, OneOf)
    for card in c.TECH_CARDS.values():
        assert card.requirement is not None
        assert card.requirement.who == "you_or_a_neighbour"


# ---------------------------------------------------------------- capitals, tiles, dice


def test_basic_capitals_are_9x9_with_22_impassable_plots_and_pairs() -> None:
    """BÂTIMENTS & CAPITALES (impassable plots count towards districts); MISE EN PLACE DES
    JOUEURS: in 1-3 player games capitals are dealt as pairs sharing a start territory."""
    pairs = set()
    for capital in c.CAPITALS.values():
        assert len(capital.grid) == 9 and all(len(row) == 9 for row in capital.grid)
        assert sum(row.count("1") for row in capital.grid) == 22
        pairs.add(tuple(sorted((capital.id, capital.pair))))
        assert capital.start_small == c.CAPITALS[capital.pair].start_small
    assert pairs == {(1, 6), (2, 4), (3, 5)}
    assert len({capital.start_large for capital in c.CAPITALS.values()}) == 6


def test_territory_tiles_have_six_corners_and_islands_have_a_centre() -> None:
    """EXPLORATION: a tile has 6 sides matched by terrain; small islands touch no side."""
    islands = 0
    for tile in c.TERRITORY_TILES.values():
        assert len(tile.corners) == 6
        if tile.center is not None:
            islands += 1
            assert set(tile.corners) == {"sea"}
    assert islands == 8


def test_dice() -> None:
    """CONQUÊTE: the red die has a '1 VP per controlled territory' face, the black die a
    'territory tile benefit' face. The science die is a D12 (player aid); its split is
    assumed."""
    assert gain("vp_per_controlled_territory") in c.RED_DIE
    assert gain("gain_conquered_tile_benefit") in c.BLACK_DIE
    assert sorted(c.SCIENCE_DIE.count(track) for track in c.TRACKS) == [3, 3, 3, 3]
    assert any(line.startswith("dice.json#science: ") for line in c.assumptions())


def test_achievements() -> None:
    """OBJECTIFS: three achievements; each player takes the highest value still free."""
    keys = [a.key for a in c.ACHIEVEMENTS.values()]
    assert keys == ["complete_track", "topple_two_outposts", "conquer_middle_island"]
    for achievement in c.ACHIEVEMENTS.values():
        assert list(achievement.vp_small) == sorted(achievement.vp_small, reverse=True)


# ---------------------------------------------------------------- civilizations


def test_civilization_rebalancing_page() -> None:
    """RÉÉQUILIBRAGE DES CIVILISATIONS: The Chosen +15 VP per opponent; Architects place an
    impassable cube per opponent; Craftsmen, Leaders, Militants, Nomads, Inventors unchanged."""
    by_key = {civ.key: civ for civ in c.CIVILIZATIONS.values()}
    assert by_key["the_chosen"].adjustment_vp_per_opponent == 15
    assert "impassable" in by_key["architects"].adjustment
    for key in ("craftsmen", "leaders", "militants", "nomads", "inventors"):
        assert by_key[key].adjustment == ""
        assert by_key[key].adjustment_gain is None
    assert by_key["the_chosen"].gainable_mid_game is False  # player aid: Les Élus


# ---------------------------------------------------------------- tokens and provenance


def test_every_token_used_is_defined_in_one_line() -> None:
    """Every benefit token of the base content has our own one-line definition."""
    used: set[str] = set()
    for _, benefit in c._benefits():
        used.update(c.tokens(benefit))
    for _, cost in c._cost_lists():
        used.update(cost)
    assert used <= set(c.BENEFIT_TOKENS)
    for token, definition in c.BENEFIT_TOKENS.items():
        assert definition and "\n" not in definition, token
    assert {
        "coin",
        "worker",
        "food",
        "culture",
        "any_resource",
        "territory_tile",
        "tapestry_card",
        "tech_card",
    } == c.COST_TOKENS


def test_every_record_has_complete_provenance() -> None:
    """Project standard: reference records carry a ref, rulebook ones a section, assumed ones
    a note."""
    records = list(c._records())
    assert len(records) > 300
    for where, record in records:
        assert record.provenance_error() == "", where
        if record.source == "reference":
            assert re.fullmatch(r"[a-z_]+\.json#.+", record.ref), where


def test_assumptions_name_their_file() -> None:
    """assumptions() lists every assumed record, each line naming its file and record."""
    lines = c.assumptions()
    assert lines
    for line in lines:
        assert re.match(r"^[a-z_]+\.json#[^:]+: \S", line), line


def test_expression_kinds_decode_from_json() -> None:
    """The benefit grammar: gain, all, any_order, one_of and pay decode to their Structs."""
    import msgspec

    raw = b'{"kind": "pay", "pay": ["coin"], "gain": {"kind": "all", "items": []}}'
    assert msgspec.json.decode(raw, type=c.Benefit) == Exchange(pay=("coin",), gain=AllOf(items=()))


# ---------------------------------------------------------------- loud failures


def _load_copy(tmp_path: Path, edit: str, mutate: object) -> None:
    """Import a copy of content.py over a copy of the data with one file edited."""
    package = tmp_path / "copy"
    shutil.copytree(CONTENT_DIR, package / "content")
    shutil.copy(Path(c.__file__), package / "content.py")
    path = package / "content" / edit
    data = json.loads(path.read_text())
    assert callable(mutate)
    mutate(data)
    path.write_text(json.dumps(data))
    spec = importlib.util.spec_from_file_location("tapestry_content_copy", package / "content.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)


def test_a_wrong_cost_fails_at_import_naming_file_and_record(tmp_path: Path) -> None:
    """A bad file fails loudly: the message names the file and the record."""

    def mutate(data: dict[str, list[dict[str, list[dict[str, object]]]]]) -> None:
        data["tracks"][1]["spaces"][4]["cost"] = ["worker"]

    with pytest.raises(ValueError, match=r"tracks\.json#science/5: cost"):
        _load_copy(tmp_path, "tracks.json", mutate)


def test_an_undefined_token_fails_at_import(tmp_path: Path) -> None:
    """Every token must be defined in tokens.json."""

    def mutate(data: dict[str, list[dict[str, object]]]) -> None:
        data["tiles"][0]["benefit"] = {"kind": "gain", "token": "gain_unicorn"}

    with pytest.raises(ValueError, match=r"space_tiles\.json#1: token 'gain_unicorn'"):
        _load_copy(tmp_path, "space_tiles.json", mutate)


def test_a_type_error_fails_at_import_naming_the_file(tmp_path: Path) -> None:
    """msgspec rejects a malformed record; the message starts with the file name."""

    def mutate(data: dict[str, list[dict[str, object]]]) -> None:
        data["cards"][0]["copies"] = "one"

    with pytest.raises(ValueError, match=r"^tapestry_cards\.json: .*copies"):
        _load_copy(tmp_path, "tapestry_cards.json", mutate)


# ---------------------------------------------------------------- our own wording


def _runs(text: str, size: int = 6) -> set[tuple[str, ...]]:
    words = re.findall(r"[a-z0-9]+", text.lower())
    return {tuple(words[i : i + size]) for i in range(len(words) - size + 1)}


@pytest.mark.skipif(not REFERENCE_DIR.is_dir(), reason="facts folder not on this machine")
def test_summaries_and_definitions_are_our_own_words() -> None:
    """Project standard (own wording): no card or civilization summary and no token
    definition repeats a run of 6 words from the facts folder's texts."""
    theirs: set[tuple[str, ...]] = set()
    for name in ("tapestry_cards.json", "civilizations.json"):
        data = json.loads((REFERENCE_DIR / name).read_text())
        for record in data.get("cards", data.get("civilizations", [])):
            theirs |= _runs(record.get("effect_summary", ""))
    benefits = json.loads((REFERENCE_DIR / "benefits.json").read_text())
    for definition in benefits["tokens"].values():
        theirs |= _runs(definition)
    ours = [card.summary for card in c.TAPESTRY_CARDS.values()]
    ours += [civ.summary for civ in c.CIVILIZATIONS.values()]
    ours += list(c.BENEFIT_TOKENS.values())
    shared = [text for text in ours if _runs(text) & theirs]
    assert shared == []


def test_rule_decisions_are_listed_by_the_content_report() -> None:
    """Every rule decision taken in code (``decisions.json``) has a unique topic, complete
    provenance, and the assumed ones are listed by ``assumptions()`` (the CLI's report)."""
    from domain.tapestry import content as C

    topics = [d.topic for d in C.DECISIONS.values()]
    assert len(topics) == len(set(topics)) >= 20
    lines = C.assumptions()
    for decision in C.DECISIONS.values():
        assert decision.provenance_error() == ""
        if decision.source == "assumed":
            assert f"decisions.json#{decision.topic}: {decision.note}" in lines
