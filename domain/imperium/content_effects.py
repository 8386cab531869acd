"""Imperium card effects: the effect notation decoded into typed, frozen msgspec Structs.

The content files keep each card's effects in the notation of the facts folder
(``shared/reference/imperium/effects_dsl.md``): a list of *blocks*, each with a ``trigger`` and
a list of *steps*; a step is a JSON object whose main key names the operation
(``{"draw": 1}``, ``{"gain": {"materials": 2}}``). :func:`decode_effects` turns that notation
into :class:`Block` values whose steps are members of the tagged union :data:`Step`.

The notation is regular enough to be decoded **completely**: every block key, trigger, step
key, step parameter, filter key, zone, event and condition is typed, and anything outside the
DSL's lists is rejected (:class:`EffectError` says where). Nothing is kept as raw JSON.

The building blocks (filters, conditions, events, amounts) are in
:mod:`domain.imperium.content_dsl`, the step Structs in :mod:`domain.imperium.content_steps`;
this module adds blocks and the decoder and re-exports everything: import from here.

Decoding happens in two passes. :func:`tag_steps` rewrites each step into the *tagged form*
(the operation moves into an ``"op"`` field, scalar shorthands become objects); then msgspec
converts the tagged form into the Structs, validating every key and value. The tagged form is
also what msgspec encodes (defaults left out), so decoded effects round-trip through JSON or
msgpack (events and snapshots may carry them).

Shorthands (scalar argument -> field): ``{"draw": 1}`` -> ``Draw(count=1)``; ``"self"`` and
position words (``"just_drawn"``…) go to ``card``; ``{"shuffle": "nation_deck"}`` ->
``pile``; ``{"reveal": [...]}`` -> ``zones``; ``true`` for ``trigger_game_end`` /
``ignore_attack`` -> no fields. Fields that clash with Python keywords carry a trailing
underscore (``from_``, ``else_``, ``as_``…) but keep the notation's name on the wire.

>>> blocks = decode_effects([{"trigger": "play", "do": [{"draw": 2}, {"discard": 2}]}])
>>> blocks[0].trigger, blocks[0].do
('play', (Draw(count=2), Discard(count=2)))
>>> step = decode_step(
...     {"cost": [{"pay": {"materials": 2}}], "then": [{"acquire": {"suits": "any"}}]}
... )
>>> step.cost, step.then
((Pay(materials=2),), (Acquire(suits='any'),))
>>> decode_step({"may": [{"history": "self"}]})
May(steps=(History(card='self'),))
>>> decode_step({"gain": {"materials": {"per": {"filter": {"type_icon": "fertile"},
...     "zone": "play_area"}, "each": 4}}}).materials
Per(per=Selector(filter=Filter(type_icon='fertile'), zone='play_area'), each=4)
>>> decode_step({"teleport": 1})
Traceback (most recent call last):
...
domain.imperium.content_effects.EffectError: unknown step key 'teleport' (not in effects_dsl.md)
>>> decode_step({"draw": {"count": 1, "sometimes": True}})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
domain.imperium.content_effects.EffectError: bad step 'draw': ... unknown field `sometimes`
"""

from __future__ import annotations

from typing import Any, Literal, get_args

import msgspec

from domain.imperium.content_dsl import (
    _S,
    Amount,
    CardWord,
    Condition,
    Count,
    CountAtLeast,
    Event,
    EventName,
    Filter,
    Icon,
    Per,
    Ref,
    Resource,
    Resources,
    Selector,
    StateSide,
    Suit,
    Trigger,
    UpTo,
    Victims,
    Zone,
    Zones,
)
from domain.imperium.content_steps import (
    Abandon,
    Acquire,
    AcquireFromExileAllowed,
    Choose,
    ChooseAny,
    CostThen,
    CountsAs,
    Declare,
    DefinesZone,
    Develop,
    Discard,
    DoubleTokensGained,
    Draw,
    DrawFame,
    Each,
    Exile,
    Find,
    Flip,
    FlipStateCard,
    ForEach,
    FreePlay,
    FreePlayAllowed,
    Gain,
    Garrison,
    GarrisonSelf,
    Give,
    HandSize,
    History,
    If,
    IgnoreAttack,
    IgnoreStateIcon,
    Innovate,
    InsteadOfGaining,
    Look,
    LookAdditional,
    May,
    Move,
    Pay,
    PlaceTokens,
    Play,
    PutIntoPlay,
    PutOnDeck,
    Recall,
    Recover,
    Redirect,
    ReduceCost,
    ReduceRequirement,
    RegainExhaustToken,
    Reminder,
    RemoveStateIcon,
    ReplaceCleanupToken,
    ReplaceGain,
    ReplaceSelfWith,
    ReturnUnrest,
    Reveal,
    Shuffle,
    Steal,
    Step,
    Submerge,
    Substitute,
    Swap,
    SwapExileWithMarket,
    Take,
    TreatIcon,
    TriggerGameEnd,
    UseExhaustEffectOf,
)

__all__ = [
    "STEP_KEYS",
    "Abandon",
    "Acquire",
    "AcquireFromExileAllowed",
    "Amount",
    "Block",
    "CardWord",
    "Choose",
    "ChooseAny",
    "Condition",
    "CostThen",
    "Count",
    "CountAtLeast",
    "CountsAs",
    "Declare",
    "DefinesZone",
    "Develop",
    "Discard",
    "DoubleTokensGained",
    "Draw",
    "DrawFame",
    "Each",
    "EffectError",
    "Event",
    "EventName",
    "Exile",
    "Filter",
    "Find",
    "Flip",
    "FlipStateCard",
    "ForEach",
    "FreePlay",
    "FreePlayAllowed",
    "Gain",
    "Garrison",
    "GarrisonSelf",
    "Give",
    "HandSize",
    "History",
    "Icon",
    "If",
    "IgnoreAttack",
    "IgnoreStateIcon",
    "Innovate",
    "InsteadOfGaining",
    "Look",
    "LookAdditional",
    "May",
    "Move",
    "Pay",
    "Per",
    "PlaceTokens",
    "Play",
    "PutIntoPlay",
    "PutOnDeck",
    "Recall",
    "Recover",
    "Redirect",
    "ReduceCost",
    "ReduceRequirement",
    "Ref",
    "RegainExhaustToken",
    "Reminder",
    "RemoveStateIcon",
    "ReplaceCleanupToken",
    "ReplaceGain",
    "ReplaceSelfWith",
    "Resource",
    "Resources",
    "ReturnUnrest",
    "Reveal",
    "RuleSpec",
    "Selector",
    "Shuffle",
    "StateSide",
    "StaticRule",
    "Steal",
    "Step",
    "Submerge",
    "Substitute",
    "Suit",
    "Swap",
    "SwapExileWithMarket",
    "Take",
    "TreatIcon",
    "Trigger",
    "TriggerGameEnd",
    "UpTo",
    "UseExhaustEffectOf",
    "Victims",
    "Zone",
    "Zones",
    "decode_effects",
    "decode_step",
    "tag_steps",
    "walk_steps",
]


class RuleSpec(_S, frozen=True, kw_only=True):
    """A static rule written as an object: ``playable_only_if`` (the card may be played only
    while the condition holds) or, Arthurians, ``quest_restriction``."""

    playable_only_if: Condition | None = None
    quest_restriction: Literal["only_when_last_impending_quest"] | None = None


#: a static rule (``effects_dsl.md`` §8): a word, or an object.
StaticRule = (
    Literal["unplayable", "cannot_be_garrisoned", "cannot_be_abandoned_or_recalled"] | RuleSpec
)


class Block(_S, frozen=True, kw_only=True):
    """One effect block of a card (``effects_dsl.md`` §1-2).

    ``trigger`` says when it applies; ``free_action`` (play blocks) = no action spent;
    ``when`` makes it reactive; ``optional`` = the reactive block may be declined;
    ``condition`` (``if``) gates the block; ``timing`` (game_end only); ``rule`` for static
    blocks; ``do`` = the steps, in order.
    """

    trigger: Trigger
    free_action: bool = False
    when: Event | None = None
    optional: bool = False
    condition: Condition | None = msgspec.field(default=None, name="if")
    timing: Literal["before_final_scoring_or_collapse_resolution"] | None = None
    repeatable_by_multiple_players: bool = False
    rule: StaticRule | None = None
    do: tuple[Step, ...] = ()


# ---------------------------------------------------------------- decoding


class EffectError(ValueError):
    """The effect notation of a card is malformed or uses a key the DSL does not define."""


_TYPES: dict[str, type[msgspec.Struct]] = {
    str(cls.__struct_config__.tag): cls for cls in get_args(Step)
}
#: every step key the DSL defines (``effects_dsl.md`` §3, §4, §8).
STEP_KEYS: frozenset[str] = frozenset(_TYPES)

#: the field a scalar (non-object) argument goes to, per step key.
_SCALAR: dict[str, str] = {
    "draw": "count", "draw_fame": "count", "discard": "count", "look_additional": "count",
    "regain_exhaust_token": "count", "swap_exile_with_market": "count", "hand_size": "delta",
    "exile": "card", "history": "card", "submerge": "card", "abandon": "card", "recall": "card",
    "return_unrest": "card", "flip": "card", "put_into_play": "card", "shuffle": "pile",
    "flip_state_card": "side", "instead_of_gaining": "action", "double_tokens_gained": "resource",
    "reminder": "rule", "reveal": "zones",
}  # fmt: skip
#: step keys whose whole object argument is a single field.
_WRAP: dict[str, str] = {"replace_self_with": "card"}
#: step keys written ``true`` when they take no parameter.
_FLAGS = frozenset({"trigger_game_end", "ignore_attack"})


def tag_steps(steps: Any) -> list[dict[str, Any]]:
    """Rewrite a list of notation steps into the tagged form (``{"op": key, ...}``).

    >>> tag_steps([{"draw": 1}, {"may": [{"discard": 2}]}])
    [{'op': 'draw', 'count': 1}, {'op': 'may', 'steps': [{'op': 'discard', 'count': 2}]}]
    """
    if not isinstance(steps, list):
        raise EffectError(f"a step list must be a JSON array, got {steps!r}")
    return [_tag(step) for step in steps]


def _tag(step: Any) -> dict[str, Any]:
    if not isinstance(step, dict) or not step:
        raise EffectError(f"a step must be a non-empty JSON object, got {step!r}")
    keys = set(step)
    if "cost" in keys and keys <= {"cost", "then"}:
        return {
            "op": "cost",
            "cost": tag_steps(step["cost"]),
            "then": tag_steps(step.get("then", [])),
        }
    if "if" in keys and keys <= {"if", "then", "else"}:
        out = {"op": "if", "if": step["if"], "then": tag_steps(step.get("then", []))}
        return out | {"else": tag_steps(step["else"])} if "else" in step else out
    if keys == {"each", "do"} or keys == {"for_each", "do"}:
        ((key, value),) = ((k, v) for k, v in step.items() if k != "do")
        return {"op": key, key: value, "do": tag_steps(step["do"])}
    if len(step) != 1:
        raise EffectError(f"a step must have exactly one key, got {sorted(keys)}")
    ((key, arg),) = step.items()
    if key not in _TYPES:
        raise EffectError(f"unknown step key {key!r} (not in effects_dsl.md)")
    if key == "may":
        return {"op": key, "steps": tag_steps(arg)}
    if key in ("choose", "choose_any"):
        if not isinstance(arg, list):
            raise EffectError(f"{key} needs a list of options")
        return {"op": key, "options": [tag_steps(option) for option in arg]}
    if key in _FLAGS and arg is True:
        return {"op": key}
    if key in _WRAP:
        return {"op": key, _WRAP[key]: arg}
    if not isinstance(arg, dict):
        if key not in _SCALAR:
            raise EffectError(f"step {key!r} needs an object argument, got {arg!r}")
        return {"op": key, _SCALAR[key]: arg}
    if key == "replace_gain":
        return {"op": key, **arg, "do": tag_steps(arg.get("do"))}
    if key == "substitute":
        return {
            "op": key,
            "requirement": _tag(arg.get("requirement")),
            "with": _tag(arg.get("with")),
        }
    return {"op": key, **arg}


def decode_step(step: Any) -> Step:
    """Decode one step of the notation into its Struct (raises :class:`EffectError`)."""
    tagged = _tag(step)
    try:
        result: Step = msgspec.convert(tagged, Step)
    except msgspec.ValidationError as exc:
        raise EffectError(f"bad step {tagged['op']!r}: {exc}") from None
    return result


def decode_effects(blocks: Any) -> tuple[Block, ...]:
    """Decode a card's ``effects`` list (notation) into :class:`Block` values.

    Raises :class:`EffectError` naming the first bad key or value and where it is.
    """
    if not isinstance(blocks, list):
        raise EffectError(f"effects must be a JSON array, got {blocks!r}")
    tagged: list[dict[str, Any]] = []
    for index, block in enumerate(blocks):
        if not isinstance(block, dict):
            raise EffectError(f"block {index} must be a JSON object")
        try:
            do = tag_steps(block.get("do", []))
        except EffectError as exc:
            raise EffectError(f"block {index}: {exc}") from None
        tagged.append({**block, "do": do})
    try:
        return msgspec.convert(tagged, tuple[Block, ...])
    except msgspec.ValidationError as exc:
        raise EffectError(str(exc)) from None


def walk_steps(steps: tuple[Step, ...]) -> list[Step]:
    """Every step of a list, nested ones included, depth first in order.

    >>> [s.__struct_config__.tag for s in walk_steps(
    ...     decode_effects([{"trigger": "play", "do": [{"may": [{"draw": 1}]}]}])[0].do)]
    ['may', 'draw']
    """
    found: list[Step] = []
    for step in steps:
        found.append(step)
        if isinstance(step, May):
            found.extend(walk_steps(step.steps))
        elif isinstance(step, Choose | ChooseAny):
            for option in step.options:
                found.extend(walk_steps(option))
        elif isinstance(step, CostThen):
            found.extend(walk_steps(step.cost) + walk_steps(step.then))
        elif isinstance(step, If):
            found.extend(walk_steps(step.then) + walk_steps(step.else_))
        elif isinstance(step, Each | ForEach | ReplaceGain):
            found.extend(walk_steps(step.do))
        elif isinstance(step, Substitute):
            found.extend(walk_steps((step.requirement, step.with_)))
    return found
