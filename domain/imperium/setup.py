"""Setting up a game ("Mise en place des joueurs", "Mise en place générale").

Nations come from the options (or are drawn at random), each seat lays out its power card
(face A or B), nation deck with the accession card at the bottom, development area, state card
(barbarian side unless the nation starts as an empire), starting tokens and personal deck, then
draws 5 cards. The market: the unrest pile (common unrest for the player count plus the
nations' unrest cards), the fame deck on King of Kings (face A) less 2/1/0 unseen cards, the
region, uncivilised and civilised decks of 6/7/8 cards, the main deck with the rest and the
tributaries, five face-up cards (an unrest card under uncivilised, civilised and tributary
cards, a progress token on civilised cards without the uncivilised icon) and the Solstice card
placed at random.
"""

from __future__ import annotations

from domain.core import MalformedCommand
from domain.imperium import content as C
from domain.imperium import events as ev
from domain.imperium.engine import Ctx
from domain.imperium.market import refill
from domain.imperium.ops import draw_one
from domain.imperium.state import SLOT_KINDS
from domain.imperium.turns import start_turn


def nations_for(ctx: Ctx) -> tuple[str, ...]:
    """The nation of each seat: from the options, else drawn at random (all different)."""
    state = ctx.state
    chosen = tuple(state.options.nations)
    if chosen:
        if len(chosen) != state.n or len(set(chosen)) != state.n:
            raise MalformedCommand("NATIONS", "Give one different nation per seat.")
        unknown = [key for key in chosen if key not in C.NATIONS]
        if unknown:
            raise MalformedCommand("NATIONS", f"Unknown Classics nations: {unknown}.")
        return chosen
    pool = list(C.CLASSICS_NATIONS)
    return tuple(pool[i] for i in ctx.chance.permutation(len(pool))[: state.n])


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
                in_play=tuple(nation.in_play),
            )
        )
    size = C.SETUP.market_deck_size.values[str(n)]
    removed_count = C.SETUP.fame_removed.values[str(n)]
    piles: dict[str, tuple[str, ...]] = {}
    main: list[str] = list(C.pile_cards("tributary", n))
    for pile in ("region", "uncivilised", "civilised"):
        cards = list(C.pile_cards(pile, n))
        order = ctx.chance.permutation(len(cards))
        piles[pile] = tuple(sorted(cards[i] for i in order[:size]))
        main += [cards[i] for i in order[size:]]
    fame = list(C.pile_cards("fame", n))
    order = ctx.chance.permutation(len(fame))
    removed = tuple(sorted(fame[i] for i in order[:removed_count]))
    piles["fame"] = tuple(sorted(fame[i] for i in order[removed_count:]))
    piles["main"] = tuple(sorted(main))
    ctx.emit(
        ev.MarketPrepared(
            piles=piles,
            unrest=C.unrest_pile(n, nations),
            removed=removed,
            slots=SLOT_KINDS,
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
