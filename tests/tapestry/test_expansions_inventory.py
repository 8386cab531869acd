"""The expansion boxes' inventory (``domain/tapestry/content/expansions.json``) against the
rulebook's MATÉRIEL table: every component of each box is listed with where its facts come
from, and exactly these are in none of our sources (left out of play, listed by ``annales
content report --game tapestry`` and in GetGame's notes)."""

from __future__ import annotations

import re

from annales_cli.main import app
from typer.testing import CliRunner

from domain.registry import get_ruleset
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.expansions import inventory as I
from domain.tapestry.state import EXPANSIONS, TRACK_IDS
from domain.tapestry.tracks import NONE, advance_frame
from tests.tapestry.helpers import of, table
from tests.tapestry.test_cards_support import run_frames

#: MATÉRIEL: (box, key) -> (new items, replacing items), read off the table's columns
#: (MANŒUVRES & MANIGANCES, ARTS & ARCHITECTURE, FICTIONS & FUTURS; '*' = replacing).
TABLE: dict[tuple[str, str], tuple[int, int]] = {
    ("plans_and_ploys", "landmark_miniatures"): (7, 0),
    ("plans_and_ploys", "civilization_mats"): (10, 0),
    ("plans_and_ploys", "tapestry_cards"): (15, 0),
    ("plans_and_ploys", "landmark_cards"): (5, 0),
    ("plans_and_ploys", "landmark_tokens"): (12, 0),
    ("plans_and_ploys", "space_tiles"): (4, 1),
    ("plans_and_ploys", "exploration_bag"): (1, 0),
    ("plans_and_ploys", "rulebook"): (1, 0),
    ("arts_and_architecture", "arts_track"): (1, 0),
    ("arts_and_architecture", "landmark_miniatures"): (8, 0),
    ("arts_and_architecture", "player_tokens"): (25, 0),
    ("arts_and_architecture", "science_die"): (1, 1),
    ("arts_and_architecture", "civilization_mats"): (5, 0),
    ("arts_and_architecture", "advanced_capitals"): (6, 0),
    ("arts_and_architecture", "tapestry_cards"): (20, 0),
    ("arts_and_architecture", "tech_cards"): (11, 0),
    ("arts_and_architecture", "landmark_cards"): (5, 0),
    ("arts_and_architecture", "masterpiece_cards"): (20, 0),
    ("arts_and_architecture", "inspiration_tiles"): (20, 0),
    ("arts_and_architecture", "landmark_tokens"): (3, 0),
    ("arts_and_architecture", "rulebook"): (1, 0),
    ("arts_and_architecture", "reference_guide"): (1, 0),
    ("fantasies_and_futures", "civilization_mats"): (10, 0),
    ("fantasies_and_futures", "advanced_capitals"): (6, 0),
    ("fantasies_and_futures", "income_mat_modification_cards"): (5, 0),
    ("fantasies_and_futures", "tapestry_cards"): (38, 1),
    ("fantasies_and_futures", "tech_cards"): (12, 1),
    ("fantasies_and_futures", "landmark_cards"): (0, 3),
    ("fantasies_and_futures", "rulebook"): (0, 1),
}

#: exactly the components in none of our sources, by box.
MISSING: dict[str, set[str]] = {
    "plans_and_ploys": {
        "landmark_miniatures",
        "tapestry_cards",
        "landmark_cards",
        "space_tiles",
    },
    "arts_and_architecture": {
        "arts_track",
        "landmark_miniatures",
        "science_die",
        "advanced_capitals",
        "tapestry_cards",
        "tech_cards",
        "landmark_cards",
        "masterpiece_cards",
        "inspiration_tiles",
        "landmark_tokens",
        "reference_guide",
    },
    "fantasies_and_futures": {
        "advanced_capitals",
        "income_mat_modification_cards",
        "tapestry_cards",
        "tech_cards",
        "landmark_cards",
    },
}


def test_every_materiel_line_of_every_box_is_inventoried() -> None:
    """MATÉRIEL: each box's components, with the table's counts, and nothing else."""
    found = {(c.box, c.key): (c.count, c.replaces) for c in I.COMPONENTS}
    assert found == TABLE
    assert {c.box for c in I.COMPONENTS} == set(EXPANSIONS)


def test_exactly_these_components_are_not_in_our_sources() -> None:
    """The inventory names exactly which components no source gives (left out of play)."""
    for box in EXPANSIONS:
        assert {c.key for c in I.missing((box,))} == MISSING[box], box


def test_every_record_has_its_provenance() -> None:
    """Every sourced component names its section, reference record or address; every left-out
    one says what is missing; the few known facts carry their own provenance."""
    for component in I.COMPONENTS:
        assert I.provenance_error(component) == "", component.label
        for fact in component.known:
            assert fact.source != "none" and I.provenance_error(fact) == "", component.label
    refs = {c.ref for c in I.COMPONENTS if c.source == "reference"}
    assert refs == {
        "civilizations.json#30",
        "civilizations.json#21",
        "civilizations.json#40",
    }


def test_content_report_lists_them_under_not_in_our_sources() -> None:
    """``annales content report --game tapestry``: the assumptions, then a "not in our
    sources" heading with one line per left-out component."""
    result = CliRunner().invoke(app, ["content", "report", "--game", "tapestry"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    start = lines.index("not in our sources:")
    listed = lines[start + 1 :]
    assert listed == [f"- {line}" for line in I.report_lines()]
    labels = {re.match(r"- expansions\.json#(\w+/\w+):", line).group(1) for line in listed}  # type: ignore[union-attr]
    assert labels == {f"{box}/{key}" for box, keys in MISSING.items() for key in keys}


def test_notes_name_what_a_game_leaves_out() -> None:
    """A game's notes (GetGame) name, per box in play, the components left out; a base game
    has none."""
    game = get_ruleset("tapestry/2")
    base = game.initial(game.decode_options({}), 3)
    assert game.notes(base) == ()
    state = game.initial(game.decode_options({"expansions": ["plans_and_ploys"]}), 3)
    (line,) = game.notes(state)
    assert line.startswith("plans_and_ploys: not in our sources")
    assert "15 Cartes Fresque" in line and "4 (+1 replacing) Tuiles Espace" in line
    every = game.initial(game.decode_options({"expansions": list(EXPANSIONS)}), 3)
    assert [n.split(":")[0] for n in game.notes(every)] == list(EXPANSIONS)


def test_plans_and_ploys_landmark_tokens_are_played_by_the_views() -> None:
    """Plans & Ploys' 12 landmark tokens (public setup text and review: an optional reminder,
    no game effect, one on the space of each track landmark, taken off when that landmark is
    gained): exactly the 12 track landmarks of ``landmarks.json``, and every view shows which of
    them are still available (a track landmark absent from ``landmark_owner``), so the
    component is covered by a public source and no longer listed as left out."""
    (tokens,) = [c for c in I.of_box("plans_and_ploys") if c.key == "landmark_tokens"]
    assert tokens.source == "public" and tokens.address.startswith("https://")
    assert "landmark_owner" in tokens.note
    track = sorted(lm.id for lm in C.LANDMARKS.values() if lm.source_kind == "track")
    assert len(track) == tokens.count == 12
    assert tokens not in I.missing(EXPANSIONS)
    assert not [line for line in I.report_lines() if "plans_and_ploys/landmark_tokens" in line]
    assert all("Jetons Monument" not in n for n in I.notes(("plans_and_ploys",)))
    game = get_ruleset("tapestry/2")
    state = table(2)
    view = game.view(state, None)
    assert [lm for lm in track if str(lm) not in view.landmark_owner] == track
    science = TRACK_IDS.index("science")
    (apothecary,) = [
        lm.id for lm in C.LANDMARKS.values() if lm.track == "science" and lm.space == 4
    ]
    state.seats[0].tracks[science] = [3]
    events = run_frames(state, advance_frame(0, science, NONE))
    assert [(e.seat, e.landmark) for e in of(events, ev.LandmarkClaimed)] == [(0, apothecary)]
    for seat in (None, 0, 1):
        owner = game.view(state, seat).landmark_owner
        assert owner == {str(apothecary): 0}
        assert [lm for lm in track if str(lm) not in owner] == [
            lm for lm in track if lm != apothecary
        ]
