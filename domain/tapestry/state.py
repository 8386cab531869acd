"""The Tapestry game state: options, seats, the map, decks, and the agenda of pending decisions.

The state is a mutable :class:`msgspec.Struct`; only :mod:`domain.tapestry.evolve` changes it
(the agenda is the one exception, see below). Decks are never ordered in the state: a draw picks
uniformly among the cards not accounted for elsewhere (hands, mats, discards), so a deck order
cannot leak.

The *agenda* is a stack of :class:`Frame` (last = top). The top frame is either automatic work
(resolved by :mod:`domain.tapestry.engine` as soon as it is reached) or a decision point that
waits for one command. The engine rewrites the agenda while deciding, and every decision ends
with one :class:`~domain.tapestry.events.AgendaSet` event carrying the new agenda, so a fresh
fold of the events rebuilds it exactly.

Phases: ``setup`` (civilization and capital choices), ``play`` and ``over``.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from domain.tapestry.civ_catalogue import starting_civilization_id
from domain.tapestry.solo.state import SoloState

SETUP, PLAY, OVER = "setup", "play", "over"
RESOURCES: tuple[str, ...] = ("coin", "worker", "food", "culture")
#: board order of the advancement tracks (``domain.tapestry.content.TRACKS``).
TRACK_IDS: tuple[str, ...] = ("exploration", "science", "technology", "military")
#: the income tracks of the income mat, in order, and their building types.
BUILDINGS: tuple[str, ...] = ("market", "house", "farm", "armory")
#: the expansion boxes, in the order of the rulebook's MATÉRIEL table (its column order:
#: Manœuvres & Manigances, Arts & Architecture, Fictions & Futurs).
EXPANSIONS: tuple[str, ...] = ("plans_and_ploys", "arts_and_architecture", "fantasies_and_futures")
#: civ_tokens key of the Collectors' mat (Arts & Architecture): one entry per space of
#: :data:`SHELF` (0: empty, else the id of what lies there, 1 for an outpost or a house), then
#: the turn number of the seat's last income turn (``domain.tapestry.civ_collectors``).
COLLECTORS = "collectors"
#: the spaces of the Collectors' mat, in order: what each may hold.
SHELF: tuple[str, ...] = ("outpost", "house", "landmark", "tapestry", "territory", "tech")


class TapestryOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Options chosen when the game is created (an unknown key is refused).

    Attributes:
        civilizations_dealt: civilizations dealt to each seat to keep one ("Mise en place des
            joueurs", A: 2). Fewer are dealt when the implemented civilizations run short.
        starting_civilizations: per seat (seat 0 first), a civilization that seat starts with
            instead of being dealt some: its key (``"militants"``) or its id as text
            (``"12"``); ``""`` (or no entry) deals that seat's as usual. Only implemented
            civilizations (an expansion's when its box is in ``expansions``), each at most
            once; the seat's rebalancing applies as for any
            starting civilization. At most one entry per seat (checked by the game).
    """

    civilizations_dealt: Annotated[int, msgspec.Meta(ge=1, le=2)] = 2
    starting_civilizations: tuple[str, ...] = ()
    #: solo: the Automa's level, 1-6 ("Difficulté"; 5-6 the hard side, ``domain.tapestry.solo``).
    automa_level: Annotated[int, msgspec.Meta(ge=1, le=6)] = 2
    #: 2-seat games: play with the Shadow Empire (refused for other seat counts).
    shadow_empire: bool = False

    def __post_init__(self) -> None:
        """Only implemented civilizations, no duplicates (raises ``ValueError``)."""
        chosen = [c for c in self.starting_civilizations if c]
        if not chosen:
            return
        # an expansion's civilization needs its box: checked here by the options that name
        # the boxes (TapestryOptions2), by the game for the others (TapestryGame.initial)
        boxes = tuple(getattr(self, "expansions", EXPANSIONS))
        ids = [starting_civilization_id(c, boxes) for c in chosen]
        if len(set(ids)) != len(ids):
            raise ValueError("starting_civilizations names a civilization twice")


class TapestryOptions2(TapestryOptions, frozen=True, kw_only=True):
    """The options of ``tapestry/2``: those of ``tapestry/1`` and the rulebook's variants
    ("VARIANTES"), every one off by default.

    Attributes:
        draw_two_tapestry: "Lors du tour de Revenus 1, piochez 2 cartes Fresque au lieu de 1.
            Gardez-en 1 et défaussez l'autre."
        draw_two_civilizations: "Chaque fois que vous piochez une civilisation, piochez-en 2,
            gardez-en 1 et défaussez l'autre" (a civilization gained during the game).
        nanotechnology_two_cards: the Nanotechnology bonus discards 2 tech cards instead of 3
            (the neoprene board's rule, allowed with the classic board).
        removed_tapestry_cards: tapestry cards (keys, e.g. ``"peace_treaty"``) taken out of
            the game before it starts ("vous pouvez vous mettre d'accord pour retirer des
            cartes Fresque"); every copy of the card is removed.
        removed_tech_cards: tech cards (keys, e.g. ``"radio"``) taken out likewise.
        island_start: "au lieu d'utiliser les capitales pour déterminer l'emplacement de
            départ sur la carte, placez vos avant-postes au centre de l'île la plus proche de
            vous" (2 to 5 seats; :func:`domain.tapestry.setup.island_of`).
        expansions: the expansion boxes in play (``EXPANSIONS``; none: the base game), in any
            order and combination ("PREMIÈRE MISE EN PLACE": « Combinez les plateaux et les
            cartes du jeu de base et des extensions avec lesquelles vous souhaitez jouer »);
            an unknown box is refused naming it, a box named twice is refused.
        civilization_box: "MM AA FF Vous pouvez contraindre les joueurs à piocher les
            civilisations dans la même extension": every civilization dealt at setup or gained
            during the game comes from this box (one of ``expansions``; empty: the variant
            is off). A civilization fixed by ``starting_civilizations`` is not drawn and may
            come from any box in play.
    """

    draw_two_tapestry: bool = False
    draw_two_civilizations: bool = False
    nanotechnology_two_cards: bool = False
    removed_tapestry_cards: tuple[str, ...] = ()
    removed_tech_cards: tuple[str, ...] = ()
    island_start: bool = False
    expansions: tuple[str, ...] = ()
    civilization_box: str = ""

    def __post_init__(self) -> None:
        """The checks of :class:`TapestryOptions`, then each box known and named at most once
        (raises ``ValueError`` naming the box)."""
        super().__post_init__()
        unknown = [box for box in self.expansions if box not in EXPANSIONS]
        if unknown:
            raise ValueError(
                f"expansions: unknown box {unknown[0]!r}; known: {', '.join(EXPANSIONS)}"
            )
        twice = [box for i, box in enumerate(self.expansions) if box in self.expansions[:i]]
        if twice:
            raise ValueError(f"expansions names {twice[0]!r} twice")
        if self.civilization_box and self.civilization_box not in self.expansions:
            raise ValueError(
                f"civilization_box: {self.civilization_box!r} is not a box in play "
                f"(expansions: {', '.join(self.expansions) or 'none'})"
            )


class TapestryRules(msgspec.Struct, frozen=True, kw_only=True):
    """The rules revision a game is played under, and its variants (fixed at creation).

    ``revision`` is 1 for ``tapestry/1`` and 2 for ``tapestry/2``; the rule modules consult it
    (``state.rules.revision >= 2``) at the few places the revisions differ. The other fields
    copy the variants of :class:`TapestryOptions2` (always off under ``tapestry/1``);
    ``removed_tapestry`` and ``removed_tech`` hold card ids; ``expansions`` the boxes in play.
    """

    revision: int = 1
    draw_two_tapestry: bool = False
    draw_two_civilizations: bool = False
    nanotechnology_two_cards: bool = False
    removed_tapestry: tuple[int, ...] = ()
    removed_tech: tuple[int, ...] = ()
    island_start: bool = False
    #: the expansion boxes in play, in ``EXPANSIONS`` order (empty: the base game).
    expansions: tuple[str, ...] = ()
    #: the variant "piocher les civilisations dans la même extension": the one box every
    #: civilization is drawn from (empty: off).
    civilization_box: str = ""


class Frame(msgspec.Struct, frozen=True, kw_only=True):
    """One entry of the agenda: automatic work or a decision for ``seat``.

    Attributes:
        kind: what the frame does (see :mod:`domain.tapestry.engine`).
        seat: the seat the frame concerns (and who decides, for decisions).
        expr: a benefit expression as JSON (for ``expr`` frames and choices).
        token: a benefit token (``token`` frames) or a sub-kind.
        options: JSON benefit expressions offered by ``choose``/``order`` frames.
        track: a track id when relevant.
        ints: small integer arguments (space, counts, hex indices...).
        optional: the decision may be declined.
        source: where the frame comes from, for prompts (e.g. ``"track:science:5"``).
    """

    kind: str
    seat: int
    expr: str = ""
    token: str = ""
    options: tuple[str, ...] = ()
    track: str = ""
    ints: tuple[int, ...] = ()
    optional: bool = False
    source: str = ""


#: map pieces that control a territory alone: an outpost (``""``), a building the Nomads put
#: on the map ("compte comme un Avant-poste") and a Treasure Hunters token (Plans & Ploys: it
#: holds the territory without conquering it, and no conquest may target it).
CONTROLLING_PIECES: tuple[str, ...] = ("", "building", "treasure_hunters")
#: pieces whose territory no conquest may target (``rules.conquer_targets``).
UNCONQUERABLE_PIECES: tuple[str, ...] = ("treasure_hunters", "infiltrators")
#: pieces that give their seat control of a territory beside the controller's (shared
#: control: the Infiltrators' outpost, Plans & Ploys); each is an outpost from its supply.
SHARING_PIECES: tuple[str, ...] = ("infiltrators",)


class Outpost(msgspec.Struct, kw_only=True):
    """A piece on the map, usually an outpost (toppled outposts lie on their side).

    ``piece`` is ``""`` for an outpost, ``"building"`` for an income building or landmark
    the Nomads put on the map (``building``: its type or ``"landmark"``, ``landmark``: its
    id), or a civilization key for a player token of that civilization (e.g.
    ``"isolationists"``). Every piece takes room on a territory ("Conquête": no conquest of a
    territory holding 2 pieces or more); only :data:`CONTROLLING_PIECES` give control.
    """

    seat: int
    toppled: bool = False
    piece: str = ""
    building: str = ""
    landmark: int = 0


class HexState(msgspec.Struct, kw_only=True):
    """A hex of the board.

    Attributes:
        q, r: axial coordinates.
        printed: a territory printed on the board (never explored).
        tile: the territory tile explored there (-1: none).
        rotation: the tile's rotation (0..5, clockwise sixths).
        outposts: outposts (and other pieces, see :class:`Outpost`) on the hex, in arrival
            order.
    """

    q: int
    r: int
    printed: bool = False
    tile: int = -1
    rotation: int = 0
    outposts: list[Outpost] = msgspec.field(default_factory=list)

    @property
    def explored(self) -> bool:
        """``True`` for a territory (printed hex or explored tile)."""
        return self.printed or self.tile >= 0

    def controller(self) -> int:
        """The seat controlling the hex: the only owner of standing outposts there (-1: none).

        "Conquête": control is having the only standing outpost(s) on a territory (the two
        starting outposts of a seat share one territory).
        """
        standing = {
            o.seat for o in self.outposts if not o.toppled and o.piece in CONTROLLING_PIECES
        }
        return standing.pop() if len(standing) == 1 else -1


class TechOwned(msgspec.Struct, kw_only=True):
    """A tech card beside a capital: ``row`` 0 bottom, 1 middle, 2 top."""

    card: int
    row: int = 0


class PlacedBuilding(msgspec.Struct, kw_only=True):
    """A building in (or beside, ``row == -99``) a capital."""

    building: str
    landmark: int = 0
    row: int = -99
    col: int = -99
    orientation: int = 0


class Played(msgspec.Struct, kw_only=True):
    """A tapestry card on an income mat (``face_up`` False: drawn blind from the deck)."""

    card: int
    era: int
    face_up: bool = True


class SeatState(msgspec.Struct, kw_only=True):
    """One player.

    Attributes:
        civs: civilization ids (the starting one first); ``civ_offer`` those dealt at setup.
        capital: capital mat id (-1 until chosen); ``capital_offer`` the ones to choose from.
        home: board index of the start territory.
        resources: coin, worker, food, culture (``RESOURCES`` order), 0..8 each.
        vp: victory points.
        tracks: token positions per track (``TRACK_IDS`` order), usually one token per track.
        completed: tracks this seat has completed (a token reached space 12; the achievement
            condition, kept even if that token later moves back).
        retired: tracks whose token was removed from space 12 (AI Singularity): the seat's
            position there stays 12 ("Singularité d'IA", F.À.Q.).
        taken: buildings taken off each income track (``BUILDINGS`` order), 0..5.
        grid_filled: the capital's plots (9 strings, ``'.'`` empty); ``grid_blocked`` its
            impassable plots.
        buildings: every building gained (in order), with its place.
        landmarks: landmark ids owned.
        tech: tech cards owned.
        hand: tapestry cards in hand (ids, one entry per copy).
        mat: tapestry cards on the income mat, in play order.
        territory: territory tiles in supply (face up); ``space`` space tiles in supply;
            ``space_explored`` space tiles explored.
        outposts: outposts left in supply.
        income_turns: income turns taken (the current era); ``finished`` after the fifth.
        achievements: achievement ids earned.
        civ_tokens: per-civilization counters (free structure per civilization key).
        activated: ``"track:space"`` activated this turn (a space works once per turn).
        repeats: repeat icons used this turn (``"track:7"`` or ``"tech:7"``).
        covered: income tracks whose buildings no longer stand in one block from the right
            (the Artificers' slides): building -> the spaces (1..5) still covered; a track
            absent here has its ``taken`` leftmost buildings off (spaces 0..taken visible).
        aside: income buildings set aside, neither on the mat nor in the capital (the
            Artificers), by building; they count in ``taken``.
    """

    civs: list[int] = msgspec.field(default_factory=list)
    civ_offer: list[int] = msgspec.field(default_factory=list)
    capital: int = -1
    capital_offer: list[int] = msgspec.field(default_factory=list)
    home: int = -1
    resources: list[int] = msgspec.field(default_factory=lambda: [0, 0, 0, 0])
    vp: int = 0
    tracks: list[list[int]] = msgspec.field(default_factory=lambda: [[0], [0], [0], [0]])
    completed: list[bool] = msgspec.field(default_factory=lambda: [False] * 4)
    retired: list[int] = msgspec.field(default_factory=list)
    taken: list[int] = msgspec.field(default_factory=lambda: [0, 0, 0, 0])
    grid_blocked: list[str] = msgspec.field(default_factory=list)
    grid_filled: list[str] = msgspec.field(default_factory=list)
    buildings: list[PlacedBuilding] = msgspec.field(default_factory=list)
    landmarks: list[int] = msgspec.field(default_factory=list)
    tech: list[TechOwned] = msgspec.field(default_factory=list)
    hand: list[int] = msgspec.field(default_factory=list)
    mat: list[Played] = msgspec.field(default_factory=list)
    territory: list[int] = msgspec.field(default_factory=list)
    space: list[int] = msgspec.field(default_factory=list)
    space_explored: list[int] = msgspec.field(default_factory=list)
    outposts: int = 8
    income_turns: int = 0
    finished: bool = False
    achievements: list[int] = msgspec.field(default_factory=list)
    civ_tokens: dict[str, list[int]] = msgspec.field(default_factory=dict)
    activated: list[str] = msgspec.field(default_factory=list)
    repeats: list[str] = msgspec.field(default_factory=list)
    covered: dict[str, list[int]] = msgspec.field(default_factory=dict)
    aside: dict[str, int] = msgspec.field(default_factory=dict)

    def position(self, track: int) -> int:
        """The seat's position on a track: its furthest token, 12 once a token was removed from
        the end ("Plusieurs pions par piste"; AI Singularity F.À.Q.). A token moved back from
        space 12 counts where it now stands."""
        if track in self.retired:
            return 12
        tokens = self.tracks[track]
        return max(tokens) if tokens else 0


class TapestryState(msgspec.Struct, kw_only=True):
    """The whole game state (see the module docstring)."""

    options: TapestryOptions
    seats: list[SeatState]
    board: str = ""
    hexes: list[HexState] = msgspec.field(default_factory=list)
    phase: str = SETUP
    first_player: int = -1
    current: int = -1
    turn: int = 0
    tech_display: list[int] = msgspec.field(default_factory=list)
    tech_discard: list[int] = msgspec.field(default_factory=list)
    tapestry_discard: list[int] = msgspec.field(default_factory=list)
    territory_out: list[int] = msgspec.field(default_factory=list)
    space_out: list[int] = msgspec.field(default_factory=list)
    landmark_owner: dict[str, int] = msgspec.field(default_factory=dict)
    achievement_claims: dict[str, list[int]] = msgspec.field(default_factory=dict)
    civs_out: list[int] = msgspec.field(default_factory=list)
    agenda: list[Frame] = msgspec.field(default_factory=list)
    last_dice: list[int] = msgspec.field(default_factory=list)
    final_scores: list[int] | None = None
    winners: list[int] | None = None
    #: the Automa and the Shadow Empire (``domain.tapestry.solo``); ``None`` without bots.
    solo: SoloState | None = None
    rules: TapestryRules = TapestryRules()

    @property
    def n(self) -> int:
        """Number of seats."""
        return len(self.seats)

    def neighbours(self, seat: int) -> list[int]:
        """The seats left and right of ``seat`` (once in a 2-player game, "Voisins")."""
        if self.n == 1:
            return []
        left, right = (seat + 1) % self.n, (seat - 1) % self.n
        return [left] if left == right else [left, right]

    def hex_index(self, q: int, r: int) -> int:
        """The board index of hex ``(q, r)`` (-1 when it is not on the board)."""
        for index, cell in enumerate(self.hexes):
            if cell.q == q and cell.r == r:
                return index
        return -1
