"""The bots' events: ``Automa…`` for the Automa (and the bots' shared decks and turns),
``ShadowEmpire…`` for the Shadow Empire. Events that reveal a chance outcome set
``REVEALS`` (undo never goes past a revealed decision card, die roll or drawn tile).
"""

from __future__ import annotations

from domain.core import Event


class AutomaPrepared(Event, frozen=True, kw_only=True):
    """The Automa was set up ("MISE EN PLACE POUR LE BOT AUTOMA"): level, the civilization card
    drawn at random and its favourite track, 2 outposts on board hex ``home``, the decision
    deck (``deck`` known cards plus ``hidden`` face-down progress cards, ``progress`` the
    progress deck) and whether the bots play first. ``automa`` False: the 2-player Shadow
    Empire variant (no Automa: no civilization, no outposts)."""

    REVEALS = True
    automa: bool = True
    level: int
    civilization: int
    favorite: str
    home: int
    outposts: int
    deck: tuple[int, ...]
    hidden: int
    progress: tuple[int, ...]
    first: bool


class ShadowEmpirePrepared(Event, frozen=True, kw_only=True):
    """The Shadow Empire's favourite track, by the science die rolled until it differs from the
    Automa's (``faces``: every roll, in order)."""

    REVEALS = True
    faces: tuple[int, ...]
    favorite: str


class AutomaTurnStarted(Event, frozen=True, kw_only=True):
    """The bots' turn began (after human turn ``turn``; 0 before the first)."""

    turn: int


class AutomaDecisionDrawn(Event, frozen=True, kw_only=True):
    """The previous pair was discarded and a new decision pair drawn: ``left`` the track card,
    ``right`` the priority card ("TOUR AUTOMA/EMPIRE DE L'OMBRE", 1-2)."""

    REVEALS = True
    left: int
    right: int


class AutomaDecisionShuffled(Event, frozen=True, kw_only=True):
    """The discards (face-down progress cards added included) and the pair in play were
    shuffled into the decision deck (income turns 2-4, step 9). Decks keep no order: the
    shuffle's outcome is drawn with each later card."""


class AutomaProgressAdded(Event, frozen=True, kw_only=True):
    """``count`` progress cards went face down to the decision discard."""

    count: int


class AutomaAdvanced(Event, frozen=True, kw_only=True):
    """The Automa's token on ``track`` moved from ``origin`` to ``to``."""

    track: str
    origin: int
    to: int


class ShadowEmpireAdvanced(Event, frozen=True, kw_only=True):
    """The Shadow Empire's token on ``track`` moved from ``origin`` to ``to``."""

    track: str
    origin: int
    to: int


class AutomaFavoriteChanged(Event, frozen=True, kw_only=True):
    """The Automa's favourite track is now ``track`` (income turn step)."""

    track: str


class ShadowEmpireFavoriteChanged(Event, frozen=True, kw_only=True):
    """The Shadow Empire's favourite track is now ``track``."""

    track: str


class AutomaLandmarkClaimed(Event, frozen=True, kw_only=True):
    """A bot (``by``: ``"automa"`` or ``"shadow_empire"``) reached a landmark first; it goes
    on the Automa's income board (out of the game when there is no Automa)."""

    landmark: int
    by: str


class AutomaScored(Event, frozen=True, kw_only=True):
    """The Automa scored ``vp`` victory points."""

    vp: int
    reason: str = ""


class AutomaAchievementEarned(Event, frozen=True, kw_only=True):
    """The Automa fulfilled ``achievement`` and scored ``vp`` ("OBJECTIFS")."""

    achievement: int
    vp: int


class ShadowEmpireAchievementEarned(Event, frozen=True, kw_only=True):
    """The Shadow Empire completed a track: it takes the achievement's place, no VP."""

    achievement: int


class AutomaOutpostPlaced(Event, frozen=True, kw_only=True):
    """An Automa outpost was put on board hex ``hex``."""

    hex: int


class ShadowEmpireOutpostPlaced(Event, frozen=True, kw_only=True):
    """A toppled Shadow Empire outpost was put on board hex ``hex``."""

    hex: int


class AutomaTileExplored(Event, frozen=True, kw_only=True):
    """The Automa drew territory ``tile`` and laid it on board hex ``hex``, turned at random
    (``rotation``)."""

    REVEALS = True
    hex: int
    tile: int
    rotation: int


class AutomaDieRolled(Event, frozen=True, kw_only=True):
    """The science die showed ``track`` for a bot (``faces``: every roll, the last one kept)."""

    REVEALS = True
    faces: tuple[int, ...]
    track: str


class AutomaTapestryDrawn(Event, frozen=True, kw_only=True):
    """The Automa drew ``count`` tapestry cards face down (``cards`` empty for every viewer
    until the game ends)."""

    REVEALS = True
    count: int
    cards: tuple[int, ...] = ()


class AutomaTapestryPlaced(Event, frozen=True, kw_only=True):
    """The top tapestry card went face down on the Automa's income board for ``era`` (``card``
    0 for every viewer until the game ends)."""

    REVEALS = True
    era: int
    card: int = 0


class AutomaTrapChecked(Event, frozen=True, kw_only=True):
    """The human conquered the Automa's territory on hex ``hex``: the Automa's face-down
    tapestry cards ``revealed`` were discarded in random order until a Trap (``trap``)
    ("EMBUSCADE")."""

    REVEALS = True
    hex: int
    revealed: tuple[int, ...]
    trap: bool


class AutomaIncomeTurnStarted(Event, frozen=True, kw_only=True):
    """The bots began income turn ``era``."""

    era: int


class AutomaFinished(Event, frozen=True, kw_only=True):
    """The bots' game is over after their fifth income turn."""


class AutomaCivilizationAdded(Event, frozen=True, kw_only=True):
    """Level 6: an extra Automa civilization card was drawn at setup; its favourite track is
    ignored, its income ability applies after the first card's."""

    REVEALS = True
    civilization: int


class AutomaPriorityDrawn(Event, frozen=True, kw_only=True):
    """A progress card was drawn to break ties at the bots' first income turn (levels 5-6)
    and shuffled back into the progress deck ("TOUR REVENUS AUTOMA")."""

    REVEALS = True
    card: int


class AutomaTiebreakDrawn(Event, frozen=True, kw_only=True):
    """Plans & Ploys in a solo game: a progress card drawn to break a tie of the bots' income
    turn (``card``), then shuffled back into the progress deck (TOUR AUTOMA 3, "Extension : En
    cas d'égalité à résoudre sans carte Décision, piocher depuis la pile Progrès")."""

    REVEALS = True
    card: int


SoloEvent = (
    AutomaPrepared
    | ShadowEmpirePrepared
    | AutomaTurnStarted
    | AutomaDecisionDrawn
    | AutomaDecisionShuffled
    | AutomaProgressAdded
    | AutomaAdvanced
    | ShadowEmpireAdvanced
    | AutomaFavoriteChanged
    | ShadowEmpireFavoriteChanged
    | AutomaLandmarkClaimed
    | AutomaScored
    | AutomaAchievementEarned
    | ShadowEmpireAchievementEarned
    | AutomaOutpostPlaced
    | ShadowEmpireOutpostPlaced
    | AutomaTileExplored
    | AutomaDieRolled
    | AutomaTapestryDrawn
    | AutomaTapestryPlaced
    | AutomaTrapChecked
    | AutomaIncomeTurnStarted
    | AutomaFinished
    | AutomaCivilizationAdded
    | AutomaPriorityDrawn
    | AutomaTiebreakDrawn
)
