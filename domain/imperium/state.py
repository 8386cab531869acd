"""The Imperium (Classics and Legends) game state: options, seats, the market, piles and the agenda.

The state is a mutable :class:`msgspec.Struct`; only :mod:`domain.imperium.evolve` changes it,
except the agenda and the memo, which the engine rewrites while deciding and publishes at the
end of every decision in one :class:`~domain.imperium.events.AgendaSet` event (so a fresh fold
of the events rebuilds them exactly).

Hidden piles are never ordered: a draw picks uniformly among the remaining cards at draw time
(``Chance``), so no deck order exists in the state. The only ordered parts of hidden piles are
cards whose position became known (``deck_top``: cards put back on top of a draw deck;
``nation_top``/``fame_top``: cards looked at and put back), last item = top card.

Zones are named by strings so that one event (``CardMoved``) moves any card anywhere:

* seat zones, written ``"<seat>:<zone>"``: ``hand``, ``deck`` (unordered), ``deck_top``,
  ``discard`` (last = top), ``play`` (the play area), ``history``, ``dev`` (development area),
  ``nation_deck`` (unordered nation deck), ``nation_top``, ``nation_bottom`` (cards put just
  above the accession card, first = uppermost), ``accession`` (the bottom card of the
  nation deck), ``looked`` (cards being looked at), ``garrison/<host>`` (cards garrisoned
  under ``host``), ``journey`` (Utopians: the journey cards below the top one);
* shared zones: ``market/<slot>`` (a face-up market card), ``market/<slot>/unrest`` (unrest
  cards tucked under it), ``pile/<name>`` for the unordered decks (``uncivilised``,
  ``civilised``, ``region``, ``main``, ``fame``), ``fame_top``, ``unrest`` (the face-up unrest
  pile), ``exile``, ``removed`` (out of the game, unseen), ``revealed``.
"""

from __future__ import annotations

import msgspec

from domain.imperium.civ.state import CivState

PLAY, OVER = "play", "over"
RESOURCES: tuple[str, ...] = ("materials", "population", "progress")
#: market slot kinds, in board order ("Mise en place générale", 14).
SLOT_KINDS: tuple[str, ...] = ("civilised", "uncivilised", "region", "main", "main")
DECKS: tuple[str, ...] = ("uncivilised", "civilised", "region", "main", "fame")


class ImperiumOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Options chosen when the game is created (an unknown key is refused).

    Attributes:
        nations: nation keys per seat (e.g. ``["macedonians", "romans"]``); empty: nations are
            drawn at random among the Classics nations ("Mise en place des joueurs", 1).
        sides: the power-card face per seat (``"A"`` or ``"B"``); empty: every seat uses face B,
            the face the rulebook recommends to new players ("Mise en place des joueurs", 2).
        box: whose common cards (market piles; King of Kings and unrest are the same in both)
            are used: ``"classics"`` or ``"legends"``; empty: Legends when every nation is a
            Legends one, else Classics. Nations drawn at random come from that box (Classics
            when empty). Any of the 16 nations may be chosen with either box ("Combiner les
            jeux Antique et Légendes").
    """

    nations: tuple[str, ...] = ()
    sides: tuple[str, ...] = ()
    box: str = ""
    #: Solo only (one seat): the C.I.V.'s level, "Maître suprême", nation (random when
    #: empty) and power-card face (see :mod:`domain.imperium.civ.options`).
    difficulty: str = ""
    supreme_master: bool = False
    civ_nation: str = ""
    civ_side: str = ""
    #: Campaign only: the campaign id, starting-deck changes and the lost-campaign bonus.
    campaign_id: str = ""
    deck_added: tuple[str, ...] = ()
    deck_removed: tuple[str, ...] = ()
    bonus_tokens: tuple[int, ...] = ()
    #: Campaign only ("MODE MAÎTRE SUPRÊME"): common unrest cards left out of the game.
    unrest_removed: tuple[str, ...] = ()


class Frame(msgspec.Struct, frozen=True, kw_only=True):
    """One entry of the agenda: automatic work or a decision for ``seat``.

    Attributes:
        kind: what the frame does (see :mod:`domain.imperium.engine`).
        seat: the seat the frame concerns (and who decides, for decisions).
        card: the card whose effect is being resolved ("" for rules frames).
        steps: JSON list of effect steps still to resolve (``steps`` frames), or JSON data.
        options: option labels or JSON step lists (``option`` frames), candidate cards
            (``pick`` frames).
        action: what a ``pick`` frame does with the chosen card.
        count: how many more cards a ``pick`` frame takes (``-1``: any number).
        optional: the decision may be declined (``Pass``).
        data: extra JSON parameters of the action.
    """

    kind: str
    seat: int
    card: str = ""
    steps: str = ""
    options: tuple[str, ...] = ()
    action: str = ""
    count: int = 1
    optional: bool = False
    data: str = ""


class Memo(msgspec.Struct, kw_only=True):
    """Results of previous steps that later steps refer to (reset for each resolution).

    Attributes:
        just_drawn: cards drawn by the latest draw step.
        just_acquired: the card acquired by the latest acquire step.
        looked_at: cards being looked at (and still in the ``looked`` zone).
        abandoned: how many cards the previous ``abandon`` step moved.
        failed: seats that could not fully resolve the previous step (``steal``).
        immune: seats ignoring the attack being resolved.
        tokens_gained: tokens taken with the latest market card (materials, population,
            progress).
        declared: the category named by the latest ``declare`` step (Gambling).
        revealed: cards revealed by the latest ``reveal`` step (still in ``revealed``).
        used: ``"<seat>:<effect card>:<used card>"`` — cards of a seat's play area that an
            effect used (recalled or abandoned) while resolving; a gain of materials by that
            effect counts them as its source (Shaduf card note).
    """

    just_drawn: list[str] = msgspec.field(default_factory=list)
    just_acquired: str = ""
    looked_at: list[str] = msgspec.field(default_factory=list)
    abandoned: int = 0
    failed: list[int] = msgspec.field(default_factory=list)
    immune: list[int] = msgspec.field(default_factory=list)
    tokens_gained: list[int] = msgspec.field(default_factory=lambda: [0, 0, 0])
    declared: str = ""
    revealed: list[str] = msgspec.field(default_factory=list)
    used: list[str] = msgspec.field(default_factory=list)
    #: cards the latest ``discard`` steps of this resolution moved (``for_each``, Arthashastra).
    discarded: int = 0
    #: progress tokens the latest ``pay`` step paid (``for_each``, King Wu of Qin).
    paid_progress: int = 0
    #: ``"<recipient>:<card>"`` for each card given during this resolution (Olmec Traders).
    given: list[str] = msgspec.field(default_factory=list)
    #: the card the latest ``abandon`` step moved ("" none; Mining's condition).
    last_abandoned: str = ""
    #: unrest cards returned during this resolution (Utopians' power card, face A).
    returned: int = 0
    #: cards exiled during this resolution (Monastery: "if the exiled card ...").
    exiled: list[str] = msgspec.field(default_factory=list)

    def start(self) -> None:
        """Forget the step results of the previous resolution (a card played, an exhaust or
        Solstice effect used): "the previous step" never reaches into another effect."""
        self.abandoned = 0
        self.last_abandoned = ""
        self.returned = 0
        self.exiled = []
        self.discarded = 0
        self.paid_progress = 0
        self.given = []
        self.used = []
        self.declared = ""
        self.revealed = []


class SeatState(msgspec.Struct, kw_only=True):
    """One player: nation, cards by zone, tokens.

    Attributes:
        nation: nation key; ``power``: the power-card face in play (card id).
        empire: ``True`` when the state card shows its empire side.
        materials/population/progress: tokens in front of the player.
        actions/exhaust: action and exhaust tokens left on the state card.
        exhausted: cards (and the power card) carrying an exhaust token.
        nation_token/dev_token: an exhaust token lies on the nation deck / development area.
        free_played: cards already played as a free action this turn ("Action gratuite").
        kok_resolved: the player already resolved King of Kings ("Roi des rois").
        treated: icons some cards count as having until the end of the turn (card -> icon ->
            count; Agriculture, Windmills).
        ignore_icon: the state icon the next card played this turn ignores ("" none; Combs).
    """

    nation: str = ""
    power: str = ""
    empire: bool = False
    materials: int = 0
    population: int = 0
    progress: int = 0
    actions: int = 0
    exhaust: int = 0
    exhausted: list[str] = msgspec.field(default_factory=list)
    nation_token: bool = False
    dev_token: bool = False
    free_played: list[str] = msgspec.field(default_factory=list)
    kok_resolved: bool = False
    treated: dict[str, dict[str, int]] = msgspec.field(default_factory=dict)
    ignore_icon: str = ""
    hand: list[str] = msgspec.field(default_factory=list)
    deck: list[str] = msgspec.field(default_factory=list)
    deck_top: list[str] = msgspec.field(default_factory=list)
    discard: list[str] = msgspec.field(default_factory=list)
    play: list[str] = msgspec.field(default_factory=list)
    history: list[str] = msgspec.field(default_factory=list)
    dev: list[str] = msgspec.field(default_factory=list)
    nation_deck: list[str] = msgspec.field(default_factory=list)
    nation_top: list[str] = msgspec.field(default_factory=list)
    nation_bottom: list[str] = msgspec.field(default_factory=list)
    accession: list[str] = msgspec.field(default_factory=list)
    looked: list[str] = msgspec.field(default_factory=list)
    garrison: dict[str, list[str]] = msgspec.field(default_factory=dict)
    #: Utopians' journey stack below the top journey card (first = bottom); the top card is
    #: in ``play`` and only its visible face is in play ("Les Utopiens et leur voyage").
    journey: list[str] = msgspec.field(default_factory=list)
    #: progress tokens placed on cards of the play area by their own effect (Pottery); they
    #: stay with the card until an effect takes them ("all_on_this_card").
    card_tokens: dict[str, int] = msgspec.field(default_factory=dict)
    #: Atlanteans: the submerged pile under the power card, instead of a history
    #: ("Submergée"): out of play, scored, seen by its owner only.
    submerged: list[str] = msgspec.field(default_factory=list)

    def tokens(self, resource: str) -> int:
        """The number of ``resource`` tokens the player holds."""
        return int(getattr(self, resource))


class Slot(msgspec.Struct, kw_only=True):
    """A market slot: its kind, face-up card, tucked unrest cards and tokens on the card."""

    kind: str
    card: str = ""
    unrest: list[str] = msgspec.field(default_factory=list)
    materials: int = 0
    population: int = 0
    progress: int = 0


class ImperiumState(msgspec.Struct, kw_only=True):
    """The whole game.

    Attributes:
        options: creation options; ``n``: seat count; ``box``: the content box.
        phase: ``play`` or ``over``.
        first: the seat to the left of the Solstice card (first player of every round).
        current: whose turn it is; ``round``/``turn``: counters (1-based).
        order: the order chosen this turn ("" before choosing).
        piles: the unordered market decks by name (see :data:`DECKS`).
        fame_top: fame cards whose place on top of the fame deck is known (last = top).
        kok_face: the King of Kings face showing (``"A"``/``"B"``).
        unrest: the face-up unrest pile; ``exile``, ``removed``, ``revealed``: shared piles.
        end_trigger: why a final scoring was triggered ("" none); ``final_round``: the round
            after which the game is scored.
        collapse: the game ended by collapse.
        agenda: the decision stack (top last); ``memo``: results of previous steps.
        final_scores/winners: set once the game is over.
        revision: the rules revision (1: ``imperium-classics/1``, 2: ``imperium/2``, 3:
            ``imperium/3``, 4: ``imperium/4``), set at creation; rule modules consult it
            where the revisions differ.
    """

    options: ImperiumOptions
    n: int
    box: str = "classics"
    phase: str = PLAY
    first: int = 0
    current: int = 0
    round: int = 1
    turn: int = 0
    order: str = ""
    seats: list[SeatState] = msgspec.field(default_factory=list)
    market: list[Slot] = msgspec.field(default_factory=list)
    piles: dict[str, list[str]] = msgspec.field(default_factory=dict)
    fame_top: list[str] = msgspec.field(default_factory=list)
    kok_face: str = "A"
    unrest: list[str] = msgspec.field(default_factory=list)
    exile: list[str] = msgspec.field(default_factory=list)
    removed: list[str] = msgspec.field(default_factory=list)
    revealed: list[str] = msgspec.field(default_factory=list)
    end_trigger: str = ""
    final_round: int = 0
    collapse: bool = False
    agenda: list[Frame] = msgspec.field(default_factory=list)
    memo: Memo = msgspec.field(default_factory=Memo)
    final_scores: list[int] | None = None
    winners: list[int] | None = None
    score_details: list[dict[str, int]] = msgspec.field(default_factory=list)
    revision: int = 1
    #: solo games: the C.I.V. (its cards and tokens are ``seats[1]``); ``None`` otherwise.
    civ: CivState | None = None
