"""Which solo games may be set up: the difficulty and Shadow Empire options (kept under every
Tapestry ruleset), and the expansion boxes played solo only when every solo change their
record lists (``automa.json#expansions``) is applied by the engine.
"""

from __future__ import annotations

import msgspec
import pytest

from domain.tapestry.game import TapestryGame2
from domain.tapestry.solo import content as S
from tests.tapestry.solo_helpers import GAME, new_solo

GAME2 = TapestryGame2()


def test_options_level_and_shadow_empire_seat_count() -> None:
    """Difficulté: levels 1-6 only (5-6 the hard side); the Shadow Empire option needs 2 seats."""
    with pytest.raises(Exception, match="automa_level"):
        GAME.decode_options({"automa_level": 7})
    with pytest.raises(ValueError, match="shadow_empire"):
        GAME.initial(GAME.decode_options({"shadow_empire": True}), 3)
    with pytest.raises(ValueError, match="shadow_empire"):
        GAME.initial(GAME.decode_options({"shadow_empire": True}), 1)
    with pytest.raises(ValueError, match="starting_civilizations"):
        GAME.initial(GAME.decode_options({"starting_civilizations": ["heralds"]}), 1)
    state, _ = new_solo(b"lvl", level=4)
    assert state.solo is not None and state.solo.level == 4


# -- expansions ---------------------------------------------------------------------------
def test_no_expansion_box_is_played_solo_without_all_its_solo_rules() -> None:
    """Player aid "Extension" lines: a box is played solo only when every solo change its
    record lists (``automa.json#expansions``) is applied by the engine; a 1-seat game with any
    other box is refused loudly, naming the box (and the changes still missing)."""
    from domain.tapestry.solo.hooks import (
        IMPLEMENTED_SOLO_CHANGES,
        SoloRulesMissing,
        check_expansions,
    )
    from domain.tapestry.state import EXPANSIONS

    for box in EXPANSIONS:
        record = S.EXPANSIONS.get(box)
        if (
            record is not None
            and record.changes is not None
            and set(record.changes) <= (IMPLEMENTED_SOLO_CHANGES)
        ):
            check_expansions((box,))
            continue
        with pytest.raises(SoloRulesMissing, match=box):
            check_expansions((box,))
    for box in EXPANSIONS:  # today every box is played solo
        check_expansions((box,))


def test_a_box_with_a_solo_change_not_applied_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """A box record (``automa.json#expansions``) listing a change the engine does not apply,
    or no known solo rules at all, is refused solo, loudly, naming the box and the change."""
    from domain.tapestry.solo.hooks import SoloRulesMissing, check_expansions

    box = "arts_and_architecture"
    record = S.EXPANSIONS[box]
    changed = S.Expansion(box=box, changes=("a_change_nobody_wrote",), source="assumed", note="x")
    monkeypatch.setitem(S.EXPANSIONS, box, changed)
    with pytest.raises(SoloRulesMissing, match="a_change_nobody_wrote"):
        check_expansions((box,))
    unknown = S.Expansion(box=box, changes=None, source="assumed", note="x")
    monkeypatch.setitem(S.EXPANSIONS, box, unknown)
    with pytest.raises(SoloRulesMissing, match="not in our sources"):
        check_expansions((box,))
    with pytest.raises(ValueError, match=box):
        GAME2.initial(GAME2.decode_options({"expansions": [box]}), 1)
    monkeypatch.setitem(S.EXPANSIONS, box, record)
    GAME2.initial(GAME2.decode_options({"expansions": [box]}), 1)


def test_landmark_cards_change_counts_only_while_the_cards_are_absent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Player aid II.4, "Extension : Piochez 2 cartes Monuments et choisissez-en 1 (l'autre
    Monument va à l'Automa)": applied as a component absent while the landmark cards are in
    none of our sources; a source for them makes the change unapplied (the box refused solo)."""
    from domain.tapestry.expansions import inventory
    from domain.tapestry.solo.hooks import IMPLEMENTED_SOLO_CHANGES, applied

    change = "landmark_cards:draw_2_keep_1_other_to_automa"
    assert change in IMPLEMENTED_SOLO_CHANGES and applied(change)
    (cards,) = [c for c in inventory.COMPONENTS if c.label == "plans_and_ploys/landmark_cards"]
    assert cards.source == "none"
    sourced = tuple(
        msgspec.structs.replace(c, source="rulebook", section="MATÉRIEL")
        if c.label == "plans_and_ploys/landmark_cards"
        else c
        for c in inventory.COMPONENTS
    )
    monkeypatch.setattr(inventory, "COMPONENTS", sourced)
    assert not applied(change)


def test_solo_options_kept_under_every_tapestry_ruleset() -> None:
    """Difficulté and the Shadow Empire option reach the state under every Tapestry ruleset
    (``tapestry/2`` once rebuilt its ``tapestry/1`` options from two fields only)."""
    from domain.registry import get_ruleset, rulesets_of

    for name in rulesets_of("tapestry"):
        game = get_ruleset(name)
        solo_state = game.initial(game.decode_options({"automa_level": 3}), 1)
        assert solo_state.options.automa_level == 3, name
        duo = game.initial(game.decode_options({"shadow_empire": True}), 2)
        assert duo.options.shadow_empire, name
