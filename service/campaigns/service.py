"""Campaigns on the event store: create, start the next game, record its result, export,
verify.

:class:`CampaignService` is the application layer of Imperium solo campaigns (the gRPC
``CampaignService`` and the CLI call it); the rules are in :mod:`domain.campaign`.

Storage, as tournaments: the campaign's events live in the games' database in their own
recorder (``purpose="campaigns"``, stream id ``campaign-…``), each in an
:class:`~domain.core.envelope.Envelope` of the same SHA-256 hash chain as game events (ruleset
``annales.campaign/1``, seat ``-1``). Each campaign game is an ordinary one-seat Imperium game
with the id ``{campaign id}-g{n}``, whose options come from the campaign's state
(:func:`domain.campaign.engine.game_options`); its seat token is returned once, only its hash
is stored.

Results are never typed in: :meth:`CampaignService.record` reads the finished game (scores,
winner, the cards the human gained, the starting deck) and binds the result to the game's
last hash. The date is the service's clock (UTC date).

A campaign record (:meth:`CampaignService.export`) is JSON lines: a header, then every
envelope with its event as data. :func:`verify_record` checks it offline: the hash chain, each
payload against its readable form, and every game's options re-derived from the events before
it; any edit is reported.
"""

from __future__ import annotations

import base64
import datetime
import json
import secrets
import threading
from dataclasses import dataclass
from typing import Any

import msgspec
from eventsourcing.persistence import IntegrityError
from eventsourcing.persistence import StoredEvent as RecordedEvent

from domain.campaign import engine
from domain.campaign.deck import deck_change_candidates
from domain.campaign.engine import CampaignError, CampaignState
from domain.campaign.events import (
    CAMPAIGN_RULESET,
    SCHEMA,
    CampaignEventType,
    CampaignGameStarted,
    decode_event,
    encode_event,
)
from domain.core.envelope import (
    GENESIS,
    SYSTEM_SEAT,
    Envelope,
    decode_envelope,
    encode_envelope,
    seal,
    verify_link,
)
from domain.core.match import Match
from domain.imperium import content as C
from service.app.application import GameService
from service.app.errors import GameNotFound, ServiceError
from service.app.tokens import new_tokens, token_hash

RECORD_FORMAT = "annales.campaign-record/1"


class CampaignNotFound(GameNotFound):
    """No campaign with that id."""

    reason = "CAMPAIGN_NOT_FOUND"


class CampaignRejected(ServiceError):
    """A refused campaign operation; ``reason``/``code`` is the campaign rule's code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message, code)
        self.code = code


@dataclass(frozen=True)
class StartedGame:
    """A campaign game just created: its id, number, options and the human's seat token."""

    game_id: str
    number: int
    level: str
    civ_nation: str
    token: str


class CampaignService:
    """Campaigns stored beside the games of a :class:`GameService`."""

    def __init__(self, games: GameService) -> None:
        self.games = games
        self.store = games.store
        self.log: Any = self.store.factory.aggregate_recorder(purpose="campaigns")
        self._lock = threading.RLock()

    # -- the log ------------------------------------------------------------------------
    def envelopes(self, campaign_id: str) -> list[Envelope]:
        """The campaign's envelopes, in order (raises ``CampaignNotFound``)."""
        records = self.log.select_events(campaign_id)
        if not records:
            raise CampaignNotFound(f"No campaign with id {campaign_id!r}.")
        return [decode_envelope(bytes(r.state)) for r in records]

    def state(self, campaign_id: str) -> CampaignState:
        """The campaign folded from its stored events."""
        state = CampaignState()
        for envelope in self.envelopes(campaign_id):
            engine.evolve(state, decode_event(envelope.kind, envelope.payload))
        return state

    def _append(self, campaign_id: str, version: int, events: list[CampaignEventType]) -> None:
        last = self.log.select_events(campaign_id, desc=True, limit=1)
        prev = decode_envelope(bytes(last[0].state)).hash if last else GENESIS
        records = []
        for offset, event in enumerate(events, start=1):
            kind, payload = encode_event(event)
            envelope = seal(game_id=campaign_id, seq=version + offset,
                            command_id=f"campaign-{version + offset}", seat=SYSTEM_SEAT,
                            ruleset=CAMPAIGN_RULESET, schema=SCHEMA, kind=kind,
                            payload=payload, prev_hash=prev)  # fmt: skip
            prev = envelope.hash
            records.append(RecordedEvent(campaign_id, version + offset, kind,
                                         encode_envelope(envelope)))  # fmt: skip
        try:
            self.log.insert_events(records)
        except IntegrityError as error:
            raise CampaignRejected(
                "CAMPAIGN_CONFLICT", f"Campaign {campaign_id} moved on; retry."
            ) from error

    def _decide(self, campaign_id: str, decide: Any) -> list[CampaignEventType]:
        with self._lock:
            state = self.state(campaign_id) if campaign_id else CampaignState()
            try:
                events: list[CampaignEventType] = decide(state)
            except CampaignError as error:
                raise CampaignRejected(error.code, error.message) from error
            self._append(campaign_id or events[0].campaign_id, state.version, events)  # type: ignore[union-attr]
            return events

    # -- operations ---------------------------------------------------------------------
    def create(self, player: str, nation: str, mode: str = "standard", side: str = "B",
               box: str = "", after: str = "", campaign_id: str = "") -> CampaignState:  # fmt: skip
        """A new campaign; ``after``: the player's previous campaign — lost, it gives this one
        twice the starting resources ("MODE CAMPAGNE")."""
        bonus = False
        if after:
            previous = self.state(after)
            if previous.ended is None:
                raise CampaignRejected("CAMPAIGN_NOT_OVER", f"campaign {after} is not over")
            bonus = not previous.ended.won
        campaign_id = campaign_id or engine.ID_PREFIX + secrets.token_hex(8)
        if self.log.select_events(campaign_id, limit=1):
            raise CampaignRejected("CAMPAIGN_EXISTS", f"campaign {campaign_id} exists")
        self._decide("", lambda s: engine.create(campaign_id, player, nation, mode, side, box,
                                                 bonus, C.ALL_NATIONS, C.BOXES))  # fmt: skip
        return self.state(campaign_id)

    def start_next(self, campaign_id: str, civ_nation: str = "",
                   seed: bytes | None = None) -> StartedGame:  # fmt: skip
        """Create the next game against ``civ_nation`` (empty: the first nation, in the
        content's order, neither the player's nor beaten)."""
        with self._lock:
            state = self.state(campaign_id)
            if not civ_nation:
                allowed = [n for n in C.ALL_NATIONS
                           if n != state.info.nation and n not in state.beaten]  # fmt: skip
                civ_nation = allowed[len(state.games) % len(allowed)]
            events = self._decide(
                campaign_id, lambda s: engine.start_game(s, civ_nation, C.ALL_NATIONS)
            )
            started = events[0]
            assert isinstance(started, CampaignGameStarted)
            self.games.create_game("imperium", dict(started.options), [state.info.player],
                                   seed=seed, game_id=started.game_id)  # fmt: skip
            token = new_tokens(started.game_id, 1)[0]
            self.store.save_token_hashes(started.game_id, [token_hash(token)])
            return StartedGame(started.game_id, started.number, started.level,
                               started.civ_nation, token)  # fmt: skip

    def candidates(self, campaign_id: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """For the finished current game: the non-fame cards the human gained (may be added)
        and its starting deck (may lose a card)."""
        state = self.state(campaign_id)
        game = state.current
        if game is None:
            raise CampaignRejected("NO_CAMPAIGN_GAME", "no campaign game is waiting for its result")
        return _candidates(state, self.games.head(game.game_id))

    def deck_change_offer(
        self, campaign_id: str, state: CampaignState | None = None
    ) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The cards that :meth:`record` accepts to add and to remove, while the current game
        is over and won; two empty tuples otherwise (no game waiting, not over, or lost).
        ``state``: the campaign already folded by the caller (read again when omitted)."""
        state = state if state is not None else self.state(campaign_id)
        game = state.current
        if game is None:
            return (), ()
        match = self.games.head(game.game_id)
        outcome = match.game.outcome(match.state)
        if outcome is None or not outcome.winners:
            return (), ()
        return _candidates(state, match)

    def record(self, campaign_id: str, change: str = "", card: str = "") -> CampaignState:
        """Record the current game's result, read from the finished game."""
        with self._lock:
            state = self.state(campaign_id)
            game = state.current
            if game is None:
                raise CampaignRejected(
                    "NO_CAMPAIGN_GAME", "no campaign game is waiting for its result"
                )
            match = self.games.head(game.game_id)
            outcome = match.game.outcome(match.state)
            if outcome is None:
                raise CampaignRejected("GAME_NOT_FINISHED", f"game {game.game_id} is not over")
            civ = match.game.parties(match.state)[0]
            gained, starting = _candidates(state, match)
            last_hash = self.store.read(game.game_id, after=match.version - 1)[-1].hash
            date = datetime.datetime.now(datetime.UTC).date().isoformat()
            unrest = tuple(c for c in C.COMMON_UNREST if C.in_game(C.CARDS[c], 2))
            self._decide(campaign_id, lambda s: engine.record_result(
                s, outcome.scores[0], civ.score, bool(outcome.winners), date, change, card,
                gained, starting, last_hash, unrest))  # fmt: skip
            return self.state(campaign_id)

    def export(self, campaign_id: str) -> list[bytes]:
        """The campaign record: JSON lines (header, then each envelope and its event)."""
        envelopes = self.envelopes(campaign_id)
        lines = [json.dumps({"format": RECORD_FORMAT, "campaign_id": campaign_id,
                             "events": len(envelopes)}, sort_keys=True).encode()]  # fmt: skip
        for e in envelopes:
            event = msgspec.to_builtins(decode_event(e.kind, e.payload))
            lines.append(json.dumps({
                "seq": e.seq, "command_id": e.command_id, "ruleset": e.ruleset,
                "schema": e.schema, "kind": e.kind,
                "payload": base64.b64encode(e.payload).decode(), "prev_hash": e.prev_hash,
                "hash": e.hash, "event": event}, sort_keys=True).encode())  # fmt: skip
        return lines


def verify_record(lines: list[bytes]) -> tuple[bool, list[str], CampaignState | None]:
    """Check a campaign record offline: ``(ok, problems, state)``."""
    problems: list[str] = []
    try:
        header = json.loads(lines[0])
        rows = [json.loads(line) for line in lines[1:] if line.strip()]
    except (ValueError, IndexError) as error:
        return False, [f"unreadable record: {error}"], None
    if not isinstance(header, dict) or not all(isinstance(row, dict) for row in rows):
        return False, ["unreadable record: its lines must be JSON objects"], None
    if header.get("format") != RECORD_FORMAT or header.get("events") != len(rows):
        problems.append("bad header (format or event count)")
    prev, events = GENESIS, []
    for row in rows:
        try:
            envelope = Envelope(header["campaign_id"], row["seq"], row["command_id"], SYSTEM_SEAT,
                                row["ruleset"], row["schema"], row["kind"],
                                base64.b64decode(row["payload"]), row["prev_hash"],
                                row["hash"])  # fmt: skip
            event = decode_event(envelope.kind, envelope.payload)
            linked = verify_link(envelope, prev)
        except (KeyError, TypeError, ValueError, AttributeError, msgspec.DecodeError) as error:
            problems.append(f"event {row.get('seq')}: unreadable ({error})")
            break
        if not linked:
            problems.append(f"event {envelope.seq}: broken hash chain")
        if msgspec.to_builtins(event) != row.get("event"):
            problems.append(f"event {envelope.seq}: readable form differs from the payload")
        prev = envelope.hash
        events.append(event)
    try:
        state = engine.replay(events)
    except CampaignError as error:
        return False, [*problems, error.message], None
    return not problems, problems, state


def _candidates(state: CampaignState, match: Match) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The deck change the finished game ``match`` of the campaign ``state`` offers."""
    return deck_change_candidates(state, match.state.seats[0], match.state.revision)
