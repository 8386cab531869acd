"""The campaign's fold and decisions (pure).

Rules ("MODE CAMPAGNE"): one nation for every game; the first game at Chef de clan and one
level higher after each win (Seigneur de guerre, Imperator, Souverain, Suzerain); the C.I.V.
of a new game is any nation but the player's and those already beaten (several games against
the same one until it is beaten); after a win the player adds to the starting deck a non-fame
card gained during the game, or removes a starting-deck card; the fourth loss ends the
campaign (lost), the fifth win ends it (won); a campaign that follows a lost one starts with
twice the resources (6 materials, 4 population, 2 progress). "Maître suprême" (mode
``supreme``, the "Grande campagne"): every game at Suzerain with the supreme-master modifier.

Each decision validates first (raising :class:`CampaignError`, changing nothing) and returns
its events; :func:`game_options` derives a game's options from the state, which is what the
offline verification re-derives for every game of a record.

>>> state = CampaignState()
>>> for e in create("campaign-doc", "Ann", "romans"):
...     evolve(state, e)
>>> started = start_game(state, "greeks")[0]
>>> started.level, started.options["difficulty"], started.game_id
('chieftain', 'chieftain', 'campaign-doc-g1')
"""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.campaign.events import (
    CampaignCreated,
    CampaignEnded,
    CampaignEventType,
    CampaignGameRecorded,
    CampaignGameStarted,
)

LEVELS = ("chieftain", "warlord", "imperator", "sovereign", "overlord")
WINS_NEEDED = 5
LOSSES_ENDING = 4
BONUS_TOKENS = (6, 4, 2)
MODES = ("standard", "supreme")
ID_PREFIX = "campaign-"


class CampaignError(ValueError):
    """A refused campaign decision: ``code`` and a sentence."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class CampaignState:
    """A campaign folded from its events."""

    created: CampaignCreated | None = None
    wins: int = 0
    losses: int = 0
    deck_added: list[str] = field(default_factory=list)
    deck_removed: list[str] = field(default_factory=list)
    beaten: list[str] = field(default_factory=list)
    unrest_removed: list[str] = field(default_factory=list)
    games: list[CampaignGameStarted] = field(default_factory=list)
    results: list[CampaignGameRecorded] = field(default_factory=list)
    ended: CampaignEnded | None = None
    version: int = 0

    @property
    def info(self) -> CampaignCreated:
        """The ``CampaignCreated`` event (raises if there is none)."""
        if self.created is None:
            raise CampaignError("CAMPAIGN_NOT_FOUND", "the campaign has not been created")
        return self.created

    @property
    def current(self) -> CampaignGameStarted | None:
        """The game started and not recorded yet (``None``: none)."""
        if self.games and len(self.results) < len(self.games):
            return self.games[-1]
        return None

    def level(self) -> str:
        """The level of the next game."""
        if self.info.mode == "supreme":
            return "overlord"
        return LEVELS[min(self.wins, len(LEVELS) - 1)]


def evolve(state: CampaignState, event: CampaignEventType) -> None:
    """Fold one event into ``state`` (in place)."""
    state.version += 1
    if isinstance(event, CampaignCreated):
        state.created = event
    elif isinstance(event, CampaignGameStarted):
        state.games.append(event)
    elif isinstance(event, CampaignGameRecorded):
        state.results.append(event)
        if event.won:
            state.wins += 1
            state.beaten.append(state.games[event.number - 1].civ_nation)
            if event.change == "add":
                state.deck_added.append(event.card)
            elif event.change == "remove":
                state.deck_removed.append(event.card)
        else:
            state.losses += 1
        if event.unrest_removed:
            state.unrest_removed.append(event.unrest_removed)
        if event.unrest_returned in state.unrest_removed:
            state.unrest_removed.remove(event.unrest_returned)
    elif isinstance(event, CampaignEnded):
        state.ended = event


def create(campaign_id: str, player: str, nation: str, mode: str = "standard",
           side: str = "B", box: str = "", bonus: bool = False,
           nations: tuple[str, ...] = (),
           boxes: tuple[str, ...] = ()) -> list[CampaignEventType]:  # fmt: skip
    """Start a campaign (``nations``: the playable nation keys, to check ``nation``;
    ``boxes``: the common cards' boxes, to check ``box``)."""
    if not campaign_id.startswith(ID_PREFIX):
        raise CampaignError("BAD_ID", f"a campaign id begins with {ID_PREFIX!r}")
    if not player.strip():
        raise CampaignError("NO_PLAYER", "name the player")
    if nations and nation not in nations:
        raise CampaignError("NATION", f"unknown nation {nation!r}")
    if mode not in MODES:
        raise CampaignError("MODE", f"mode is one of {', '.join(MODES)}")
    if side not in ("A", "B"):
        raise CampaignError("SIDE", "side is A or B")
    if boxes and box and box not in boxes:
        raise CampaignError("BOX", f"box is one of {', '.join(boxes)} (or empty: by the nations)")
    return [CampaignCreated(campaign_id=campaign_id, player=player.strip(), nation=nation,
                            mode=mode, side=side, box=box, bonus=bonus)]  # fmt: skip


def game_options(state: CampaignState, civ_nation: str) -> dict[str, object]:
    """The Imperium options of the campaign's next game against ``civ_nation``."""
    info = state.info
    options: dict[str, object] = {
        "nations": [info.nation],
        "sides": [info.side],
        "civ_nation": civ_nation,
        "difficulty": state.level(),
        "campaign_id": info.campaign_id,
    }
    if info.box:
        options["box"] = info.box
    if info.mode == "supreme":
        options["supreme_master"] = True
    if state.deck_added:
        options["deck_added"] = list(state.deck_added)
    if state.deck_removed:
        options["deck_removed"] = list(state.deck_removed)
    if info.bonus:
        options["bonus_tokens"] = list(BONUS_TOKENS)
    if state.unrest_removed:
        options["unrest_removed"] = list(state.unrest_removed)
    return options


def start_game(
    state: CampaignState, civ_nation: str, nations: tuple[str, ...] = ()
) -> list[CampaignEventType]:
    """Start the next game against ``civ_nation`` (``nations``: the nation keys, to check it)."""
    info = state.info
    if nations and civ_nation not in nations:
        raise CampaignError("CIV_NATION", f"unknown nation {civ_nation!r}")
    if state.ended is not None:
        raise CampaignError("CAMPAIGN_OVER", "the campaign is over")
    if state.current is not None:
        raise CampaignError("GAME_IN_PROGRESS", f"record {state.current.game_id} first")
    if civ_nation == info.nation:
        raise CampaignError("CIV_NATION", "the C.I.V. plays another nation than yours")
    if civ_nation in state.beaten:
        raise CampaignError("CIV_NATION", f"{civ_nation} was already beaten in this campaign")
    number = len(state.games) + 1
    return [CampaignGameStarted(number=number, game_id=f"{info.campaign_id}-g{number}",
                                civ_nation=civ_nation, level=state.level(),
                                options=game_options(state, civ_nation))]  # fmt: skip


def record_result(state: CampaignState, score: int, civ_score: int, won: bool, date: str,
                  change: str = "", card: str = "", gained: tuple[str, ...] = (),
                  starting: tuple[str, ...] = (), last_hash: str = "",
                  unrest: tuple[str, ...] = ()) -> list[CampaignEventType]:  # fmt: skip
    """Record the current game's result. After a win, ``change`` is ``add`` (``card`` among
    ``gained``: non-fame cards gained during the game) or ``remove`` (``card`` among
    ``starting``: the starting deck of that game); after a loss there is no change.
    Maître suprême (``unrest``: the common unrest cards of the game, in order): a win removes
    the first one not yet removed, a loss puts the last removed one back."""
    game = state.current
    if game is None:
        raise CampaignError("NO_CAMPAIGN_GAME", "no campaign game is waiting for its result")
    if won and change not in ("add", "remove"):
        raise CampaignError("CHANGE", "after a win, add a card to the deck or remove one")
    if won and change == "add" and card not in gained:
        raise CampaignError("CARD", f"{card!r} is not a non-fame card gained in the game")
    if won and change == "remove" and card not in starting:
        raise CampaignError("CARD", f"{card!r} is not in the starting deck")
    if not won and (change or card):
        raise CampaignError("CHANGE", "no deck change after a loss")
    removed = returned = ""
    if state.info.mode == "supreme":
        if won:
            removed = next((c for c in unrest if c not in state.unrest_removed), "")
        elif state.unrest_removed:
            returned = state.unrest_removed[-1]
    events: list[CampaignEventType] = [CampaignGameRecorded(
        number=game.number, game_id=game.game_id, score=score, civ_score=civ_score, won=won,
        date=date, change=change, card=card, last_hash=last_hash, unrest_removed=removed,
        unrest_returned=returned)]  # fmt: skip
    wins, losses = state.wins + int(won), state.losses + int(not won)
    if wins >= WINS_NEEDED or losses >= LOSSES_ENDING:
        events.append(CampaignEnded(won=wins >= WINS_NEEDED, wins=wins, losses=losses))
    return events


def replay(events: list[CampaignEventType]) -> CampaignState:
    """Fold ``events`` after checking each against the decisions: every game's options are
    re-derived from the state before it (raises :class:`CampaignError` on a mismatch)."""
    state = CampaignState()
    for event in events:
        if isinstance(event, CampaignGameStarted):
            expected = start_game(state, event.civ_nation)[0]
            if expected != event:
                raise CampaignError(
                    "TAMPERED", f"game {event.number}: its options are not the campaign's"
                )
        done = state.wins >= WINS_NEEDED or state.losses >= LOSSES_ENDING
        if isinstance(event, CampaignEnded) and (state.ended is not None or not done):
            raise CampaignError("TAMPERED", "the campaign end does not follow its results")
        if not isinstance(event, CampaignEnded) and state.ended is not None:
            raise CampaignError("TAMPERED", "events after the campaign's end")
        if isinstance(event, CampaignGameRecorded) and (
            state.current is None or state.current.number != event.number
        ):
            raise CampaignError("TAMPERED", f"result of game {event.number} out of order")
        evolve(state, event)
    return state
