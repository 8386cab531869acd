"""Tapestry events: the facts of a game, past tense, small enough to animate one by one.

Events that make public something nobody knew (a draw, a die roll, a deal) set
``REVEALS = True``. Draws of tapestry cards and civilization deals are private to their seat:
``TapestryGame.redact_event`` empties their card lists for everyone else, and a tapestry card
laid face down from the deck is hidden from everyone.
"""

from __future__ import annotations

from domain.core import Event

# the expansion civilizations' events, re-exported (ev.OptionsDrawn, ...)
from domain.tapestry.events_boxes import BoxEvent
from domain.tapestry.events_boxes import BuildingSetAside as BuildingSetAside
from domain.tapestry.events_boxes import BuildingSlid as BuildingSlid
from domain.tapestry.events_boxes import CardsSubmerged as CardsSubmerged
from domain.tapestry.events_boxes import OptionKept as OptionKept
from domain.tapestry.events_boxes import OptionsDrawn as OptionsDrawn
from domain.tapestry.solo.events import SoloEvent
from domain.tapestry.state import Frame


# -- setup ---------------------------------------------------------------------------------
class BoardPrepared(Event, frozen=True, kw_only=True):
    """The map for the player count was laid out ("Mise en place générale", 1)."""

    board: str


class CapitalsDealt(Event, frozen=True, kw_only=True):
    """``seat`` received capital mats (a pair to choose from with 1-3 players, else one)."""

    REVEALS = True
    seat: int
    capitals: tuple[int, ...]


class CivilizationsDealt(Event, frozen=True, kw_only=True):
    """``seat`` was dealt civilizations to keep one (redacted for others)."""

    REVEALS = True
    seat: int
    civilizations: tuple[int, ...]


class FirstPlayerChosen(Event, frozen=True, kw_only=True):
    """The first player was drawn at random ("Premier joueur")."""

    REVEALS = True
    seat: int


class CapitalChosen(Event, frozen=True, kw_only=True):
    """``seat`` kept ``capital``; its start territory is board hex ``home``."""

    seat: int
    capital: int
    home: int


class CivilizationChosen(Event, frozen=True, kw_only=True):
    """``seat`` kept ``civilization`` and discarded the other(s)."""

    seat: int
    civilization: int


class CivilizationGained(Event, frozen=True, kw_only=True):
    """``seat`` gained an extra civilization during the game ("Règles générales")."""

    REVEALS = True
    seat: int
    civilization: int


class CivilizationsOffered(Event, frozen=True, kw_only=True):
    """``seat`` drew civilizations to keep one (``tapestry/2``, "VARIANTES": "piochez-en 2,
    gardez-en 1"); redacted for others until the game ends. The one not kept goes back."""

    REVEALS = True
    seat: int
    civilizations: tuple[int, ...]


class OutpostsStarted(Event, frozen=True, kw_only=True):
    """``seat`` put ``count`` outposts on its start territory, board hex ``hex``."""

    seat: int
    hex: int
    count: int


class GameStarted(Event, frozen=True, kw_only=True):
    """Every seat has chosen; play begins with the first player."""

    first_player: int


# -- turns ---------------------------------------------------------------------------------
class TurnStarted(Event, frozen=True, kw_only=True):
    """It is ``seat``'s turn (``turn`` counts turns from 1)."""

    seat: int
    turn: int


class IncomeTurnStarted(Event, frozen=True, kw_only=True):
    """``seat`` started income turn ``era`` (1..5), entering a new era."""

    seat: int
    era: int


class SeatFinished(Event, frozen=True, kw_only=True):
    """``seat``'s game is over after its fifth income turn ("Fin de la partie")."""

    seat: int


class SpaceActivated(Event, frozen=True, kw_only=True):
    """``seat`` used ``key`` this turn (a track space ``"science:5"`` or a repeat icon)."""

    seat: int
    key: str


class AgendaSet(Event, frozen=True, kw_only=True):
    """The pending decisions and automatic steps after a command (top last)."""

    frames: tuple[Frame, ...]


# -- resources and points ------------------------------------------------------------------
class ResourcesChanged(Event, frozen=True, kw_only=True):
    """``seat``'s resources changed by ``delta`` (coin, worker, food, culture)."""

    seat: int
    delta: tuple[int, int, int, int]
    reason: str = ""


class VPScored(Event, frozen=True, kw_only=True):
    """``seat`` scored ``vp`` victory points (negative: lost)."""

    seat: int
    vp: int
    reason: str = ""


# -- tracks, landmarks, buildings ----------------------------------------------------------
class TokenMoved(Event, frozen=True, kw_only=True):
    """A track token of ``seat`` moved from ``origin`` to ``to`` (token ``token`` of the track).

    ``to == -1`` takes the token off the track (AI Singularity); ``origin == -1`` puts a new
    token on the track.
    """

    seat: int
    track: str
    token: int
    origin: int
    to: int


class TrackCompleted(Event, frozen=True, kw_only=True):
    """A token of ``seat`` reached the end of ``track``."""

    seat: int
    track: str


class LandmarkClaimed(Event, frozen=True, kw_only=True):
    """``seat`` claimed ``landmark``; it must now be placed in the capital."""

    seat: int
    landmark: int


class BuildingTaken(Event, frozen=True, kw_only=True):
    """``seat`` took its leftmost ``building`` off the income mat (revealing a space)."""

    seat: int
    building: str


class BuildingPlaced(Event, frozen=True, kw_only=True):
    """``seat`` placed a building in its capital (``row == -99``: beside it)."""

    seat: int
    building: str
    landmark: int = 0
    row: int
    col: int
    orientation: int = 0
    cells: tuple[tuple[int, int], ...] = ()


class PlotsCleared(Event, frozen=True, kw_only=True):
    """Impassable plots ``cells`` of ``seat``'s capital became buildable (Terraforming)."""

    seat: int
    cells: tuple[tuple[int, int], ...]


class DistrictCompleted(Event, frozen=True, kw_only=True):
    """``seat`` completed district ``district`` (0..8) of its capital."""

    seat: int
    district: int


class AchievementEarned(Event, frozen=True, kw_only=True):
    """``seat`` fulfilled ``achievement`` and scored ``vp`` ("Objectifs")."""

    seat: int
    achievement: int
    vp: int


# -- map -----------------------------------------------------------------------------------
class TerritoryTilesDrawn(Event, frozen=True, kw_only=True):
    """``seat`` drew territory tiles into its face-up supply."""

    REVEALS = True
    seat: int
    tiles: tuple[int, ...]


class SpaceTilesDrawn(Event, frozen=True, kw_only=True):
    """``seat`` drew space tiles into its supply."""

    REVEALS = True
    seat: int
    tiles: tuple[int, ...]


class TilesDiscarded(Event, frozen=True, kw_only=True):
    """``seat`` discarded territory tiles from its supply (out of the game)."""

    seat: int
    tiles: tuple[int, ...]


class TerritoryTileGiven(Event, frozen=True, kw_only=True):
    """``seat`` gave territory ``tile`` from its supply to ``to``'s supply (Age of Sail)."""

    seat: int
    to: int
    tile: int


class TileExplored(Event, frozen=True, kw_only=True):
    """``seat`` placed territory ``tile`` on board hex ``hex`` turned ``rotation``."""

    seat: int
    hex: int
    tile: int
    rotation: int


class SpaceTileExplored(Event, frozen=True, kw_only=True):
    """``seat`` explored space ``tile`` from its supply."""

    seat: int
    tile: int


class OutpostPlaced(Event, frozen=True, kw_only=True):
    """``seat`` put an outpost from its supply on board hex ``hex``."""

    seat: int
    hex: int


class OutpostToppled(Event, frozen=True, kw_only=True):
    """The outpost of ``owner`` on board hex ``hex`` was toppled."""

    owner: int
    hex: int


class OutpostRaised(Event, frozen=True, kw_only=True):
    """The toppled outpost of ``owner`` on board hex ``hex`` stood up again."""

    owner: int
    hex: int


class ConquerDiceRolled(Event, frozen=True, kw_only=True):
    """The red and black conquer dice showed faces ``red`` and ``black`` (0..5)."""

    REVEALS = True
    seat: int
    red: int
    black: int


class DieRolled(Event, frozen=True, kw_only=True):
    """``seat`` threw one conquer die alone (``die``: ``"red"`` or ``"black"``), showing face
    ``face`` (0..5): a Treasure Hunters treasure (Plans & Ploys)."""

    REVEALS = True
    seat: int
    die: str
    face: int


class ScienceDieRolled(Event, frozen=True, kw_only=True):
    """The science die showed ``track``."""

    REVEALS = True
    seat: int
    face: int
    track: str


class TrapPlayed(Event, frozen=True, kw_only=True):
    """``seat`` discarded a Trap against the conquest of board hex ``hex``."""

    seat: int
    hex: int
    card: int


# -- cards ---------------------------------------------------------------------------------
class TechDisplayFilled(Event, frozen=True, kw_only=True):
    """Tech cards were turned face up to fill the display."""

    REVEALS = True
    cards: tuple[int, ...]


class TechDisplayCleared(Event, frozen=True, kw_only=True):
    """The face-up tech cards were discarded (Metallurgy, Rubber)."""

    cards: tuple[int, ...]


class TechInvented(Event, frozen=True, kw_only=True):
    """``seat`` took tech ``card`` into its bottom row (``from_deck``: the deck's top card)."""

    REVEALS = True
    seat: int
    card: int
    from_deck: bool = False


class TechUpgraded(Event, frozen=True, kw_only=True):
    """``seat`` moved tech ``card`` up to row ``row`` (1 middle, 2 top)."""

    seat: int
    card: int
    row: int


class TechDiscarded(Event, frozen=True, kw_only=True):
    """``seat`` discarded tech cards."""

    seat: int
    cards: tuple[int, ...]


class TapestryDrawn(Event, frozen=True, kw_only=True):
    """``seat`` drew tapestry cards into its hand (empty ``cards`` when redacted)."""

    REVEALS = True
    seat: int
    count: int
    cards: tuple[int, ...] = ()


class TapestryReshuffled(Event, frozen=True, kw_only=True):
    """The tapestry discard pile was shuffled into a new deck (F.À.Q. "plus de cartes")."""


class TapestryPlayed(Event, frozen=True, kw_only=True):
    """``seat`` put tapestry ``card`` on its mat for era ``era``.

    ``face_up`` False: the top card of the deck, laid face down with no ability (``card`` is
    0 for every viewer). ``from_hand`` False for such blind cards.
    """

    REVEALS = True
    seat: int
    card: int
    era: int
    face_up: bool = True
    from_hand: bool = True


class TapestryDiscarded(Event, frozen=True, kw_only=True):
    """``seat`` discarded tapestry cards from its hand."""

    seat: int
    cards: tuple[int, ...]


class TapestryGiven(Event, frozen=True, kw_only=True):
    """``seat`` gave tapestry ``card`` from its hand to ``to``'s hand (the Advisors); the card
    is 0 for every viewer but the two seats until the game ends."""

    seat: int
    to: int
    card: int


class IslandTileExplored(Event, frozen=True, kw_only=True):
    """Islanders: ``seat`` put territory ``tile`` from its supply on hex ``hex`` (1-6) of the
    island on its civilization mat, turned ``rotation``; the tile leaves the stack for good."""

    seat: int
    hex: int
    tile: int
    rotation: int


class CivilizationReturned(Event, frozen=True, kw_only=True):
    """``seat`` gave back ``civilization``, just gained (« May discard and draw another »: the
    Islanders; from ``tapestry/3`` the Celestials and the Riverfolk too); it is out of the
    game."""

    seat: int
    civilization: int


class CivTokensSet(Event, frozen=True, kw_only=True):
    """A civilization mat's counters of ``seat`` changed (``key``: civilization key)."""

    seat: int
    key: str
    values: tuple[int, ...]


class GameEnded(Event, frozen=True, kw_only=True):
    """Every seat has finished; final scores and winners ("Fin de la partie")."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]


class PlotsBlocked(Event, frozen=True, kw_only=True):
    """Empty plots ``cells`` of ``seat``'s capital became impassable (Architects' cubes)."""

    seat: int
    cells: tuple[tuple[int, int], ...]


class BuildingsSwapped(Event, frozen=True, kw_only=True):
    """``seat`` swapped the income buildings on plots ``first`` and ``second`` (Architects)."""

    seat: int
    first: tuple[int, int]
    second: tuple[int, int]


class ClanPlaced(Event, frozen=True, kw_only=True):
    """``seat`` put a Weefolk token of ``owner`` on plot ``(row, col)`` of its own capital,
    now filled (mark ``"W"``); ``set_aside`` names the income building it replaced there (a
    full capital), that building set beside the capital, else ``""``."""

    seat: int
    owner: int
    row: int
    col: int
    set_aside: str = ""


class SkyCapitalMoved(Event, frozen=True, kw_only=True):
    """Celestials: ``seat``'s floating-capital token went to board hex ``hex``; ``start``:
    at setup, where it replaces one of the seat's two starting outposts."""

    seat: int
    hex: int
    start: bool = False


class Collected(Event, frozen=True, kw_only=True):
    """Collectors: ``seat`` put a component it just gained on space ``slot`` of its mat (0
    outpost, 1 house, 2 landmark, 3 tapestry card, 4 territory tile, 5 tech card); ``item``
    is the landmark, card or tile id (1 for an outpost or a house). The component leaves its
    usual place (outpost supply, hand, tile supply, tech cards). The tapestry card and the
    territory tile lie face down: other seats receive ``item`` 0 until the game is over."""

    seat: int
    slot: int
    item: int


class PiecePlaced(Event, frozen=True, kw_only=True):
    """``seat`` put a piece other than an outpost on board hex ``hex``: an income building or
    landmark gained by the Nomads (``piece`` ``"building"``; ``building`` its type or
    ``"landmark"``, ``landmark`` its id), or a player token of a civilization (``piece`` the
    civilization key, e.g. ``"isolationists"``)."""

    seat: int
    hex: int
    piece: str
    building: str = ""
    landmark: int = 0


class PredictionMade(Event, frozen=True, kw_only=True):
    """Mystics: ``seat`` sealed its prediction ``value`` for ``category`` (0 tech cards, 1
    complete districts, 2 controlled territories, 3 completed tracks). Until the predictions
    are revealed, other seats receive ``value`` 0 and no ``salt`` (the salt keeps the hash of
    the redacted event from being brute-forced)."""

    seat: int
    category: int
    value: int
    salt: str = ""


class PredictionsRevealed(Event, frozen=True, kw_only=True):
    """Mystics: ``seat``'s sealed ``predictions`` were revealed at its last income turn, with
    the ``counts`` reached (category order of :class:`PredictionMade`)."""

    REVEALS = True
    seat: int
    predictions: tuple[int, ...]
    counts: tuple[int, ...]


class TechTaken(Event, frozen=True, kw_only=True):
    """Inventors: ``seat`` took tech ``card`` out of ``owner``'s top row into its own bottom
    row (a card holding an Inventors token was upgraded to the top row, F.À.Q.)."""

    seat: int
    owner: int
    card: int


TapestryEvent = (
    BoardPrepared
    | CapitalsDealt
    | CivilizationsDealt
    | FirstPlayerChosen
    | CapitalChosen
    | CivilizationChosen
    | CivilizationGained
    | OutpostsStarted
    | GameStarted
    | TurnStarted
    | IncomeTurnStarted
    | SeatFinished
    | SpaceActivated
    | AgendaSet
    | ResourcesChanged
    | VPScored
    | TokenMoved
    | TrackCompleted
    | LandmarkClaimed
    | BuildingTaken
    | BuildingPlaced
    | PlotsCleared
    | DistrictCompleted
    | AchievementEarned
    | TerritoryTilesDrawn
    | SpaceTilesDrawn
    | TilesDiscarded
    | TerritoryTileGiven
    | TileExplored
    | SpaceTileExplored
    | OutpostPlaced
    | OutpostToppled
    | OutpostRaised
    | ConquerDiceRolled
    | ScienceDieRolled
    | TrapPlayed
    | TechDisplayFilled
    | TechDisplayCleared
    | TechInvented
    | TechUpgraded
    | TechDiscarded
    | TapestryDrawn
    | TapestryReshuffled
    | TapestryPlayed
    | TapestryDiscarded
    | TapestryGiven
    | IslandTileExplored
    | CivilizationReturned
    | CivTokensSet
    | GameEnded
    | TechTaken
    | PiecePlaced
    | PredictionMade
    | PredictionsRevealed
    | PlotsBlocked
    | BuildingsSwapped
    | ClanPlaced
    | SkyCapitalMoved
    | Collected
    | BoxEvent
    | SoloEvent
    | CivilizationsOffered
    | DieRolled
)
