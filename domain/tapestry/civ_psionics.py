"""Psionics (Psioniques, Fantasies & Futures): one more option on every random gain.

Rules (facts folder ``civilizations.json#47``: ``effect_summary``, ``income_table``,
``notes``; rulebook "VARIANTES" and F.À.Q. "Reconnaissance", "Âge de la Navigation"):

* every die the Psionics roll is rolled once more and one value kept: the science die of a
  research (``research_pick``, with Empiricism three rolls, not four: the extra options add
  up) or of the Alchemists gained mid-game (``alchemy_pick``) and the two conquer dice
  (``dice_pick``: one red and one black value among the throws,
  ``Choose(index=red * 10 + black)``); every throw is a recorded ``ScienceDieRolled`` /
  ``ConquerDiceRolled`` event;
* every random tech card (the deck's top card), tapestry card, territory tile or space tile is
  drawn with one more and one kept, the other going back unseen (:mod:`domain.tapestry.offers`;
  several at once: one pair each); a random civilization is drawn two (three with the "draw
  two" variant) and one kept (``keep_civilization``);
* income turns 2, 3, 4, 5: a territory tile, a tapestry card, an invention, a research (the
  content's ``slots``, one per turn), themselves random gains with the extra option.

The extra option applies where the gain is random and the Psionics are the ones who gain:
an income turn's tiles and cards, the benefits ``gain_tapestry_card``, ``gain_territory_tile``,
``gain_space_tile``, Age of Sail's three tiles (F.À.Q.: three pairs), the tile Coal Baron
gives each neighbour, an invention from the deck (Steam Tycoon's neighbours' included) and a
random civilization; a revealed or face-up choice is not random (the mat: "not a face-up
option, nor when just revealing"). Coal Baron's own tile, explored at once, is drawn as usual.

Landmark cards (Plans & Ploys, Arts & Architecture) are in none of our sources: a "random
landmark card" never arises in this engine (the game's notes say so). Rebalancing: the
rulebook's page has no Psioniques entry: none.

Assumed (``decisions.json`` ``psionics_random_gains``): each throw of a Treasure Hunters'
treasure (a mat the Psionics may gain mid-game, with Plans & Ploys) is thrown once more, one
value kept; the other cards of a draw stay unseen by everyone (deck order is never stored);
the draw of the "VARIANTES" at income turn 1 discards its unkept cards face up, as that variant
does.
"""

from __future__ import annotations

from domain.tapestry import content as C
from domain.tapestry import turns
from domain.tapestry.civs import INCOME, civ_id, has_civ
from domain.tapestry.engine import TOKENS, Ctx, TokenHandler, expr_frame
from domain.tapestry.offers import draw_frame
from domain.tapestry.rules import EXTRA_OPTIONS, extra_options
from domain.tapestry.state import Frame, TapestryState

KEY = "psionics"
SOURCE = f"civ:{KEY}"
#: the extra option of every random gain.
EXTRA = 1
#: the random-gain benefits and the kind of their draw.
DRAWS: dict[str, str] = {
    "gain_tapestry_card": "tapestry",
    "gain_territory_tile": "territory",
    "gain_space_tile": "space",
}


def _extra(state: TapestryState, seat: int) -> int:
    return EXTRA if has_civ(state, seat, KEY) else 0


EXTRA_OPTIONS.append(_extra)


def _wrap(token: str, kind: str) -> None:
    plain: TokenHandler = TOKENS[token]

    def handler(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
        extra = extra_options(ctx.state, seat)
        if extra and count > 0:
            ctx.push(draw_frame(seat, kind, count, extra))
        else:
            plain(ctx, seat, count, top)

    TOKENS[token] = handler


for _token, _kind in DRAWS.items():
    _wrap(_token, _kind)


def _income_draws(ctx: Ctx, seat: int, tiles: int, cards: int) -> bool:
    """An income turn's step 4: its territory tiles and tapestry cards drawn with the extra
    option (with the "VARIANTES" draw at income turn 1: one more card, discarded)."""
    extra = extra_options(ctx.state, seat)
    if not extra:
        return False
    frames: list[Frame] = []
    if tiles:
        frames.append(draw_frame(seat, "territory", tiles, extra))
    if cards:
        variant = ctx.state.rules.draw_two_tapestry and ctx.state.seats[seat].income_turns == 1
        frames.append(draw_frame(seat, "tapestry", cards, extra + int(variant), variant))
    ctx.push(*frames)
    return True


#: the income turns' draw hook (exposed for its tests).
INCOME_DRAWS_HOOK = _income_draws
turns.INCOME_DRAWS.append(_income_draws)


def _income(ctx: Ctx, seat: int, era: int) -> None:
    slots = C.CIVILIZATIONS[civ_id(KEY)].slots
    if 2 <= era <= 1 + len(slots):
        ctx.push(expr_frame(seat, slots[era - 2], SOURCE))


INCOME[KEY] = _income
