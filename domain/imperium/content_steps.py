"""Imperium effect notation, the steps: one frozen msgspec Struct per step key of
``effects_dsl.md`` (§3 game actions, §4 control steps, §8 passive modifiers).

Each step class is tagged with its DSL key on the field ``op``; :data:`Step` is their tagged
union. Parameters keep the notation's names (a trailing underscore marks a Python keyword:
``from_`` is ``from`` on the wire). Decoding from the notation is done by
:func:`domain.imperium.content_effects.decode_step`.

>>> msgspec.json.decode(b'{"op": "draw", "count": 2}', type=Step)
Draw(count=2)
>>> msgspec.json.encode(Gain(materials=2))
b'{"op":"gain","materials":2}'
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.imperium.content_dsl import (
    _S,
    Amount,
    CardWord,
    Condition,
    Count,
    Filter,
    Icon,
    Ref,
    Resource,
    Resources,
    Selector,
    StateSide,
    Suit,
    UpTo,
    Victims,
    Zone,
    Zones,
)

# ---------------------------------------------------------------- steps (tag = DSL key)


class _Step(_S, frozen=True, kw_only=True, tag_field="op"):
    """Base of the step Structs; the tag (``op``) is the step key of ``effects_dsl.md``."""


class Gain(_Step, frozen=True, kw_only=True, tag="gain"):
    """Take tokens from the supply (``actions``: action tokens onto the state card)."""

    materials: Amount = 0
    population: Amount = 0
    progress: Amount = 0
    actions: Amount = 0


class Pay(_Step, frozen=True, kw_only=True, tag="pay"):
    """Return tokens to the supply; ``"all"`` with ``min`` = everything, at least ``min``;
    ``UpTo`` = as many as the player chooses, at most that many."""

    materials: int | UpTo | Literal["all"] = 0
    population: int | UpTo | Literal["all"] = 0
    progress: int | UpTo | Literal["all"] = 0
    actions: int | UpTo | Literal["all"] = 0
    min: int = 0


class Draw(_Step, frozen=True, kw_only=True, tag="draw"):
    """Draw from your deck: ``count``, or ``up_to``, or ``per``/``each``; ``if_able`` = no
    reshuffle when the deck runs out."""

    count: int = 0
    up_to: int | None = None
    if_able: bool = False
    per: Selector | None = None
    each: int = 0


class DrawFame(_Step, frozen=True, kw_only=True, tag="draw_fame"):
    """Put the top card(s) of the fame deck into your hand."""

    count: int = 1


class Take(_Step, frozen=True, kw_only=True, tag="take"):
    """Gain the top card(s) of a public ``pile``, or one of the cards just looked at.

    The destination is not printed: :func:`domain.imperium.picks.take_destination` (decision
    ``take_destination``).
    """

    pile: Literal["fame", "unrest"] | None = None
    from_: Literal["looked_at"] | None = msgspec.field(default=None, name="from")
    count: int = 1


class Discard(_Step, frozen=True, kw_only=True, tag="discard"):
    """Put card(s) from hand (or from ``from_``: the cards just drawn) into your discard."""

    count: Count = 1
    filter: Filter | None = None
    from_: Zone | None = msgspec.field(default=None, name="from")
    card: CardWord | Ref | None = None


class Acquire(_Step, frozen=True, kw_only=True, tag="acquire"):
    """Take one face-up market card of one of ``suits`` (with its tokens and tucked unrest)."""

    suits: tuple[Suit, ...] | Literal["any"]
    filter: Filter | None = None
    from_: tuple[Zone, ...] = msgspec.field(default=(), name="from")
    times: int = 1


class Innovate(_Step, frozen=True, kw_only=True, tag="innovate"):
    """Break through for a card of one of ``suits`` (``any_category`` + ``filter``: any)."""

    suits: tuple[Suit, ...] = ()
    exile_allowed: bool = False
    any_category: bool = False
    filter: Filter | None = None
    times: int = 1


class Develop(_Step, frozen=True, kw_only=True, tag="develop"):
    """Pay the cost of a development-area card (none when ``free``); it goes to discard."""

    free: bool = False


class _Moves(_Step, frozen=True, kw_only=True):
    """Shared parameters of the card-moving steps: which card(s), from where, how many."""

    card: CardWord | Ref | None = None
    from_: Zones | None = msgspec.field(default=None, name="from")
    count: Count | None = None
    filter: Filter | None = None


class Exile(_Moves, frozen=True, kw_only=True, tag="exile"):
    """Put card(s) into the exile pile; ``except_`` names a card that may not be chosen."""

    except_: Ref | None = msgspec.field(default=None, name="except")


class History(_Moves, frozen=True, kw_only=True, tag="history"):
    """Move card(s) to your history (no ``from_``: the card text names no zone)."""


class Submerge(_Moves, frozen=True, kw_only=True, tag="submerge"):
    """Atlanteans: put card(s) into the submerged pile."""


class Abandon(_Moves, frozen=True, kw_only=True, tag="abandon"):
    """Move persistent card(s) from play to discard; ``hosting``/``garrisoned_in`` narrow it."""

    hosting: Filter | None = None
    garrisoned_in: Filter | None = None


class Recall(_Moves, frozen=True, kw_only=True, tag="recall"):
    """Return persistent card(s) from play to hand, with their garrisoned cards."""


class Recover(_Moves, frozen=True, kw_only=True, tag="recover"):
    """Take a chosen card from one of your piles and put it ``to`` hand or deck top."""

    to: Zone


class ReturnUnrest(_Moves, frozen=True, kw_only=True, tag="return_unrest"):
    """Put unrest card(s) back on the unrest pile (default ``from_``: hand)."""


class Garrison(_Moves, frozen=True, kw_only=True, tag="garrison"):
    """Tuck card(s) face up under a persistent card (this one unless ``on`` says otherwise)."""

    on: Zone | None = None


class FreePlay(_Moves, frozen=True, kw_only=True, tag="free_play"):
    """Play a card without spending an action."""


class Play(_Moves, frozen=True, kw_only=True, tag="play"):
    """Play a card from another zone; ``spend_action``: it costs an action as usual."""

    spend_action: bool = False


class PutOnDeck(_Moves, frozen=True, kw_only=True, tag="put_on_deck"):
    """Place card(s) face down on top of your draw deck."""


class Look(_Step, frozen=True, kw_only=True, tag="look"):
    """Privately look at the top ``count`` cards of ``pile``."""

    pile: Literal["fame", "nation_deck", "main_deck"]
    count: int


class LookAdditional(_Step, frozen=True, kw_only=True, tag="look_additional"):
    """Passive on a look: look at that many extra cards."""

    count: int


class GarrisonSelf(_Step, frozen=True, kw_only=True, tag="garrison_self"):
    """Knights: tuck this card under a ``host`` in play, then resolve the host's play effect."""

    host: Filter
    then: Literal["resolve_host_play_effect"]


class Find(_Step, frozen=True, kw_only=True, tag="find"):
    """Search hand, discard, deck then nation deck (or only ``search``) and put it ``to``."""

    card: Ref | None = None
    filter: Filter | None = None
    to: Zone
    search: tuple[Zone, ...] = ()


class Steal(_Step, frozen=True, kw_only=True, tag="steal"):
    """Take tokens from other players, as far as possible."""

    materials: int = 0
    population: int = 0
    progress: int = 0
    from_: Victims = msgspec.field(name="from")


class Give(_Step, frozen=True, kw_only=True, tag="give"):
    """Give ``count_each`` card(s) from your zones to each recipient."""

    to: Literal["each_other_player"]
    count_each: int
    from_: Zones = msgspec.field(name="from")


class Move(_Step, frozen=True, kw_only=True, tag="move"):
    """Move card(s) between zones with no other keyword."""

    what: Literal["nation_deck_top", "looked_at", "revealed", "active_quest"]
    to: Zone
    count: Count = 1


class PlaceTokens(_Step, frozen=True, kw_only=True, tag="place_tokens"):
    """Put tokens from the ``source`` onto a market card or this card."""

    on: Literal["market_card", "self"]
    amount: Resources
    source: Literal["supply"]


class RegainExhaustToken(_Step, frozen=True, kw_only=True, tag="regain_exhaust_token"):
    """Move used exhaust tokens back onto your state card."""

    count: int


class Reveal(_Step, frozen=True, kw_only=True, tag="reveal"):
    """Reveal your ``zones``, or the top ``count`` cards of ``pile``."""

    zones: tuple[Zone, ...] = ()
    pile: Literal["main_deck", "fame", "nation_deck"] | None = None
    count: int = 0


class Declare(_Step, frozen=True, kw_only=True, tag="declare"):
    """Name one option out loud before a reveal."""

    one_of: tuple[Suit, ...]


class Shuffle(_Step, frozen=True, kw_only=True, tag="shuffle"):
    """Shuffle a pile (the nation deck keeps its accession-slot card at the bottom)."""

    pile: Literal["nation_deck"]


class Swap(_Step, frozen=True, kw_only=True, tag="swap"):
    """Exchange a card from ``card_from`` with the ``with_`` position."""

    card_from: Zone
    with_: Zone = msgspec.field(name="with")
    accession_card_excluded: bool = False


class SwapExileWithMarket(_Step, frozen=True, kw_only=True, tag="swap_exile_with_market"):
    """Swap exiled card(s) with market card(s) (the rulebook's exile-swap procedure)."""

    count: int


class Flip(_Step, frozen=True, kw_only=True, tag="flip"):
    """Turn this double-sided card over."""

    card: Literal["self"]


class FlipStateCard(_Step, frozen=True, kw_only=True, tag="flip_state_card"):
    """Turn your state card to ``side``."""

    side: StateSide


class ReplaceSelfWith(_Step, frozen=True, kw_only=True, tag="replace_self_with"):
    """Remove this card and put ``card`` in its place."""

    card: Ref


class PutIntoPlay(_Step, frozen=True, kw_only=True, tag="put_into_play"):
    """Put the card straight into your play area."""

    card: Literal["self"]


class TriggerGameEnd(_Step, frozen=True, kw_only=True, tag="trigger_game_end"):
    """Trigger the end of the game (finish the round, then one more)."""


class InsteadOfGaining(_Step, frozen=True, kw_only=True, tag="instead_of_gaining"):
    """The card is resolved instead of being gained (King of Kings)."""

    action: Literal["resolve_this_card"]


class IgnoreAttack(_Step, frozen=True, kw_only=True, tag="ignore_attack"):
    """Ignore the triggering attack, unless the attacker gives you ``unless_attacker_gives``."""

    unless_attacker_gives: Resources | None = None


class DoubleTokensGained(_Step, frozen=True, kw_only=True, tag="double_tokens_gained"):
    """Double the tokens of ``resource`` just taken with a market card."""

    resource: Resource


class TreatIcon(_Step, frozen=True, kw_only=True, tag="treat_icon"):
    """Treat ``count`` cards with ``icon`` as showing the icons in ``as_`` until ``until``."""

    icon: Icon
    count: int
    as_: dict[Icon, int] = msgspec.field(name="as")
    until: Literal["end_of_turn"]


class IgnoreStateIcon(_Step, frozen=True, kw_only=True, tag="ignore_state_icon"):
    """Ignore ``icon`` on the card(s) named by ``applies_to``."""

    icon: StateSide
    applies_to: Literal["next_card_played_this_turn"]


class UseExhaustEffectOf(_Step, frozen=True, kw_only=True, tag="use_exhaust_effect_of"):
    """Resolve another player's card's exhaust effect as if it were yours."""

    owner: Literal["other_player"]
    filter: Filter | None = None


class ReduceRequirement(_Step, frozen=True, kw_only=True, tag="reduce_requirement"):
    """Lower a discard requirement being resolved by ``discard`` cards."""

    discard: int
    filter: Filter | None = None


class Substitute(_Step, frozen=True, kw_only=True, tag="substitute"):
    """Meet ``requirement`` by doing ``with_`` instead."""

    requirement: Step
    with_: Step = msgspec.field(name="with")


class ReplaceGain(_Step, frozen=True, kw_only=True, tag="replace_gain"):
    """Replacement: instead of gaining ``instead_of``, do the steps in ``do``."""

    instead_of: Resource
    do: tuple[Step, ...]


class Reminder(_Step, frozen=True, kw_only=True, tag="reminder"):
    """A general rule restated on the card; no new effect."""

    rule: str


# passive modifiers (effects_dsl.md §8)


class HandSize(_Step, frozen=True, kw_only=True, tag="hand_size"):
    """Change your hand-size limit by ``delta``."""

    delta: int


class RemoveStateIcon(_Step, frozen=True, kw_only=True, tag="remove_state_icon"):
    """The cards you own that match ``cards`` lose the ``icon`` state icon."""

    cards: Filter
    icon: StateSide


class ReduceCost(_Step, frozen=True, kw_only=True, tag="reduce_cost"):
    """Lower development costs or unrest-card options, never below ``min``."""

    of: Literal["development", "unrest_card_options"]
    materials: int = 0
    population: int = 0
    progress: int = 0
    cards: int = 0
    min: int = 0


class Redirect(_Step, frozen=True, kw_only=True, tag="redirect"):
    """Cards that would go to ``instead_of`` go ``to`` instead."""

    instead_of: Zone
    to: Zone


class ReplaceCleanupToken(_Step, frozen=True, kw_only=True, tag="replace_cleanup_token"):
    """In clean-up, place ``place`` on a market card instead of the ``instead_of`` token."""

    instead_of: Resource
    place: Resources


class AcquireFromExileAllowed(_Step, frozen=True, kw_only=True, tag="acquire_from_exile_allowed"):
    """Exiled cards of ``suits`` may be acquired as if in the market, gaining ``bonus``."""

    suits: tuple[Suit, ...]
    bonus: Resources | None = None


class FreePlayAllowed(_Step, frozen=True, kw_only=True, tag="free_play_allowed"):
    """Cards matching ``filter`` may be played as free actions."""

    filter: Filter


class CountsAs(_Step, frozen=True, kw_only=True, tag="counts_as"):
    """This card counts as ``count`` cards of ``suit``."""

    suit: Suit
    count: int


class DefinesZone(_Step, frozen=True, kw_only=True, tag="defines_zone"):
    """Names a zone this card creates (``as_`` describes it)."""

    zone: Zone
    as_: str = msgspec.field(name="as")


# control steps (effects_dsl.md §4)


class May(_Step, frozen=True, kw_only=True, tag="may"):
    """Optional steps: if taken, done in order."""

    steps: tuple[Step, ...]


class Choose(_Step, frozen=True, kw_only=True, tag="choose"):
    """Pick exactly one option (each a list of steps)."""

    options: tuple[tuple[Step, ...], ...]


class ChooseAny(_Step, frozen=True, kw_only=True, tag="choose_any"):
    """Pick one option or several."""

    options: tuple[tuple[Step, ...], ...]


class CostThen(_Step, frozen=True, kw_only=True, tag="cost"):
    """ "Do X to do Y": ``cost`` must be done in full or the option is not available."""

    cost: tuple[Step, ...]
    then: tuple[Step, ...] = ()


class If(_Step, frozen=True, kw_only=True, tag="if"):
    """Conditional steps."""

    condition: Condition = msgspec.field(name="if")
    then: tuple[Step, ...] = ()
    else_: tuple[Step, ...] = msgspec.field(default=(), name="else")


class Each(_Step, frozen=True, kw_only=True, tag="each"):
    """Every player (``player``, you included) or every ``other_player`` does ``do``."""

    each: Literal["player", "other_player"]
    do: tuple[Step, ...]


class ForEach(_Step, frozen=True, kw_only=True, tag="for_each"):
    """Repeat ``do`` once per item the previous step produced."""

    for_each: Literal[
        "card_discarded_by_previous_step",
        "card_abandoned_by_previous_step",
        "progress_paid_by_previous_step",
    ]
    do: tuple[Step, ...]


Step = (
    Gain | Pay | Draw | DrawFame | Take | Discard | Acquire | Innovate | Develop | Exile
    | History | Submerge | Abandon | Recall | Recover | ReturnUnrest | Garrison | FreePlay | Play
    | PutOnDeck | Look | LookAdditional | GarrisonSelf | Find | Steal | Give | Move | PlaceTokens
    | RegainExhaustToken | Reveal | Declare | Shuffle | Swap | SwapExileWithMarket | Flip
    | FlipStateCard | ReplaceSelfWith | PutIntoPlay | TriggerGameEnd | InsteadOfGaining
    | IgnoreAttack | DoubleTokensGained | TreatIcon | IgnoreStateIcon | UseExhaustEffectOf
    | ReduceRequirement | Substitute | ReplaceGain | Reminder | HandSize | RemoveStateIcon
    | ReduceCost | Redirect | ReplaceCleanupToken | AcquireFromExileAllowed | FreePlayAllowed
    | CountsAs | DefinesZone | May | Choose | ChooseAny | CostThen | If | Each | ForEach
)  # fmt: skip
"""Every step of the notation, a tagged union on ``op`` (the DSL step key)."""
