"""The Tapestry bot's valuations (VP-equivalents of resources, income, track spaces, pending
tokens and decisions) and its search limits, read by :mod:`domain.tapestry.bot`; the
civilization modules add their own decisions to :data:`PENDING_VALUE`."""

from __future__ import annotations

#: value of one resource in hand by era (income turns taken): spent on advances early, almost
#: worthless in the last era (nothing is bought after the fifth income turn).
RESOURCE_VALUE: tuple[float, ...] = (1.2, 1.2, 1.1, 1.0, 0.4, 0.0)
#: value of one resource of income per future income collection.
INCOME_VALUE = 1.6
#: value of one track space by era (an investment: later spaces are richer).
SPACE_VALUE: tuple[float, ...] = (1.0, 1.0, 0.9, 0.7, 0.3, 0.0)
#: value of a tapestry card in hand, a territory / space tile in supply, a tech card owned
#: (plus ``TECH_ROW`` per row above the bottom), a landmark owned, a territory controlled.
CARD, TILE, TECH, TECH_ROW, LANDMARK, TERRITORY = 2.0, 1.0, 2.0, 1.0, 2.0, 1.0
#: weight of the packing of the capital (near-complete districts, rows and columns).
PACKING = 0.3
#: weight of the best opponent's VP (a lead is what wins).
RIVAL = 0.25
#: an advance is taken when it raises the evaluation by more than this; otherwise an income turn.
INCOME_MARGIN = 2.0
#: decisions looked at one ply ahead at most (a deterministic sample beyond).
MAX_ACTIONS = 160
#: explorations looked at one ply ahead: the best by the VP of matching edges.
MAX_EXPLORATIONS = 12
#: decisions of the bot within one turn after which it picks at random (a safety net: a
#: deterministic choice must never keep a repeatable decision going for ever).
LOOP_GUARD = 120
#: civilizations kept at setup, best first (others after them, by id).
CIV_PREFERENCE: tuple[str, ...] = (
    "merrymakers",
    "militants",
    "leaders",
    "futurists",
    "entertainers",
    "alchemists",
    "the_chosen",
)

#: VP-equivalent of a pending benefit token (see :func:`token_value` for the computed ones).
TOKEN_VALUE: dict[str, float] = {
    "gain_territory_tile": TILE,
    "gain_space_tile": TILE,
    "gain_tapestry_card": CARD,
    "explore": 3.0,
    "explore_anywhere": 3.5,
    "explore_space": 3.0,
    "conquer": 4.0,
    "conquer_anywhere": 4.5,
    "conquer_both_dice": 5.0,
    "conquer_both_dice_if_opponent": 5.0,
    "invent": 3.0,
    "upgrade_tech": 2.0,
    "gain_circle_benefit_middle_row": 2.0,
    "gain_square_benefit_top_row": 3.0,
    "gain_market": 4.0,
    "gain_house": 4.0,
    "gain_farm": 4.0,
    "gain_armory": 4.0,
    "gain_any_income_building": 4.5,
    "gain_any_available_landmark": 4.0,
    "research": 1.5,
    "research_no_benefit": 1.0,
    "research_no_benefit_overflow_vp": 3.0,
    "repeat_current_position": 3.0,
    "gain_random_civilization": 5.0,
    "refresh_tech_display_optional": 0.2,
    "play_tapestry_over_current": 2.0,
    "roll_black_die_twice_choose_one": 3.0,
    "roll_science_die_twice_choose_one": 3.0,
    "roll_both_conquer_dice_gain_both": 4.0,
    "roll_red_die_twice_gain_both": 4.0,
}
#: VP-equivalent of a decision waiting on the agenda, by frame kind.
PENDING_VALUE: dict[str, float] = {
    "explore": 3.0,
    "explore_space": 3.0,
    "conquer": 4.0,
    "invent": 3.0,
    "tycoon_invent": 4.0,
    "upgrade": 1.5,
    "research": 1.0,
    "research_pick": 1.0,
    "die": 2.0,
    "civ_choice": 2.0,
    "tech_pick": 2.0,
    "treasure_hunters": 6.0,
    "treasure_die": 2.0,
    "recyclers_keep": 3.0,
    "advisors_discard": 1.0,
    "advisors_give": 0.5,
    "advisors_gift": 5.0,
    "aliens": 4.0,
    "infiltrators": 3.0,
    "islanders": 3.0,
    "islanders_gained": 2.0,
    "keep_gained_civilization": 2.0,
    "islanders_place": 1.0,
    "spies": 3.0,
    "tinkerers": 2.0,
    "utilitarians_place": 1.0,
}
