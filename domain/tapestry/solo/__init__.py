"""Solo Tapestry: the Automa and the Shadow Empire, automated opponents played by the rules.

The player aid's solo sections ("MISE EN PLACE POUR LE BOT AUTOMA", "MISE EN PLACE POUR LE BOT
EMPIRE DE L'OMBRE", "TOUR AUTOMA/EMPIRE DE L'OMBRE", "RÈGLES SPÉCIFIQUES POUR L'AUTOMA ET
L'EMPIRE") describe two bots that hold no seat: their turns are events decided inside the
human's commands (and at setup), every card draw and die roll recorded like any other chance
outcome. The bots' pieces on the map and their claims use the party numbers below in place of
a seat number (an :class:`~domain.tapestry.state.Outpost`'s ``seat``, ``landmark_owner`` and
``achievement_claims`` values): never a valid seat index.

Modules: :mod:`.content` (``content/automa.json``), :mod:`.state` (the bots' state),
:mod:`.events` and :mod:`.fold` (their events), :mod:`.board` (hex priority and distances),
:mod:`.bots` (track rules and benefits), :mod:`.conquest` (conquest and exploration),
:mod:`.income` (the bots' income turns), :mod:`.turn` (setup and the bots' turn),
:mod:`.scoring` and :mod:`.view`. This package module stays light: :mod:`domain.tapestry.state`
imports :mod:`.state` from it.
"""

from __future__ import annotations

#: the Automa's party number on the map, in landmark owners and achievement claims.
AUTOMA = -2
#: the Shadow Empire's party number.
SHADOW = -3
#: display names of the parties (``Game.parties``).
NAMES: dict[int, str] = {AUTOMA: "Automa", SHADOW: "Shadow Empire"}
