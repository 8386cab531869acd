"""Setup with the Legends box and with both boxes ("Mise en place générale", "Mise en place
des joueurs", "COMBINER LES JEUX ANTIQUE ET LÉGENDES" of the French rulebook)."""

from __future__ import annotations

from typing import Any

import pytest

from domain.core import Chance, MalformedCommand
from domain.imperium import content as C
from domain.imperium import events as ev
from domain.imperium.setup import common_box, tributaries
from domain.imperium.state import ImperiumState
from tests.imperium.helpers import GAME


def _setup(options: dict[str, Any], players: int, seed: bytes = b"legends-setup"
           ) -> tuple[ImperiumState, list[ev.MarketPrepared]]:  # fmt: skip
    state = GAME.initial(GAME.decode_options(options), players)
    events = GAME.setup(state, Chance(seed, 0))
    for event in events:
        GAME.evolve(state, event)
    return state, [e for e in events if isinstance(e, ev.MarketPrepared)]


def _market_cards(state: ImperiumState, market: ev.MarketPrepared) -> list[str]:
    """Every common market card of the game right after setup: piles, removed fame cards,
    face-up slots (each once)."""
    cards = [c for pile in state.piles.values() for c in pile] + list(market.removed)
    return cards + [s.card for s in state.market if s.card]


def test_all_sixteen_nations_are_known() -> None:
    """Nations (boîtes Antique et Légendes): the 16 nations have content files; the
    playable ones (``ALL_NATIONS``) are Classics then Legends, in the rulebook's order."""
    reference = {
        "arthurians", "atlanteans", "carthaginians", "celts", "egyptians", "greeks",
        "macedonians", "mauryans", "minoans", "olmecs", "persians", "qin", "romans",
        "scythians", "utopians", "vikings",
    }  # fmt: skip
    files = {p.stem.removeprefix("nation_") for p in C._DIR.glob("nation_*.json")}
    assert files == reference
    assert C.ALL_NATIONS == C.CLASSICS_NATIONS + C.LEGENDS_NATIONS
    assert tuple(C.NATIONS) == C.ALL_NATIONS
    assert {C.NATIONS[k].box for k in C.LEGENDS_NATIONS} <= {"legends"}


#: "Matériel" (component list, p. 2): cards per nation, Legends box.
RULEBOOK_LEGENDS_CARDS = {
    "arthurians": 29, "atlanteans": 22, "egyptians": 23, "mauryans": 24, "minoans": 23,
    "olmecs": 26, "qin": 25, "utopians": 21,
}  # fmt: skip


def _physical(ids: tuple[str, ...]) -> int:
    return len({C.CARDS[c].faces or (c,) for c in ids})


@pytest.mark.parametrize("key", C.LEGENDS_NATIONS)
def test_legends_nation_counts_and_setup_roles(key: str) -> None:
    """Matériel ('29 cartes Arthuriens' … '21 cartes Utopiens') and Mise en place des
    joueurs: the Arthurians' accession slot holds a Nadir card, the Atlanteans and Utopians
    have none; King Arthur's Court and the Utopian journey cards (double-sided, counted once)
    start in play; Arthurians, Olmecs, Qin and Utopians add cards to the unrest pile; only the
    Atlanteans start on the empire side."""
    nation = C.NATIONS[key]
    sections = (nation.in_play, nation.accession, nation.nation_deck, nation.development,
                nation.unrest_pile, nation.starting_deck)  # fmt: skip
    assert 1 + sum(_physical(s) for s in sections) == RULEBOOK_LEGENDS_CARDS[key]
    assert nation.rulebook_count == RULEBOOK_LEGENDS_CARDS[key] and nation.box == "legends"
    role = {"arthurians": "nadir", "atlanteans": "none", "utopians": "none"}.get(key, "accession")
    assert nation.accession_role == role
    assert len(nation.accession) == (0 if role == "none" else 1)
    assert (_physical(nation.in_play), bool(nation.unrest_pile)) == (
        {"arthurians": 1, "utopians": 2}.get(key, 0),
        key in ("arthurians", "olmecs", "qin", "utopians"),
    )
    assert (nation.starting_state == "empire") == (key == "atlanteans")
    assert all(C.CARDS[c].has_suit("unrest") for c in nation.unrest_pile)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_legends_box_setup_uses_legends_common_cards(players: int) -> None:
    """Mise en place générale with the Legends box: every market card is a Legends common
    card (number 2…) fitting the player count — except the Legends tributaries named like the
    Classics nations at the table, replaced by Classics ones (Combiner, 2)."""
    nations = list(C.CLASSICS_NATIONS[:players])
    state, (market,) = _setup({"nations": nations, "box": "legends"}, players)
    assert market.box == "legends" and state.box == "legends"
    cards = _market_cards(state, market)
    names = {C.NATIONS[k].name for k in nations}
    classics = [c for c in cards if C.CARDS[c].box == "classics"]
    assert all(C.CARDS[c].pile == "tributary" for c in classics)
    assert len(classics) == sum(
        C.CARDS[c].name in names for c in C.pile_cards("tributary", players, "legends")
    )
    assert all(C.in_game(C.CARDS[c], players) for c in cards)
    size = C.SETUP.market_deck_size.values[str(players)]
    assert [len(market.piles[p]) for p in ("region", "uncivilised", "civilised")] == [size] * 3


def test_classics_box_is_the_default_with_classics_nations() -> None:
    """Without the option, Classics nations play with the Classics common cards (the games
    of the Classics box are unchanged)."""
    state, (market,) = _setup({"nations": ["romans", "celts"]}, 2)
    assert market.box == "classics" == state.box
    assert all(C.CARDS[c].box == "classics" for c in _market_cards(state, market))


def test_default_box_follows_the_nations() -> None:
    """Decision ``combined_box_choice``: with no ``box`` option, Legends common cards when
    every nation is a Legends one, Classics otherwise; the option wins."""
    legends = C.LEGENDS_NATIONS[:2]
    assert common_box("", legends) == "legends"
    assert common_box("", ("romans", *legends)) == "classics"
    assert common_box("classics", legends) == "classics"
    with pytest.raises(MalformedCommand):
        common_box("horizons", legends)


def test_any_nations_mix_with_either_box() -> None:
    """Combiner, 1: any of the 16 nations can be played, with the common cards of either
    box (2)."""
    mixed = [C.LEGENDS_NATIONS[0], "romans", C.LEGENDS_NATIONS[-1]]
    for box in C.BOXES:
        state, (market,) = _setup({"nations": mixed, "box": box}, 3)
        assert [s.nation for s in state.seats] == mixed and market.box == box


def test_combining_replaces_tributaries_named_like_a_chosen_nation() -> None:
    """Combiner, 2: a tributary with the name of a chosen nation is replaced by a random
    tributary of the other box, redrawn while its player-count icon does not fit or it also
    names a chosen nation."""
    nations = ("romans", "celts", "greeks")
    seen: set[str] = set()
    for seed in range(40):
        cards = tributaries("legends", 3, nations, Chance(b"tributaries", seed))
        names = [C.CARDS[c].name for c in cards]
        assert len(cards) == len(C.pile_cards("tributary", 3, "legends")) == len(set(cards))
        assert not {"Romans", "Celts", "Greeks"} & set(names)
        replaced = [c for c in cards if C.CARDS[c].box == "classics"]
        assert len(replaced) == 3  # 2TRI5 Romans (3+), 2TRI9 Celts, 2TRI6 Greeks
        assert all(C.in_game(C.CARDS[c], 3) for c in replaced)  # never 1TRI10 (4 players)
        seen.update(replaced)
    assert len(seen) > 3  # the replacements are drawn at random


def test_a_tributary_out_of_the_game_is_not_replaced() -> None:
    """Combiner, 2 / Mise en place générale, 5: at 2 players the Romans tributary (3+) is not
    in the game, so nothing replaces it; the classics tributaries are untouched by Classics
    nations."""
    cards = tributaries("legends", 2, ("romans", "vikings"), Chance(b"t", 0))
    assert "2TRI5" not in cards and "2TRI3" not in cards
    assert [c for c in cards if C.CARDS[c].box == "classics"] and len(cards) == 9
    assert tributaries("classics", 4, ("romans", "celts"), Chance(b"t", 0)) == C.pile_cards(
        "tributary", 4, "classics"
    )


def test_legends_nations_with_classics_cards_get_their_tributary_replaced() -> None:
    """Combiner, 2: the Classics tributaries named after Legends nations (Qin, Egyptians,
    Olmecs, Minoans, Mauryans) leave a game where that nation is played."""
    named = {C.NATIONS[k].name: k for k in C.LEGENDS_NATIONS}
    for card in C.pile_cards("tributary", 4, "classics"):
        key = named.get(C.CARDS[card].name)
        if key is None:
            continue
        state, (market,) = _setup({"nations": [key, "romans", "celts", "greeks"]}, 4)
        assert card not in _market_cards(state, market)
        assert market.box == "classics"


def test_setup_is_deterministic_per_seed() -> None:
    """Every random choice of the combined setup comes from the game's seed."""
    options = {"nations": ["romans", C.LEGENDS_NATIONS[0]], "box": "legends"}
    first = _setup(options, 2, b"same")[1]
    assert first == _setup(options, 2, b"same")[1]


def test_bad_box_option_is_refused() -> None:
    """Options: an unknown box is a typed error at creation and creates nothing."""
    with pytest.raises(MalformedCommand) as error:
        GAME.initial(GAME.decode_options({"box": "horizons"}), 2)
    assert error.value.code == "BOX"


def test_unknown_nation_is_refused() -> None:
    """Mise en place des joueurs, 1: a nation outside the 16 is a typed error."""
    state = GAME.initial(GAME.decode_options({"nations": ["romans", "martians"]}), 2)
    with pytest.raises(MalformedCommand) as error:
        GAME.setup(state, Chance(b"x", 0))
    assert error.value.code == "NATIONS" and "martians" in str(error.value)


def test_random_nations_come_from_the_chosen_box() -> None:
    """Options: nations drawn at random come from the ``box`` option's nations."""
    for box in C.BOXES:
        pool = {k for k in C.ALL_NATIONS if C.NATIONS[k].box == box}
        if len(pool) < 3:
            continue
        for seed in range(5):
            state, (market,) = _setup({"box": box}, 3, f"random-{seed}".encode())
            assert {s.nation for s in state.seats} <= pool and market.box == box
