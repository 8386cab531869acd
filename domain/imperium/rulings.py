"""The engine's readings of the rules where the rulebook text is unclear or silent.

Each ruling is a :class:`~domain.imperium.content_types.Decision` with its provenance: a
``rulebook`` ruling names the section that settles it (the OCR of the French rulebook garbles
the category icons, so the reading is explained in ``topic``); an ``assumed`` ruling says in
its ``note`` what we chose and why. :func:`assumptions` lists the assumed ones (the game's
``assumptions()`` adds them to the content's).

>>> all(not r.provenance_error() for r in RULINGS)
True
>>> any(line.startswith("rulings: give_destination") for line in assumptions())
True
"""

from __future__ import annotations

from domain.imperium.content_types import Decision


def _rule(topic: str, section: str) -> Decision:
    return Decision(source="rulebook", section=section, topic=topic)


def _assumed(topic: str, note: str) -> Decision:
    return Decision(source="assumed", note=note, topic=topic)


RULINGS: tuple[Decision, ...] = (
    _rule(
        "unrest_tucked: an unrest card goes under each uncivilised (tradition), civilised and "
        "tributary (vassal) market card, never under a region: step 13 names the tributary "
        "icon as the cards shuffled into the main deck, and Acquérir, Exiler and step 15 use "
        "that same icon with the tradition and civilised ones",
        "Mise en place générale 13 and 15; Mots-clefs: Acquérir, Exiler",
    ),
    _rule(
        "civilised_token: at setup only, 1 progress token on each civilised market card that "
        "has no uncivilised icon; refills later get no token",
        "Mise en place générale 16",
    ),
    _rule(
        "pay_conversions: each progress may stand for 1 population or 2 materials, no change "
        "given back; materials and population never stand for each other",
        "Mots-clefs: Payer",
    ),
    _rule(
        "last_round: a triggered scoring finishes the current round (its Solstice included), "
        "then one more full round with its Solstice, then the scoring",
        "Fin de partie: Décompte",
    ),
    _rule(
        "collapse_tie: fewest unrest cards wins a collapse; tied players compare their scores "
        "(a better score outside the tie does not matter); equal scores share the victory",
        "Fin de partie: Effondrement, Décompte",
    ),
    _rule(
        "accession_on_discard: the accession card flips the state card (Vikings: the zenith "
        "card triggers the end) only when it is put in the discard pile; looking at it does "
        "not, and it goes back under the nation deck",
        "Mélanger votre deck; Mots-clefs: Pioche Nation, Regarder",
    ),
    _rule(
        "exhaust_own_activate: exhaust effects, reactions included, only in your own turn "
        "while taking the Activate order (not in cleanup nor at the Solstice), unless the "
        "card says otherwise (defences usable in any turn)",
        "Utiliser des effets épuisables",
    ),
    _assumed(
        "give_destination",
        "Exports and Monopoly give cards without naming where they go; the recipient puts the "
        "card in its discard pile, as for a taken card.",
    ),
    _assumed(
        "regain_choice",
        "Regaining an exhaust token: the player chooses which token comes back (a card, the "
        "nation deck or the development area); that place is free again.",
    ),
    _assumed(
        "innovate_market_tokens",
        "Innovating a market card that carries materials counts as gaining a market card with "
        "materials (Carthaginians face A may double them), as acquiring one does.",
    ),
    _assumed(
        "ambassador_token",
        "Ambassador uses another player's exhaust effect whether or not that card carries an "
        "exhaust token; the token goes on Ambassador and the costs are the user's.",
    ),
    _assumed(
        "treat_icon_count",
        "Agriculture/Windmills: the chosen fertile card counts as showing 3 production icons "
        "(or its printed number if higher) and keeps its other icons, until its owner's "
        "cleanup.",
    ),
    _assumed(
        "combs_next_card",
        "Combs: the next card played this turn ignores the empire icon; playing any card uses "
        "the effect up, whether or not that card shows the icon.",
    ),
    _assumed(
        "shaduf_sources",
        "Shaduf: the river cards 'used' to gain materials are the card whose effect it is (when "
        "in play), the cards a per-card amount counted, and the cards the effect recalled or "
        "abandoned; tokens taken with a market card never count.",
    ),
    _assumed(
        "acquired_unrest_is_taken",
        "The unrest card tucked under an acquired market card counts as an unrest card taken "
        "(the Vikings' power card reacts to it), as the one taken when acquiring from exile.",
    ),
    _assumed(
        "collapse_counts_every_unrest",
        "A collapse counts the unrest cards of the piles the rulebook lists (hand, play area, "
        "deck, discard, History; EFFONDREMENT). imperium-classics/1 counts those piles only. "
        "imperium/2 to imperium/4 also count the Atlanteans' submerged pile as their History "
        "('Au lieu d'une pile Histoire, les Atlantes ont une pile Submersion') and the cards "
        "garrisoned under a card of the play area as part of the play area. imperium/5 keeps "
        "the submerged pile (the assumed part) but no longer counts garrisoned cards, as "
        "Réserver says: 'Une carte réservée n'est pas considérée comme étant dans votre zone "
        "de jeu'.",
    ),
    _rule(
        "submerged_history_vp: imperium/2: a card scoring 'in the History' scores nothing in "
        "the submerged pile ('n'en rapportent aucun quand elles sont dans votre pile "
        "Submersion'); imperium-classics/1 gave it its 'otherwise' value",
        "Mots-clefs: Submergée",
    ),
    _rule(
        "find_stops: imperium/2: Trouver searches hand, discard, deck, then nation deck and "
        "stops at the first holding the named card ('cessez vos recherches'); a choice "
        "('trouvez une ...') searches every zone; the decks searched are shuffled, found or "
        "not ('mélangez-les'), so what was known of their order is forgotten; "
        "imperium-classics/1 offered every copy in every zone and shuffled only after a find",
        "Mots-clefs: Trouver",
    ),
    _rule(
        "passive_defence_automatic: imperium/2: a passive defence whose text gives no choice "
        "(Standing Army) protects without asking; imperium-classics/1 asked",
        "Mots-clefs: Attaque",
    ),
    _rule(
        "civ_deck_unrest: imperium/5: of the C.I.V.'s nation cards, those marked 3+ or 4 are "
        "removed, those with the unrest-pile symbol (the glyph '-' of 'placez les cartes - "
        "dans la pioche des Instabilités', the glyph of the same symbol in 'Certaines cartes - "
        "peuvent être retirées du jeu', Mise en place des joueurs) join the unrest pile, and "
        "its personal-deck unrest cards, which carry no symbol, are among 'les cartes "
        "restantes' shuffled into its deck (RÉSOUDRE expects unrest cards there: 'Si vous "
        "révélez une carte [instabilité] […] renvoyez la carte dans la pioche des "
        "instabilités'); the earlier rulesets left the personal-deck unrest cards out of the "
        "game",
        "Solo: Mise en place de la C.I.V.; Résoudre les cartes de la C.I.V.",
    ),
    _assumed(
        "sumerians_automatic",
        "Sumerians: returning unrest at the end never costs points, so the engine returns as "
        "many as allowed (hand, play area, discard, deck, history) without asking.",
    ),
)


def assumptions() -> list[str]:
    """The assumed rulings as ``"rulings: <topic>: <note>"`` lines."""
    return [f"rulings: {r.topic}: {r.note}" for r in RULINGS if r.source == "assumed"]
