"""``annales variant``: create a game under a chosen ruleset with the rulebook's variants.

``annales new`` creates a game under its game's newest ruleset with the common options;
``annales variant`` adds the choice of the ruleset (``--ruleset tapestry/1``) and the
optional rules the rulebooks list ("VARIANTES" of Tapestry, rulesets ``tapestry/2`` and later):

* ``--variant draw-two-tapestry``: income turn 1 draws 2 tapestry cards, keep 1;
* ``--variant draw-two-civilizations``: a civilization gained during the game is drawn 2 at a
  time, keep 1;
* ``--variant nanotechnology-two-cards``: the Nanotechnology bonus discards 2 tech cards;
* ``--variant island-start``: each seat's outposts start on the centre of its nearest island
  instead of its capital's territory;
* ``--remove-tapestry NAME`` / ``--remove-tech NAME`` (repeatable): cards taken out of the
  game (keys or English/French names).

The server validates everything (an unknown variant, card or option is refused with the
option and the value named).

Example: ``annales variant tapestry -v draw-two-tapestry --remove-tech radio --players 4``
"""

from __future__ import annotations

from pathlib import Path

import typer

from annales_cli.common import api_errors, fail
from annales_cli.remote import (
    GAME_HELP,
    ServerOption,
    TokensOption,
    create_and_save,
    game_name,
)

#: ``--variant`` names per game -> the domain option set to ``True``.
VARIANTS: dict[str, dict[str, str]] = {
    "tapestry": {
        "draw-two-tapestry": "draw_two_tapestry",
        "draw-two-civilizations": "draw_two_civilizations",
        "nanotechnology-two-cards": "nanotechnology_two_cards",
        "island-start": "island_start",
    },
}
#: card-removal options per game: command-line flag -> domain option.
REMOVALS: dict[str, dict[str, str]] = {
    "tapestry": {
        "--remove-tapestry": "removed_tapestry_cards",
        "--remove-tech": "removed_tech_cards",
    },
}


def variant_options(
    game: str, variants: list[str], removals: dict[str, list[str]]
) -> dict[str, object]:
    """The domain options for ``variants`` and card ``removals`` of ``game`` (exits with a
    message naming an unknown variant and the known ones)."""
    known = VARIANTS.get(game, {})
    options: dict[str, object] = {}
    for name in variants:
        key = name.strip().replace("_", "-")
        if key not in known:
            listed = ", ".join(known) or "none"
            fail(f"unknown variant {name!r} of {game}; known: {listed}")
        options[known[key]] = True
    for flag, cards in removals.items():
        if not cards:
            continue
        option = REMOVALS.get(game, {}).get(flag)
        if option is None:
            fail(f"{flag} is not an option of {game}")
        options[option] = list(cards)
    return options


@api_errors
def variant(
    game: str = typer.Argument("tapestry", help=GAME_HELP),
    variants: list[str] = typer.Option(
        [],
        "--variant",
        "-v",
        help="A variant to play (repeatable): tapestry: " + ", ".join(VARIANTS["tapestry"]) + ".",
    ),
    remove_tapestry: list[str] = typer.Option(
        [], "--remove-tapestry", help="tapestry: a tapestry card taken out (repeatable)."
    ),
    remove_tech: list[str] = typer.Option(
        [], "--remove-tech", help="tapestry: a tech card taken out (repeatable)."
    ),
    ruleset: str = typer.Option(
        "", help="The ruleset, e.g. tapestry/1 (default: the game's newest)."
    ),
    players: int = typer.Option(3, "--players", "-n", help="Seats."),
    seed: str = typer.Option("", help="Seed (text); random when empty, secret until the end."),
    server: str | None = ServerOption,
    tokens: Path | None = TokensOption,
) -> None:
    """Create a game with the rulebook's variants (and a chosen ruleset); save its tokens."""
    name = game_name(game)
    options = variant_options(
        name, variants, {"--remove-tapestry": remove_tapestry, "--remove-tech": remove_tech}
    )
    seat_names = [f"player{i + 1}" for i in range(players)]
    create_and_save(name, seat_names, seed, options, server, tokens, ruleset=ruleset)
