"""Tapestry cards: playing them and their abilities (one shared mechanism, one handler per key).

Rules: "Jouer 1 carte Fresque" (income turns 2-4: one card from hand on the next era slot, or
the deck's top card face down with no ability when the hand is empty), "Capacités des cartes
Fresque" (WHEN PLAYED resolves at once; THIS ERA applies until your next income turn; a covering
card alone is active), "Jouer des cartes Fresque après l'ère 4", "Cartes riposte" (a Trap played
as a tapestry), F.À.Q. "Cartes Fresque particulières".

WHEN PLAYED cards use the card's structured ``benefit`` when the content has one, and/or a
handler in :data:`WHEN_PLAYED` keyed by the card's ``key``. THIS ERA cards are hooks tested
with :func:`domain.tapestry.rules.has_active` where their effect applies. Cards in
:data:`NOT_IMPLEMENTED` cannot be played yet (``RuleViolation("NOT_IMPLEMENTED")``).
"""

from __future__ import annotations

from collections.abc import Callable

from domain.core import Command, RuleViolation
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.commands import Choose, Decline, PlayTapestry
from domain.tapestry.engine import AUTO, DECISIONS, TOKENS, Ctx, expr_frame
from domain.tapestry.gains import draw_territory, gain_resources, score
from domain.tapestry.rules import gain, tapestry_deck, track_index
from domain.tapestry.state import TRACK_IDS, Frame, TapestryState
from domain.tapestry.tracks import FULL, NONE, RESEARCH_NONE, move, roll_science

#: THIS ERA cards whose effect the engine does not apply yet: they cannot be played.
NOT_IMPLEMENTED: frozenset[str] = frozenset(
    {
        "age_of_sail",
        "alliance",
        "exploitation",
        "marriage_of_state",
        "mercantilism",
        "revisionism",
        "terraforming",
        "tyranny",
    }
)
Handler = Callable[[Ctx, int], None]
#: civ_tokens key of a Dictatorship in force: (track, 1 once the dictator's next turn began).
DICTATORSHIP = "_dictatorship"
WHEN_PLAYED: dict[str, Handler] = {}


def key_of(card: int) -> str:
    """The stable key of a tapestry card."""
    return C.TAPESTRY_CARDS[card].key


def playable(card: int) -> bool:
    """``True`` when the engine implements the card's ability."""
    return key_of(card) not in NOT_IMPLEMENTED


def check_playable(card: int) -> None:
    """Raise ``NOT_IMPLEMENTED`` for a card the engine cannot resolve yet."""
    if not playable(card):
        raise RuleViolation(
            "NOT_IMPLEMENTED",
            f"The tapestry card {C.TAPESTRY_CARDS[card].name} is not implemented yet.",
            "Capacités des cartes Fresque",
        )


# -- playing -------------------------------------------------------------------------------
def income_play(ctx: Ctx, seat: int) -> None:
    """Income step 2: play a card from hand, or the deck's top card face down if none.

    Cards the engine cannot resolve yet (:data:`NOT_IMPLEMENTED`) count as unplayable: a hand
    holding only such cards plays blind from the deck (a documented engine limitation).
    """
    player = ctx.state.seats[seat]
    if any(playable(c) for c in player.hand):
        ctx.push(Frame(kind="play_tapestry", seat=seat, ints=(0,)))
        return
    deck = tapestry_deck(ctx.state)
    if deck:
        card = ctx.chance.choice(deck)
        era = player.income_turns
        ctx.emit(ev.TapestryPlayed(seat=seat, card=card, era=era, face_up=False, from_hand=False))


def _over_current(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
    ctx.push(Frame(kind="play_tapestry", seat=seat, ints=(1,), source=top.source))


TOKENS["play_tapestry_over_current"] = _over_current


def _play_options(state: TapestryState, top: Frame) -> list[Command]:
    hand = state.seats[top.seat].hand
    return [PlayTapestry(card=c) for c in sorted(set(hand)) if playable(c)]


def _play_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, PlayTapestry)
    play(ctx, top.seat, command.card)


DECISIONS["play_tapestry"] = (_play_options, _play_answer)


def play(ctx: Ctx, seat: int, card: int) -> None:
    """Put ``card`` from hand face up on the mat and resolve it if it is WHEN PLAYED/Trap."""
    check_playable(card)
    era = ctx.state.seats[seat].income_turns
    ctx.emit(ev.TapestryPlayed(seat=seat, card=card, era=era))
    resolve(ctx, seat, card)


def resolve(ctx: Ctx, seat: int, card: int) -> None:
    """Resolve the one-off ability of ``card`` for ``seat`` (nothing for THIS ERA cards)."""
    record = C.TAPESTRY_CARDS[card]
    if record.kind == "this_era":
        return
    frames: list[Frame] = []
    if record.benefit is not None:
        frames.append(expr_frame(seat, record.benefit, f"tapestry:{record.key}"))
    handler = WHEN_PLAYED.get(record.key)
    added: list[Frame] = []
    if handler is not None:
        # the handler's frames run after the structured benefit (e.g. Democracy's discard).
        before = len(ctx.state.agenda)
        handler(ctx, seat)
        added = ctx.state.agenda[before:]
        del ctx.state.agenda[before:]
    ctx.push(*frames, *reversed(added))


# -- WHEN PLAYED handlers ------------------------------------------------------------------
def _others(state: TapestryState, seat: int) -> list[int]:
    return [s for s in range(state.n) if s != seat]


def _democracy(ctx: Ctx, seat: int) -> None:
    ctx.push(Frame(kind="democracy", seat=seat))


def _democracy_options(state: TapestryState, top: Frame) -> list[Command]:
    hand = sorted(set(state.seats[top.seat].hand))
    return [*(Choose(index=c) for c in hand), Decline()]


def _democracy_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    if isinstance(command, Choose):
        ctx.emit(ev.TapestryDiscarded(seat=top.seat, cards=(command.index,)))
        score(ctx, top.seat, 2, "democracy")
        ctx.push(Frame(kind="democracy", seat=top.seat))


DECISIONS["democracy"] = (_democracy_options, _democracy_answer)


def _age_of_discovery(ctx: Ctx, seat: int) -> None:
    track = roll_science(ctx, seat)
    for step in range(ctx.state.n):
        other = (seat + step) % ctx.state.n
        tokens = ctx.state.seats[other].tracks[track]
        if tokens and max(tokens) < 12:
            index = tokens.index(max(tokens))
            move(ctx, other, track, index, tokens[index] + 1, FULL if other == seat else NONE)


def _age_of_wonders(ctx: Ctx, seat: int) -> None:
    mine = len(ctx.state.seats[seat].landmarks)
    others = [len(ctx.state.seats[s].landmarks) for s in _others(ctx.state, seat)]
    if others and all(mine < o for o in others):
        ctx.push(expr_frame(seat, gain("gain_any_resource", 2), "age_of_wonders"))
    elif others and all(mine > o for o in others):
        score(ctx, seat, 12, "age_of_wonders")
    else:
        ctx.push(expr_frame(seat, gain("gain_any_resource"), "age_of_wonders"))
        score(ctx, seat, 6, "age_of_wonders")


def _boast(ctx: Ctx, seat: int) -> None:
    state = ctx.state
    tracks = 0
    for track in range(len(TRACK_IDS)):
        mine = state.seats[seat].position(track)
        if all(state.seats[o].position(track) <= mine for o in _others(state, seat)):
            tracks += 1
    score(ctx, seat, 4 * tracks, "boast_of_superiority")


def _plea(ctx: Ctx, seat: int) -> None:
    state = ctx.state
    for track in range(len(TRACK_IDS)):
        mine = state.seats[seat].position(track)
        others = _others(state, seat)
        if others and all(state.seats[o].position(track) > mine for o in others):
            score(ctx, seat, 2, "plea_for_aid")
            ctx.push(expr_frame(seat, gain("gain_any_resource"), "plea_for_aid"))


def _coal_baron(ctx: Ctx, seat: int) -> None:
    tiles = draw_territory(ctx, seat, 1)
    frames = []
    if tiles:
        frames.append(Frame(kind="explore", seat=seat, ints=(0, tiles[0]), source="coal_baron"))
    ctx.push(*frames)
    for neighbour in ctx.state.neighbours(seat):
        draw_territory(ctx, neighbour, 1)


def _technocracy(ctx: Ctx, seat: int) -> None:
    state = ctx.state
    era = state.seats[seat].income_turns
    if all(state.seats[o].income_turns < era for o in _others(state, seat)):
        ctx.push(Frame(kind="invent", seat=seat, token="upgrade", source="technocracy"))
    else:
        score(ctx, seat, 3 * len(_others(state, seat)), "technocracy")


def _steam_tycoon(ctx: Ctx, seat: int) -> None:
    ctx.push(
        Frame(kind="invent", seat=seat, token="upgrade", source="steam_tycoon"),
        Frame(kind="tycoon_neighbours", seat=seat),
    )


def _tycoon_neighbours(ctx: Ctx, top: Frame) -> None:
    from domain.tapestry.tech import FROM_DECK, invent

    for other in reversed(ctx.state.neighbours(top.seat)):
        if ctx.state.seats[other].finished:
            continue
        invent(ctx, other, FROM_DECK)


AUTO["tycoon_neighbours"] = _tycoon_neighbours


def _pick_track(purpose: str) -> Handler:
    def handler(ctx: Ctx, seat: int) -> None:
        ctx.push(Frame(kind="card_track", seat=seat, token=purpose))

    return handler


def _card_track_options(state: TapestryState, top: Frame) -> list[Command]:
    player = state.seats[top.seat]
    found: list[Command] = []
    for track in range(len(TRACK_IDS)):
        if top.token == "socialism" and _socialism_target(state, top.seat, track) < 0:
            continue
        if top.token == "dictatorship" and not player.tracks[track]:
            continue
        found.append(Choose(index=track))
    return found


def _socialism_target(state: TapestryState, seat: int, track: int) -> int:
    mine = state.seats[seat].tracks[track]
    if not mine:
        return -1
    here = max(mine)
    best = -1
    for other in _others(state, seat):
        there = state.seats[other].position(track)
        if there == here:
            continue
        if (
            best < 0
            or abs(there - here) < abs(best - here)
            or (abs(there - here) == abs(best - here) and there > best)
        ):
            best = there
    return best


def _card_track_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    seat, track = top.seat, command.index
    tokens = ctx.state.seats[seat].tracks[track]
    if top.token == "dark_ages":
        for other in range(len(TRACK_IDS)):
            owned = ctx.state.seats[seat].tracks[other]
            if other != track and owned and max(owned) > 0:
                move(ctx, seat, other, owned.index(max(owned)), max(owned) - 1, NONE)
        if tokens:
            move(ctx, seat, track, tokens.index(max(tokens)), max(tokens) + 3, NONE)
    elif top.token == "socialism":
        target = _socialism_target(ctx.state, seat, track)
        move(ctx, seat, track, tokens.index(max(tokens)), target, NONE)
    elif top.token == "dictatorship":
        ctx.emit(ev.CivTokensSet(seat=seat, key=DICTATORSHIP, values=(track, 0)))
        if max(tokens) < 12:
            move(ctx, seat, track, tokens.index(max(tokens)), max(tokens) + 1, FULL)
    elif top.token == "oil_magnate":
        if tokens and max(tokens) < 12:
            move(ctx, seat, track, tokens.index(max(tokens)), max(tokens) + 1, FULL)
        ctx.push(
            *(
                Frame(kind="research", seat=n, ints=(RESEARCH_NONE, track), source="oil_magnate")
                for n in ctx.state.neighbours(seat)
                if ctx.state.seats[n].tracks[track] and ctx.state.seats[n].position(track) < 12
            )
        )


DECISIONS["card_track"] = (_card_track_options, _card_track_answer)


def _espionage(ctx: Ctx, seat: int) -> None:
    ctx.push(Frame(kind="espionage", seat=seat))


def _visible_when_played(state: TapestryState, seat: int) -> list[int]:
    found: set[int] = set()
    for player in state.seats:
        if player.mat and player.mat[-1].face_up:
            card = player.mat[-1].card
            record = C.TAPESTRY_CARDS[card]
            if record.kind == "when_played" and record.key != "espionage":
                found.add(card)
    return sorted(found)


def _espionage_options(state: TapestryState, top: Frame) -> list[Command]:
    return [Choose(index=c) for c in _visible_when_played(state, top.seat)]


def _espionage_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    resolve(ctx, top.seat, command.index)


DECISIONS["espionage"] = (_espionage_options, _espionage_answer)


def _guilds(ctx: Ctx, seat: int) -> None:
    ctx.push(Frame(kind="guilds", seat=seat))


def _guilds_options(state: TapestryState, top: Frame) -> list[Command]:
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

_LAND_RESOURCE = {"mountain": "worker", "grassland": "culture", "forest": "food", "desert": "coin"}


def _colonialism(ctx: Ctx, seat: int) -> None:
    ctx.push(Frame(kind="colonialism", seat=seat))


def _colonies(state: TapestryState, seat: int) -> list[int]:
    return [i for i, h in enumerate(state.hexes) if h.controller() == seat and h.tile >= 0]


def _colonialism_options(state: TapestryState, top: Frame) -> list[Command]:
    return [Choose(index=i) for i in _colonies(state, top.seat)]


def _colonialism_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    tile = C.TERRITORY_TILES[ctx.state.hexes[command.index].tile]
    lands = {*tile.corners, *([tile.center] if tile.center else [])}
    delta = [0, 0, 0, 0]
    from domain.tapestry.state import RESOURCES

    for land in sorted(lands):
        if land in _LAND_RESOURCE:
            delta[RESOURCES.index(_LAND_RESOURCE[land])] += 1
    gain_resources(ctx, top.seat, (delta[0], delta[1], delta[2], delta[3]), "colonialism")


DECISIONS["colonialism"] = (_colonialism_options, _colonialism_answer)


def _trade_economy(ctx: Ctx, seat: int) -> None:
    ctx.push(Frame(kind="trade_economy", seat=seat))


def _trade_targets(state: TapestryState, seat: int) -> list[int]:
    found = []
    for other in _others(state, seat):
        for track in range(len(TRACK_IDS)):
            tokens = state.seats[other].tracks[track]
            if tokens and max(tokens) > 0:
                found.append(other * 10 + track)
    return found


def _trade_options(state: TapestryState, top: Frame) -> list[Command]:
    return [Choose(index=i) for i in _trade_targets(state, top.seat)]


def _trade_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    other, track = divmod(command.index, 10)
    space = C.space(TRACK_IDS[track], max(ctx.state.seats[other].tracks[track]))
    frames = [expr_frame(top.seat, space.benefit, "trade_economy")]
    if space.bonus is not None:
        frames.append(expr_frame(other, space.bonus.benefit, "trade_economy"))
    ctx.push(*frames)


DECISIONS["trade_economy"] = (_trade_options, _trade_answer)


def _olympic_host(ctx: Ctx, seat: int) -> None:
    n = ctx.state.n
    ctx.emit(ev.CivTokensSet(seat=seat, key="_olympic_host", values=(0,)))
    ctx.push(
        *(Frame(kind="olympic", seat=(seat + i) % n, ints=(seat,)) for i in range(n)),
        Frame(kind="olympic_end", seat=seat),
    )


def _olympic_options(state: TapestryState, top: Frame) -> list[Command]:
    if state.seats[top.seat].resources[1] <= 0:
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
        "espionage": _espionage,
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

__all__ = ["NOT_IMPLEMENTED", "WHEN_PLAYED", "income_play", "play", "resolve", "track_index"]
