"""Setting up a game ("Mise en place des joueurs", "Mise en place générale").

Nations come from the options (or are drawn at random), each seat lays out its power card
(face A or B), nation deck with the accession card at the bottom, development area, state card
(barbarian side unless the nation starts as an empire), starting tokens and personal deck, then
draws 5 cards. The market: the unrest pile (common unrest for the player count plus the
nations' unrest cards; from ``imperium/5`` those too by their player-count icon), the fame
deck on King of Kings (face A) less 2/1/0 unseen cards, the region, uncivilised and civilised
decks of 6/7/8 cards, the main deck with the rest and the tributaries, five face-up cards (an
unrest card under uncivilised, civilised and tributary cards, a progress token on civilised
cards without the uncivilised icon) and the Solstice card placed at random.

Both boxes ("Combiner les jeux Antique et Légendes"): any nation may be played with the common
cards of either box (option ``box``); a tributary of that box named like a chosen nation is
replaced by a random tributary of the other box, redrawn while it does not fit the player count
or also names a chosen nation (:func:`tributaries`).
"""

from __future__ import annotations

from domain.core import Chance, MalformedCommand
from domain.imperium import content as C
from domain.imperium import events as ev
from domain.imperium.engine import Ctx
from domain.imperium.market import refill
from domain.imperium.nation_rules import rules_for
from domain.imperium.ops import draw_one
from domain.imperium.state import SLOT_KINDS
from domain.imperium.turns import start_turn


def nations_for(ctx: Ctx) -> tuple[str, ...]:
    """The nation of each seat: from the options (any of the playable nations of both boxes),
    else drawn at random (all different) among the nations of the option ``box``."""
    state = ctx.state
    chosen = tuple(state.options.nations)
    if chosen:
        unknown = [key for key in chosen if key not in C.NATIONS]
        if unknown:
            raise MalformedCommand(
                "NATIONS",
                f"Option nations: unknown nation {unknown[0]!r}"
                f"{f' (and {unknown[1:]})' if unknown[1:] else ''}; "
                f"valid nations: {', '.join(C.ALL_NATIONS)}.",
            )
        if len(chosen) != state.n or len(set(chosen)) != state.n:
            raise MalformedCommand(
                "NATIONS",
                f"Option nations: {list(chosen)} must name one different nation per seat "
                f"({state.n} seats).",
            )
        if len(chosen) != state.n or len(set(chosen)) != state.n:
            raise MalformedCommand(
                "NATIONS",
                f"Give one different nation per seat: {len(chosen)} given "
                f"({len(set(chosen))} different) for {state.n} seats.",
            )
        return chosen
    box = state.options.box or "classics"
    pool = [key for key in C.ALL_NATIONS if C.NATIONS[key].box == box]
    if len(pool) < state.n:
        raise MalformedCommand("NATIONS", f"Only {len(pool)} {box} nations can be drawn.")
    return tuple(pool[i] for i in ctx.chance.permutation(len(pool))[: state.n])


def common_box(box_option: str, nations: tuple[str, ...]) -> C.Box:
    """The box whose common cards are used: the option, else Legends when every nation comes
    from the Legends box, else Classics (decision ``combined_box_choice``).

    >>> common_box("", ("romans", "celts")), common_box("legends", ("romans", "celts"))
    ('classics', 'legends')
    """
    for box in C.BOXES:
        if box_option == box:
            return box
    if box_option:
        raise MalformedCommand("BOX", f"Unknown box {box_option!r}: classics or legends.")
    return "legends" if all(C.NATIONS[k].box == "legends" for k in nations) else "classics"


def tributaries(box: C.Box, players: int, nations: tuple[str, ...], chance: Chance
                ) -> tuple[str, ...]:  # fmt: skip
    """The tributary cards of the game ("Combiner les jeux Antique et Légendes", 2): those of
    ``box`` for the player count, each one named like a chosen nation replaced by a random
    tributary of the other box, redrawn while it has a player-count icon that does not fit or
    also names a chosen nation (drawing among the fitting ones is the same draw).

    >>> cards = tributaries("legends", 2, ("romans", "celts"), Chance(b"doc", 0))
    >>> len(cards), "2TRI9" in cards, [c for c in cards if c.startswith("1")]
    (9, False, ['1TRI9'])
    """
    names = {C.NATIONS[key].name for key in nations}
    other: C.Box = "legends" if box == "classics" else "classics"
    spare = [c for c in C.pile_cards("tributary", players, other) if C.CARDS[c].name not in names]
    result = []
    for card in C.pile_cards("tributary", players, box):
        if C.CARDS[card].name in names:
            if not spare:
                raise MalformedCommand("BOX", "No tributary of the other box can replace it.")
            card = spare.pop(chance.below(len(spare)))
        result.append(card)
    return tuple(result)


def deal(ctx: Ctx) -> None:
    """Emit every setup event and start the first turn."""
    state = ctx.state
    n = state.n
    nations = nations_for(ctx)
    sides = tuple(state.options.sides) or ("B",) * n
    if len(sides) != n or any(s not in ("A", "B") for s in sides):
        raise MalformedCommand("SIDES", "Give face A or B for every seat.")
    for seat, key in enumerate(nations):
        nation = C.NATIONS[key]
        power = nation.power[0 if sides[seat] == "A" else 1].id
        ctx.emit(
            ev.SeatPrepared(
                seat=seat,
                nation=key,
                power=power,
                empire=nation.starting_state == "empire",
                deck=tuple(nation.starting_deck),
                nation_deck=tuple(nation.nation_deck),
                accession=tuple(nation.accession),
                development=tuple(nation.development),
                in_play=tuple(c for c in nation.in_play if C.CARDS[c].faces[:1] in ((), (c,))),
                exhaust=rules_for(key).exhaust_tokens,
            )
        )
        rules_for(key).setup(ctx, seat)
    size = C.SETUP.market_deck_size.values[str(n)]
    removed_count = C.SETUP.fame_removed.values[str(n)]
    piles: dict[str, tuple[str, ...]] = {}
    box = common_box(state.options.box, nations)
    main: list[str] = list(tributaries(box, n, nations, ctx.chance))
    for pile in ("region", "uncivilised", "civilised"):
        cards = list(C.pile_cards(pile, n, box))
        order = ctx.chance.permutation(len(cards))
        piles[pile] = tuple(sorted(cards[i] for i in order[:size]))
        main += [cards[i] for i in order[size:]]
    fame = list(C.pile_cards("fame", n, box))
    order = ctx.chance.permutation(len(fame))
    removed = tuple(sorted(fame[i] for i in order[:removed_count]))
    piles["fame"] = tuple(sorted(fame[i] for i in order[removed_count:]))
    piles["main"] = tuple(sorted(main))
    ctx.emit(
        ev.MarketPrepared(
            piles=piles,
            unrest=C.unrest_pile(n, nations, nations_by_count=state.revision >= 5),
            removed=removed,
            slots=SLOT_KINDS,
            box=box,
        )
    )
    for index in range(len(SLOT_KINDS)):
        refill(ctx, index)
    for index, slot in enumerate(ctx.state.market):
        suits = C.CARDS[slot.card].suits if slot.card else ()
        if "civilised" in suits and "uncivilised" not in suits:
            ctx.emit(ev.SlotTokensChanged(slot=index, progress=1))
    for seat in range(n):
        for _ in range(5):
            draw_one(ctx, seat, track=False)
    ctx.emit(ev.SolsticePlaced(first=ctx.chance.below(n)))
    start_turn(ctx, ctx.state.first, 1)
