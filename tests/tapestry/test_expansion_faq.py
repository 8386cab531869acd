"""The rulebook's F.À.Q. rulings and remarks marked **MM** (Manœuvres & Manigances = Plans &
Ploys), **AA** (Arts & Architecture) and **FF** (Fictions & Futurs = Fantasies & Futures) that
concern an expansion box, one of its civilizations or one of its components: the audit of
``docs/games/tapestry-expansions.md`` ("F.À.Q. and box remarks").

Each ruling is either reproduced by a named test (:data:`TESTED`, the test's module and name;
the tests of this module are its new ones) or concerns a component in none of our sources
(:data:`NOT_IN_OUR_SOURCES`: its ``expansions.json`` record must say ``source == "none"``, so
the list stays true when a component is added). :data:`NOT_IMPLEMENTED` holds the rulings
whose content exists but whose option is not built (none now).
"""

from __future__ import annotations

import importlib

import msgspec

from domain.core import Chance
from domain.tapestry import civs
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.civs import civ_id
from domain.tapestry.commands import Advance, PlayTapestry, TakeIncome, Upgrade
from domain.tapestry.engine import Ctx
from domain.tapestry.expansions import civ_recyclers as rc
from domain.tapestry.expansions import inventory as I
from domain.tapestry.rules import plays_on, territory_deck
from domain.tapestry.state import TRACK_IDS, Frame, TapestryState, TechOwned
from tests.tapestry.helpers import GAME, of, table
from tests.tapestry.test_cards_support import answer, benefit, card, options, run_frames

PP, AA, FF = "plans_and_ploys", "arts_and_architecture", "fantasies_and_futures"

#: ruling (rulebook section — the question or remark, shortened) -> (test module, test name).
TESTED: dict[str, tuple[str, str]] = {
    "F.À.Q. TOURS DE REVENUS — D'anciennes versions … ère 5: les Sirènes peuvent continuer à "
    "jouer après le tour de revenus 5 (carte Fresque sur la pile de l'ère 4)": (
        "tests.tapestry.test_civ_merfolk",
        "test_after_income_five_play_onto_era_four",
    ),
    "F.À.Q. TOURS DE REVENUS — D'anciennes versions … ère 5: les Anciens peuvent continuer à "
    "jouer après le tour de revenus 5 (carte Fresque sur la pile de l'ère 4)": (
        "tests.tapestry.test_expansion_faq",
        "test_faq_elder_ones_play_on_and_a_card_goes_on_era_four",
    ),
    "F.À.Q. TOURS DE REVENUS — Quand dois-je jouer une carte Fresque en réponse à une capacité "
    "de civilisation lors de la première étape du tour de revenus ? (Recycleurs)": (
        "tests.tapestry.test_expansion_faq",
        "test_faq_recyclers_income_upgrade_plays_the_card_on_the_new_era",
    ),
    "F.À.Q. PLATEAUX CIVILISATION PARTICULIERS — rééquilibrage: perdre une ressource (Espions)": (
        "tests.tapestry.test_civ_spies",
        "test_rebalancing_loses_a_resource_at_the_end_of_the_first_income_turn",
    ),
    "F.À.Q. PLATEAUX CIVILISATION PARTICULIERS — rééquilibrage: perdre une ressource "
    "(Utilitaristes)": (
        "tests.tapestry.test_civ_utilitarians",
        "test_rebalancing_loses_a_resource_after_the_first_income_turn",
    ),
    "F.À.Q. PLATEAUX CIVILISATION PARTICULIERS — MM Les Recycleurs peuvent-ils immédiatement "
    "recycler une carte Technologie vers la ligne du bas ? (déjà en haut)": (
        "tests.tapestry.test_civ_recyclers",
        "test_an_upgrade_may_carry_a_top_card_back_down_for_five_points",
    ),
    "F.À.Q. PLATEAUX CIVILISATION PARTICULIERS — MM Les Recycleurs peuvent-ils immédiatement "
    "recycler une carte Technologie vers la ligne du bas ? (une seconde amélioration)": (
        "tests.tapestry.test_expansion_faq",
        "test_faq_recyclers_need_a_second_upgrade_to_recycle",
    ),
    "F.À.Q. PLATEAUX CIVILISATION PARTICULIERS — AA Urbanistes: un monument mis de côté à tout "
    "moment, plusieurs lors du même tour": (
        "tests.tapestry.test_civ_urban_planners",
        "test_several_parked_landmarks_in_the_same_turn",
    ),
    "F.À.Q. PLATEAUX CIVILISATION PARTICULIERS — FF Reconnaissance et Psioniques": (
        "tests.tapestry.test_civ_psionics",
        "test_two_territory_tiles_are_two_pairs_faq_reconnaissance",
    ),
    "F.À.Q. PLATEAUX CIVILISATION PARTICULIERS — FF Loups-Garous: pas de recul depuis la "
    "première case": (
        "tests.tapestry.test_civ_werefolk",
        "test_faq_no_regress_from_the_start_space",
    ),
    "F.À.Q. CARTES FRESQUE PARTICULIÈRES — FF Âge de la Navigation et Psioniques": (
        "tests.tapestry.test_civ_psionics",
        "test_age_of_sail_three_pairs_faq",
    ),
    "MISE EN PLACE GÉNÉRALE 5 — MM les tuiles Territoire dans le sac Exploration": (
        "tests.tapestry.test_expansion_faq",
        "test_exploration_bag_draws_a_tile_still_in_the_bag_face_up",
    ),
    "MISE EN PLACE GÉNÉRALE 7 — MM AA jetons Monument (Manœuvres & Manigances)": (
        "tests.tapestry.test_expansions_inventory",
        "test_plans_and_ploys_landmark_tokens_are_played_by_the_views",
    ),
    "VARIANTES — FF Les Psioniques piochent 3 cartes Fresque au tour de revenus 1": (
        "tests.tapestry.test_civ_psionics",
        "test_income_turn_one_variant_draws_three_keeps_one",
    ),
    "VARIANTES — MM AA FF piocher les civilisations dans la même extension": (
        "tests.tapestry.test_civilization_box",
        "test_every_civilization_dealt_comes_from_the_chosen_box",
    ),
    "VARIANTES — FF Les Psioniques piochent 3 civilisations": (
        "tests.tapestry.test_civ_psionics",
        "test_random_civilization_drawn_two_or_three_with_the_variant",
    ),
}

#: ruling -> the components (box, key) it needs, none of which is in our sources.
NOT_IN_OUR_SOURCES: dict[str, tuple[tuple[str, str], ...]] = {
    "PREMIÈRE MISE EN PLACE — sans AA, défaussez une carte Fresque ou Technologie à l'icône Arts": (
        (AA, "tapestry_cards"),
        (AA, "tech_cards"),
    ),
    "MISE EN PLACE GÉNÉRALE 2 — AA piste Arts et Chefs-d'œuvre": (
        (AA, "arts_track"),
        (AA, "masterpiece_cards"),
    ),
    "MISE EN PLACE GÉNÉRALE 7 — MM AA jetons Monument (Arts & Architecture)": (
        (AA, "landmark_tokens"),
    ),
    "MISE EN PLACE GÉNÉRALE 8 — AA le dé 20 au lieu du dé 12": ((AA, "science_die"),),
    "MISE EN PLACE DES JOUEURS A — AA FF un plateau Capitale de niveau avancé": (
        (AA, "advanced_capitals"),
        (FF, "advanced_capitals"),
    ),
    "MISE EN PLACE DES JOUEURS C — FF modification du plateau Revenus": (
        (FF, "income_mat_modification_cards"),
    ),
    "MISE EN PLACE DES JOUEURS D — AA tuiles Inspiration": ((AA, "inspiration_tiles"),),
    "MISE EN PLACE DES JOUEURS E — AA un pion sur la piste Arts": ((AA, "arts_track"),),
    "CARTES MONUMENT — MM AA la distribution des cartes Monument": (
        (PP, "landmark_cards"),
        (AA, "landmark_cards"),
    ),
    "DÉROULEMENT DU JEU — MM AA l'objectif de la carte Monument à la fin du tour": (
        (PP, "landmark_cards"),
        (AA, "landmark_cards"),
    ),
    "TOURS DE REVENUS 1 — AA activer vos Chefs-d'œuvre, puis vos civilisations": (
        (AA, "masterpiece_cards"),
    ),
    "TOURS DE REVENUS 2 — FF BONUS D'ENCHANTEMENT": ((FF, "tapestry_cards"),),
    "CAPACITÉS DES CARTES FRESQUE — AA FF capacité PERMANENTE": (
        (AA, "tapestry_cards"),
        (FF, "tapestry_cards"),
    ),
    "FF TOUR DE REVENUS 5 — utiliser des éléments en réserve": ((FF, "tapestry_cards"),),
    "EXPLORATION DE L'ESPACE — MM le Monolithe et « 5 PV chaque fois que vous avancez »": (
        (PP, "space_tiles"),
        (PP, "landmark_miniatures"),
    ),
    "AA CONDITION D'AMÉLIORATION : MONUMENT": ((AA, "tech_cards"),),
    "FF CONDITION D'AMÉLIORATION : ENCHANTEMENT/TOUR DE REVENUS 5 (usage unique)": (
        (FF, "tech_cards"),
    ),
    "CARTES RIPOSTE — MM Entourloupe annule une Embuscade": ((PP, "tapestry_cards"),),
    "CARTES RIPOSTE — MM FF toute carte Riposte (Fête surprise, Gremlins) et l'île centrale": (
        (PP, "tapestry_cards"),
        (FF, "tapestry_cards"),
    ),
    "BÂTIMENTS — AA des plateaux Capitale avancés interdisent de dépasser de la grille": (
        (AA, "advanced_capitals"),
    ),
    "AA FF REMARQUES CONCERNANT LES DISTRICTS DES PLATEAUX CAPITALE DE NIVEAU AVANCÉ": (
        (AA, "advanced_capitals"),
        (FF, "advanced_capitals"),
    ),
    "JOUER DES CARTES FRESQUE APRÈS L'ÈRE 4 — FF un élément en réserve s'utilise aussitôt": (
        (FF, "tapestry_cards"),
    ),
    "FIN DE PARTIE — FF tout objet en réserve au dernier tour de revenus": (
        (FF, "tapestry_cards"),
    ),
    "VARIANTES — AA choisir quel dé Science utiliser": ((AA, "science_die"),),
    "GUIDE DES PISTES — AA la piste Arts (Créer, S'inspirer, Diffuser…)": ((AA, "arts_track"),),
    "GUIDE DES PISTES — AA Que signifie le symbole du coût du niveau 2 de la piste Arts ?": (
        (AA, "arts_track"),
    ),
    "GUIDE DES PISTES — AA Chef-d'œuvre à usage unique qui a un coût": ((AA, "masterpiece_cards"),),
    "AA GUIDE DES CARTES CHEF-D'ŒUVRE": ((AA, "masterpiece_cards"), (AA, "reference_guide")),
    "F.À.Q. TOURS DE REVENUS — D'anciennes versions … ère 5: FF les éléments en réserve au tour "
    "de revenus 5": ((FF, "tapestry_cards"),),
    "F.À.Q. TOURS DE REVENUS — une carte Fresque en réponse à une capacité de AA Chef-d'œuvre": (
        (AA, "masterpiece_cards"),
    ),
    "F.À.Q. BÂTIMENTS ET MONUMENTS — garder un bâtiment de côté ? AA sur une autre zone "
    "autorisée par les cartes Fresque et Technologie": (
        (AA, "tapestry_cards"),
        (AA, "tech_cards"),
    ),
    "F.À.Q. PLATEAUX CIVILISATION PARTICULIERS — Inventeurs: FF une carte à USAGE UNIQUE volée": (
        (FF, "tech_cards"),
    ),
    "F.À.Q. CARTES FRESQUE PARTICULIÈRES — PP Embuscade, Entourloupe et Battre en retraite "
    "lors du même tour": ((PP, "tapestry_cards"),),
    "F.À.Q. CARTES FRESQUE PARTICULIÈRES — AA Parcs Nationaux: choisir le dé avant de le lancer": (
        (AA, "tapestry_cards"),
        (AA, "science_die"),
    ),
    # Divertir la foule (Entertain the Masses) is a Plans & Ploys card by the public setup
    # text and review (expansions.json#plans_and_ploys/tapestry_cards); its landmark is one of
    # the box's 7 miniatures.
    "F.À.Q. CARTES FRESQUE PARTICULIÈRES — AA Espionnage sur Divertir la foule: le monument "
    "Stade n'est pas volé": ((PP, "tapestry_cards"), (PP, "landmark_miniatures")),
    "F.À.Q. CARTES FRESQUE PARTICULIÈRES — AA placer un monument sur une carte Fresque (Centre "
    "Commercial)": ((AA, "tapestry_cards"),),
    "F.À.Q. CARTES FRESQUE PARTICULIÈRES — AA Âge Sombre et la piste Arts": ((AA, "arts_track"),),
    "F.À.Q. CARTES FRESQUE PARTICULIÈRES — FF ère 5: un élément en réserve s'utilise "
    "immédiatement": ((FF, "tapestry_cards"),),
}

#: ruling -> the ``decisions.json`` topic that records it as not implemented.
NOT_IMPLEMENTED: dict[str, str] = {}


# -- the audit stays true --------------------------------------------------------------------------
def test_every_tested_ruling_names_its_test() -> None:
    """Each ruling of :data:`TESTED` is reproduced by an existing test whose docstring names the
    ruling's section (F.À.Q., VARIANTES, MISE EN PLACE) or the component's source."""
    for ruling, (module, name) in TESTED.items():
        test = getattr(importlib.import_module(module), name, None)
        assert callable(test), ruling
        doc = test.__doc__ or ""
        named = ("F.À.Q." in doc, "VARIANTES" in doc, "MISE EN PLACE" in doc, "public" in doc)
        assert any(named), (ruling, module, name)


def test_every_other_ruling_concerns_a_component_in_none_of_our_sources() -> None:
    """Each ruling of :data:`NOT_IN_OUR_SOURCES` needs components that ``expansions.json``
    lists with ``source == "none"`` (left out of every game, named in GetGame's notes)."""
    left_out = {(c.box, c.key) for c in I.COMPONENTS if c.source == "none"}
    for ruling, components in NOT_IN_OUR_SOURCES.items():
        assert components and set(components) <= left_out, ruling
    assert not set(TESTED) & set(NOT_IN_OUR_SOURCES)
    # the counts docs/games/tapestry-expansions.md gives
    assert (len(TESTED), len(NOT_IN_OUR_SOURCES), len(NOT_IMPLEMENTED)) == (16, 38, 0)


# -- new named tests -------------------------------------------------------------------------------
def _with_civ(key: str, box: str) -> TapestryState:
    state = table(2)
    state.rules = msgspec.structs.replace(state.rules, expansions=(box,))
    state.seats[0].civs = [civ_id(key)]
    state.seats[0].tech = []
    return state


def _hand() -> list[int]:
    """Two THIS ERA cards (two, so that playing one is a decision, not automatic)."""
    chosen = [card("academia"), card("capitalism")]
    assert all(C.TAPESTRY_CARDS[c].kind == "this_era" for c in chosen)
    return chosen


def test_faq_elder_ones_play_on_and_a_card_goes_on_era_four() -> None:
    """F.À.Q. TOURS DE REVENUS — « D'anciennes versions du jeu indiquent que l'on ne peut pas
    jouer de carte Fresque lors de l'ère 5 » : certaines civilisations, comme les Sirènes et
    les Anciens, peuvent continuer à jouer après le tour de revenus 5; a tapestry card played
    then goes on top of the era-4 stack (Elder Ones, Fantasies & Futures)."""
    state = _with_civ("elder_ones", FF)
    state.seats[0].income_turns = 5
    ctx = Ctx(state, Chance(b"faq-elder", 0))
    civs.after_income(ctx, 0, 5)
    for event in ctx.events:
        GAME.evolve(state, event)
    assert plays_on(state.seats[0]) and not state.seats[0].finished
    state.seats[0].resources = [3, 3, 3, 3]
    turn = options(state)
    assert turn and TakeIncome() not in turn and all(isinstance(c, Advance) for c in turn)
    state.seats[0].hand = _hand()
    played = state.seats[0].hand[0]
    benefit(state, 0, "play_tapestry_over_current")
    assert options(state) == [PlayTapestry(card=c) for c in _hand()]
    events = answer(state, PlayTapestry(card=played))
    assert [(e.card, e.era) for e in of(events, ev.TapestryPlayed)] == [(played, 4)]


def _recycler_with_printing_press(era: int) -> tuple[TapestryState, int, int]:
    state = _with_civ(rc.KEY, PP)
    press = next(c.id for c in C.TECH_CARDS.values() if c.name == "Printing Press")
    state.seats[0].tech = [TechOwned(card=press, row=1)]
    state.seats[0].tracks[TRACK_IDS.index("technology")] = [4]
    state.seats[0].income_turns = era
    state.seats[0].hand = _hand()
    return state, press, state.seats[0].hand[0]


def test_faq_recyclers_income_upgrade_plays_the_card_on_the_new_era() -> None:
    """F.À.Q. TOURS DE REVENUS — « Quand dois-je jouer une carte Fresque en réponse à une
    capacité de Chef-d'œuvre ou de civilisation lors de la première étape du tour de revenus
    ? » : the Recyclers' income upgrade (step 1) takes Printing Press to the top row; the
    income turn has begun, so the card goes on the new era's space (era 3 here), and on the
    era-4 cards during income turn 5."""
    for era, slot in ((3, 3), (5, 4)):
        state, press, played = _recycler_with_printing_press(era)
        # the only card: the upgrade resolves at once (one legal option)
        events = run_frames(state, Frame(kind="civ_income", seat=0, token=rc.KEY, ints=(era,)))
        assert ev.TechUpgraded(seat=0, card=press, row=2) in events
        assert options(state) == [PlayTapestry(card=c) for c in _hand()]
        events = answer(state, PlayTapestry(card=played))
        assert [(e.card, e.era) for e in of(events, ev.TapestryPlayed)] == [(played, slot)]


def test_faq_recyclers_need_a_second_upgrade_to_recycle() -> None:
    """F.À.Q. PLATEAUX CIVILISATION PARTICULIERS — « MM Les Recycleurs peuvent-ils
    immédiatement recycler une carte Technologie vers la ligne du bas ? » : non; an upgrade
    that takes a card to the top row leaves it there (its square gained), and only a second
    upgrade carries it down (5 VP)."""
    state = _with_civ(rc.KEY, PP)
    calendar = next(c.id for c in C.TECH_CARDS.values() if c.name == "Calendar")
    other = next(c.id for c in C.TECH_CARDS.values() if c.name == "Canned Food")
    state.seats[0].tech = [TechOwned(card=other), TechOwned(card=calendar, row=1)]
    state.seats[0].tracks[TRACK_IDS.index("exploration")] = [4]
    run_frames(state, Frame(kind="upgrade", seat=0))
    assert set(options(state)) == {Upgrade(card=other), Upgrade(card=calendar)}
    events = answer(state, Upgrade(card=calendar))
    assert ev.TechUpgraded(seat=0, card=calendar, row=2) in events
    assert [e.vp for e in of(events, ev.VPScored)] == [7]  # Calendar's square, no recycling
    assert [(t.card, t.row) for t in state.seats[0].tech] == [(other, 0), (calendar, 2)]
    assert state.agenda[-1].kind == "turn"
    run_frames(state, Frame(kind="upgrade", seat=0))
    assert set(options(state)) == {Upgrade(card=other), Upgrade(card=calendar)}
    events = answer(state, Upgrade(card=calendar))
    assert ev.TechUpgraded(seat=0, card=calendar, row=0) in events
    assert [e.vp for e in of(events, ev.VPScored)] == [rc.RECYCLE_VP]


def test_exploration_bag_draws_a_tile_still_in_the_bag_face_up() -> None:
    """MISE EN PLACE GÉNÉRALE 5 — « placez-les dans le sac Exploration si vous possédez MM » :
    with Plans & Ploys a territory tile is drawn among those still in the bag (in no supply,
    on no map, not discarded); it goes face up into the supply (« conservez-les toujours face
    visible »), so every viewer sees the draw (``decisions.json#exploration_bag``)."""
    state = _with_civ("heralds", PP)
    deck = territory_deck(state)
    state.seats[1].territory = deck[:10]
    state.territory_out = deck[10:20]
    bag = territory_deck(state)
    assert len(bag) == len(deck) - 20
    events = benefit(state, 0, "gain_territory_tile", 3)
    (drawn,) = of(events, ev.TerritoryTilesDrawn)
    assert len(drawn.tiles) == 3 and set(drawn.tiles) <= set(bag)
    assert state.seats[0].territory == list(drawn.tiles)
    for viewer in (None, 0, 1):
        assert GAME.redact_event(state, drawn, viewer) == drawn
