"""``imperium/5`` (the default): the multiplayer and setup corrections of the second rulebook
audit, each checked under ``imperium/5`` and, unchanged, under ``imperium/4``.

* nation unrest cards follow their player-count icon (rulebook l.187-189, l.292-296,
  l.332-333; solo l.1980-1983);
* a barbarian cannot develop (l.273-275 « Ces cartes ne sont accessibles que si vous êtes un
  Empire »);
* a collapse does not count reserved cards (RÉSERVER l.1168 « Une carte réservée n'est pas
  considérée comme étant dans votre zone de jeu »);
* the C.I.V.'s personal-deck unrest cards stay in its deck (l.1980-1983);
* a card a campaign added to the starting deck leaves the market (l.2261-2263);
* the Atlantean C.I.V.'s region developments are shuffled on top of its dynasty deck
  (l.1960-1967);
* a taken card goes to the taker's hand (RÉCUPÉRER l.1109-1118).

Games are built under :class:`ImperiumGame5` / :class:`ImperiumGame4` explicitly (the shared
test helpers build ``imperium-classics/1`` games).
"""

from __future__ import annotations

from typing import Any

import pytest

from domain.core import Chance, Command, Event
from domain.imperium import cards as K
from domain.imperium import content as C
from domain.imperium import events as ev
from domain.imperium.civ import CIV
from domain.imperium.civ.ops import estimated_vp
from domain.imperium.commands import ChooseOrder, EndActivate, Exhaust, Pick, PlayCard
from domain.imperium.engine import Ctx, run
from domain.imperium.game import ImperiumGame, ImperiumGame4, ImperiumGame5
from domain.imperium.scoring import unrest_count
from domain.imperium.state import Frame, ImperiumState
from domain.registry import GAMES, rulesets_of
from tests.imperium.positions import garrison, hand, put, steps, take_out

NEW = ImperiumGame5()
OLD = ImperiumGame4()


# -- helpers -------------------------------------------------------------------------------------
def game_of(
    game: ImperiumGame, nations: list[str], sides: list[str] | None = None, seed: bytes = b"r5"
) -> ImperiumState:
    """A multiplayer game of ``game``'s ruleset after its setup events."""
    state = game.initial({"nations": nations, "sides": sides or []}, len(nations))
    for event in game.setup(state, Chance(seed, 0)):
        state = game.evolve(state, event)
    return state


def solo_of(game: ImperiumGame, civ: str, human: str = "greeks", seed: bytes = b"r5",
            **extra: Any) -> ImperiumState:  # fmt: skip
    """A solo game of ``game``'s ruleset against a ``civ`` C.I.V. after its setup events."""
    options = {"nations": [human], "civ_nation": civ, "difficulty": "imperator", **extra}
    state = game.initial(options, 1)
    for event in game.setup(state, Chance(seed, 0)):
        state = game.evolve(state, event)
    return state


def act(game: ImperiumGame, state: ImperiumState, command: Command) -> list[Event]:
    """The pending seat decides ``command``; its events are folded into ``state``."""
    seat = game.pending(state).seats[0]
    events = game.decide(state, seat, command, Chance(b"r5", state.turn * 1000 + len(state.agenda)))
    for event in events:
        game.evolve(state, event)
    return events


def order(state: ImperiumState, seat: int = 0) -> None:
    """``seat`` is about to choose its order (then its cleanup)."""
    state.first = state.current = seat
    state.agenda = [Frame(kind="cleanup", seat=seat), Frame(kind="order", seat=seat)]


def effect(game: ImperiumGame, state: ImperiumState, seat: int, card: str,
           *notation: dict[str, Any]) -> None:  # fmt: skip
    """Resolve effect steps (notation) of ``card`` for ``seat`` until a decision."""
    ctx = Ctx(state, Chance(b"r5", 7_000 + len(state.agenda)))
    ctx.push(Frame(kind="steps", seat=seat, card=card, steps=steps(*notation)))
    run(ctx)
    ctx.emit(ev.AgendaSet(frames=tuple(ctx.state.agenda), memo=ctx.state.memo))
    for event in ctx.events:
        game.evolve(state, event)


def market_unrest(state: ImperiumState) -> set[str]:
    """The unrest cards of the market: the pile and those tucked under market cards."""
    return set(state.unrest) | {c for slot in state.market for c in slot.unrest}


def where(state: ImperiumState, card: str) -> str:
    """Where ``card`` lies (``nowhere`` when in no zone of the game)."""
    for index, seat in enumerate(state.seats):
        for zone in ("hand", "deck", "deck_top", "discard", "play", "history", "nation_bottom"):
            if card in getattr(seat, zone):
                return f"{index}:{zone}"
    if state.civ is not None and any(card in cards for cards in state.civ.slots):
        return "civ/slot"
    if any(slot.card == card for slot in state.market):
        return "market"
    if any(card in cards for cards in state.piles.values()):
        return "pile"
    return "unrest" if card in market_unrest(state) else "nowhere"


# -- the default ------------------------------------------------------------------------------
def test_imperium_5_is_the_default_and_the_earlier_rulesets_stay() -> None:
    """A rules change is a new ruleset: new games get ``imperium/5``; the four earlier
    rulesets stay registered; its multiplayer and solo games carry revision 5."""
    assert GAMES["imperium"].ruleset_version == "imperium/5"
    assert rulesets_of("imperium") == ["imperium-classics/1", "imperium/2", "imperium/3",
                                       "imperium/4", "imperium/5"]  # fmt: skip
    assert game_of(NEW, ["romans", "celts"]).revision == 5
    assert solo_of(NEW, "carthaginians").revision == 5


# -- 1. nation unrest cards by player count ------------------------------------------------------
def test_nation_unrest_cards_follow_the_player_count_icon() -> None:
    """l.187-189 « les cartes avec 3+ ne sont pas utilisées dans une partie en solitaire ou à
    deux joueurs. Les cartes avec 4 ne sont pas utilisées dans une partie en solitaire ou à
    deux ou trois joueurs »; l.292-296 the nations' unrest cards « peuvent être retirées du jeu
    au cours de l'étape 5 ». At two players the Celts' CEL24-28 (3+/4) and the Vikings' VIK25
    (3+) and VIK26 (4) stay out; at three the 3+ cards come in, not the 4 ones. ``imperium/4``
    put them all in."""
    marked = {"CEL24", "CEL25", "CEL26", "CEL27", "CEL28", "VIK25", "VIK26"}
    two = game_of(NEW, ["celts", "vikings"])
    assert not marked & market_unrest(two)
    assert len(market_unrest(two)) == 8
    three = game_of(NEW, ["celts", "vikings", "romans"])
    assert {"CEL24", "CEL25", "VIK25"} <= market_unrest(three)
    assert not {"CEL26", "CEL27", "CEL28", "VIK26"} & market_unrest(three)
    four = game_of(NEW, ["celts", "vikings", "romans", "greeks"])
    assert marked <= market_unrest(four)
    assert marked <= market_unrest(game_of(OLD, ["celts", "vikings"]))


def test_solo_market_leaves_out_the_marked_unrest_of_both_nations() -> None:
    """Solo l.1892 (step 5) and l.1980-1981 « Retirez du jeu toutes les cartes avec les icônes
    3+ et 4 »: neither the human's nor the C.I.V.'s marked unrest cards are in the market;
    the C.I.V.'s unmarked setup-unrest cards (Utopians: UTO17-19) are."""
    new = solo_of(NEW, "utopians", human="celts")
    assert not {"CEL24", "CEL25", "CEL26", "CEL27", "CEL28", "UTO20", "UTO21"} & market_unrest(new)
    assert {"UTO17", "UTO18", "UTO19"} <= market_unrest(new)
    old = solo_of(OLD, "utopians", human="celts")
    assert {"CEL24", "CEL28", "UTO20", "UTO21"} <= market_unrest(old)


# -- 2. a barbarian cannot develop --------------------------------------------------------------
@pytest.mark.parametrize("game", [NEW, OLD], ids=["imperium/5", "imperium/4"])
def test_barbarian_egyptians_face_a_cannot_develop(game: ImperiumGame) -> None:
    """l.273-275: development cards « ne sont accessibles que si vous êtes un Empire ». The
    Egyptians' power face A (« 1 action + 1 unrest: develop », or « 1 population + 1 unrest:
    1 action ») does not offer its develop option to a barbarian under ``imperium/5``; under
    ``imperium/4`` a barbarian could develop with it."""
    state = game_of(game, ["egyptians", "romans"], sides=["A", "B"])
    me = state.seats[0]
    order(state)
    me.materials = me.population = me.progress = 30
    act(game, state, ChooseOrder(order="activate"))
    assert not me.empire and me.power == "EGY1A"
    act(game, state, Exhaust(card="EGY1A"))
    offered = game.pending(state).decision
    if game is NEW:
        assert offered == "payment"  # only the second option (pay 1 population) is left
        assert len(me.dev) == 8
    else:
        assert offered == "option"


def test_an_empire_still_develops_with_egyptians_face_a() -> None:
    """The check is the empire condition only: an Egyptian empire is offered the develop
    option and its development cards (DÉVELOPPER, l.844-855)."""
    state = game_of(NEW, ["egyptians", "romans"], sides=["A", "B"])
    me = state.seats[0]
    order(state)
    me.empire = True
    me.materials = me.population = me.progress = 30
    act(NEW, state, ChooseOrder(order="activate"))
    act(NEW, state, Exhaust(card="EGY1A"))
    assert NEW.pending(state).decision == "option"


# -- 3. collapse: reserved cards are not counted -------------------------------------------------
@pytest.mark.parametrize("game", [NEW, OLD], ids=["imperium/5", "imperium/4"])
def test_collapse_does_not_count_a_reserved_unrest_card(game: ImperiumGame) -> None:
    """EFFONDREMENT (l.625-626) counts the unrest of hand, play area, deck, discard and
    History; RÉSERVER (l.1168) « Une carte réservée n'est pas considérée comme étant dans votre
    zone de jeu ». Seat 0's only unrest card is reserved under Haliacmon Valley, seat 1 holds
    one in hand and has the better score: under ``imperium/5`` seat 0 has 0 unrest and wins
    the collapse alone; ``imperium/4`` counted 1-1 and gave it to seat 1 on score."""
    state = game_of(game, ["macedonians", "romans"])
    for seat in state.seats:
        for zone in ("hand", "deck", "discard", "play", "history"):
            setattr(seat, zone, [c for c in getattr(seat, zone) if "unrest" not in K.suits(c)])
    put(state, 0, "play", "MAC18")
    garrison(state, 0, "MAC18", "MAC21")
    put(state, 1, "hand", "ROM22")
    state.seats[1].progress = 10
    assert [unrest_count(state, s) for s in (0, 1)] == ([0, 1] if game is NEW else [1, 1])
    order(state)
    act(game, state, ChooseOrder(order="activate"))
    state.unrest = []
    act(game, state, EndActivate())
    assert state.collapse
    assert list(state.winners) == ([0] if game is NEW else [1])


def test_collapse_still_counts_the_atlanteans_submerged_pile() -> None:
    """The submerged pile stands for the Atlanteans' History (« Au lieu d'une pile Histoire,
    les Atlantes ont une pile Submersion »; ruling ``collapse_counts_every_unrest``)."""
    state = game_of(NEW, ["atlanteans", "romans"])
    for zone in ("hand", "deck", "discard", "play", "history"):
        setattr(state.seats[0], zone, [])
    put(state, 0, "submerged", "UNR1")
    assert unrest_count(state, 0) == 1


# -- 4. the C.I.V.'s personal-deck unrest cards ------------------------------------------------
@pytest.mark.parametrize("civ", ["carthaginians", "celts", "vikings"])
def test_civ_personal_deck_unrest_cards_stay_in_its_deck(civ: str) -> None:
    """MISE EN PLACE DE LA C.I.V. (l.1980-1983): « Retirez du jeu toutes les cartes avec les
    icônes 3+ et 4 et placez les cartes [Instabilités] dans la pioche des Instabilités. […]
    mélangez les cartes restantes »: the cards with the unrest-pile symbol are the pile's, the
    personal-deck unrest cards (no symbol) are among « les cartes restantes » and go to the
    C.I.V.'s deck or slots (RÉSOUDRE l.2030 sends one it reveals back to the pile). Under
    ``imperium/4`` they were in no zone of the game."""
    nation = C.NATIONS[civ]
    personal = [c for c in nation.starting_deck if "unrest" in K.suits(c)]
    assert personal
    new = solo_of(NEW, civ)
    assert {where(new, c) for c in personal} <= {"1:deck", "civ/slot"}
    for card in nation.unrest_pile:
        marked = C.CARDS[card].player_count is not None
        assert where(new, card) == ("nowhere" if marked else "unrest")
    old = solo_of(OLD, civ)
    assert {where(old, c) for c in personal} == {"nowhere"}


# -- 5. campaign: an added card leaves the market -----------------------------------------------
@pytest.mark.parametrize("game", [NEW, OLD], ids=["imperium/5", "imperium/4"])
def test_campaign_card_added_to_the_deck_is_not_also_in_the_market(game: ImperiumGame) -> None:
    """MODE CAMPAGNE (l.2261-2263): a gained card is added « à votre deck de départ pour le
    reste de la campagne »: the same physical card (ids are per copy) cannot also be dealt to
    the market. ``imperium/4`` dealt it twice."""
    added = ["1REG10", "1CIV3", "1UNC5", "1TRI9"]
    state = solo_of(game, "carthaginians", deck_added=added)
    for card in added:
        assert where(state, card) in ("0:hand", "0:deck")
        in_market = any(slot.card == card for slot in state.market) or any(
            card in cards for cards in state.piles.values()
        )
        assert in_market is (game is OLD)


@pytest.mark.parametrize("game", [NEW, OLD], ids=["imperium/5", "imperium/4"])
def test_campaign_card_added_then_removed_goes_back_to_the_market(game: ImperiumGame) -> None:
    """A card a campaign added after one win and removed after a later one: from
    ``imperium/5`` it is no longer in the human's deck and is a market card again;
    ``imperium/4`` kept it in the deck (removing it changed nothing), and dealt it to the
    market as well."""
    state = solo_of(game, "carthaginians", deck_added=["1REG10", "1CIV3"],
                    deck_removed=["1REG10"])  # fmt: skip
    assert where(state, "1CIV3") in ("0:hand", "0:deck")
    in_deck = where(state, "1REG10") in ("0:hand", "0:deck")
    assert in_deck is (game is OLD)
    in_market = any(slot.card == "1REG10" for slot in state.market) or any(
        "1REG10" in cards for cards in state.piles.values()
    )
    assert in_market


# -- 6. the Atlantean C.I.V.'s dynasty deck ----------------------------------------------------
@pytest.mark.parametrize("seed", [b"a1", b"a2", b"a3"])
def test_atlantean_civ_dynasty_regions_shuffled_on_top(seed: bytes) -> None:
    """MISE EN PLACE DE LA C.I.V., Atlantes (l.1960-1967): « Mettez de côté toutes les cartes +
    qui sont des [régions] (the '.' glyph, as l.1904 « Mélangez les cartes . […] C'est la
    pioche Région ») […] Considérez que toutes les cartes [?] valent 5 […] Mélangez les cartes
    [régions] mises de côté et placez-les sur le dessus »: the two regions (ATL10, ATL11) on
    top, then the others by VP with Advanced Culture (ATL2) at 5. ``imperium/4`` put ATL2 on
    top and the regions at the bottom."""
    new = solo_of(NEW, "atlanteans", seed=seed).seats[CIV].nation_bottom
    assert set(new[:2]) == {"ATL10", "ATL11"}
    values = [estimated_vp(solo_of(NEW, "atlanteans", seed=seed), c) for c in new[2:]]
    assert values == sorted(values, reverse=True) and set(new[2:4]) == {"ATL2", "ATL3"}
    old = solo_of(OLD, "atlanteans", seed=seed).seats[CIV].nation_bottom
    assert old[0] == "ATL2" and set(old[-2:]) == {"ATL10", "ATL11"}


# -- 7. a taken card goes to the hand -----------------------------------------------------------
@pytest.mark.parametrize("game", [NEW, OLD], ids=["imperium/5", "imperium/4"])
def test_recuperer_an_unrest_card_goes_to_the_hand(game: ImperiumGame) -> None:
    """RÉCUPÉRER (l.1109-1118): « Choisissez [une carte] dans la pile correspondante et
    ajoutez-la à votre main »: Corruption's « Récupérez une [instabilité] » puts the top unrest
    card in the taker's hand; ``imperium/4`` put it in the discard (decision
    ``take_destination``)."""
    state = game_of(game, ["macedonians", "romans"])
    top = state.unrest[-1]
    effect(game, state, 0, "1CIV4", {"take": {"pile": "unrest"}})
    assert where(state, top) == ("0:hand" if game is NEW else "0:discard")


@pytest.mark.parametrize("game", [NEW, OLD], ids=["imperium/5", "imperium/4"])
def test_recuperer_a_looked_at_fame_card_goes_to_the_hand(game: ImperiumGame) -> None:
    """RÉCUPÉRER with REGARDER (Glory: look at 2 fame cards, take 1): the taken card goes to
    the hand under ``imperium/5``, to the discard under ``imperium/4``."""
    state = game_of(game, ["macedonians", "romans"])
    take_out(state, "1FAM1")
    take_out(state, "1FAM2")
    state.fame_top = ["1FAM1", "1FAM2"]
    effect(game, state, 0, "MAC12", {"look": {"pile": "fame", "count": 2}},
           {"take": {"from": "looked_at", "count": 1}})  # fmt: skip
    act(game, state, Pick(card="1FAM2"))
    assert where(state, "1FAM2") == ("0:hand" if game is NEW else "0:discard")


def test_solo_human_takes_into_hand_and_civ_onto_its_deck() -> None:
    """The human's « Vous récupérez » goes to the human's hand in a solo game too; the same
    step for the C.I.V.'s seat puts the card on its deck (its own rule, « ajoutez-les
    au-dessus de son deck C.I.V. », l.2118-2122, applied by its hooks before the generic step;
    more in ``tests/imperium/test_solo_ruleset5.py``)."""
    state = solo_of(NEW, "carthaginians")
    human_top = state.unrest[-1]
    effect(NEW, state, 0, "1CIV4", {"take": {"pile": "unrest"}})
    assert where(state, human_top) == "0:hand"
    civ_top = state.unrest[-1]
    effect(NEW, state, CIV, "1CIV4", {"take": {"pile": "unrest"}})
    assert civ_top in state.seats[CIV].deck_top


def test_corruption_played_makes_the_other_player_take_into_hand() -> None:
    """The same through a played card, driven by ``decide``: Corruption (1CIV4) « chaque autre
    joueur récupère une [instabilité] »: the top unrest card goes to seat 1's hand."""
    state = game_of(NEW, ["macedonians", "romans"])
    order(state)
    hand(state, 0, "1CIV4")
    state.seats[0].empire = True
    act(NEW, state, ChooseOrder(order="activate"))
    top = state.unrest[-1]
    act(NEW, state, PlayCard(card="1CIV4"))
    assert where(state, top) == "1:hand"
