"""Search helper (not a test): a winnable campaign path for the greedy human, in memory.

The long test ``test_campaign_played_to_victory_and_verified`` needs five distinct C.I.V.
nations the greedy bot beats at Chef de clan, Chef de guerre, Imperator, Souverain and Suzerain
in that order, each game's options depending on the deck changes of the wins before it. This
script follows a campaign in memory (``domain.campaign.engine``, no storage): for each level it
tries the candidate nations in order, each under the seeds ``campaign-seed-0..TRIES-1``, keeps
the first win, then applies the same deck change as the test (add the first gained non-fame card,
else remove the first starting card) before the next level. It stops at the first level with no
win (bounded: at most ``levels x candidates x TRIES`` games of about a second each).

Run: ``PYTHONPATH=. .venv/bin/python -m tests.campaign.search_path [HUMAN] [TRIES]``.
"""

from __future__ import annotations

import sys

from domain.bots import GreedyBot
from domain.campaign import engine
from domain.campaign.deck import deck_change_candidates
from tests.harness import Table, play

#: per level, the C.I.V. nations to try, in order (from a screening of single games)
CANDIDATES: tuple[tuple[str, ...], ...] = (
    ("carthaginians", "mauryans", "persians"),
    ("persians", "scythians", "carthaginians"),
    ("scythians", "carthaginians"),
    ("romans", "vikings"),
    ("vikings", "romans"),
)


def search(human_nation: str, tries: int) -> list[tuple[str, int]] | None:
    """The (C.I.V. nation, seed index) of each level, or ``None`` when a level has no win."""
    state = engine.CampaignState()
    for event in engine.create("campaign-victory", "Ann", human_nation):
        engine.evolve(state, event)
    path: list[tuple[str, int]] = []
    for civs in CANDIDATES:
        found = None
        for civ in civs:
            if civ in {c for c, _ in path} or civ == human_nation:
                continue
            for index in range(tries):
                seed = b"campaign-seed-%d" % index
                table = Table("imperium", 1, seed, engine.game_options(state, civ))
                play(table, {0: GreedyBot(seed)})
                won = bool(table.match.game.outcome(table.match.state).winners)
                print(state.level(), civ, index, "won" if won else "lost", flush=True)
                if won:
                    found = (civ, index, table.match.state)
                    break
            if found:
                break
        if found is None:
            return None
        civ, index, game_state = found
        gained, starting = deck_change_candidates(state, game_state.seats[0], game_state.revision)
        for event in engine.start_game(state, civ):
            engine.evolve(state, event)
        change, card = ("add", gained[0]) if gained else ("remove", starting[0])
        for event in engine.record_result(state, 1, 0, True, "2026-01-01", change, card,
                                          tuple(gained), tuple(starting)):  # fmt: skip
            engine.evolve(state, event)
        path.append((civ, index))
    return path


if __name__ == "__main__":
    human = sys.argv[1] if len(sys.argv) > 1 else "arthurians"
    print("path:", search(human, int(sys.argv[2]) if len(sys.argv) > 2 else 20))
