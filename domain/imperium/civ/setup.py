"""A solo game's options and setup ("SOLO": "MISE EN PLACE DU JOUEUR", "MISE EN PLACE
GÉNÉRALE", "MISE EN PLACE DE LA C.I.V.", "NIVEAUX DE DIFFICULTÉ").

The market is the two-player one (cards marked 3+ or 4 removed, 6 cards per deck, 2 fame cards
removed unseen) with both nations' unrest cards (from ``imperium/5`` those marked 3+ or 4
removed too, and a card a campaign added to the human's deck left out of the market); the human
plays first. The C.I.V.: its deck is its nation's personal-deck cards shuffled (its power card
set aside; its unrest cards kept from ``imperium/5``, :func:`civ_deck`), its dynasty deck the
nation cards shuffled on its accession card on its developments sorted by VP (most on top, ties
at random), its state card barbarian (Atlanteans: empire), one face-down card per location
slot (Chef de clan / Seigneur de guerre: a token in slot 5; Suzerain: a slot 6).
"""

from __future__ import annotations

from domain.core import MalformedCommand
from domain.imperium import cards as K
from domain.imperium import content as C
from domain.imperium import events as ev
from domain.imperium.civ import CIV
from domain.imperium.civ import content as S
from domain.imperium.civ import voyage as V
from domain.imperium.civ.events import CivPrepared
from domain.imperium.civ.ops import estimated_vp
from domain.imperium.civ.state import CivState
from domain.imperium.civ.turn import refill as fill_slots
from domain.imperium.engine import Ctx
from domain.imperium.market import refill
from domain.imperium.nation_rules import rules_for
from domain.imperium.ops import draw_one, z
from domain.imperium.setup import common_box, tributaries
from domain.imperium.state import SLOT_KINDS, ImperiumOptions, ImperiumState, SeatState
from domain.imperium.turns import start_turn

#: the level of a one-seat game created without ``difficulty`` ("Imperator: les règles
#: normales s'appliquent").
DEFAULT_LEVEL = "imperator"


def _field(name: str, message: str) -> MalformedCommand:
    return MalformedCommand(name.upper(), f"Option {name}: {message}")


def check_options(options: ImperiumOptions, seats: int) -> None:
    """Refuse unknown solo option values (``MalformedCommand`` naming the field)."""
    solo = (options.difficulty, options.supreme_master, options.civ_nation, options.civ_side,
            options.campaign_id, options.deck_added, options.deck_removed,
            options.bonus_tokens, options.unrest_removed)  # fmt: skip
    if seats != 1:
        if any(solo):
            raise _field("difficulty", "the solo options need a one-seat game.")
        return
    if options.difficulty and options.difficulty not in S.LEVELS:
        raise _field("difficulty", f"unknown level {options.difficulty!r}; known: "
                     f"{', '.join(S.LEVELS)}.")  # fmt: skip
    if options.supreme_master and (options.difficulty or "overlord") != "overlord":
        raise _field("supreme_master", "Maître suprême plays at the overlord level.")
    if options.civ_nation and options.civ_nation not in C.NATIONS:
        raise _field("civ_nation", f"unknown nation {options.civ_nation!r}; known: "
                     f"{', '.join(C.ALL_NATIONS)}.")  # fmt: skip
    if options.civ_side not in ("", "A", "B"):
        raise _field("civ_side", "A or B.")
    if len(options.nations) > 1 or any(n not in C.NATIONS for n in options.nations):
        raise _field("nations", f"one nation for the human; known: {', '.join(C.ALL_NATIONS)}.")
    if options.nations and options.nations[0] == options.civ_nation:
        raise _field("civ_nation", "the C.I.V. plays another nation than the human.")
    if len(options.sides) > 1 or any(s not in ("A", "B") for s in options.sides):
        raise _field("sides", "one face, A or B, for the human.")
    if options.bonus_tokens and (len(options.bonus_tokens) != 3
                                 or any(t < 0 for t in options.bonus_tokens)):  # fmt: skip
        raise _field("bonus_tokens", "three non-negative amounts (materials, population, "
                     "progress).")  # fmt: skip
    if any(c not in C.COMMON_UNREST for c in options.unrest_removed):
        raise _field("unrest_removed", f"only common unrest cards: {', '.join(C.COMMON_UNREST)}.")
    for name, cards in (("deck_added", options.deck_added), ("deck_removed", options.deck_removed)):
        unknown = [c for c in cards if c not in C.CARDS]
        if unknown:
            raise _field(name, f"unknown cards {unknown}.")


def solo_initial(options: ImperiumOptions, revision: int = 1) -> ImperiumState:
    """The state of a one-seat game before setup: two internal seats (the human, the C.I.V.);
    ``revision``: the rules revision (1 for the solo games of the first two rulesets)."""
    check_options(options, 1)
    level = S.LEVELS[-1] if options.supreme_master else options.difficulty or DEFAULT_LEVEL
    civ = CivState(nation=options.civ_nation, level=level, supreme=options.supreme_master)
    return ImperiumState(options=options, n=2, seats=[SeatState(), SeatState()], civ=civ,
                         revision=revision)  # fmt: skip


def _nations(ctx: Ctx) -> tuple[str, str]:
    options = ctx.state.options
    box = options.box or "classics"
    pool = [k for k in C.ALL_NATIONS if C.NATIONS[k].box == box]
    human = options.nations[0] if options.nations else ""
    if not human:
        choices = [k for k in pool if k != options.civ_nation]
        human = choices[ctx.chance.below(len(choices))]
    civ = options.civ_nation
    if not civ:
        choices = [k for k in pool if k != human]
        civ = choices[ctx.chance.below(len(choices))]
    return human, civ


def campaign_added(state: ImperiumState) -> list[str]:
    """The cards a campaign added to the human's starting deck (option ``deck_added``). From
    ``imperium/5`` a card added by one win and removed by a later one (``deck_removed``) is
    no longer among them: it goes back to the common cards; earlier rulesets kept it in the
    deck, so that removing it changed nothing."""
    options = state.options
    if state.revision < 5:
        return list(options.deck_added)
    return [c for c in options.deck_added if c not in options.deck_removed]


def _human(ctx: Ctx, key: str) -> None:
    options = ctx.state.options
    nation = C.NATIONS[key]
    side = options.sides[0] if options.sides else "B"
    deck = [c for c in nation.starting_deck if c not in options.deck_removed]
    deck += campaign_added(ctx.state)
    tokens = tuple(options.bonus_tokens) or (3, 2, 1)
    ctx.emit(ev.SeatPrepared(
        seat=0, nation=key, power=nation.power[0 if side == "A" else 1].id,
        empire=nation.starting_state == "empire", deck=tuple(deck),
        nation_deck=tuple(nation.nation_deck), accession=tuple(nation.accession),
        development=tuple(nation.development),
        in_play=tuple(c for c in nation.in_play if C.CARDS[c].faces[:1] in ((), (c,))),
        materials=tokens[0], population=tokens[1], progress=tokens[2],
        exhaust=rules_for(key).exhaust_tokens,
    ))  # fmt: skip
    rules_for(key).setup(ctx, 0)


def dynasty_bottom(ctx: Ctx, key: str) -> list[str]:
    """Its developments in dynasty order, uppermost first: most VP on top (variable: 5;
    conditional: highest), ties at random.

    Atlanteans (« Mettez de côté toutes les cartes + qui sont des [régions] […] Mélangez les
    cartes [régions] mises de côté et placez-les sur le dessus de la pile »): from
    ``imperium/5`` the region developments are shuffled on top and the '?' card (Advanced
    Culture) is sorted with the others at 5 VP; earlier rulesets read the set-aside cards as
    the '?' cards (the OCR prints the region icon as '.').
    """
    rule = S.nation_rule(key).dynasty
    cards = list(C.NATIONS[key].development)
    if rule in ("none", "arthurians", "no_developments"):
        return []
    order = ctx.chance.permutation(len(cards))
    shuffled = [cards[i] for i in order]
    state = ctx.state
    if rule == "atlanteans":
        if state.revision >= 5:
            aside = [c for c in shuffled if "region" in K.suits(c)]
        else:
            aside = [c for c in shuffled if K.vp_data(c).get("kind") == "variable"]
        rest = [c for c in shuffled if c not in aside]
        return aside + sorted(rest, key=lambda c: -estimated_vp(state, c))
    return sorted(shuffled, key=lambda c: -estimated_vp(state, c))


def civ_deck(revision: int, key: str) -> tuple[str, ...]:
    """The C.I.V.'s deck before its shuffle: its nation's personal-deck cards without those
    marked 3+ or 4 (« Retirez du jeu toutes les cartes avec les icônes 3+ et 4 et placez les
    cartes [Instabilités] dans la pioche des Instabilités. […] mélangez les cartes
    restantes »). Its cards with the unrest-pile symbol join the unrest pile with the market
    (:func:`domain.imperium.content.unrest_pile`); from ``imperium/5`` its personal-deck
    unrest cards are among « les cartes restantes » and stay in its deck (a revealed one goes
    back to the unrest pile, « RÉSOUDRE »); earlier rulesets left them out of the game.

    >>> [c for c in civ_deck(5, "carthaginians") if c.startswith("CAR2")]
    ['CAR20', 'CAR21', 'CAR22', 'CAR23']
    >>> [c for c in civ_deck(4, "carthaginians") if c.startswith("CAR2")]
    ['CAR20', 'CAR21']
    """
    cards = [c for c in C.NATIONS[key].starting_deck if C.in_game(C.CARDS[c], 2)]
    if revision < 5:
        cards = [c for c in cards if "unrest" not in C.CARDS[c].suits]
    return tuple(cards)


def _civ(ctx: Ctx, key: str) -> None:
    civ = ctx.state.civ
    assert civ is not None
    nation = C.NATIONS[key]
    rule = S.nation_rule(key)
    level = S.level(civ.level)
    side = ctx.state.options.civ_side or "B"
    deck = civ_deck(ctx.state.revision, key)
    standard = rule.dynasty not in ("none", "atlanteans")
    tokens = level.setup_tokens
    ctx.emit(ev.SeatPrepared(
        seat=CIV, nation=key, power=nation.power[0 if side == "A" else 1].id,
        empire=rule.starts_empire or nation.starting_state == "empire", deck=deck,
        nation_deck=tuple(nation.nation_deck) if standard else (),
        accession=tuple(nation.accession) if standard else (), development=(),
        materials=tokens[0], population=tokens[1], progress=tokens[2], actions=0, exhaust=0,
    ))  # fmt: skip
    for card in dynasty_bottom(ctx, key):
        ctx.emit(ev.CardMoved(seat=CIV, card=card, src="civ/aside", dst=z(CIV, "nation_bottom")))
    ctx.emit(CivPrepared(nation=key, level=civ.level, supreme=civ.supreme, slots=level.slots,
                         token_slot=level.token_slot))  # fmt: skip
    if V.applies(ctx, "utopians"):
        V.setup_voyage(ctx)
    elif V.applies(ctx, "arthurians"):
        V.setup_quests(ctx)


def solo_deal(ctx: Ctx) -> None:
    """Emit every setup event of a solo game and start the human's first turn."""
    human, civ = _nations(ctx)
    nations = (human, civ)
    _human(ctx, human)
    _civ(ctx, civ)
    revision = ctx.state.revision
    # from imperium/5 a card a campaign added to the human's deck is no longer a market card
    # (« ajoutez-la à votre deck de départ pour le reste de la campagne »)
    added = set(campaign_added(ctx.state)) if revision >= 5 else set()
    size = C.SETUP.market_deck_size.values["2"]
    piles: dict[str, tuple[str, ...]] = {}
    box = common_box(ctx.state.options.box, nations)
    main = [c for c in tributaries(box, 2, nations, ctx.chance) if c not in added]
    for pile in ("region", "uncivilised", "civilised"):
        cards = [c for c in C.pile_cards(pile, 2, box) if c not in added]
        order = ctx.chance.permutation(len(cards))
        piles[pile] = tuple(sorted(cards[i] for i in order[:size]))
        main += [cards[i] for i in order[size:]]
    fame = [c for c in C.pile_cards("fame", 2, box) if c not in added]
    order = ctx.chance.permutation(len(fame))
    removed = C.SETUP.fame_removed.values["2"]
    piles["fame"] = tuple(sorted(fame[i] for i in order[removed:]))
    piles["main"] = tuple(sorted(main))
    left_out = set(ctx.state.options.unrest_removed) | added
    nation_unrest = C.unrest_pile(2, nations, nations_by_count=revision >= 5)
    unrest = tuple(c for c in nation_unrest if c not in left_out)
    ctx.emit(ev.MarketPrepared(piles=piles, unrest=unrest,
                               removed=tuple(sorted(fame[i] for i in order[:removed])),
                               slots=SLOT_KINDS, box=box))  # fmt: skip
    for index in range(len(SLOT_KINDS)):
        refill(ctx, index)
    for index, slot in enumerate(ctx.state.market):
        suits = C.CARDS[slot.card].suits if slot.card else ()
        if "civilised" in suits and "uncivilised" not in suits:
            ctx.emit(ev.SlotTokensChanged(slot=index, progress=1))
    fill_slots(ctx)
    for _ in range(5):
        draw_one(ctx, 0, track=False)
    ctx.emit(ev.SolsticePlaced(first=0))
    start_turn(ctx, 0, 1)
