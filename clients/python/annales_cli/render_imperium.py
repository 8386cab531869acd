"""Readable terminal rendering of Imperium views, actions and events (rich).

Cards read ``Name (ID)`` with a short effect drawn from the game's content files: the card's
suits, its keywords and, for each block of effects, its trigger and what it does in words
(``Roma (ROM1B) — power; exhaust: gain materials``). Nothing here is invented: a card the
content files do not hold reads as its id.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from annales.v1 import annales_pb2 as pb
from annales_client.games import view_data
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from annales_cli.render_common import SEAT_STYLE, STATUS, game_over, seat_name

__all__ = ["card_line", "card_name", "describe_imperium_action", "render_imperium_view"]


def _words(name: str) -> str:
    out = "".join(f" {c.lower()}" if c.isupper() else c for c in name).strip()
    return out.replace("_", " ")


@cache
def _cards() -> Mapping[str, Any]:
    from domain.imperium import content

    return content.CARDS


def card_name(card: str) -> str:
    """``"Carthaginians (CAR1A)"``; the id alone for a card the content files lack."""
    found = _cards().get(card)
    return f"{found.name} ({card})" if found is not None and found.name else card or "?"


def card_effect(card: str) -> str:
    """A short effect of a card: suits, keywords, and each effect block's trigger and
    actions in words (``"power; exhaust, passive; passive: replace cleanup token"``)."""
    found = _cards().get(card)
    if found is None:
        return ""
    parts = []
    if found.suits:
        parts.append("/".join(found.suits))
    if found.keywords:
        parts.append(", ".join(k.replace("_", " ") for k in found.keywords))
    for block in found.effects[:2]:
        actions = ", ".join(_words(type(step).__name__) for step in block.do[:3])
        parts.append(f"{block.trigger.replace('_', ' ')}: {actions}")
    return "; ".join(parts)


def card_line(card: str) -> str:
    """``Name (ID) — short effect``."""
    effect = card_effect(card)
    return card_name(card) + (f" — {effect}" if effect else "")


def _names(cards: Sequence[str] | None) -> str:
    return ", ".join(card_name(c) for c in cards) if cards else "-"


def _header(view: Mapping[str, Any], names: Sequence[str], summary: pb.GameSummary | None) -> Text:
    text = Text(
        f"Imperium — round {view.get('round', 0)}, turn {view.get('turn', 0)}, "
        f"phase {view.get('phase', '?')}",
        style="bold",
    )
    if summary is not None:
        text.append(
            f"   version {summary.version}/{summary.head_version} "
            f"({STATUS.get(summary.status, '?')})"
        )
    order = view.get("order") or "-"
    text.append(
        f"\nfirst player: {seat_name(names, int(view.get('first', -1)))}   current: "
        f"{seat_name(names, int(view.get('current', -1)))}   order: {order}   King of Kings: "
        f"{view.get('king_of_kings') or '-'}"
    )
    piles = ", ".join(f"{k} {v}" for k, v in sorted((view.get("pile_sizes") or {}).items()))
    text.append(f"\npiles: {piles or '-'}   unrest pile: {len(view.get('unrest') or [])}")
    if view.get("end_trigger"):
        text.append(f"   end: {view['end_trigger']} (final round {view.get('final_round')})")
    return text


def _market(view: Mapping[str, Any]) -> Table:
    table = Table(title="Market", title_justify="left", expand=False, pad_edge=False)
    table.add_column("row")
    table.add_column("card", overflow="fold")
    table.add_column("tokens", no_wrap=True)
    for slot in view.get("market", []):
        tokens = " ".join(
            f"{slot.get(k, 0)}{k[0]}"
            for k in ("materials", "population", "progress")
            if slot.get(k)
        )
        unrest = len(slot.get("unrest") or [])
        card = slot.get("card") or ""
        table.add_row(
            str(slot.get("kind", "")),
            card_line(card) if card else "(empty)",
            (tokens + (f" +{unrest} unrest" if unrest else "")).strip() or "-",
        )
    return table


def _seats(view: Mapping[str, Any], names: Sequence[str]) -> Table:
    table = Table(title="Seats", title_justify="left", expand=False, pad_edge=False)
    for column in ("seat", "nation", "state", "tokens m/p/pr", "hand", "deck", "play area"):
        table.add_column(column, overflow="fold")
    viewer = view.get("viewer")
    pending = set(view.get("pending") or [])
    for seat in view.get("seats", []):
        number = int(seat.get("seat", 0))
        label = Text(seat_name(names, number), style=SEAT_STYLE[number % len(SEAT_STYLE)])
        if number == viewer:
            label.append(" (you)")
        if number in pending:
            label.append(" ◀")
        garrison = seat.get("garrison") or {}
        play = [
            card_name(c) + (f" [+{len(garrison[c])}]" if garrison.get(c) else "")
            for c in seat.get("play") or []
        ]
        table.add_row(
            label,
            str(seat.get("nation", "")),
            "empire" if seat.get("empire") else "barbarian",
            f"{seat.get('materials', 0)}/{seat.get('population', 0)}/{seat.get('progress', 0)}",
            str(seat.get("hand_size", 0)),
            f"{seat.get('deck_size', 0)} (+{len(seat.get('discard') or [])} discard)",
            ", ".join(play) or "-",
        )
    return table


def _you(view: Mapping[str, Any], names: Sequence[str]) -> Text | None:
    viewer = view.get("viewer")
    seats: Sequence[Mapping[str, Any]] = view.get("seats", [])
    if viewer is None or not 0 <= int(viewer) < len(seats):
        return None
    me = seats[int(viewer)]
    text = Text(f"You ({seat_name(names, int(viewer))}, {me.get('nation')}): ", style="bold")
    text.append(
        f"{me.get('materials', 0)} materials, {me.get('population', 0)} population, "
        f"{me.get('progress', 0)} progress; {me.get('actions', 0)} actions, exhaust "
        f"{me.get('exhaust', 0)}; state card: {'empire' if me.get('empire') else 'barbarian'}; "
        f"nation token {'ready' if me.get('nation_token') else 'used'}"
    )
    text.append(f"\n  power: {card_line(str(me.get('power', '')))}")
    text.append("\n  hand:")
    for card in me.get("hand") or []:
        text.append(f"\n    {card_line(card)}")
    history = me.get("history")
    text.append(
        f"\n  history ({me.get('history_size', 0)}): "
        + (_names(history) if history is not None else "hidden")
    )
    text.append(f"\n  accession: {_names(me.get('accession'))}")
    text.append(f"\n  development ({len(me.get('development') or [])} left): ")
    text.append(
        _names((me.get("development") or [])[:3])
        + (" …" if len(me.get("development") or []) > 3 else "")
    )
    return text


def _footer(view: Mapping[str, Any], names: Sequence[str]) -> Text:
    over = game_over(view, names)
    if over is not None:
        return over
    text = Text()
    waiting = ", ".join(seat_name(names, s) for s in view.get("pending") or []) or "nobody"
    text.append(f"decision: {_words(str(view.get('decision', '')))}", style="bold")
    text.append(f" — {view.get('prompt', '')} (waiting for {waiting})")
    return text


def render_imperium_view(
    view_message: pb.GameView, names: Sequence[str], summary: pb.GameSummary | None = None
) -> RenderableType:
    """A seat's (or a spectator's) Imperium view: header, your hand, history and tokens with
    card names and short effects, the seats and their play areas, the market, the decision."""
    view = view_data(view_message)
    parts: list[RenderableType] = [_header(view, names, summary)]
    you = _you(view, names)
    if you is not None:
        parts.append(you)
    parts += [_seats(view, names), _market(view), _footer(view, names)]
    return Group(*parts)


def describe_imperium_action(data: Mapping[str, Any], view: Mapping[str, Any] | None) -> str:
    """An Imperium action in words, naming its cards (``"play Roma (ROM13)"``)."""
    kind = _words(str(data.get("type", "action")))
    parts = []
    for key, value in data.items():
        if key == "type":
            continue
        if isinstance(value, str) and value in _cards():
            parts.append(card_name(value) if key == "card" else f"{_words(key)} {card_name(value)}")
        elif isinstance(value, list):
            shown = [
                card_name(v) if isinstance(v, str) and v in _cards() else str(v) for v in value
            ]
            parts.append(f"{_words(key)} {', '.join(shown) or '-'}")
        elif value not in ("", None, [], {}):
            parts.append(f"{_words(key)} {value}" if key != "order" else str(value))
    return kind + (f": {', '.join(parts)}" if parts else "")


#: event fields that are the engine's internal bookkeeping, never shown to a player.
INTERNAL_FIELDS = frozenset({"frames", "frame", "steps", "data", "stack"})


def describe_imperium_event(
    kind: str, data: Mapping[str, Any], event: pb.GameEvent, names: Sequence[str]
) -> list[str]:
    """The detail parts of an Imperium event's line: cards named, seats named, the engine's
    internal frames left out (an agenda reads as its next decision)."""
    parts: list[str] = []
    if kind == "AgendaSet":
        frames = list(data.get("frames") or [])
        if not frames:
            return ["nothing pending"]
        top = frames[-1]
        who = seat_name(names, int(top.get("seat", -1)))
        return [f"next: {_words(str(top.get('kind', '?')))} for {who}"]
    for key, value in data.items():
        if key in INTERNAL_FIELDS or value in ("", None, [], {}):
            continue
        if key in ("seat", "by") and value == event.seat:
            continue
        if key in ("seat", "by", "to", "first", "owner") and isinstance(value, int):
            parts.append(f"{_words(key)} {seat_name(names, value)}")
        elif isinstance(value, str) and value in _cards():
            parts.append(f"{_words(key)} {card_name(value)}")
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            shown = [card_name(v) if v in _cards() else v for v in value]
            parts.append(f"{_words(key)} {', '.join(shown)}")
        elif isinstance(value, list | dict):
            continue  # structured bookkeeping: the view shows its outcome
        else:
            parts.append(f"{_words(key)} {value}")
    return parts
