"""Imperium effect notation, the building blocks: names, references, filters, amounts,
conditions and events (``effects_dsl.md`` §5-7), as frozen msgspec Structs.

Every Struct here rejects unknown keys, so a typo in a content file fails at import. The steps
that use these blocks are in :mod:`domain.imperium.content_steps`; blocks and the decoder in
:mod:`domain.imperium.content_effects`, which re-exports everything (import from there).

>>> msgspec.convert({"any_of": [{"name": "Conquer"}, {"attack": True}]}, Filter)
Filter(any_of=(Filter(name='Conquer'), Filter(attack=True)))
"""

from __future__ import annotations

from typing import Literal

import msgspec

Suit = Literal["power", "fame", "uncivilised", "civilised", "region", "tributary", "unrest"]
Resource = Literal["materials", "population", "progress"]
StateSide = Literal["barbarian", "empire"]
#: card type icons and region-type icons (both usable in a ``type_icon`` filter).
Icon = Literal[
    "city", "metropolis", "knight", "mask", "scroll", "production", "fertile", "river"
]  # fmt: skip
#: zones, piles and positions of ``effects_dsl.md`` §5 (plus ``self`` for ``on``).
Zone = Literal[
    "hand", "deck", "deck_top", "discard", "history", "play_area", "development_area",
    "nation_deck", "nation_deck_top", "nation_deck_bottom", "active_quest", "garrisoned",
    "garrisoned_here", "market", "market_card", "exile", "main_deck", "fame", "unrest",
    "supply", "just_drawn", "just_acquired", "looked_at", "revealed", "each_other_player",
    "unspecified", "self",
]  # fmt: skip
Zones = Zone | tuple[Zone, ...]
#: a card named by position rather than by name.
CardWord = Literal["self", "just_drawn", "just_acquired", "revealed"]
Trigger = Literal["play", "exhaust", "solstice", "passive", "static", "on_gain", "on_enter_play",
                  "game_end"]  # fmt: skip
EventName = Literal[
    "play_card", "other_player_plays_card", "acquire", "innovate", "return_unrest", "take_card",
    "gain_resource_from_card", "gain_market_card_with_tokens", "look", "pay", "would_gain",
    "submerge", "leaves_play", "deck_empty", "required_to_discard",
]  # fmt: skip


class _S(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    forbid_unknown_fields=True,
    omit_defaults=True,
    repr_omit_defaults=True,
):
    """Base of every notation Struct: frozen, keyword-only, unknown keys rejected; defaults
    are left out of the encoded form and of the repr."""


# ---------------------------------------------------------------- references, filters, amounts


class Ref(_S, frozen=True, kw_only=True):
    """A card named in an effect: its English ``name`` and, when specific, its card ``ids``.

    >>> msgspec.convert({"name": "City of Rome", "ids": ["ROM19"]}, Ref)
    Ref(name='City of Rome', ids=('ROM19',))
    """

    name: str
    ids: tuple[str, ...] = ()


class Filter(_S, frozen=True, kw_only=True):
    """Selects cards; every key given must hold (AND). ``not_`` negates, ``any_of`` is an OR;
    ``ids`` (with ``name``, as in a :class:`Ref`) restricts to those card numbers.

    >>> msgspec.convert({"persistent": True, "not": {"suit": "region"}}, Filter)
    Filter(persistent=True, not_=Filter(suit='region'))
    """

    suit: Suit | None = None
    type_icon: Icon | None = None
    state_icon: StateSide | None = None
    persistent: bool | None = None
    attack: bool | None = None
    vp_icon: Literal["variable"] | None = None
    has_tokens: Resource | None = None
    name: str | None = None
    ids: tuple[str, ...] = ()
    name_starts_with: str | None = None
    not_: Filter | None = msgspec.field(default=None, name="not")
    any_of: tuple[Filter, ...] = ()


class UpTo(_S, frozen=True, kw_only=True):
    """A count the player may fall short of: "up to ``up_to``"."""

    up_to: int


#: a number of cards: exact, up to n, any number, or all of them.
Count = int | UpTo | Literal["any", "all"]


class Selector(_S, frozen=True, kw_only=True):
    """What a per-amount counts: cards/icons matching ``filter`` in ``zone``, or the results
    of the previous step (``count``, e.g. ``cards_abandoned_by_previous_step``)."""

    filter: Filter | None = None
    zone: Literal["play_area", "garrisoned", "garrisoned_here", "active_quest"] | None = None
    count: (
        Literal["cards_abandoned_by_previous_step", "unrest_returned_by_previous_step"] | None
    ) = None


class Per(_S, frozen=True, kw_only=True):
    """``each`` units for every item the selector ``per`` counts (icons count one by one)."""

    per: Selector
    each: int


#: an amount of tokens gained: a number, a per-amount, or every token on this card.
Amount = int | Per | Literal["all_on_this_card"]


class Resources(_S, frozen=True, kw_only=True):
    """Plain token amounts (``actions`` = action tokens on the state card)."""

    materials: int = 0
    population: int = 0
    progress: int = 0
    actions: int = 0


# ---------------------------------------------------------------- conditions and events


class CountAtLeast(_S, frozen=True, kw_only=True):
    """At least ``n`` cards matching ``filter`` in ``zone``."""

    filter: Filter
    zone: Zone
    n: int


class Condition(_S, frozen=True, kw_only=True):
    """A condition (``effects_dsl.md`` §7); every key given must hold.

    >>> msgspec.convert({"state": "empire"}, Condition)
    Condition(state='empire')
    """

    state: StateSide | None = None
    in_play: Ref | None = None
    in_history: Ref | None = None
    all_: tuple[Condition, ...] = msgspec.field(default=(), name="all")
    count_at_least: CountAtLeast | None = None
    resources_at_least: Resources | None = None
    no_active_quest: bool | None = None
    failed_previous_step: bool | None = None
    received_from_you: Filter | None = None
    previous_abandoned_lacks: Filter | None = None
    previous_exiled_matches: Filter | None = None
    revealed_matches_declared: bool | None = None


class Event(_S, frozen=True, kw_only=True):
    """What a reactive block (``when``) waits for (``effects_dsl.md`` §6).

    ``event`` is one name or a list (any of them). ``who="you"``: only your own actions;
    ``any_turn``: usable outside your turn.

    >>> e = msgspec.convert({"event": ["acquire", "innovate"], "who": "you"}, Event)
    >>> e.names()
    ('acquire', 'innovate')
    """

    event: EventName | tuple[EventName, ...]
    who: Literal["you"] | None = None
    any_turn: bool = False
    filter: Filter | None = None
    from_: Zone | None = msgspec.field(default=None, name="from")
    token: Resource | None = None
    pile: Literal["fame", "unrest", "nation_deck"] | None = None
    resource: Resource | None = None
    card_filter: Filter | None = None
    zone: Zone | None = None
    card: Ref | None = None

    def names(self) -> tuple[EventName, ...]:
        """The event names this block reacts to, as a tuple."""
        return self.event if isinstance(self.event, tuple) else (self.event,)


class Victims(_S, frozen=True, kw_only=True):
    """Whom ``steal`` takes from: the other players, optionally only those meeting ``where``."""

    players: Literal["others"]
    where: Condition | None = None
