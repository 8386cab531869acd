"""Redaction oracle for Imperium: nothing a seat (or a spectator) receives reveals a card it may
not know.

Random Imperium games are played through the API while every seat and a spectator record
every message they receive — SubmitAction and ListLegalActions answers, their own WatchGame
stream, GetView / GetGame, GetHistory pages, ExportRecord before and after the end, error
statuses — with the recording machinery of the Rise & Fall oracle (``test_redaction.py``,
``always_sealed``: hands and decks are hidden all game long). Then the true values are read
from the server's own store and every message is judged at the head version it was produced
at, against this oracle's own zone rule (:func:`zone_visible`, written from the rulebook, not
from the engine): the cards of a seat's hand, its history ("Histoire": only its owner may
consult it), the Atlanteans' submerged pile ("Submergée": like the history, its owner's only)
and the cards it looks at are seen by that seat only; every deck — personal decks, nation
decks, the market piles, the removed fame cards — by nobody; everything else is public (the
Utopians' journey cards, garrisoned cards and quests included). The games seat nations of
both boxes (the Atlanteans in every other game) with the common cards of either box.

* card moves: a ``CardDrawn`` / ``CardMoved`` whose two zones the viewer may not see reaches it
  with card "" and ``redacted`` set, in events and in exported records (no event data, no
  payload, no command line); every other move shows its true card;
* the setup's market piles and removed cards reach everyone empty;
* the agenda (``AgendaSet``): other seats' decisions carry no options (a pick among hand or
  deck cards) and the step memo no card (cards just drawn or looked at);
* views: another seat's hand, history and looked cards unset, their counts true;
* non-interference: each view, each legal-action list and the public scores
  (``GameSummary.scores``) equal what the rules give for a *scrambled* state — every card
  hidden from the viewer replaced by another card of the same suits — so no hidden card
  identity can hide in any other field either;
* the seed (text, hex, base64) appears nowhere before the end, and ``GameSummary.seed`` stays
  empty until then.

Every event is redacted as of its own version: hidden information lifts for the events from
``GameEnded`` on, while an event from before the end stays redacted wherever it is received —
a history page or a stream after the end included (the full truth is in the complete record
exported after the end, and in the seed). Views, legal actions and records are judged at the
head version they were produced at (the complete record shows everything).
"""

from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass
from typing import Any

import msgspec
import pytest
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc
from annales.v1 import imperium_pb2 as ip

from domain.imperium import content as C
from domain.imperium.commands import ImperiumCommand
from domain.imperium.state import OVER, ImperiumState
from domain.imperium.view import ImperiumView
from service.api.convert import read
from tests.api.conftest import ServerProcess
from tests.api.helpers import (
    Failure,
    Game,
    create_imperium_game,
    fixed_seed,
    open_store_service,
)
from tests.api.test_redaction import Recorder, Seen, _events_of, _report, seed_forms, seed_leaks

#: games of the normal run, in blocks that ``pytest -n`` spreads over its workers.
N_GAMES = int(os.environ.get("ANNALES_IMPERIUM_ORACLE_GAMES", "2"))
SAMPLE_BLOCKS = 2
#: ``make long``: 24 games in blocks of 3.
N_GAMES_LONG = 24
LONG_BLOCKS = 8
#: seat counts cycled over the games.
SHAPES = (2, 3, 4)
#: the chance of a full probe (every viewer asks everything) after a command.
PROBE_RATE = 0.04
#: the oracle game played against an Arthurian C.I.V. (one where quests reach its deck).
INDEX_ARTHURIAN = 1
#: its seed, fixed: with a fresh seed, quests reached the C.I.V.'s deck in only about 4 games
#: in 10, and the test asserts that they do.
ARTHURIAN_SEED = "seed-imperium-oracle-arthurian-0"
PREFIX = "Imperium"

#: seat zones every viewer sees; seat zones only their seat sees; shared zones everyone sees.
PUBLIC_SEAT_ZONES = ("discard", "play", "dev", "accession", "journey")
OWNER_ZONES = ("hand", "history", "looked", "submerged")
PUBLIC_SHARED_ZONES = ("unrest", "exile", "revealed")
#: seat zones hidden from the other seats (scrambled for them by the non-interference check).
HIDDEN_SEAT_ZONES = (
    "hand", "history", "looked", "deck", "deck_top", "nation_deck", "nation_top",
    "nation_bottom", "submerged",
)  # fmt: skip


def zone_visible(zone: str, viewer: int | None, solo: bool = False) -> bool:
    """``True`` when ``viewer`` (``None``: a spectator) may see the cards of ``zone``.

    The oracle's rule, from the rulebook: a seat's discard pile, play area (with garrisoned
    cards), development area and accession card are public; its hand, history ("seul son
    propriétaire peut la consulter") and the cards it looks at are its own; decks are seen by
    nobody; the market cards with their tucked unrest, the unrest pile and the exile pile are
    public. Solo (booklet "SOLO"): the C.I.V.'s location slots and set-aside card (``civ/``)
    are face down, seen by nobody; its history is public (every card in it was turned face up
    when resolved).
    """
    if solo and zone == "1:history":
        return True
    head, _, rest = zone.partition(":")
    if rest:
        if rest in PUBLIC_SEAT_ZONES or rest.startswith("garrison/"):
            return True
        return rest in OWNER_ZONES and viewer is not None and head == str(viewer)
    return zone in PUBLIC_SHARED_ZONES or zone.startswith("market/")


def _error_action() -> pb.Action:
    return pb.Action(imperium=ip.ImperiumAction(end_activate=ip.ImperiumEndActivate()))


@dataclass(frozen=True)
class Move:
    """A card move of the log: its true card and zones."""

    seq: int
    kind: str
    card: str
    src: str
    dst: str
    command_id: str
    solo: bool = False

    def hidden_from(self, viewer: int | None) -> bool:
        """``True`` when ``viewer`` may see neither end of the move."""
        return not zone_visible(self.src, viewer, self.solo) and not zone_visible(
            self.dst, viewer, self.solo
        )


# -- the truth ------------------------------------------------------------------------------
def moves_of(server: ServerProcess, game_id: str) -> tuple[dict[int, Move], int, int]:
    """Every card move by sequence number, the version of ``GameEnded`` (secrets lift) and of
    ``SeedRevealed``."""
    service, store = open_store_service(server.db)
    try:
        envelopes = service.events(game_id)
        decoded = [(e, service.decode(game_id, e)) for e in envelopes]
    finally:
        store.close()
    ended = next(e.seq for e, _ in decoded if e.kind == "GameEnded")
    seed_end = next(e.seq for e, _ in decoded if e.kind == "SeedRevealed")
    solo = any(e.kind == "CivPrepared" for e in envelopes)
    moves = {
        e.seq: Move(e.seq, e.kind, event.card, event.src, event.dst, e.command_id, solo)
        for e, event in decoded
        if e.kind in ("CardDrawn", "CardMoved")
    }
    return moves, ended, seed_end


def true_states(server: ServerProcess, game_id: str, versions: set[int]) -> dict[int, Any]:
    """The game state at each version (materialised from the server's file) and the rules."""
    service, store = open_store_service(server.db)
    try:
        out: dict[int, Any] = {}
        for version in sorted(versions):
            match = service.materialise(game_id, version).match
            out[version] = match.state
        out[-1] = match.game
        return out
    finally:
        store.close()


def _same_suits() -> dict[str, str]:
    """Each card id -> the next card id with the same suits (cyclically; itself when alone)."""
    classes: dict[tuple[str, ...], list[str]] = {}
    for card_id in sorted(C.CARDS):
        classes.setdefault(tuple(C.CARDS[card_id].suits), []).append(card_id)
    return {ids[i]: ids[(i + 1) % len(ids)] for ids in classes.values() for i in range(len(ids))}


OTHER = _same_suits()


def scrambled(game: Any, state: ImperiumState, viewer: int | None) -> ImperiumState:
    """``state`` with every card hidden from ``viewer`` (other seats' hands, histories, looked
    cards and decks; the market piles and removed cards) replaced by another card of the same
    suits. The viewer's own zones stay as they are (it knows its deck's cards)."""
    copy: ImperiumState = game.copy_state(state)
    for index, seat in enumerate(copy.seats):
        if index == viewer:
            continue
        for zone in HIDDEN_SEAT_ZONES:
            if copy.civ is not None and index == 1 and zone == "history":
                continue  # solo: the C.I.V.'s history is public
            setattr(seat, zone, [OTHER.get(c, c) for c in getattr(seat, zone)])
    if copy.civ is not None:  # solo: its face-down slots and set-aside card
        copy.civ.slots = [[OTHER.get(c, c) for c in cards] for cards in copy.civ.slots]
        copy.civ.aside = [OTHER.get(c, c) for c in copy.civ.aside]
    copy.piles = {name: [OTHER.get(c, c) for c in cards] for name, cards in copy.piles.items()}
    copy.removed = [OTHER.get(c, c) for c in copy.removed]
    return copy


# -- the checks -----------------------------------------------------------------------------
def _view_of(message: Any) -> Any:
    if isinstance(message, pb.GetGameResponse | pb.GetViewResponse):
        return message.view.imperium
    return None


def check_imperium(
    recorder: Recorder, server: ServerProcess, seed: str, stats: dict[str, int] | None = None
) -> list[str]:
    """Every leak found in the recorded messages; ``stats`` counts the hidden items met."""
    stats = stats if stats is not None else {}
    game_id = recorder.game.game_id
    moves, ended, seed_end = moves_of(server, game_id)
    forms = seed_forms(seed)
    view_versions = {m.hi for m in recorder.seen if _view_of(m.message) is not None}
    truth = true_states(server, game_id, {v for v in view_versions if v < ended})
    game = truth.pop(-1)
    leaks: list[str] = []

    def count(key: str) -> None:
        stats[key] = stats.get(key, 0) + 1

    for item in recorder.seen:
        where = f"{item.rpc} to {item.viewer} at v{item.lo}..{item.hi}"
        leaks.extend(seed_leaks(item, seed_end, forms))
        playing = item.hi < ended
        for event in _events_of(item.message):
            # each event is judged as of its own version (the contract of per-version
            # redaction): one from before the end stays redacted in a history page or stream
            # received after it; the full truth is in the final record and the seed
            before_end = event.seq < ended
            leaks.extend(_event_leaks(where, event, item.viewer, before_end, moves, count))
        view = _view_of(item.message)
        if view is not None and item.hi in truth:
            leaks.extend(_view_leaks(where, item, view, truth[item.hi], game, count))
        # legal actions met at the versions of the views (a probe asks for both)
        if isinstance(item.message, pb.ListLegalActionsResponse) and item.hi in truth:
            state = truth[item.hi]
            if state.phase != OVER and item.viewer is not None:
                listed = [
                    msgspec.convert(read(a.imperium, PREFIX), ImperiumCommand)
                    for a in item.message.actions
                ]
                blind = game.legal_actions(scrambled(game, state, item.viewer), item.viewer)
                if listed != blind:
                    leaks.append(f"{where}: legal actions depend on cards hidden from the seat")
                count("legal_actions")
        if isinstance(item.message, tuple):
            leaks.extend(_record_leaks(where, item, moves, seed_end, playing, count))
    return leaks


def _event_leaks(
    where: str, event: pb.GameEvent, viewer: int | None, playing: bool,
    moves: dict[int, Move], count: Any,
) -> list[str]:  # fmt: skip
    """Leaks in one received event (``playing``: an event from before the end, judged as of
    its own version wherever it is received)."""
    if not event.HasField("imperium"):
        return []
    kind = event.imperium.WhichOneof("event")
    payload = getattr(event.imperium, kind)
    here = f"{where}: event {event.seq} {kind}"
    if kind in ("card_drawn", "card_moved"):
        move = moves[event.seq]
        if playing and move.hidden_from(viewer):
            count("events")
            if payload.card or not event.redacted:
                return [f"{here} shows {payload.card!r} ({move.src} -> {move.dst})"]
        elif payload.card != move.card:
            return [f"{here} hides {move.card!r} from a viewer who may see it"]
        return []
    if not playing:
        return [f"{here} (after the end) is redacted"] if event.redacted else []
    if kind == "market_prepared":
        count("market")
        if any(p.values for p in payload.piles.values()) or payload.removed:
            return [f"{here} shows the market piles"]
    if kind == "agenda_set":
        found = []
        for frame in payload.frames:
            if frame.seat != viewer and frame.options:
                found.append(f"{here} shows the options of seat {frame.seat}: {frame.options}")
            elif frame.seat != viewer:
                count("frames")
        memo = payload.memo
        if memo.just_drawn or memo.looked_at or memo.just_acquired:
            found.append(f"{here} shows memo cards {memo.just_drawn} {memo.looked_at}")
        return found
    return []


def _view_leaks(
    where: str, item: Seen, view: Any, state: ImperiumState, game: Any, count: Any
) -> list[str]:
    """Leaks in one received view (and its summary's scores)."""
    if state.phase == OVER:
        return []
    leaks = []
    for seat_view in view.seats:
        seat = seat_view.seat
        true_seat = state.seats[seat]
        sizes = (seat_view.hand_size, seat_view.history_size, seat_view.deck_size)
        if sizes != (len(true_seat.hand), len(true_seat.history),
                     len(true_seat.deck) + len(true_seat.deck_top)):  # fmt: skip
            leaks.append(f"{where}: wrong counts for seat {seat}")
        if seat == item.viewer:
            continue
        count("views" if true_seat.hand else "empty_hands")
        for part in ("hand", "history", "looked", "submerged"):
            if seat_view.HasField(part):
                values = getattr(seat_view, part).values
                leaks.append(f"{where}: shows seat {seat}'s {part} {values}")
    received = msgspec.convert(read(view, PREFIX), ImperiumView)
    expected = game.view(scrambled(game, state, item.viewer), item.viewer)
    if received != expected:
        leaks.append(f"{where}: the view depends on cards hidden from its viewer")
    scores = list(game.scores(scrambled(game, state, None)))
    if list(item.message.game.scores) != scores:
        leaks.append(f"{where}: the public scores depend on hidden cards")
    count("non_interference")
    return leaks


def _record_leaks(
    where: str, item: Seen, moves: dict[int, Move], seed_end: int, playing: bool, count: Any
) -> list[str]:
    """Leaks in one exported record (hidden moves, their commands, the market piles)."""
    record, complete = item.message
    leaks = []
    if complete != (item.hi >= seed_end):
        leaks.append(f"{where}: complete={complete} at v{item.hi} (end v{seed_end})")
    if not playing:
        return leaks
    hidden = {seq: m for seq, m in moves.items() if seq <= item.hi and m.hidden_from(item.viewer)}
    hidden_commands = {m.command_id for m in hidden.values()}
    for line in record.splitlines():
        data = json.loads(line)
        if data.get("type") == "event" and data["seq"] in hidden:
            count("records")
            if data["event"].get("card") or data["payload"] is not None:
                leaks.append(f"{where}: record event {data['seq']} shows a hidden card")
        elif data.get("type") == "event" and data["event"].get("type") == "MarketPrepared":
            if any(data["event"]["piles"].values()) or data["payload"] is not None:
                leaks.append(f"{where}: record shows the market piles")
        elif (
            data.get("type") == "command"
            and data["command_id"] in hidden_commands
            and data["command"] is not None
        ):
            leaks.append(f"{where}: record command {data['command_id'][:8]} shown")
    return leaks


def oracle_table(index: int, seats: int) -> tuple[tuple[str, ...], str]:
    """The nations and the common-card box of oracle game ``index``: nations of both boxes
    drawn from ``ALL_NATIONS`` (the Atlanteans, whose submerged pile is private, in every
    even game), the box drawn too."""
    rng = random.Random(f"imperium-oracle-table-{index}")
    legends = [k for k in C.ALL_NATIONS if C.NATIONS[k].box == "legends"]
    first = "atlanteans" if index % 2 == 0 and "atlanteans" in legends else None
    first = first or (rng.choice(legends) if legends else C.CLASSICS_NATIONS[0])
    others = [k for k in C.ALL_NATIONS if k != first]
    nations = [first, *rng.sample(others, seats - 1)]
    rng.shuffle(nations)
    return tuple(nations), rng.choice(C.BOXES)


def run_oracle(
    stub: annales_pb2_grpc.GameServiceStub, server: ServerProcess, index: int, solo: bool = False,
    civ: str = "", seed: str = "",
) -> list[str]:  # fmt: skip
    """One recorded game and its leaks (``solo``: one seat against the C.I.V., of nation
    ``civ`` when given; ``seed``: the game's, else one fixed per ``index``)."""
    seats = 1 if solo else SHAPES[index % len(SHAPES)]
    seed = seed or fixed_seed(f"imperium-oracle{index}")
    nations, box = oracle_table(index, 2 if solo else seats)
    if civ:
        nations = (next(n for n in nations if n != civ), civ)
    if solo:
        game = create_solo_game(stub, seed, nations, box, index)
    else:
        game = create_imperium_game(stub, seats, seed=seed, nations=list(nations), box=box)
    recorder = Recorder(
        stub,
        game,
        seats,
        random.Random(index),
        probe_rate=PROBE_RATE,
        error_action=_error_action(),
        sealed_kinds=(),
        reveal_kinds=(),
        always_sealed=True,
    )
    recorder.play(f"imperium-oracle-bot-{index}".encode())
    kinds = {m.rpc for m in recorder.seen}
    assert {
        "WatchGame", "GetView", "GetGame", "GetHistory", "ExportRecord", "SubmitAction",
        "ListLegalActions",
    } <= kinds  # fmt: skip
    assert any(isinstance(m.message, Failure) for m in recorder.seen)
    stats: dict[str, int] = {}
    leaks = check_imperium(recorder, server, seed, stats)
    for key in ("events", "views", "frames", "market", "records", "non_interference",
                "legal_actions"):  # fmt: skip
        assert stats.get(key, 0) > 0, f"vacuous check ({key}): {stats}"
    if index == 0:
        _oracle_catches_planted_leaks(recorder, server, seed)
    if civ == "arthurians":
        moves = moves_of(server, game.game_id)[0].values()
        quests = [m for m in moves if m.src == "civ/quests" and m.dst == "1:deck_top"]
        assert quests and all(m.hidden_from(0) and m.hidden_from(None) for m in quests)
    return [f"game {index} ({seats} seats): {leak}" for leak in leaks]


def create_solo_game(
    stub: annales_pb2_grpc.GameServiceStub, seed: str, nations: tuple[str, ...], box: str,
    index: int,
) -> Game:  # fmt: skip
    """A one-seat game: the human plays ``nations[0]`` against a C.I.V. of ``nations[1]``."""
    options = pb.GameOptions(imperium={})
    options.imperium.nations.append(nations[0])
    options.imperium.civ_nation = nations[1]
    options.imperium.box = box
    options.imperium.difficulty = ("chieftain", "warlord", "imperator", "sovereign",
                                   "overlord")[index % 5]  # fmt: skip
    request = pb.CreateGameRequest(
        game_type=pb.GAME_TYPE_IMPERIUM, options=options, seat_names=["solo"], seed=seed
    )
    answer = stub.CreateGame(request)
    tokens = [t.token for t in sorted(answer.seat_tokens, key=lambda t: t.seat)]
    return Game(answer.game_id, tokens, seed, answer.version, answer.seed_commitment)


def _oracle_catches_planted_leaks(recorder: Recorder, server: ServerProcess, seed: str) -> None:
    """Self-test: the oracle flags a drawn card put back into a redacted streamed event (or into
    the same event in a history page after the end), a view showing another seat's hand or
    submerged pile, an agenda showing another seat's options, and the seed in a message before
    the end."""
    moves, ended, seed_end = moves_of(server, recorder.game.game_id)
    stream = next(
        m
        for m in recorder.seen
        if m.rpc == "WatchGame"
        and m.hi < ended
        and any(e.seq in moves and e.redacted for e in m.message.events)
    )
    leaky = pb.WatchGameResponse()
    leaky.CopyFrom(stream.message)
    event = next(e for e in leaky.events if e.seq in moves and e.redacted)
    move = getattr(event.imperium, event.imperium.WhichOneof("event"))
    move.card = moves[event.seq].card
    view_item = next(
        m
        for m in recorder.seen
        if m.rpc == "GetView"
        and m.hi < ended
        and any(s.hand_size for s in m.message.view.imperium.seats if s.seat != m.viewer)
    )
    other = next(
        s.seat
        for s in view_item.message.view.imperium.seats
        if s.seat != view_item.viewer and s.hand_size
    )
    peeking = pb.GetViewResponse()
    peeking.CopyFrom(view_item.message)
    peeking.view.imperium.seats[other].hand.values.append("1UNC10")
    sunk = pb.GetViewResponse()
    sunk.CopyFrom(view_item.message)
    sunk.view.imperium.seats[other].submerged.values.append("1UNC10")
    agenda = pb.WatchGameResponse(version=stream.message.version)
    planted_agenda = agenda.events.add(seq=stream.message.events[-1].seq, kind="AgendaSet")
    planted_agenda.imperium.agenda_set.frames.add(kind="pick", seat=99, options=["1UNC10"])
    told = pb.EchoResponse(payload=b"..." + seed.encode().hex().encode())
    planted = Recorder(
        recorder.stub,
        recorder.game,
        recorder.seats,
        recorder.rng,
        seen=[
            Seen(stream.viewer, "WatchGame", stream.lo, stream.hi, leaky),
            Seen(view_item.viewer, "GetView", view_item.lo, view_item.hi, peeking),
            Seen(view_item.viewer, "GetView", view_item.lo, view_item.hi, sunk),
            Seen(stream.viewer, "WatchGame", stream.lo, stream.hi, agenda),
            Seen(None, "GetGame", 2, 2, told),
            # the same move shown in a history page after the end: still a leak (per version)
            Seen(stream.viewer, "GetHistory", seed_end, seed_end, leaky),
        ],
    )
    found = check_imperium(planted, server, seed)
    assert any("shows '" in f for f in found), found
    assert any(f.startswith("GetHistory") and "shows '" in f for f in found), found
    assert any("hand" in f for f in found), found
    assert any("submerged" in f for f in found), found
    assert any("depends on cards hidden" in f for f in found), found
    assert any("options of seat 99" in f for f in found), found
    assert any("seed" in f for f in found), found


@pytest.mark.parametrize("block", range(SAMPLE_BLOCKS))
def test_imperium_redaction_oracle_sample(
    stub: annales_pb2_grpc.GameServiceStub, server: ServerProcess, block: int
) -> None:
    """Other seats' hands, histories and draws, every deck's cards and the seed stay hidden in
    every message of a few seeded Imperium games (2 and 3 seats)."""
    leaks: list[str] = []
    for index in range(block, N_GAMES, SAMPLE_BLOCKS):
        leaks.extend(run_oracle(stub, server, index))
    assert not leaks, _report(leaks)


def test_imperium_redaction_oracle_solo(
    stub: annales_pb2_grpc.GameServiceStub, server: ServerProcess
) -> None:
    """Solo against the C.I.V.: its face-down slot cards and deck stay hidden, the human's
    hand and deck and the seed too, in every message of a seeded one-seat game."""
    leaks = run_oracle(stub, server, 1, solo=True)
    assert not leaks, _report(leaks)


def test_imperium_redaction_oracle_solo_arthurian_quests(
    stub: annales_pb2_grpc.GameServiceStub, server: ServerProcess
) -> None:
    """Solo against an Arthurian C.I.V. (``imperium/4``): its pending quests lie face down, and
    those its knight row brings onto its deck move without their card in every message, for
    the human and for spectators; the view's ``quests_pending`` is public."""
    leaks = run_oracle(
        stub, server, INDEX_ARTHURIAN, solo=True, civ="arthurians", seed=ARTHURIAN_SEED
    )
    assert not leaks, _report(leaks)


@pytest.mark.long
@pytest.mark.parametrize("block", range(LONG_BLOCKS))
def test_imperium_redaction_oracle_long(
    stub: annales_pb2_grpc.GameServiceStub, server: ServerProcess, block: int
) -> None:
    """The same oracle over 24 seeded Imperium games of 2 to 4 seats (``make long``), in blocks
    of 3."""
    leaks: list[str] = []
    per_block = N_GAMES_LONG // LONG_BLOCKS
    for index in range(1000 + block * per_block, 1000 + (block + 1) * per_block):
        leaks.extend(run_oracle(stub, server, index))
    assert not leaks, _report(leaks)
