"""The redaction oracle for Tapestry, its truth and its checks: nothing a seat (or a
spectator) receives reveals what it may not know.

Random Tapestry games are played through the API (``test_tapestry_redaction.py``,
``test_tapestry_redaction_boxes.py``, ``test_tapestry_redaction_solo.py``) while every seat
and a spectator record every message they receive — SubmitAction and ListLegalActions answers,
their own WatchGame stream, GetView / GetGame, GetHistory pages, ExportRecord before and after
the end, error statuses — with the recording machinery of the Rise & Fall oracle
(``test_redaction.py``, ``always_sealed``: hands are hidden all game long). Then the true
hidden values are read from the server's own store (:func:`hidden_events`,
:func:`true_states`) and every message is judged by :func:`check_tapestry` at the head
version it was produced at:

* another seat's tapestry draws: a ``TapestryDrawn`` of seat ``p`` reaches every other viewer
  with no card ids (``cards`` empty, ``redacted`` set), in events and in exported records
  (no event data, no payload, no command line); its own seat gets its cards;
* the civilizations dealt to another seat (``CivilizationsDealt``) likewise, and in views
  ``civ_offer`` is left unset for everyone but its seat;
* tapestry cards laid face down from the deck are card 0 for every viewer, the owner too;
* a Mystic's sealed predictions (``PredictionMade``): other viewers get value 0, no salt and
  ``redacted`` set until that seat's ``PredictionsRevealed``, and views leave its
  ``civ_tokens["mystics"]`` out for them until then;
* another seat's hand: ``hand`` unset, ``hand_size`` the true count;
* non-interference: each view (and each legal-action list met at those versions) equals what
  the rules give for a *scrambled* state — every hidden value (other seats' hands and
  civilization offers, face-down cards) replaced by another valid id — so no hidden value can
  hide in any other field either;
* the seed (text, hex, base64) appears nowhere before the end, and ``GameSummary.seed`` stays
  empty until then.

Every event is redacted as of its own version: an event hidden when it happened (before the
end, or before its seat's ``PredictionsRevealed``) stays redacted wherever it is received — a
history page or a stream after the end included (the full truth is in the complete record
exported after the end, and in the seed). Views, legal actions and records are judged at the
head version they were produced at (the complete record shows everything).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import msgspec
from annales.v1 import annales_pb2 as pb
from annales.v1 import tapestry_pb2 as tp

from domain.tapestry import content as C
from domain.tapestry.commands import TapestryCommand
from domain.tapestry.evolve import MYSTICS, MYSTICS_REVEALED
from domain.tapestry.expansions.civ_spies import peeks
from domain.tapestry.state import COLLECTORS, OVER, TapestryState
from domain.tapestry.view import FACE_DOWN_CIV_TOKENS, TapestryView
from service.api.convert import read
from tests.api.conftest import ServerProcess
from tests.api.helpers import open_store_service
from tests.api.tapestry_private import PRIVATE_TOKENS, scramble_private_tokens
from tests.api.test_redaction import Recorder, Seen, _events_of, seed_forms, seed_leaks

#: the chance of a full probe (every viewer asks everything) after a command.
PROBE_RATE = 0.15
PREFIX = "Tapestry"
#: hidden events: kind -> the payload field that carries the hidden value.
HIDDEN_KINDS = {
    "TapestryDrawn": "cards",
    "CivilizationsDealt": "civilizations",
    "TapestryPlayed": "card",
    "PredictionMade": "value",
    "AutomaTapestryDrawn": "cards",  # solo: the Automa's face-down cards, hidden from all
    "AutomaTapestryPlaced": "card",
    "OptionsDrawn": "items",  # Psionics: a draw to keep one of each group
    "OptionKept": "item",
    "CardsSubmerged": "cards",  # Merfolk: cards under the mat
    "Collected": "item",  # Collectors: a tapestry card or territory tile shelved face down
}
#: hidden events whose value is a tuple of ids (the others: one id, or ids for a deal).
_PRIVATE_DRAWS = {"OptionsDrawn": "items", "OptionKept": "item", "CardsSubmerged": "cards"}
#: the Collectors' mat spaces whose component lies face down (``Collected.slot``).
_FACE_DOWN_SLOTS = tuple(FACE_DOWN_CIV_TOKENS[COLLECTORS])


def error_action() -> pb.Action:
    """An action the recorders submit to meet an error status (income out of turn)."""
    return pb.Action(tapestry=tp.TapestryAction(take_income=tp.TapestryTakeIncome()))


@dataclass(frozen=True)
class Hidden:
    """An event whose value is hidden from viewers other than ``owner`` (``None``: from
    everyone) at head versions before ``end``."""

    kind: str
    seq: int
    owner: int | None
    value: Any
    command_id: str
    #: the version at which the secret lifts before the end (a Mystic's reveal), if any.
    lift: int | None = None


# -- the truth ------------------------------------------------------------------------------
def hidden_events(server: ServerProcess, game_id: str) -> tuple[list[Hidden], int, int]:
    """Hidden events, the version of ``GameEnded`` (secrets lift) and of ``SeedRevealed``."""
    service, store = open_store_service(server.db)
    try:
        envelopes = service.events(game_id)
        decoded = [(e, service.decode(game_id, e)) for e in envelopes]
    finally:
        store.close()
    ended = next(e.seq for e, _ in decoded if e.kind == "GameEnded")
    seed_end = next(e.seq for e, _ in decoded if e.kind == "SeedRevealed")
    found: list[Hidden] = []
    for envelope, event in decoded:
        if envelope.kind == "TapestryDrawn" and event.cards:
            found.append(
                Hidden(
                    "TapestryDrawn",
                    envelope.seq,
                    event.seat,
                    tuple(event.cards),
                    envelope.command_id,
                )
            )
        elif envelope.kind == "CivilizationsDealt" and event.civilizations:
            found.append(
                Hidden(
                    "CivilizationsDealt",
                    envelope.seq,
                    event.seat,
                    tuple(event.civilizations),
                    envelope.command_id,
                )
            )
        elif envelope.kind in ("AutomaTapestryDrawn", "AutomaTapestryPlaced"):
            value = tuple(event.cards) if envelope.kind == "AutomaTapestryDrawn" else event.card
            found.append(Hidden(envelope.kind, envelope.seq, None, value, envelope.command_id))
        elif envelope.kind in _PRIVATE_DRAWS:
            value = getattr(event, _PRIVATE_DRAWS[envelope.kind])
            if value:
                shown = value if isinstance(value, int) else tuple(value)
                found.append(
                    Hidden(envelope.kind, envelope.seq, event.seat, shown, envelope.command_id)
                )
        elif envelope.kind == "Collected" and event.item and event.slot in _FACE_DOWN_SLOTS:
            found.append(
                Hidden("Collected", envelope.seq, event.seat, event.item, envelope.command_id)
            )
        elif envelope.kind == "TapestryPlayed" and not event.face_up:
            found.append(
                Hidden("TapestryPlayed", envelope.seq, None, event.card, envelope.command_id)
            )
    reveals = {
        event.seat: envelope.seq
        for envelope, event in decoded
        if envelope.kind == "PredictionsRevealed"
    }
    for envelope, event in decoded:
        if envelope.kind == "PredictionMade" and event.value:
            found.append(
                Hidden(
                    "PredictionMade",
                    envelope.seq,
                    event.seat,
                    event.value,
                    envelope.command_id,
                    reveals.get(event.seat),
                )
            )
    return found, ended, seed_end


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


def _other(ids: list[int], value: int) -> int:
    """Another valid id than ``value`` (the next one, cyclically)."""
    return ids[(ids.index(value) + 1) % len(ids)] if value in ids else ids[0]


def scrambled(game: Any, state: TapestryState, viewer: int | None) -> TapestryState:
    """``state`` with every value hidden from ``viewer`` replaced by another valid id."""
    copy: TapestryState = game.copy_state(state)
    cards = sorted(C.TAPESTRY_CARDS)
    civs = sorted(C.CIVILIZATIONS)
    for index, seat in enumerate(copy.seats):
        if index != viewer and not peeks(state, viewer, index):  # a Spy's peek: shown to it
            seat.hand = [_other(cards, c) for c in seat.hand]
        if index != viewer:
            seat.civ_offer = [_other(civs, c) for c in seat.civ_offer]
        for played in seat.mat:
            if not played.face_up:
                played.card = _other(cards, played.card)
        if index != viewer:  # a Psionics draw, the Merfolk's submerged cards
            scramble_private_tokens(seat.civ_tokens, _other)
        if index != viewer and MYSTICS_REVEALED not in seat.civ_tokens:
            sealed = seat.civ_tokens.get(MYSTICS)
            if sealed is not None:  # another valid prediction in each category
                seat.civ_tokens[MYSTICS] = [v % 4 + 1 for v in sealed]
    if copy.solo is not None:  # the Automa's face-down tapestry cards
        copy.solo.tapestry = [_other(cards, c) for c in copy.solo.tapestry]
        copy.solo.mat = [_other(cards, c) for c in copy.solo.mat]
    return copy


# -- the checks -----------------------------------------------------------------------------
def _view_of(message: Any) -> Any:
    if isinstance(message, pb.GetGameResponse | pb.GetViewResponse):
        return message.view.tapestry
    return None


def _event_value(event: pb.GameEvent, kind: str) -> Any:
    payload = getattr(
        event.tapestry,
        {
            "TapestryDrawn": "tapestry_drawn",
            "CivilizationsDealt": "civilizations_dealt",
            "TapestryPlayed": "tapestry_played",
            "PredictionMade": "prediction_made",
            "AutomaTapestryDrawn": "automa_tapestry_drawn",
            "AutomaTapestryPlaced": "automa_tapestry_placed",
            "OptionsDrawn": "options_drawn",
            "OptionKept": "option_kept",
            "CardsSubmerged": "cards_submerged",
            "Collected": "collected",
        }[kind],
    )
    value = getattr(payload, HIDDEN_KINDS[kind])
    return value if isinstance(value, int) else tuple(value)


def check_tapestry(
    recorder: Recorder, server: ServerProcess, seed: str, stats: dict[str, int] | None = None
) -> list[str]:
    """Every leak found in the recorded messages; ``stats`` counts the hidden items met."""
    stats = stats if stats is not None else {}
    game_id = recorder.game.game_id
    secrets, ended, seed_end = hidden_events(server, game_id)
    assert secrets, "a whole game deals civilizations and draws tapestry cards"
    by_seq = {h.seq: h for h in secrets}
    forms = seed_forms(seed)
    view_versions = {m.hi for m in recorder.seen if _view_of(m.message) is not None}
    truth = true_states(server, game_id, view_versions)
    game = truth.pop(-1)
    leaks: list[str] = []

    def lifted(secret: Hidden) -> int:
        return ended if secret.lift is None else min(secret.lift, ended)

    def hidden(secret: Hidden, item: Seen) -> bool:
        return item.hi < lifted(secret) and (secret.owner is None or item.viewer != secret.owner)

    def hidden_event(secret: Hidden, item: Seen) -> bool:
        # an event is redacted as of its own version: one from before the lift stays
        # redacted wherever it is received, a history page or stream after the end included
        return secret.seq < lifted(secret) and (secret.owner is None or item.viewer != secret.owner)

    def count(key: str) -> None:
        stats[key] = stats.get(key, 0) + 1

    for item in recorder.seen:
        where = f"{item.rpc} to {item.viewer} at v{item.lo}..{item.hi}"
        leaks.extend(seed_leaks(item, seed_end, forms))
        # hidden values in events
        for event in _events_of(item.message):
            secret = by_seq.get(event.seq)
            if secret is None:
                continue
            shown = _event_value(event, secret.kind)
            if hidden_event(secret, item):
                count("events")
                if secret.kind == "PredictionMade":
                    count("predictions")
                    if event.tapestry.prediction_made.salt:
                        leaks.append(f"{where}: event {event.seq} shows a prediction's salt")
                if shown or not event.redacted:
                    leaks.append(
                        f"{where}: event {event.seq} {secret.kind} of seat "
                        f"{secret.owner} shows {shown} (redacted={event.redacted})"
                    )
            elif shown != secret.value:
                # its own seat always sees it (and everyone an event from after the lift)
                leaks.append(f"{where}: event {event.seq} hides {secret.kind} from its seat")
        # views: hands, offers, face-down cards, and non-interference
        view = _view_of(item.message)
        if view is not None and item.hi in truth:
            state = truth[item.hi]
            if state.phase != OVER:
                for seat_view in view.seats:
                    seat = seat_view.seat
                    true_seat = state.seats[seat]
                    if seat_view.hand_size != len(true_seat.hand):
                        leaks.append(f"{where}: wrong hand size for seat {seat}")
                    if any(p.card for p in seat_view.mat if not p.face_up):
                        leaks.append(f"{where}: shows a face-down card of seat {seat}")
                    if seat == item.viewer:
                        continue
                    count("views" if true_seat.hand else "empty_hands")
                    if seat_view.HasField("hand") and peeks(state, item.viewer, seat):
                        # Plans & Ploys, Spies: a Spy deciding its copy sees its neighbours'
                        # hands (decisions.json#spies_hand): the true hand, to that Spy only
                        count("spy_peeks")
                        if sorted(seat_view.hand.values) != sorted(true_seat.hand):
                            leaks.append(f"{where}: a Spy's peek at seat {seat} is not its hand")
                    elif seat_view.HasField("hand"):
                        leaks.append(f"{where}: shows seat {seat}'s hand {seat_view.hand.values}")
                    if (
                        MYSTICS in seat_view.civ_tokens
                        and MYSTICS_REVEALED not in true_seat.civ_tokens
                    ):
                        leaks.append(f"{where}: shows seat {seat}'s sealed Mystics predictions")
                    if set(PRIVATE_TOKENS) & set(seat_view.civ_tokens):
                        leaks.append(f"{where}: shows seat {seat}'s drawn or submerged cards")
                    if seat_view.HasField("civ_offer"):
                        leaks.append(f"{where}: shows seat {seat}'s civilization offer")
                received = msgspec.convert(read(view, PREFIX), TapestryView)
                expected = game.view(scrambled(game, state, item.viewer), item.viewer)
                if received != expected:
                    leaks.append(f"{where}: the view depends on values hidden from its viewer")
                count("non_interference")
        # legal actions met at the versions of the views
        if isinstance(item.message, pb.ListLegalActionsResponse) and item.hi in truth:
            state = truth[item.hi]
            if state.phase != OVER and item.viewer is not None:
                listed = [
                    msgspec.convert(read(a.tapestry, PREFIX), TapestryCommand)
                    for a in item.message.actions
                ]
                blind = game.legal_actions(scrambled(game, state, item.viewer), item.viewer)
                if listed != blind:
                    leaks.append(f"{where}: legal actions depend on values hidden from the seat")
                count("legal_actions")
        # exported records before the end
        if isinstance(item.message, tuple):
            record, complete = item.message
            if complete != (item.hi >= seed_end):
                leaks.append(f"{where}: complete={complete} at v{item.hi} (end v{seed_end})")
            hidden_here = {s.seq: s for s in secrets if hidden(s, item)}
            hidden_commands = {s.command_id for s in hidden_here.values()}
            for line in record.splitlines():
                data = json.loads(line)
                if data.get("type") == "event" and data["seq"] in hidden_here:
                    secret = hidden_here[data["seq"]]
                    count("records")
                    shown = data["event"].get(HIDDEN_KINDS[secret.kind])
                    if shown or data["payload"] is not None:
                        leaks.append(
                            f"{where}: record event {data['seq']} shows {secret.kind} "
                            f"of seat {secret.owner}"
                        )
                if (
                    data.get("type") == "command"
                    and data["command_id"] in hidden_commands
                    and data["command"] is not None
                ):
                    leaks.append(f"{where}: record command {data['command_id'][:8]} shown")
    return leaks
