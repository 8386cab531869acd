"""Imperium events: the facts of a game, past tense, small enough to animate one by one.

Cards move with two events: :class:`CardDrawn` (a card taken at random from an unordered hidden
pile: a draw, a market refill, a look; ``REVEALS``) and :class:`CardMoved` (every other move).
Both name their zones as in :mod:`domain.imperium.state`. ``ImperiumGame.redact_event`` blanks
the card of a move that the viewer may see neither end of (another seat's draws, cards put on
a deck, history...).
"""

from __future__ import annotations

from domain.core import Event
from domain.imperium.civ.events import CivCardResolved, CivDieRolled, CivPrepared, CivScored
from domain.imperium.state import Frame, Memo


class SeatPrepared(Event, frozen=True, kw_only=True):
    """A seat's nation laid out ("Mise en place des joueurs", 1-10).

    ``deck`` is the personal deck (unordered), ``nation_deck`` the nation cards above the
    ``accession`` card, ``development`` the development area; all are the nation's fixed lists.
    """

    seat: int
    nation: str
    power: str
    empire: bool
    deck: tuple[str, ...]
    nation_deck: tuple[str, ...]
    accession: tuple[str, ...]
    development: tuple[str, ...]
    in_play: tuple[str, ...] = ()
    materials: int = 3
    population: int = 2
    progress: int = 1
    actions: int = 3
    exhaust: int = 5


class MarketPrepared(Event, frozen=True, kw_only=True):
    """The common piles were sorted, counted and shuffled ("Mise en place générale", 3-13).

    ``piles`` maps each deck name to its cards (hidden: redacted while the game goes on),
    ``unrest`` is the face-up unrest pile, ``removed`` the cards left out of the game, ``box``
    the box whose common cards are used ("Combiner les jeux Antique et Légendes").
    """

    REVEALS = True
    piles: dict[str, tuple[str, ...]]
    unrest: tuple[str, ...]
    removed: tuple[str, ...]
    slots: tuple[str, ...]
    box: str = "classics"


class SolsticePlaced(Event, frozen=True, kw_only=True):
    """The Solstice card was placed at random; ``first`` plays first ("Mise en place", 17)."""

    REVEALS = True
    first: int


class CardDrawn(Event, frozen=True, kw_only=True):
    """``card`` was taken at random from the hidden pile ``src`` to ``dst`` for ``seat``."""

    REVEALS = True
    seat: int
    card: str
    src: str
    dst: str


class CardMoved(Event, frozen=True, kw_only=True):
    """``card`` moved from zone ``src`` to zone ``dst`` (``seat``: who moved it)."""

    seat: int
    card: str
    src: str
    dst: str


class DeckShuffled(Event, frozen=True, kw_only=True):
    """``seat``'s discard pile became its (unordered) draw deck ("Mélanger votre deck", 2)."""

    seat: int


class TokensChanged(Event, frozen=True, kw_only=True):
    """``seat``'s tokens changed by these amounts (negative: paid or spent)."""

    seat: int
    materials: int = 0
    population: int = 0
    progress: int = 0
    actions: int = 0
    exhaust: int = 0


class SlotTokensChanged(Event, frozen=True, kw_only=True):
    """Tokens on the card of market slot ``slot`` changed by these amounts."""

    slot: int
    materials: int = 0
    population: int = 0
    progress: int = 0


class CardTokensChanged(Event, frozen=True, kw_only=True):
    """Progress tokens on ``card`` (a card of ``seat``'s play area: Pottery) changed."""

    seat: int
    card: str
    progress: int


class CardExhausted(Event, frozen=True, kw_only=True):
    """An exhaust token was put on ``card`` (``"nation"``/``"dev"``: on those piles)."""

    seat: int
    card: str


class ExhaustRegained(Event, frozen=True, kw_only=True):
    """``seat`` took back the exhaust token lying on ``card`` (``"nation"``/``"dev"``: on those
    piles) and put it on its state card; that card's exhaust effect is usable again."""

    seat: int
    card: str


class IconsTreated(Event, frozen=True, kw_only=True):
    """Until the end of the turn, ``card`` (in ``seat``'s play area) counts as showing
    ``icons`` (icon -> how many; Agriculture, Windmills)."""

    seat: int
    card: str
    icons: dict[str, int]


class StateIconIgnored(Event, frozen=True, kw_only=True):
    """The next card ``seat`` plays this turn ignores its ``icon`` state icon (Combs)."""

    seat: int
    icon: str


class StateFlipped(Event, frozen=True, kw_only=True):
    """``seat``'s state card now shows its empire (or barbarian) side."""

    seat: int
    empire: bool


class OrderChosen(Event, frozen=True, kw_only=True):
    """``seat`` chose an order: ``activate``, ``innovate`` or ``pacify`` ("Comment jouer")."""

    seat: int
    order: str


class CardPlayed(Event, frozen=True, kw_only=True):
    """``seat`` played ``card`` from ``src`` (``free``: as a free action)."""

    seat: int
    card: str
    src: str = "hand"
    free: bool = False


class TokensReset(Event, frozen=True, kw_only=True):
    """Cleanup step 2: exhaust and action tokens back on the state card ("Nettoyage")."""

    seat: int
    actions: int = 3
    exhaust: int = 5


class TurnStarted(Event, frozen=True, kw_only=True):
    """``seat`` begins turn ``turn`` of round ``round``."""

    seat: int
    round: int
    turn: int


class RoundEnded(Event, frozen=True, kw_only=True):
    """Round ``round`` ended; Solstice effects follow ("Solstice")."""

    round: int


class CardTurnedOver(Event, frozen=True, kw_only=True):
    """The double-sided ``card`` lying in ``zone`` now shows its other face ``face`` (a card
    id of its own); the card keeps its place (Utopians' journey cards, "Retournez")."""

    seat: int
    zone: str
    card: str
    face: str


class KingOfKingsFlipped(Event, frozen=True, kw_only=True):
    """King of Kings now shows ``face``; ``seat`` resolved it ("Roi des rois")."""

    seat: int
    face: str


class KingOfKingsResolved(Event, frozen=True, kw_only=True):
    """``seat`` resolved King of Kings (each player once, whatever the face)."""

    seat: int


class GameEndTriggered(Event, frozen=True, kw_only=True):
    """A final scoring was triggered by ``reason``; round ``final_round`` is the last."""

    reason: str
    final_round: int


class GameEnded(Event, frozen=True, kw_only=True):
    """The game is over: final ``scores`` and ``winners`` (``collapse``: by collapse)."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    collapse: bool
    details: tuple[dict[str, int], ...] = ()


class AgendaSet(Event, frozen=True, kw_only=True):
    """The decision stack and step memo after a decision (engine bookkeeping)."""

    frames: tuple[Frame, ...]
    memo: Memo


ImperiumEvent = (
    SeatPrepared
    | MarketPrepared
    | SolsticePlaced
    | CardDrawn
    | CardMoved
    | DeckShuffled
    | TokensChanged
    | SlotTokensChanged
    | CardTokensChanged
    | CardExhausted
    | ExhaustRegained
    | IconsTreated
    | StateIconIgnored
    | StateFlipped
    | OrderChosen
    | CardPlayed
    | TokensReset
    | TurnStarted
    | RoundEnded
    | CardTurnedOver
    | KingOfKingsFlipped
    | KingOfKingsResolved
    | GameEndTriggered
    | GameEnded
    | AgendaSet
    | CivPrepared
    | CivDieRolled
    | CivCardResolved
    | CivScored
)

EVENT_TYPES: tuple[type[Event], ...] = (
    SeatPrepared,
    MarketPrepared,
    SolsticePlaced,
    CardDrawn,
    CardMoved,
    DeckShuffled,
    TokensChanged,
    SlotTokensChanged,
    CardTokensChanged,
    CardExhausted,
    ExhaustRegained,
    IconsTreated,
    StateIconIgnored,
    StateFlipped,
    OrderChosen,
    CardPlayed,
    TokensReset,
    TurnStarted,
    RoundEnded,
    CardTurnedOver,
    KingOfKingsFlipped,
    KingOfKingsResolved,
    GameEndTriggered,
    GameEnded,
    AgendaSet,
    CivPrepared,
    CivDieRolled,
    CivCardResolved,
    CivScored,
)
