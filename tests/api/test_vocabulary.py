"""One vocabulary per concept across a game's actions, events and views, for every game.

The rule (docs/api.md, "Options and vocabulary"), checked on the protos and on games played
through a real server:

* within one game, a field name carrying a vocabulary (an enum, or a string naming something)
  has one type in every options, action, event and view message (list wrappers unwrapped),
  except :data:`HOMONYMS`: different concepts that happen to share a field name;
* Rise & Fall names a piece type or a card with ``RiseAndFallPiece`` and an action of a card
  with ``RiseAndFallActionName`` wherever it appears, whatever the field's name
  (:data:`RF_ENUMS`); what the caller may not see is the zero value ``*_UNSPECIFIED``;
* Tapestry and Imperium have no enum at all: tracks, resources, cards, nations and zones are
  the same strings in actions, events and views;
* on the wire, a value an action spells one way is spelled the same way in events and views
  (no ``"Science"`` in an event for ``"science"`` in an action).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc
from annales.v1 import riseandfall_pb2 as rpb
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

from tests.api.helpers import (
    Driver,
    Game,
    create_game,
    create_imperium_game,
    create_tapestry_game,
    history,
)

#: the oneof field of each game in GameOptions / Action / GameEvent / GameView
GAMES = ("rise_and_fall", "tapestry", "imperium")
#: field names shared by different concepts, per game (each with what tells them apart)
HOMONYMS: dict[str, dict[str, str]] = {
    "rise_and_fall": {
        "reason": "why a civilisation died out (an enum) / why the game ended (a string)",
        "world": "how the world is built (an option) / the world itself (the view's)",
        "trophies": "trophies to end the game, VP of trophies (numbers) / the trophy tiles "
        "(messages) / the piece types of the trophies a seat won",
    },
    "tapestry": {
        "token": "the token of a track advance (a number) / a frame's token (a string)",
        "options": "a decision frame's options (a string) / the legal actions (messages)",
    },
    "imperium": {
        "face": "a card's face (a string) / the C.I.V. die's face (a number)",
        "slots": "the market's slots (strings) / the C.I.V.'s slot counts (numbers)",
        "options": "a decision frame's options (a string) / the legal actions (messages)",
    },
}
#: Rise & Fall: field name → the enum it must be, in every message that has it
RF_PIECE_NAMES = (
    "piece", "card", "cards", "builder", "hand", "discard", "reserve", "declined", "to_deploy",
    "chosen", "played", "decline_choice",
)  # fmt: skip
RF_ENUMS: dict[str, str] = {
    **dict.fromkeys(RF_PIECE_NAMES, "RiseAndFallPiece"),
    "action": "RiseAndFallActionName",
    "resource": "RiseAndFallResource",
}
#: Rise & Fall fields holding piece types whose name also serves another concept elsewhere
RF_PIECE_FIELDS = {("RiseAndFallSeatView", "trophies"), ("RiseAndFallTrophyView", "piece")}
_VOCABULARY = (FieldDescriptor.TYPE_STRING, FieldDescriptor.TYPE_ENUM)


def _is_wrapper(message: Descriptor | None) -> bool:
    return bool(
        message is not None
        and message.name.endswith("List")
        and len(message.fields) == 1
        and message.fields[0].name == "values"
    )


def _type(field: FieldDescriptor) -> str:
    """The field's value type: an enum's name, ``string``, ``number``, ``bool`` or a message."""
    if _is_wrapper(field.message_type):
        return _type(field.message_type.fields[0])
    if field.type == FieldDescriptor.TYPE_ENUM:
        return str(field.enum_type.name)
    if field.type == FieldDescriptor.TYPE_STRING:
        return "string"
    if field.message_type is not None:
        return str(field.message_type.name)
    return "bool" if field.type == FieldDescriptor.TYPE_BOOL else "number"


def _fields(game: str) -> Iterator[tuple[str, FieldDescriptor]]:
    """``(message name, field)`` of every field reachable from the game's options, actions,
    events and views."""
    seen: set[str] = set()
    todo = [
        outer.DESCRIPTOR.fields_by_name[game].message_type
        for outer in (pb.GameOptions, pb.Action, pb.GameEvent, pb.GameView)
    ]
    while todo:
        message = todo.pop()
        if message.full_name in seen or message.GetOptions().map_entry:
            continue
        if _is_wrapper(message) or message.name.endswith("Map"):
            continue  # a list or map wrapper: its field is its holder's (see _type)
        seen.add(message.full_name)
        for field in message.fields:
            yield message.name, field
            if field.message_type is not None:
                todo.append(field.message_type)


@pytest.mark.parametrize("game", GAMES)
def test_one_type_per_vocabulary_field(game: str) -> None:
    """A field name that carries a vocabulary anywhere in a game carries the same one in
    every message of that game (options, actions, events, views)."""
    types: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    vocabulary: set[str] = set()
    for message, field in _fields(game):
        inner = field.message_type.fields[0] if _is_wrapper(field.message_type) else field
        if inner.type in _VOCABULARY:
            vocabulary.add(field.name)
        types[field.name][_type(field)].append(message)
    mixed = {
        name: dict(found)
        for name, found in types.items()
        if name in vocabulary and len(found) > 1 and name not in HOMONYMS[game]
    }
    assert not mixed, f"one concept, several types on the wire: {mixed}"
    for name in HOMONYMS[game]:  # each listed homonym is real (the list stays honest)
        assert len(types[name]) > 1, f"{name} is no longer a homonym in {game}"


def test_rise_and_fall_names_pieces_and_actions_with_the_actions_enums() -> None:
    """Every Rise & Fall field naming a piece type, a card, an action of a card or a resource
    is the enum the actions use (Deploy.piece, ChooseCard.card, Activate.action, ...)."""
    wrong = []
    for message, field in _fields("rise_and_fall"):
        want = RF_ENUMS.get(field.name)
        if (message, field.name) in RF_PIECE_FIELDS:
            want = "RiseAndFallPiece"
        if want is None or message in ("RiseAndFallScoreSheet", "RiseAndFallOptions"):
            continue
        if _type(field) not in (want, "RiseAndFallPieceView", "RiseAndFallTrophyView"):
            wrong.append(f"{message}.{field.name}: {_type(field)}, not {want}")
    assert not wrong, wrong
    # the actions do use those enums (the rule's reference side)
    assert rpb.RiseAndFallDeploy.DESCRIPTOR.fields_by_name["piece"].enum_type.name == (
        "RiseAndFallPiece"
    )
    assert rpb.RiseAndFallActivate.DESCRIPTOR.fields_by_name["action"].enum_type.name == (
        "RiseAndFallActionName"
    )


@pytest.mark.parametrize("game", ["tapestry", "imperium"])
def test_tapestry_and_imperium_use_strings_everywhere(game: str) -> None:
    """No enum in Tapestry's or Imperium's options, actions, events or views: their
    vocabularies are strings (and numbers for content ids) on every side."""
    enums = [f"{m}.{f.name}" for m, f in _fields(game) if _type(f) not in _plain(f)]
    assert not enums, enums


def _plain(field: FieldDescriptor) -> tuple[str, ...]:
    return ("string", "number", "bool") + (
        (str(field.message_type.name),) if field.message_type is not None else ()
    )


# -- on the wire: games played through a real server --------------------------------------


def _values(message: Message, role: str, out: dict[str, dict[str, set[str]]]) -> None:
    """Collect every vocabulary value of ``message`` (enum value names, strings) by field
    name and role ("action", "event", "view")."""
    for field, value in message.ListFields():
        if field.message_type is not None and field.message_type.GetOptions().map_entry:
            field, value = field.message_type.fields_by_name["value"], list(value.values())
        items = value if field.is_repeated or isinstance(value, list) else [value]
        for item in items:
            if field.message_type is not None:
                _values(item, "action" if field.message_type.name.endswith("Action") else role, out)
            elif field.type == FieldDescriptor.TYPE_ENUM:
                out[field.name][role].add(field.enum_type.values_by_number[item].name)
            elif field.type == FieldDescriptor.TYPE_STRING:
                out[field.name][role].add(str(item))


#: the prefixes of every enum of the API (``RISE_AND_FALL_PIECE_``, ...)
_PREFIXES = tuple(
    sorted(
        (
            str(e.values_by_number[0].name)[: -len("UNSPECIFIED")]
            for module in (pb, rpb)
            for e in module.DESCRIPTOR.enum_types_by_name.values()
        ),
        key=len,
        reverse=True,
    )
)


def _fold(value: str) -> str:
    """What a value says, whatever its spelling: an enum value without its prefix, case and
    separators dropped (``RISE_AND_FALL_PIECE_NOMAD`` and ``"Nomad"`` both say ``nomad``)."""
    for prefix in _PREFIXES:
        if value.startswith(prefix):
            value = value[len(prefix) :]
            break
    return "".join(c for c in value.casefold() if c.isalnum())


CREATE: dict[str, Callable[..., Game]] = {
    "rise_and_fall": create_game,
    "tapestry": create_tapestry_game,
    "imperium": create_imperium_game,
}
#: decisions played per game (enough for sealed choices, reveals and card plays)
STEPS = {"rise_and_fall": 160, "tapestry": 120, "imperium": 120}


@pytest.mark.parametrize("game", GAMES)
def test_same_spelling_in_actions_events_and_views(
    stub: annales_pb2_grpc.GameServiceStub, game: str
) -> None:
    """A game played through the server: every value that a legal action spells one way is
    spelled the same way in the events and views every seat and a spectator receive, and
    the vocabularies shared by actions and events/views meet on the wire."""
    created = CREATE[game](stub, seats=3, seed=f"vocabulary-{game}-seed-0001")
    values: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))

    def seen(seat: int | None, kind: str, message: Any) -> None:
        if kind == "ListLegalActions":
            for action in message.actions:
                _values(getattr(action, game), "action", values)
        else:
            for event in message.events:
                _values(event, "event", values)

    Driver(stub, created, b"vocabulary", on_call=seen).play(max_steps=STEPS[game])
    for event in history(stub, created.game_id):
        _values(event, "event", values)
    _values(stub.GetGame(pb.GetGameRequest(game_id=created.game_id)).view, "view", values)
    for md in (created.md(s) for s in range(3)):
        for event in history(stub, created.game_id, md):
            _values(event, "event", values)
        view = stub.GetView(pb.GetViewRequest(game_id=created.game_id), metadata=md)
        _values(view.view, "view", values)
    shared = {n for n, r in values.items() if "action" in r and len(r) > 1}
    assert shared, f"{game}: no vocabulary shared by actions and events/views"
    met = set()
    for name in shared:
        spoken = values[name]["action"]
        for role in ("event", "view"):
            for value in values[name].get(role, set()):
                twins = {a for a in spoken if _fold(a) == _fold(value) and a != value}
                assert not twins, f"{game}.{name}: {value!r} in {role}s, {twins} in actions"
                if value in spoken:
                    met.add(name)
    assert met, f"{game}: no action value is also seen in an event or a view"


def test_rise_and_fall_hidden_values_are_unspecified(
    stub: annales_pb2_grpc.GameServiceStub,
) -> None:
    """Rise & Fall on the wire: a sealed card another seat may not see is
    RISE_AND_FALL_PIECE_UNSPECIFIED (salt empty, event marked redacted); the seat itself and,
    once revealed, everyone read a named card; a named piece or action is never the zero
    value."""
    created = create_game(stub, seats=3, seed="vocabulary-hidden-cards-0001")
    driver = Driver(stub, created, b"vocabulary-hidden")
    while True:  # until seat 0 has chosen its card and seat 1 not yet
        view = stub.GetView(pb.GetViewRequest(game_id=created.game_id), metadata=created.md(0))
        seats = view.view.rise_and_fall.seats
        if view.view.rise_and_fall.phase == "choose" and seats[0].has_chosen:
            break
        assert driver.play_one(), "the game ended before a sealed choice"
    other = stub.GetView(pb.GetViewRequest(game_id=created.game_id), metadata=created.md(1))
    mine = view.view.rise_and_fall.seats[0]
    theirs = other.view.rise_and_fall.seats[0]
    assert mine.HasField("chosen") and mine.chosen != rpb.RISE_AND_FALL_PIECE_UNSPECIFIED
    assert theirs.has_chosen and not theirs.HasField("chosen")
    assert not theirs.HasField("hand") and theirs.hand_size == mine.hand_size
    sealed = {
        seat: [
            e
            for e in history(stub, created.game_id, created.md(seat) if seat >= 0 else None)
            if e.rise_and_fall.WhichOneof("event") == "card_chosen"
        ][-1]
        for seat in (-1, 0, 1)
    }
    for seat in (-1, 1):
        assert sealed[seat].redacted
        assert sealed[seat].rise_and_fall.card_chosen.card == rpb.RISE_AND_FALL_PIECE_UNSPECIFIED
        assert sealed[seat].rise_and_fall.card_chosen.salt == ""
    assert not sealed[0].redacted
    assert sealed[0].rise_and_fall.card_chosen.card == mine.chosen
    driver.play(max_steps=80)
    for event in history(stub, created.game_id):
        body = event.rise_and_fall
        which = body.WhichOneof("event") if event.HasField("rise_and_fall") else None
        if which is None:
            continue  # a kernel event
        inner = getattr(body, which)
        for name in ("piece", "builder", "action"):
            if name in inner.DESCRIPTOR.fields_by_name:
                assert getattr(inner, name) != 0, f"{which}.{name} unnamed at {event.seq}"
        if which == "cards_revealed":
            assert all(card != 0 for card in inner.cards), "a living seat's card is named"
