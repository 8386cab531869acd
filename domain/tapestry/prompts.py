"""The name and prompt of every Tapestry decision (the frame kind on top of the agenda), as
:meth:`~domain.tapestry.game.TapestryGame.pending` shows them: decision kind -> (decision
name, prompt). The expansion civilizations' own prompts come from
:mod:`domain.tapestry.prompts_boxes`."""

from __future__ import annotations

from domain.tapestry.prompts_boxes import BOX_PROMPTS

PROMPTS: dict[str, tuple[str, str]] = {
    "turn": ("turn", "Take an income turn or advance on a track."),
    "choose": ("choose", "Choose one of the offered benefits."),
    "order": ("order", "Choose which benefit to take next."),
    "resource": ("resource", "Choose a resource."),
    "bonus": ("bonus", "Pay for the optional bonus, or decline it."),
    "build": ("place_building", "Place the building in your capital."),
    "explore": ("explore", "Choose a territory tile, a hex and a rotation to explore."),
    "explore_space": ("explore_space", "Choose a space tile to explore."),
    "conquer": ("conquer", "Choose a territory to conquer."),
    "trap": ("trap", "Your territory is being conquered: play a Trap or let it fall."),
    "militarism": (
        "militarism",
        "Militarism: put an outpost on the territory you explored (0), or decline.",
    ),
    "keep_tapestry": (
        "keep_tapestry",
        "Variant: discard one of the tapestry cards just drawn (its id); keep the others.",
    ),
    "keep_civilization": (
        "keep_civilization",
        "Variant: keep one of the civilizations drawn (its id); the other goes back.",
    ),
    "keep_gained_civilization": (
        "keep_gained_civilization",
        "Keep the civilization just gained (0), or give it back and draw another (1).",
    ),
    "revolution": (
        "revolution",
        "Revolution: choose a territory (hex index) where your outpost stands back up, or stop.",
    ),
    "die": ("choose_die", "Keep the red (0) or the black (1) conquer die."),
    "research": ("research", "Advance on the rolled track (0) or stay (1)."),
    "research_pick": ("research_pick", "Keep the first (0) or the second (1) science roll."),
    "invent": ("invent", "Take a face-up tech card or the top of the deck."),
    "upgrade": ("upgrade", "Upgrade one of your tech cards."),
    "tech_pick": ("tech_pick", "Choose a tech card whose benefit you gain again."),
    "play_tapestry": ("play_tapestry", "Play a tapestry card from your hand."),
    "track": ("track", "Choose a track."),
    "token_pick": ("token_pick", "Choose which of your tokens advances."),
    "civ_choice": ("civilization", "Use your civilization's ability."),
    "civ_order": (
        "civilization_order",
        "Choose which of your civilizations uses its income ability first.",
    ),
    "militants_place": ("militants_place", "Put an outpost on a row of your Militants mat."),
    "democracy": ("democracy", "Discard a tapestry card for 2 VP, or stop."),
    "espionage": ("espionage", "Choose a tapestry card visible on an income mat to copy."),
    "guilds": ("guilds", "Exchange resources for VP (positive) or VP for resources."),
    "colonialism": ("colonialism", "Choose a territory tile you control."),
    "trade_economy": ("trade_economy", "Choose an opponent (tens) and a track (units)."),
    "olympic": ("olympic", "Pay a worker for 10 VP, or decline."),
    "card_track": ("card_track", "Choose a track (Socialism: track * 100 + the space to reach)."),
    "tycoon_invent": ("invent", "Take a face-up tech card; it is upgraded at once."),
    "alliance": ("alliance", "Choose the opponent you ally with."),
    "marriage": ("marriage", "Choose an opponent (tens) and a track (units)."),
    "mercantilism": ("mercantilism", "Convert a food into another resource for 2 VP, or stop."),
    "sail_give": ("age_of_sail", "Give a territory tile (opponent * 100 + tile) for 3 VP?"),
    "exploitation": ("exploitation", "Keep the VP (0) or take the tile's benefit again (1)."),
    "tyranny": ("tyranny", "Play a card you just drew over Tyranny for 5 VP, or decline."),
    "architects_cube": (
        "architects_cube",
        "Put an impassable cube on an empty plot (one per district).",
    ),
    "architects_swap": (
        "architects_swap",
        "Swap two income buildings (plot a * 81 + plot b; plot = row * 9 + col), or stop.",
    ),
    "historians_give": (
        "historians_give",
        "Give one of your Historians tokens: opponent (tens) and token (units).",
    ),
    "heralds": (
        "heralds",
        "Put a Herald token on a visible WHEN PLAYED tapestry card (owner * 100 + its place on "
        "that mat) to use its ability, or decline.",
    ),
    "herald_spy": ("espionage", "Choose a visible WHEN PLAYED tapestry card to copy."),
    "herald_fire": (
        "maker_of_fire",
        "Play a WHEN PLAYED tapestry card over Maker of Fire, or decline.",
    ),
    "inventors": (
        "inventors",
        "Put an Inventors token on a bottom- or middle-row tech card of any seat: it moves up.",
    ),
    "traders": (
        "traders",
        "Put a trade token on an empty territory or beside a lone opposing outpost (hex index), "
        "or decline.",
    ),
    "isolationists": (
        "isolationists",
        "Leave an Isolationist token with your outpost (0: the territory can no longer be "
        "conquered, 1 resource of your choice), or decline.",
    ),
    "treasure_hunters": (
        "treasure_hunters",
        "Treasure Hunters: put a token on an empty territory next to yours showing an unclaimed "
        "treasure's terrain (treasure slot * 100 + hex index), or decline.",
    ),
    "treasure_die": ("treasure_die", "Keep the first (0) or the second (1) die thrown."),
    "recyclers_keep": (
        "recyclers_keep",
        "Recyclers: keep one of the three tech cards drawn (its card id); the others are "
        "discarded.",
    ),
    "advisors_discard": (
        "advisors_discard",
        "Advisors: discard a tapestry card of your hand (its card id) for a resource of choice.",
    ),
    "advisors_give": (
        "advisors_give",
        "Advisors: give a neighbour about to draw a tapestry card one of yours (its card id), "
        "then draw one; or decline.",
    ),
    "advisors_gift": (
        "advisors_gift",
        "Advisors: give a tapestry card to a neighbour for 5 VP (card id * 10 + their seat), "
        "or decline.",
    ),
    "aliens": (
        "aliens",
        "Aliens: explore a space tile of your supply onto the mat (its id; + 100 to throw away "
        "the tile there first and pay a resource), or gain a resource (0; 100: after throwing "
        "the mat's tile away).",
    ),
    "infiltrators": (
        "infiltrators",
        "Infiltrators: put an outpost beside a lone opposing outpost (the territory's board "
        "index), or mark an opponent's capital (1000 + their seat).",
    ),
    "islanders": (
        "islanders",
        "Islanders: explore a hex of your mat's island (hex * 10000 + tile * 10 + rotation), "
        "or decline.",
    ),
    "spies": (
        "spies",
        "Spies: copy from a neighbour with an unused option (option * 10000 + neighbour * 1000 "
        "+ item: 0 a WHEN PLAYED card on their mat, item its place; 1 a tile in their supply, "
        "item its id, 500 + id for a space tile; 2 their track space, item the track; 3 a tech "
        "card at its row, item its id), or decline.",
    ),
    "tinkerers": (
        "tinkerers",
        "Tinkerers: use an unused option on a track token (option * 100 + track * 10 + token: "
        "0 refund its space's cost, 1 match the nearest opponent ahead, 2 move back 3, 3 jump "
        "to the next bonus), or decline.",
    ),
    "utilitarians_move": (
        "utilitarians_move",
        "Utilitarians: move a token onto the landmark just gained from the landmark it leaves "
        "(its id), or decline.",
    ),
    "utilitarians_place": (
        "utilitarians_place",
        "Utilitarians: put a token on a landmark of the mat you own (its id).",
    ),
    "faefolk": (
        "faefolk",
        "Gain a tapestry card before the Faefolk token moves (0), or decline.",
    ),
    "elder_ones_discard": (
        "elder_ones_discard",
        "Discard a tapestry card from your hand for 2 resources of your choice (its id), or "
        "decline.",
    ),
    "gamblers": (
        "gamblers",
        "Play one of the revealed WHEN PLAYED tapestry cards over the era slot (or, with none, "
        "keep one revealed card: its id).",
    ),
    "genies_wish": (
        "genies_wish",
        "The Genies grant you a wish: choose a circled benefit of their ring (its index) to "
        "score; they score it too.",
    ),
    "genies_grant": (
        "genies_grant",
        "Take the squared benefit before (0) or after (1) the circled benefit chosen.",
    ),
    "genies_final": (
        "genies_final",
        "Choose a circled benefit of the Genies' ring to score (two different ones).",
    ),
    "illuminati_keep": (
        "illuminati_keep",
        "Keep one of the three tapestry cards drawn (its id); the others are discarded.",
    ),
    "illuminati_advance": (
        "illuminati_advance",
        "An opponent took the science die from your mat: advance on the track rolled (0), "
        "without benefit or bonus, or decline.",
    ),
    "collectors": (
        "collectors",
        "Put the tapestry card, territory tile or tech card just gained (its id) on your "
        "Collectors mat for its reward, or decline.",
    ),
    "renegades": (
        "renegades",
        "Advance on the Renegades track for its reward instead of this space's benefit and bonus "
        "(0), or decline.",
    ),
    "celestials_move": (
        "celestials_move",
        "Move your floating capital to an adjacent territory (its board index) and gain both "
        "conquer dice, or decline.",
    ),
    "celestials_dice_pick": (
        "celestials_dice_pick",
        "Keep one red and one black face among your throws (red * 10 + black): both are gained.",
    ),
    "weefolk_give": (
        "weefolk_give",
        "Give a Weefolk token to an opponent (their seat): they place it in their capital.",
    ),
    "weefolk_plot": (
        "weefolk_plot",
        "Place the Weefolk token on a plot of your capital (row * 9 + col); a full capital: on "
        "an income building, set aside.",
    ),
    "weefolk_swap": (
        "weefolk_swap",
        "Spend a territory tile (its id) for an income building of your choice, or decline.",
    ),
    "werefolk_regress": (
        "werefolk_regress",
        "The space tile landed face up: regress on a track (its index; then explore the tile "
        "onto the mat), or decline for 4 VP.",
    ),
    "werefolk_advance": (
        "werefolk_advance",
        "The space tile landed face down: advance on a track (its index), benefit and bonus free.",
    ),
    "mystics_predict": (
        "mystics_predict",
        "Predict (sealed) your count in this category: tech cards, complete districts, "
        "controlled territories or completed tracks (frame ints[0]).",
    ),
}
PROMPTS.update(BOX_PROMPTS)
