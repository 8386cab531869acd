"""WHEN PLAYED tapestry cards: one handler per card key (see :mod:`domain.tapestry.cards`).

Rules: "Capacités des cartes Fresque" (a WHEN PLAYED ability resolves once, when the card is
played or copied), the card texts summarised in ``content/tapestry_cards.json``, F.À.Q.
"Cartes Fresque particulières" (Technocracy over a THIS ERA card, Dictatorship against
Socialism, Colonialism and the central island, Dark Ages), "Règles générales" (neighbours;
after your fifth income turn you gain nothing more).

Cards whose whole ability is a structured ``benefit`` in the content (Democracy's draw,
Diplomacy, Dystopia, Feudalism, Meritocracy, Renaissance, Revolution, Trap) need no handler
here, or only the part the benefit cannot say (Democracy's discards).
"""

from __future__ import annotations

from domain.core import Command
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.cards import DICTATORSHIP, WHEN_PLAYED, Handler, others
from domain.tapestry.cards_era import marriage_echo
from domain.tapestry.commands import Choose, Decline, Invent
from domain.tapestry.engine import AUTO, DECISIONS, Ctx, expr_frame
from domain.tapestry.gains import draw_territory, gain_resources, score
from domain.tapestry.offers import draw_frame
from domain.tapestry.rules import extra_options, gain
from domain.tapestry.state import RESOURCES, TRACK_IDS, Frame, TapestryState
from domain.tapestry.tech import FROM_DECK, invent
from domain.tapestry.tracks import (
    FULL,
    NONE,
    RESEARCH_FULL,
    RESEARCH_NONE,
    advance_frame,
    blocked,
    move,
    roll_science,
)


def dictated(state: TapestryState, seat: int, track: int) -> bool:
    """``True`` when an opponent's Dictatorship forbids ``seat`` any move on ``track``
    (F.À.Q.: "Dictature empêche tout mouvement")."""
    for other in others(state, seat):
        closed = state.seats[other].civ_tokens.get(DICTATORSHIP, [])
        if closed and closed[0] == track:
            return True
    return False


# -- simple comparisons --------------------------------------------------------------------
def _age_of_discovery(ctx: Ctx, seat: int) -> None:
    """Roll the science die; every player advances there, only you with benefit and bonus."""
    track = roll_science(ctx, seat)
    frames = []
    for step in range(ctx.state.n):
        other = (seat + step) % ctx.state.n
        if other != seat and ctx.state.seats[other].finished:
            continue
        mode = FULL if other == seat else NONE
        frames.append(advance_frame(other, track, mode, "age_of_discovery"))
    ctx.push(*frames)


def _age_of_wonders(ctx: Ctx, seat: int) -> None:
    """Fewest landmarks: 2 resources; most: 12 VP; otherwise (ties too) 1 resource and 6 VP."""
    mine = len(ctx.state.seats[seat].landmarks)
    theirs = [len(ctx.state.seats[s].landmarks) for s in others(ctx.state, seat)]
    if theirs and all(mine < o for o in theirs):
        ctx.push(expr_frame(seat, gain("gain_any_resource", 2), "age_of_wonders"))
    elif theirs and all(mine > o for o in theirs):
        score(ctx, seat, 12, "age_of_wonders")
    else:
        ctx.push(expr_frame(seat, gain("gain_any_resource"), "age_of_wonders"))
        score(ctx, seat, 6, "age_of_wonders")


def _boast(ctx: Ctx, seat: int) -> None:
    """4 VP per track where no opponent is further than you."""
    state = ctx.state
    tracks = 0
    for track in range(len(TRACK_IDS)):
        mine = state.seats[seat].position(track)
        if all(state.seats[o].position(track) <= mine for o in others(state, seat)):
            tracks += 1
    score(ctx, seat, 4 * tracks, "boast_of_superiority")


def _plea(ctx: Ctx, seat: int) -> None:
    """2 VP and 1 resource per track where every opponent is further than you."""
    state = ctx.state
    for track in range(len(TRACK_IDS)):
        mine = state.seats[seat].position(track)
        rivals = others(state, seat)
        if rivals and all(state.seats[o].position(track) > mine for o in rivals):
            score(ctx, seat, 2, "plea_for_aid")
            ctx.push(expr_frame(seat, gain("gain_any_resource"), "plea_for_aid"))


def _technocracy(ctx: Ctx, seat: int) -> None:
    """First into this era: invent and upgrade the new card; else 3 VP per opponent.

    F.À.Q. "Technocratie par-dessus une carte CETTE ÈRE": the test is made when it is played.
    """
    state = ctx.state
    era = state.seats[seat].income_turns
    if all(state.seats[o].income_turns < era for o in others(state, seat)):
        ctx.push(Frame(kind="invent", seat=seat, token="upgrade", source="technocracy"))
    else:
        score(ctx, seat, 3 * len(others(state, seat)), "technocracy")


# -- map -----------------------------------------------------------------------------------
def _coal_baron(ctx: Ctx, seat: int) -> None:
    """Take a territory tile and explore with it; then both neighbours take a tile."""
    tiles = draw_territory(ctx, seat, 1)
    frames = []
    if tiles:
        frames.append(Frame(kind="explore", seat=seat, ints=(0, tiles[0]), source="coal_baron"))
    frames.append(Frame(kind="coal_neighbours", seat=seat))
    ctx.push(*frames)


def _coal_neighbours(ctx: Ctx, top: Frame) -> None:
    for neighbour in ctx.state.neighbours(top.seat):
        if not ctx.state.seats[neighbour].finished:
            extra = extra_options(ctx.state, neighbour)
            if extra:  # a Psionics neighbour draws two, keeps one
                ctx.push(draw_frame(neighbour, "territory", 1, extra))
            else:
                draw_territory(ctx, neighbour, 1)


AUTO["coal_neighbours"] = _coal_neighbours

_LAND_RESOURCE = {"mountain": "worker", "grassland": "culture", "forest": "food", "desert": "coin"}


def _colonialism(ctx: Ctx, seat: int) -> None:
    ctx.push(Frame(kind="colonialism", seat=seat))


def colonies(state: TapestryState, seat: int) -> list[int]:
    """Explored territory tiles ``seat`` controls (printed hexes are not tiles, F.À.Q.)."""
    return [i for i, h in enumerate(state.hexes) if h.controller() == seat and h.tile >= 0]


def _colonialism_options(state: TapestryState, top: Frame) -> list[Command]:
    return [Choose(index=i) for i in colonies(state, top.seat)]


def _colonialism_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    """One resource per land type of the tile: mountain worker, grassland culture, forest
    food, desert coin."""
    assert isinstance(command, Choose)
    tile = C.TERRITORY_TILES[ctx.state.hexes[command.index].tile]
    lands = {*tile.corners, *([tile.center] if tile.center else [])}
    delta = [0, 0, 0, 0]
    for land in sorted(lands):
        if land in _LAND_RESOURCE:
            delta[RESOURCES.index(_LAND_RESOURCE[land])] += 1
    gain_resources(ctx, top.seat, (delta[0], delta[1], delta[2], delta[3]), "colonialism")


DECISIONS["colonialism"] = (_colonialism_options, _colonialism_answer)


# -- hand and exchanges --------------------------------------------------------------------
def _democracy(ctx: Ctx, seat: int) -> None:
    ctx.push(Frame(kind="democracy", seat=seat))


def _democracy_options(state: TapestryState, top: Frame) -> list[Command]:
    hand = sorted(set(state.seats[top.seat].hand))
    return [*(Choose(index=c) for c in hand), Decline()]


def _democracy_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    """Discard one card for 2 VP and ask again, until the seat stops."""
    if isinstance(command, Choose):
        ctx.emit(ev.TapestryDiscarded(seat=top.seat, cards=(command.index,)))
        score(ctx, top.seat, 2, "democracy")
        ctx.push(Frame(kind="democracy", seat=top.seat))


DECISIONS["democracy"] = (_democracy_options, _democracy_answer)


def _guilds(ctx: Ctx, seat: int) -> None:
    ctx.push(Frame(kind="guilds", seat=seat))


def _guilds_options(state: TapestryState, top: Frame) -> list[Command]:
    """``k`` > 0: pay k resources for 5k VP; ``-k``: pay 5k VP (that you have) for k resources."""
    player = state.seats[top.seat]
    found: list[Command] = []
    for k in (1, 2, 3):
        if sum(player.resources) >= k:
            found.append(Choose(index=k))
        if player.vp >= 5 * k:
            found.append(Choose(index=-k))
    return found


def _guilds_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    k = abs(command.index)
    if command.index > 0:
        score(ctx, top.seat, 5 * k, "guilds")
        ctx.push(*(Frame(kind="resource", seat=top.seat, ints=(-1,)) for _ in range(k)))
    else:
        score(ctx, top.seat, -5 * k, "guilds")
        ctx.push(expr_frame(top.seat, gain("gain_any_resource", k), "guilds"))


DECISIONS["guilds"] = (_guilds_options, _guilds_answer)


def _olympic_host(ctx: Ctx, seat: int) -> None:
    """From you round the table, each player may pay a worker for 10 VP; then you take an
    income building if an opponent paid, else a coin."""
    n = ctx.state.n
    ctx.emit(ev.CivTokensSet(seat=seat, key="_olympic_host", values=(0,)))
    ctx.push(
        *(Frame(kind="olympic", seat=(seat + i) % n, ints=(seat,)) for i in range(n)),
        Frame(kind="olympic_end", seat=seat),
    )


def _olympic_options(state: TapestryState, top: Frame) -> list[Command]:
    player = state.seats[top.seat]
    if player.resources[1] <= 0 or player.finished:
        return []
    return [Choose(index=0), Decline()]


def _olympic_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    if isinstance(command, Decline):
        return
    gain_resources(ctx, top.seat, (0, -1, 0, 0), "olympic_host")
    score(ctx, top.seat, 10, "olympic_host")
    host = top.ints[0]
    if top.seat != host:
        count = ctx.state.seats[host].civ_tokens.get("_olympic_host", [0])[0] + 1
        ctx.emit(ev.CivTokensSet(seat=host, key="_olympic_host", values=(count,)))


DECISIONS["olympic"] = (_olympic_options, _olympic_answer)


def _olympic_end(ctx: Ctx, top: Frame) -> None:
    count = ctx.state.seats[top.seat].civ_tokens.get("_olympic_host", [0])[0]
    token = "gain_any_income_building" if count else "gain_coin"
    ctx.push(expr_frame(top.seat, gain(token), "olympic_host"))


AUTO["olympic_end"] = _olympic_end


# -- tech ----------------------------------------------------------------------------------
def _steam_tycoon(ctx: Ctx, seat: int) -> None:
    """Invent a face-up tech card and upgrade it; then the right, then the left neighbour
    invents the top card of the deck."""
    ctx.push(Frame(kind="tycoon_invent", seat=seat), Frame(kind="tycoon_neighbours", seat=seat))


def _tycoon_options(state: TapestryState, top: Frame) -> list[Command]:
    return [Invent(card=c) for c in sorted(state.tech_display)]


def _tycoon_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Invent)
    invent(ctx, top.seat, command.card)
    ctx.push(Frame(kind="upgrade_card", seat=top.seat, ints=(command.card,), source="steam"))


DECISIONS["tycoon_invent"] = (_tycoon_options, _tycoon_answer)


def _tycoon_neighbours(ctx: Ctx, top: Frame) -> None:
    for other in reversed(ctx.state.neighbours(top.seat)):
        if not ctx.state.seats[other].finished:
            invent(ctx, other, FROM_DECK)


AUTO["tycoon_neighbours"] = _tycoon_neighbours


# -- cards that choose a track -------------------------------------------------------------
def _pick_track(purpose: str) -> Handler:
    def handler(ctx: Ctx, seat: int) -> None:
        ctx.push(Frame(kind="card_track", seat=seat, token=purpose))

    return handler


def socialism_targets(state: TapestryState, seat: int, track: int) -> list[int]:
    """Spaces Socialism may move ``seat`` to on ``track``: the nearest opponent position(s)
    (one ahead and one behind when equally near), that a Dictatorship or a card does not
    forbid (F.À.Q. "Dictature / Socialisme")."""
    if not state.seats[seat].tracks[track]:
        return []
    here = state.seats[seat].position(track)
    spaces = sorted({state.seats[o].position(track) for o in others(state, seat)} - {here})
    if not spaces:
        return []
    nearest = min(abs(s - here) for s in spaces)
    found = []
    for space in spaces:
        if abs(space - here) != nearest:
            continue
        if (space > here and blocked(state, seat, track)) or dictated(state, seat, track):
            continue
        found.append(space)
    return found


def _dark_tracks(state: TapestryState, seat: int) -> list[int]:
    free = [t for t in range(len(TRACK_IDS)) if not blocked(state, seat, t)]
    return free or list(range(len(TRACK_IDS)))


def _card_track_options(state: TapestryState, top: Frame) -> list[Command]:
    seat = top.seat
    player = state.seats[seat]
    if top.token == "socialism":
        return [
            Choose(index=track * 100 + space)
            for track in range(len(TRACK_IDS))
            for space in socialism_targets(state, seat, track)
        ]
    if top.token == "dark_ages":
        return [Choose(index=t) for t in _dark_tracks(state, seat)]
    found: list[Command] = []
    for track in range(len(TRACK_IDS)):
        closed = not player.tracks[track] or blocked(state, seat, track)
        if top.token == "dictatorship" and closed:
            continue
        found.append(Choose(index=track))
    return found


def _card_track_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    seat = top.seat
    if top.token == "dark_ages":
        _dark_ages_move(ctx, seat, command.index)
    elif top.token == "socialism":
        track, space = divmod(command.index, 100)
        tokens = ctx.state.seats[seat].tracks[track]
        move(ctx, seat, track, tokens.index(max(tokens)), space, NONE, "socialism")
    elif top.token == "dictatorship":
        track = command.index
        ctx.emit(ev.CivTokensSet(seat=seat, key=DICTATORSHIP, values=(track, 0)))
        ctx.push(advance_frame(seat, track, FULL, "dictatorship"))
    elif top.token == "oil_magnate":
        track = command.index
        ctx.push(
            *(
                Frame(kind="research", seat=who, ints=(kind, track), source="oil_magnate")
                for who, kind in [(seat, RESEARCH_FULL)]
                + [(n, RESEARCH_NONE) for n in ctx.state.neighbours(seat)]
                if not ctx.state.seats[who].finished
                and ctx.state.seats[who].tracks[track]
                and ctx.state.seats[who].position(track) < 12
                and not blocked(ctx.state, who, track)
            )
        )


def _dark_ages_move(ctx: Ctx, seat: int, track: int) -> None:
    """Back one space on the three other tracks where possible (a token at the start counts
    as moved back), then forward three times on ``track``; no benefit and no bonus."""
    for other in range(len(TRACK_IDS)):
        owned = ctx.state.seats[seat].tracks[other]
        if other == track or not owned or max(owned) <= 0 or dictated(ctx.state, seat, other):
            continue
        move(ctx, seat, other, owned.index(max(owned)), max(owned) - 1, NONE, "dark_ages")
    ctx.push(*(advance_frame(seat, track, NONE, "dark_ages") for _ in range(3)))


DECISIONS["card_track"] = (_card_track_options, _card_track_answer)


# -- copying a space -----------------------------------------------------------------------
def _trade_economy(ctx: Ctx, seat: int) -> None:
    ctx.push(Frame(kind="trade_economy", seat=seat))


def _trade_targets(state: TapestryState, seat: int) -> list[int]:
    return [
        other * 10 + track
        for other in others(state, seat)
        for track in range(len(TRACK_IDS))
        if state.seats[other].position(track) > 0
    ]


def _trade_options(state: TapestryState, top: Frame) -> list[Command]:
    """``opponent * 10 + track``: the opponent's current space on that track."""
    return [Choose(index=i) for i in _trade_targets(state, top.seat)]


def _trade_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    other, track = divmod(command.index, 10)
    position = ctx.state.seats[other].position(track)
    space = C.space(TRACK_IDS[track], position)
    frames = [expr_frame(top.seat, space.benefit, "trade_economy")]
    if space.bonus is not None and not ctx.state.seats[other].finished:
        frames.append(expr_frame(other, space.bonus.benefit, "trade_economy"))
    marriage_echo(ctx, top.seat, track, position)  # pushed first: resolves after the trade
    ctx.push(*frames)


DECISIONS["trade_economy"] = (_trade_options, _trade_answer)

WHEN_PLAYED.update(
    {
        "age_of_discovery": _age_of_discovery,
        "age_of_wonders": _age_of_wonders,
        "boast_of_superiority": _boast,
        "coal_baron": _coal_baron,
        "colonialism": _colonialism,
        "dark_ages": _pick_track("dark_ages"),
        "democracy": _democracy,
        "dictatorship": _pick_track("dictatorship"),
        "guilds": _guilds,
        "oil_magnate": _pick_track("oil_magnate"),
        "olympic_host": _olympic_host,
        "plea_for_aid": _plea,
        "socialism": _pick_track("socialism"),
        "steam_tycoon": _steam_tycoon,
        "technocracy": _technocracy,
        "trade_economy": _trade_economy,
    }
)
