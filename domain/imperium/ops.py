"""Basic operations shared by the step handlers and the turn structure.

Tokens, payments (progress standing in for materials and population, "Payer"), drawing with
the reshuffle procedure ("Mélanger votre deck"), the nation deck, developing ("Développer"),
game-end triggers ("Fin de partie") and moving cards.
"""

from __future__ import annotations

import json

import msgspec

from domain.core import Command
from domain.imperium import cards as K
from domain.imperium import content as C
from domain.imperium import content_effects as E
from domain.imperium import events as ev
from domain.imperium.commands import Choose, Pass, Pick
from domain.imperium.content_effects import ReduceCost
from domain.imperium.engine import AUTO, DECISIONS, Ctx, steps_frame
from domain.imperium.nation_rules import rules_for
from domain.imperium.reactions import fire, reacts_to
from domain.imperium.state import Frame, ImperiumState, SeatState


def z(seat: int, zone: str) -> str:
    """A seat zone name, e.g. ``z(0, "hand") == "0:hand"``."""
    return f"{seat}:{zone}"


def move(ctx: Ctx, seat: int, card: str, src: str, dst: str) -> None:
    """Emit a move of ``card`` from ``src`` to ``dst``."""
    ctx.emit(ev.CardMoved(seat=seat, card=card, src=src, dst=dst))
    if src in (z(seat, "deck"), z(seat, "deck_top")):
        deck_emptied(ctx, seat, None, 0)
    if src.endswith(":play") and dst != src:  # Palace of Poseidon
        fire(ctx, int(src.partition(":")[0]), "leaves_play", card)


def deck_emptied(ctx: Ctx, seat_index: int, draw: Frame | None, left: int) -> bool:
    """Fire ``deck_empty`` reactions when ``seat_index``'s deck just ran out (Utopians' power
    card: "dès que votre deck est épuisé, et ce même si vous ne le remélangez pas").

    During a draw (``draw``: the draw frame, ``left``: cards still to draw) the rest of the
    draw waits until the reactions are resolved, so a card they add to the discard pile is
    shuffled in. Returns ``True`` when the caller must stop drawing now.
    """
    seat = ctx.state.seats[seat_index]
    if seat.deck or seat.deck_top or not reacts_to(ctx.state, seat_index, "deck_empty"):
        return False
    if draw is not None and left > 0:
        ctx.push(msgspec.structs.replace(draw, count=left, action=""))
    fire(ctx, seat_index, "deck_empty", "")
    return True


def replacement(state: ImperiumState, seat: int, resource: str) -> Frame | None:
    """The steps ``seat`` resolves instead of gaining ``resource`` (a ``would_gain`` passive
    with ``replace_gain``: Shangri-La), or ``None`` when the gain is made as usual."""
    for card in K.play_area(state.seats[seat]):
        for block in K.blocks(card, "passive"):
            when = block.when
            if when is None or "would_gain" not in when.names() or when.resource != resource:
                continue
            for item in block.do:
                if isinstance(item, E.ReplaceGain) and item.instead_of == resource:
                    return steps_frame(seat, card, item.do)
    return None


def gain(ctx: Ctx, seat: int, materials: int = 0, population: int = 0, progress: int = 0,
         actions: int = 0) -> None:  # fmt: skip
    """``seat`` takes tokens from the supply ("Gagner") or action tokens ("Gagner une action");
    a gain of materials may be replaced by other steps (Shangri-La, ``replace_gain``)."""
    if materials > 0:
        instead = replacement(ctx.state, seat, "materials")
        if instead is not None:
            ctx.push(instead)
            materials = 0
    if materials or population or progress or actions:
        ctx.emit(
            ev.TokensChanged(
                seat=seat,
                materials=materials,
                population=population,
                progress=progress,
                actions=actions,
            )
        )


def payment_options(seat: SeatState, materials: int, population: int, progress: int
                    ) -> list[tuple[int, int, int]]:  # fmt: skip
    """Every way to pay a cost, as tokens actually paid ``(materials, population, progress)``.

    "Payer": each progress may stand for 1 population or 2 materials (no change given back).
    """
    found: list[tuple[int, int, int]] = []
    for for_pop in range(population + 1):
        pop = population - for_pop
        if pop > seat.population:
            continue
        for for_mat in range((materials + 1) // 2 + 1):
            mat = max(0, materials - 2 * for_mat)
            prog = progress + for_pop + for_mat
            if mat <= seat.materials and prog <= seat.progress:
                found.append((mat, pop, prog))
    return sorted(set(found))


def can_pay(seat: SeatState, materials: int, population: int, progress: int) -> bool:
    """``True`` when the cost can be paid at all."""
    return bool(payment_options(seat, materials, population, progress))


def payment_frame(seat: int, materials: int, population: int, progress: int) -> Frame:
    """A decision frame paying a cost (answered at once when only one way exists)."""
    return Frame(kind="payment", seat=seat, data=json.dumps([materials, population, progress]))


def _payment_options(state: ImperiumState, top: Frame) -> list[Command]:
    m, p, q = json.loads(top.data)
    return [Choose(index=i) for i in range(len(payment_options(state.seats[top.seat], m, p, q)))]


def _payment_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    m, p, q = json.loads(top.data)
    mat, pop, prog = payment_options(ctx.state.seats[top.seat], m, p, q)[command.index]
    if mat or pop or prog:
        ctx.emit(ev.TokensChanged(seat=top.seat, materials=-mat, population=-pop, progress=-prog))
    if pop:
        paid(ctx, top.seat, "population")


def paid(ctx: Ctx, seat: int, resource: str) -> None:
    """``seat`` paid ``resource`` tokens: fire its ``pay`` reactions (Embalming: "à chaque
    fois que vous payez [population]" — not when progress stood in for all of it)."""
    fire(ctx, seat, "pay", resource)


DECISIONS["payment"] = (_payment_options, _payment_answer)


# -- game end ---------------------------------------------------------------------------------
def trigger_end(ctx: Ctx, reason: str) -> None:
    """Trigger a final scoring: finish this round, play one more ("Décompte")."""
    if not ctx.state.end_trigger:
        ctx.emit(ev.GameEndTriggered(reason=reason, final_round=ctx.state.round + 1))


# -- nation deck -------------------------------------------------------------------------------
def nation_cards_left(seat: SeatState) -> int:
    """Cards left in the nation deck, the accession card included."""
    return (
        len(seat.nation_top) + len(seat.nation_deck) + len(seat.nation_bottom) + len(seat.accession)
    )


def is_accession(state: ImperiumState, seat_index: int, card: str) -> bool:
    """``True`` when ``card`` is the seat's accession-slot card (it stays at the bottom of the
    nation deck: "Pioche Nation")."""
    nation = state.seats[seat_index].nation
    return bool(nation) and card in C.NATIONS[nation].accession


def take_nation_top(ctx: Ctx, seat_index: int, dst: str) -> str:
    """Take the top card of the nation deck to ``dst`` (the accession card last).

    Taking the accession card *to the discard* flips the state card to empire, or (Vikings'
    zenith card) triggers the game end ("Mélanger votre deck", nation notes); looking at it
    ("Regarder") does neither.
    """
    seat = ctx.state.seats[seat_index]
    if seat.nation_top:
        card, src = seat.nation_top[-1], z(seat_index, "nation_top")
    elif seat.nation_deck:
        card, src = ctx.chance.choice(seat.nation_deck), z(seat_index, "nation_deck")
    elif seat.nation_bottom:
        card, src = seat.nation_bottom[0], z(seat_index, "nation_bottom")
    elif seat.accession:
        card, src = seat.accession[0], z(seat_index, "accession")
    else:
        return ""
    role = C.NATIONS[seat.nation].accession_role if seat.nation else "accession"
    if src.endswith(":accession") and dst == z(seat_index, "discard") and role == "nadir":
        # Arthurians' nadir card (Gwaith Camlan) goes straight into play instead; the state
        # card is not turned over ("Mélanger votre deck"; its on_gain block says the same).
        ctx.emit(ev.CardDrawn(seat=seat_index, card=card, src=src, dst=z(seat_index, "play")))
        return card
    ctx.emit(ev.CardDrawn(seat=seat_index, card=card, src=src, dst=dst))
    if src.endswith(":accession") and dst == z(seat_index, "discard"):
        if role == "accession" and not seat.empire:
            ctx.emit(ev.StateFlipped(seat=seat_index, empire=True))
        for block in K.blocks(card, "on_gain"):
            ctx.push(steps_frame(seat_index, card, block.do))
    return card


# -- drawing -----------------------------------------------------------------------------------
def draw_frame(seat: int, count: int, if_able: bool = False, track: bool = False) -> Frame:
    """An automatic frame drawing ``count`` cards (``if_able``: never reshuffle)."""
    return Frame(kind="draw", seat=seat, count=count, optional=if_able,
                 data="track" if track else "")  # fmt: skip


def draw_one(ctx: Ctx, seat_index: int, track: bool) -> None:
    """Draw one card from a non-empty deck (a known top card first, else at random)."""
    seat = ctx.state.seats[seat_index]
    if seat.deck_top:
        card, src = seat.deck_top[-1], z(seat_index, "deck_top")
    else:
        card, src = ctx.chance.choice(seat.deck), z(seat_index, "deck")
    ctx.emit(ev.CardDrawn(seat=seat_index, card=card, src=src, dst=z(seat_index, "hand")))
    if track:
        ctx.state.memo.just_drawn.append(card)


def development_cost(state: ImperiumState, seat_index: int, card: str) -> tuple[int, int, int]:
    """What developing ``card`` costs ``seat_index`` now: the printed cost lowered by its
    ``reduce_cost`` (``of: development``) passives, each resource never below the passive's
    ``min`` nor below 0 (Medicine, Architecture, Vast Wealth)."""
    printed = K.card(card).development_cost
    if printed is None:
        return (0, 0, 0)
    cost = [printed.materials, printed.population, printed.progress]
    for _, step in K.passive_steps(state, seat_index):
        if isinstance(step, ReduceCost) and step.of == "development":
            cuts = (step.materials, step.population, step.progress)
            for i, cut in enumerate(cuts):
                if cut and cost[i] > 0:
                    cost[i] = max(step.min, cost[i] - cut, 0)
    return (cost[0], cost[1], cost[2])


def developable(state: ImperiumState, seat_index: int, free: bool) -> list[str]:
    """Development-area cards the seat can pay for now (all of them when ``free``).

    From ``imperium/5`` a barbarian develops nothing, whatever the effect: « Ces cartes ne
    sont accessibles que si vous êtes un Empire » ("Mise en place des joueurs", the
    development area); earlier rulesets let a card effect (the Egyptians' power face A)
    develop as a barbarian.
    """
    seat = state.seats[seat_index]
    found: list[str] = []
    if state.revision >= 5 and not seat.empire:
        return found
    if not rules_for(seat.nation).may_develop(state, seat_index):
        return found
    for card in seat.dev:
        if free or can_pay(seat, *development_cost(state, seat_index, card)):
            found.append(card)
    return found


def _draw(ctx: Ctx, top: Frame) -> None:
    seat_index, left, if_able = top.seat, top.count, top.optional
    track = top.data == "track"
    resumed = top.action == "resume"
    while left > 0:
        seat = ctx.state.seats[seat_index]
        if seat.deck or seat.deck_top:
            draw_one(ctx, seat_index, track)
            left -= 1
            resumed = False
            if deck_emptied(ctx, seat_index, top, left):
                return
            continue
        if if_able:
            return
        if not resumed:
            if not seat.empire:
                if not seat.nation_token and seat.exhaust > 0 and nation_cards_left(seat):
                    take_nation_top(ctx, seat_index, z(seat_index, "discard"))
                    ctx.emit(ev.CardExhausted(seat=seat_index, card="nation"))
                    ctx.emit(ev.TokensChanged(seat=seat_index, exhaust=-1))
            elif (
                not seat.dev_token
                and seat.exhaust > 0
                and developable(ctx.state, seat_index, False)
            ):
                # The develop decision (and the shuffle after it) come first, then the
                # rest of the draw resumes.
                ctx.push(
                    Frame(kind="develop_reshuffle", seat=seat_index, optional=True),
                    Frame(
                        kind="draw",
                        seat=seat_index,
                        count=left,
                        optional=if_able,
                        data=top.data,
                        action="resume",
                    ),
                )
                return
        seat = ctx.state.seats[seat_index]
        if not seat.discard:
            return
        ctx.emit(ev.DeckShuffled(seat=seat_index))
        resumed = True


AUTO["draw"] = _draw


def _reshuffle_options(state: ImperiumState, top: Frame) -> list[Command]:
    return [Pick(card=c) for c in developable(state, top.seat, False)] + [Pass()]


def _reshuffle_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    later = Frame(kind="shuffle", seat=top.seat)
    if isinstance(command, Pick):
        ctx.push(*develop_frames(ctx.state, top.seat, command.card, free=False, token=True),
                 later)  # fmt: skip
    else:
        ctx.push(later)


def _shuffle(ctx: Ctx, top: Frame) -> None:
    if ctx.state.seats[top.seat].discard:
        ctx.emit(ev.DeckShuffled(seat=top.seat))


DECISIONS["develop_reshuffle"] = (_reshuffle_options, _reshuffle_answer)
AUTO["shuffle"] = _shuffle


# -- developing --------------------------------------------------------------------------------
def develop_frames(state: ImperiumState, seat: int, card: str, free: bool, token: bool
                   ) -> list[Frame]:  # fmt: skip
    """Frames that pay for ``card`` then move it to the discard ("Développer")."""
    frames: list[Frame] = []
    cost = development_cost(state, seat, card)
    if not free and any(cost):
        frames.append(payment_frame(seat, *cost))
    frames.append(Frame(kind="developed", seat=seat, card=card, optional=token))
    return frames


def _developed(ctx: Ctx, top: Frame) -> None:
    seat = ctx.state.seats[top.seat]
    if top.card not in seat.dev:
        return
    move(ctx, top.seat, top.card, z(top.seat, "dev"), z(top.seat, "discard"))
    if top.optional:
        ctx.emit(ev.CardExhausted(seat=top.seat, card="dev"))
        ctx.emit(ev.TokensChanged(seat=top.seat, exhaust=-1))
    if not ctx.state.seats[top.seat].dev:
        trigger_end(ctx, f"last_development:{top.seat}")


AUTO["developed"] = _developed
